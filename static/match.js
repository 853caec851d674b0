// The match board: draws the table from what GET /api/matches/<id>/ returns (the engine's view for this seat and
// the printed board facts), lets the player choose by pointing at the table or from the drawer, tries each choice of
// a turn on the server (POST .../preview/, nothing stored) so it can be undone, sends the turn once confirmed (all its
// choices in one POST .../turns/, stored together or not at all), and
// hears of other players' moves over a socket the moment they are stored (static/push.js), polling every few seconds
// only while that socket is down (and every half minute besides, and on focus). Moves that others made since the page last looked
// (a bot's whole turn arrives within a second) are shown one by one, on the board and in the log, before the table
// as it is now; Skip (or Escape) jumps to the end, and with reduced motion asked for they are not stepped through.
(function () {
  "use strict";
  const root = document.getElementById("match");
  if (!root) return;
  const API = root.dataset.api;
  const PREVIEW = root.dataset.preview;
  const TURNS = root.dataset.turns;
  const POLL_MS = Number(root.dataset.pollMs) || 4000;  // settings.MATCH_POLL_MS
  const VOCABULARY = JSON.parse(document.getElementById("wyrmdex-vocabulary").textContent);  // base.html
  const CAVES = VOCABULARY.caves.map((cave) => VOCABULARY.cave_names[cave]);
  const RESOURCES = VOCABULARY.resources;
  const KIND_NAMES = {
    pass: "Pass", excavate: "Excavate", entice: "Entice", explore: "Explore", exchange: "Exchange",
    discard_cards: "Cards to discard", resources: "Starting resources",
  };
  const ICON_NAMES = {"any-resource": "any resource", any_resource: "any resource"};
  const REASONS = {
    reveal: "This choice brings something hidden to light, so it cannot be taken back.",
    turn_over: "This ends your turn.",
    other_player: "Another player answers next.",
    game_over: "This ends the game.",
  };
  // A prompt as a sentence: a full stop added unless it already ends in one (a question keeps its "?", never "?.")
  const sentence = (text) => (/[.?!]$/.test(text) ? text : `${text}.`);
  let data = null;       // the match as the server last sent it
  let busy = false;
  let stamp = "";
  let staged = [];       // options chosen this turn and not sent yet
  let preview = null;    // the server's answer for `staged`
  let selected = null;   // a hand card picked up: {type, index}
  let opponentShown = null;
  let replay = null;     // a step of the replay viewer: {number, last, view, cards, entry}
  let missed = false;    // a change was heard while the page could not look: look once it can
  let catching = null;   // others' moves being shown one by one: {upTo, skip}; `replay` holds the step shown
  const STEP_MS = 450;   // how long each of those moves stays on the board
  const MAX_STEPS = 15;
  const SAFETY_MS = 30000;  // with the socket up, the poll still looks this often, should a push go astray  // more new moves than this (a player back after a while): the log marks them instead
  const SEEN_KEY = `wyrmdex-seen-${root.dataset.api}`;
  let seenBefore = null; // the last decision this browser showed at an earlier visit

  const T = window.WyrmdexTable;  // static/table.js: the table's pieces, shared with the analysis board
  const {el, fill, plural, pic} = T;

  function icon(name, count) {
    return el("span", {class: "match-item", title: name},
      el("span", {class: "icon icon-" + name, "aria-hidden": "true"}), `${count} ${name}`);
  }

  function chips(items, sign) {
    return Object.entries(items || {}).filter(([, n]) => n).map(([item, n]) =>
      el("span", {class: "match-chip match-chip-" + (sign === "-" ? "cost" : "gain")},
        `${sign}${n}`, pic(item.replace("_", "-"), `${n} ${ICON_NAMES[item] || item}`)));
  }

  function costLine(option) {
    const cost = chips(option.cost, "-");
    const gain = chips(option.gain, "+");
    if (!cost.length && !gain.length) return null;
    return el("span", {class: "match-costs"}, cost, gain);
  }

  // The cost and gain of the options at one place on the table, when they are the same for all of them (when they
  // differ, choosing there asks which, each with its own).
  function sharedCost(options) {
    if (!options.length) return null;
    const key = (o) => JSON.stringify([o.cost || {}, o.gain || {}]);
    return options.every((o) => key(o) === key(options[0])) ? costLine(options[0]) : null;
  }

  // The Automa has no seat row (nobody sits for her); the engine's view names her seat in its "automa" part.
  const AUTOMA_NAME = "The Automa";

  function automa() {
    const v = view();
    return v && v.automa ? v.automa : null;
  }

  function isAutoma(seat) {
    const a = automa();
    return Boolean(a) && seat === a.seat;
  }

  function playerName(seat) {
    if (isAutoma(seat)) return AUTOMA_NAME;
    const found = data.seats.find((s) => s.seat === seat);
    const name = found ? found.user : `Player ${seat + 1}`;
    return seat === data.your_seat ? `${name} (you)` : name;
  }

  function shortName(seat) {
    if (isAutoma(seat)) return "Automa";
    const found = data.seats.find((s) => s.seat === seat);
    return found ? found.user : `P${seat + 1}`;
  }

  function marker(seat) {
    return el("span", {class: `match-marker match-seat-${seat}`, title: shortName(seat)}, shortName(seat).slice(0, 2));
  }

  // -- what the page shows now: the previewed turn while one is being tried, else the server's match ----------

  function view() {
    if (replay) return replay.view;
    return preview && preview.open ? preview.view : data.view;
  }

  function cards() {
    return replay ? replay.cards : data.cards;
  }

  function myOptions() {
    const v = view();
    // A match that is over offers nothing, even should it have stopped at a question (a resignation, a timeout).
    if (data.status !== "playing") return [];
    if (replay || !v || !v.pending || v.pending.player !== data.your_seat || !v.pending.options) return [];
    if (preview && !preview.open) return [];
    const mine = data.seats.find((s) => s.seat === data.your_seat);
    if (mine && (mine.out || mine.controller === "bot")) return [];
    return v.pending.options;
  }

  function sameTarget(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  function optionsAt(test) {
    return myOptions().filter((o) => o.target && test(o.target));
  }

  // -- cards -------------------------------------------------------------------------------------------------

  // What static/table.js needs to draw the shared table: the view shown, and how a click there chooses.
  function tableContext() {
    return {
      view: view(), board: data.board, cards: cards(), guildRows: data.guild_rows || [],
      guildComplete: data.guild_complete, objectiveTexts: data.objective_texts || [],
      marker, shortName, playerName, automaName: AUTOMA_NAME,
      square: (row, sq) => {
        const target = optionsAt((t) => t.guild && t.guild[0] === row && t.guild[1] === sq);
        return target.length ? {label: target[0].label, onclick: () => pointAt(target), extra: sharedCost(target)} : null;
      },
      displayExtra: (type, i) => {
        const opts = optionsAt((t) => t.display && t.display[0] === type && t.display[1] === i);
        return opts.length ? el("button", {type: "button", class: "match-pick match-target", "data-take": `${type}:${i}`,
          onclick: () => pointAt(opts)}, "Take this card", sharedCost(opts)) : null;
      },
    };
  }

  function dragonCard(index, extra) {
    return T.dragonCard(tableContext(), index, extra);
  }

  function caveCard(index, extra) {
    return T.caveCard(tableContext(), index, extra);
  }

  // -- the mat -----------------------------------------------------------------------------------------------

  function spaceBody(sp, column) {
    const excavated = column === 0 || sp.cave_card !== null;
    const bits = [];
    if (sp.dragon !== null) {
      const card = cards().dragons[sp.dragon];
      bits.push(el("span", {class: "match-space-dragon", title: card ? card.text : ""},
        card ? card.name : `Dragon #${sp.dragon}`));
      const marks = [];
      if (sp.eggs) marks.push(el("span", {class: "match-item"}, pic("egg", `${sp.eggs} eggs`), `${sp.eggs}`));
      for (const [res, n] of Object.entries(sp.cached)) marks.push(el("span", {class: "match-item"}, pic(res, `${n} ${res} cached`), `${n}`));
      if (sp.tucked) marks.push(el("span", {class: "match-item", title: `${sp.tucked} tucked`}, pic("card", "tucked cards"), `${sp.tucked}`));
      if (sp.training_tokens) marks.push(el("span", {class: "match-item"}, `${sp.training_tokens} trained`));
      if (sp.grown_up) marks.push(el("span", {class: "match-item"}, "grown up"));
      if (card) marks.push(el("span", {class: "match-item match-space-cap", title: `room for ${card.capacity} eggs`}, `/${card.capacity}`));
      bits.push(el("div", {class: "match-space-marks"}, marks));
    } else if (excavated) {
      bits.push(el("span", {class: "match-space-empty"}, "empty"));
    } else {
      const eggs = data.board ? data.board.excavate_eggs[column] : 0;
      bits.push(el("span", {class: "match-space-empty"}, "to excavate",
        eggs ? el("span", {class: "match-space-price", title: `excavating costs ${eggs} egg${eggs === 1 ? "" : "s"}`},
          " ", pic("egg", "egg"), `${eggs}`) : null));
    }
    if (sp.cave_card !== null) {
      const cave = cards().caves[sp.cave_card];
      bits.push(el("div", {class: "match-space-cave", title: cave ? cave.text : ""}, `cave card ${cave ? cave.number : ""}`));
    }
    return bits;
  }

  function space(pl, sp, column, mine) {
    const excavated = column === 0 || sp.cave_card !== null;
    const cls = "match-space" + (excavated ? "" : " match-space-closed") + (sp.dragon !== null ? " match-space-full" : "");
    const targets = mine ? optionsAt((t) => t.space === sp.index && (!t.hand || (selected && t.hand[0] === selected.type
      && t.hand[1] === selected.index))) : [];
    const pointable = targets.filter((o) => !o.target.hand || selected);
    if (pointable.length) {
      return el("button", {type: "button", class: cls + " match-target", "data-space": sp.index,
        "aria-label": `${CAVES[Math.floor(sp.index / 4)]} space ${column + 1}: ` + pointable.map((o) => o.label).join(" or "),
        onclick: () => pointAt(pointable)}, spaceBody(sp, column), sharedCost(pointable));
    }
    return el("div", {class: cls, "data-space": sp.index}, spaceBody(sp, column));
  }

  function mat(pl, mine) {
    const board = data.board;
    const rows = [0, 1, 2].map((cave) => {
      const facts = board ? board.mat[cave] : null;
      const explores = mine ? optionsAt((t) => t.cave === cave) : [];
      const visits = pl.explored[cave];
      const head = el("div", {class: "match-cave-name"}, CAVES[cave],
        el("span", {class: "match-explored", title: "explores of this cave this round"}, ` · explored ${visits}×`),
        explores.length ? el("button", {type: "button", class: "match-explore match-target", "data-explore": cave,
          onclick: () => pointAt(explores)}, "Explore ", costLine(explores[0])) : null);
      const path = [];
      for (let col = 0; col < 4; col += 1) {
        path.push(T.printed(facts && facts.before[col], `before space ${col + 1}`));
        path.push(space(pl, pl.mat[cave * 4 + col], col, mine));
      }
      path.push(T.printed(facts && facts.end, "end of the cave"));
      return el("div", {class: `match-cave match-cave-${cave}`}, head, el("div", {class: "match-path"}, path));
    });
    const nestTargets = mine ? optionsAt((t) => t.nest) : [];
    const nest = nestTargets.length
      ? el("button", {type: "button", class: "match-nest match-target", onclick: () => pointAt(nestTargets)},
        pic("nest", "nests"), ` mat nests: ${pl.nest_eggs} egg${pl.nest_eggs === 1 ? "" : "s"}`, sharedCost(nestTargets))
      : el("span", {class: "match-nest"}, pic("nest", "nests"), ` mat nests: ${pl.nest_eggs} egg${pl.nest_eggs === 1 ? "" : "s"}`);
    return el("div", {class: "match-mat"}, rows, nest);
  }

  function supply(pl) {
    return T.supply(tableContext(), pl);
  }

  function playerPanel(pl, v, mine) {
    const turn = data.status === "playing" && v.pending && v.pending.player === pl.seat;
    return [
      el("h2", {}, marker(pl.seat), " ", playerName(pl.seat),
        turn ? el("span", {class: "match-turn"}, " · choosing now") : null,
        pl.passed ? el("span", {class: "match-passed"}, " · passed") : null),
      supply(pl),
      mat(pl, mine),
    ];
  }

  function hand(me) {
    const cards = [];
    const setup = setupDiscard();
    for (const d of me.hand) {
      const opts = optionsAt((t) => t.hand && t.hand[0] === "dragon" && t.hand[1] === d);
      cards.push(discardable(setup, "dragon", d,
        dragonCard(d, setup ? discardButton(setup, "dragon", d) : opts.length ? pickButton("dragon", d, opts) : null)));
    }
    for (const c of me.cave_cards) {
      const opts = optionsAt((t) => t.hand && t.hand[0] === "cave" && t.hand[1] === c);
      cards.push(discardable(setup, "cave", c,
        caveCard(c, setup ? discardButton(setup, "cave", c) : opts.length ? pickButton("cave", c, opts) : null)));
    }
    return cards;
  }

  function pickButton(type, index, opts) {
    const on = selected && selected.type === type && selected.index === index;
    const what = type === "dragon" ? "Entice" : "Excavate with";
    return el("button", {type: "button", class: "match-pick" + (on ? " match-picked" : ""), "data-pick": `${type}:${index}`,
      "aria-pressed": on ? "true" : "false",
      onclick: () => { selected = on ? null : {type, index}; draw(); if (!on) focusFirstTarget(); }},
      on ? "Now tap a lit space (or here to put it back)" : `${what}… (${opts.length} place${opts.length === 1 ? "" : "s"})`,
      on ? null : sharedCost(opts));
  }

  function focusFirstTarget() {
    const first = document.querySelector("#you .match-space.match-target");
    if (first) first.focus({preventScroll: false});
  }

  // -- phone play (issue 33 item 7): setup by tapping the cards to discard, and auto-confirm ------------------
  // The setup question (kind "setup_keep") offers every set of dealt cards to discard as one "discard_cards" option
  // whose args are the cards, ["dragon", 13, "cave", 34]. Each card in hand becomes a switch; once as many are
  // switched on as the question drops (its data's "drop"), the option with exactly those cards is chosen as if its
  // button were pressed (tried, then Send). Tapping a chosen card again takes the choice back. The list of options
  // stays in the drawer, folded. Decided on the question's kind and the options' args, never on words.

  const AUTOCONFIRM_KEY = "wyrmdex-autoconfirm";
  let discarding = [];   // the cards switched on: ["dragon", 13] pairs
  let discardAt = null;  // the version they were switched on at: a new question starts afresh

  function setupDiscard() {
    if (replay || catching || !data || data.status !== "playing") return null;
    const pending = data.view && data.view.pending;
    if (!pending || pending.kind !== "setup_keep" || pending.player !== data.your_seat || !pending.options) return null;
    const mine = data.seats.find((s) => s.seat === data.your_seat);
    if (mine && (mine.out || mine.controller === "bot")) return null;
    const drop = Number(pending.data && pending.data.drop);
    const options = pending.options.filter((o) => o.kind === "discard_cards");
    if (!drop || !options.length) return null;
    // Beyond a staged discard (tried, waiting for Send) the turn has moved on to another question: no switches then.
    if (staged.length > 1 || (staged.length === 1 && staged[0].kind !== "discard_cards")) return null;
    if (preview && preview.open) return null;  // the next question is already this player's: Undo takes it back
    if (discardAt !== data.version) {
      discarding = [];
      discardAt = data.version;
    }
    if (staged.length === 1) discarding = cardsOf(staged[0]);
    return {drop, options};
  }

  function cardsOf(option) {
    const list = [];
    for (let i = 0; i + 1 < option.args.length; i += 2) list.push([option.args[i], option.args[i + 1]]);
    return list;
  }

  const cardKey = ([type, index]) => `${type}:${index}`;

  function isDiscarding(type, index) {
    return discarding.some((c) => c[0] === type && c[1] === index);
  }

  function discardable(setup, type, index, card) {
    if (setup && isDiscarding(type, index)) card.classList.add("match-discarding");
    return card;
  }

  function discardButton(setup, type, index) {
    const on = isDiscarding(type, index);
    const full = discarding.length >= setup.drop;
    return el("button", {type: "button", class: "match-discard-pick", "data-discard": `${type}:${index}`,
      "aria-pressed": on ? "true" : "false", disabled: !on && full && staged.length ? true : null,
      onclick: () => toggleDiscard(setup, type, index)},
      on ? "Discarded: tap to keep it" : "Discard this card");
  }

  async function toggleDiscard(setup, type, index) {
    if (busy) return;
    showError("");
    if (isDiscarding(type, index)) {
      discarding = discarding.filter((c) => !(c[0] === type && c[1] === index));
      if (staged.length) {  // the discard was chosen: take it back
        staged = [];
        preview = null;
      }
      draw();
      return;
    }
    if (discarding.length >= setup.drop) return;
    discarding = discarding.concat([[type, index]]);
    if (discarding.length < setup.drop) {
      draw();
      return;
    }
    const wanted = discarding.map(cardKey).sort().join(",");
    const option = setup.options.find((o) => cardsOf(o).map(cardKey).sort().join(",") === wanted);
    if (option) await choose(option);
    else draw();
  }

  function setupCount(setup) {
    const left = setup.drop - discarding.length;
    return el("p", {class: "match-discard-count", id: "discard-count"}, left > 0
      ? `Tap the ${plural(setup.drop, "card")} in your hand to discard (${discarding.length} of ${setup.drop} chosen), or choose from the list.`
      : `${plural(setup.drop, "card")} chosen to discard.`);
  }

  function autoConfirm() {
    try {
      return window.localStorage && localStorage.getItem(AUTOCONFIRM_KEY) === "on";
    } catch (err) {
      return false;
    }
  }

  // Kept in this browser (localStorage): a phone may want it and a desktop not; nothing else needs to know.
  const autoBox = document.getElementById("autoconfirm");
  if (autoBox) {
    autoBox.checked = autoConfirm();
    autoBox.addEventListener("change", () => {
      try {
        localStorage.setItem(AUTOCONFIRM_KEY, autoBox.checked ? "on" : "off");
      } catch (err) { /* private mode: the switch holds for this page only */ }
      if (autoBox.checked && preview && !preview.open && staged.length) sendTurn();
    });
  }
  const autoOn = () => (autoBox ? autoBox.checked : false);

  // -- the shared table: round tracker, guild, display -------------------------------------------------------

  function renderRound() {
    fill(document.getElementById("round"), T.round(tableContext()));
  }

  function renderGuild() {
    fill(document.getElementById("guild"), T.guild(tableContext()));
  }

  function renderDisplay() {
    fill(document.getElementById("display"), T.display(tableContext()));
  }

  // -- the Automa's side of a solo game: everything of hers that lies open on the table ---------------------
  // Her score is shown as it stands: every part of it (cards she took, her token, her markers, her objective
  // placings, her cache) is in plain sight, so a player at the table could count it at any moment. Her deck's
  // order and the card set aside are not in the view at all (the engine's view_for leaves them out).

  function automaMarker(m, ravel) {
    const [row, square] = m;
    if (row === -1) {  // her END GAME squares score only in Ravel Mode
      const vp = ravel && data.board ? data.board.guild_end_vp[square] : null;
      return `END GAME square ${square + 1}${vp ? ` (${vp} VP)` : ""}`;
    }
    const rows = data.guild_rows || [];
    return rows[row] ? `row ${row + 1}: ${rows[row].text}` : `row ${row + 1}`;
  }

  function renderAutoma(v) {
    const box = document.getElementById("automa");
    if (!box) return;
    const a = v.automa;
    if (!a) {
      fill(box);
      return;
    }
    const places = ["1st", "2nd", "3rd"];
    const dragonNames = a.dragon_cards.map((d) => (cards().dragons[d] || {}).name || `Dragon #${d}`);
    const caveNames = a.cave_cards.map((c) => `cave card ${(cards().caves[c] || {}).number || `#${c}`}`);
    const track = data.board ? data.board.guild_track.length : 0;
    // Her categories in her own words, as the engine names them (automa.score_names): the end table uses them too.
    const score = a.score || {};
    fill(box,
      el("h2", {}, marker(a.seat), ` ${AUTOMA_NAME}`, a.passed ? el("span", {class: "match-passed"}, " · passed") : null),
      el("p", {class: "match-automa-mode", id: "automa-mode"}, `Level ${a.level}`,
        a.ravel ? " · Ravel Mode: some of her guild moves count your most or least excavated cave" : ""),
      el("ul", {class: "match-automa-facts"},
        el("li", {id: "automa-deck"}, `Decision cards this round: ${a.played.length ? `played ${a.played.join(", ")}` : "none played yet"}; `
          + `${plural(a.deck_count, "card")} left in her deck, ${a.set_aside_count} set aside unseen. Her ${a.cards.length}: ${a.cards.join(", ")}.`),
        el("li", {id: "automa-guild"}, pic("guild", "guild"),
          ` Guild token on space ${a.guild_space + 1}${track ? ` of ${track}` : ""} (${plural(a.guild_advancements, "step")} in all).`,
          ` Markers: ${a.guild_markers.length} on the guild tile, ${a.markers_ready} ready, ${a.markers_waiting} waiting on the round tracker.`,
          a.guild_markers.length ? el("ul", {}, a.guild_markers.map((m) => el("li", {}, automaMarker(m, a.ravel)))) : null),
        el("li", {id: "automa-objective"},
          a.objective_count === null || v.result ? "" : `This round's objective: she counts ${a.objective_count} `
            + `(the tile's value for her plus ${plural(a.objective_coins, "coin")} on it). `,
          a.objective_places.length ? `Objectives placed: ${a.objective_places.map((p, i) => `round ${i + 1} ${p ? places[p - 1] : "—"}`).join(", ")}.` : ""),
        el("li", {id: "automa-dragons"}, pic("dragon", "dragon cards"), ` ${plural(a.dragon_cards.length, "dragon card")} taken`,
          dragonNames.length ? `: ${dragonNames.join(", ")}.` : "."),
        el("li", {id: "automa-caves"}, pic("cave", "cave cards"), ` ${plural(a.cave_cards.length, "cave card")} taken`,
          caveNames.length ? `: ${caveNames.join(", ")}.` : "."),
        v.options.academy ? el("li", {id: "automa-cache"}, `Automa's cache: ${plural(a.cache_tokens, "token")}.`,
          a.income_space !== null ? " She passed first: you may not pass onto a 6-income space this round." : "") : null),
      el("p", {class: "match-automa-score", id: "automa-score"}, el("strong", {}, `Her score as it stands: ${score.total || 0} VP`),
        " (", Object.entries(a.score_names || {}).filter(([key]) => score[key]).map(([key, words]) =>
          `${words} ${score[key]}`).join(", ") || "nothing yet", ")."));
  }

  function renderObjectivesNote() {
    fill(document.getElementById("objectives"));
  }

  // -- the drawer: the question, the turn so far, and every option as a button -------------------------------

  function renderDrawer() {
    const text = document.getElementById("prompt-text");
    const box = document.getElementById("options");
    const bar = document.getElementById("turn-bar");
    box.replaceChildren();
    bar.replaceChildren();
    bar.hidden = !staged.length;
    const v = view();
    if (!v) return;
    if (catching) {
      text.textContent = "Showing the moves made since you last looked, one by one.";
      return;
    }
    if (replay) {
      text.textContent = "You are watching the replay; leave it to play on.";
      return;
    }
    const pending = v.pending;
    if (staged.length) {
      bar.append(el("p", {class: "match-staged"}, "This turn so far: ", staged.map((o) => o.label).join("; ") + "."));
      if (preview && !preview.open) {
        bar.append(el("p", {class: "match-note"}, REASONS[preview.reason] || ""));
        bar.append(el("button", {type: "button", class: "match-send", id: "turn-send", onclick: sendTurn},
          staged.length === 1 ? "Send this choice" : `Send these ${staged.length} choices`));
      }
      bar.append(el("button", {type: "button", class: "match-undo", id: "turn-undo", onclick: undo}, "Undo"));
    }
    if (preview && !preview.open) {
      text.textContent = "Confirm your turn.";
      return;
    }
    if (!pending || data.status !== "playing") {
      text.textContent = data.status === "aborted" ? "This match was aborted." : "The game is over.";
      return;
    }
    const options = myOptions();
    if (!options.length) {
      text.textContent = `Waiting for ${playerName(pending.player)}: ${sentence(pending.prompt)}`;
      return;
    }
    text.textContent = `Your turn: ${sentence(pending.prompt)}`;
    if (selected) {
      box.append(el("p", {class: "match-note"}, "Tap a lit space on your mat, or press Escape to put the card back."));
    }
    const groups = new Map();
    for (const option of options) {
      if (!groups.has(option.kind)) groups.set(option.kind, []);
      groups.get(option.kind).push(option);
    }
    const setup = setupDiscard();
    if (setup) box.append(setupCount(setup));
    for (const [kind, group] of groups) {
      const buttons = group.map((option) => el("button", {type: "button", class: "match-option",
        "data-kind": option.kind, "data-args": JSON.stringify(option.args), onclick: () => choose(option)},
        option.label, costLine(option)));
      const wrap = setup && kind === "discard_cards"  // the hand is the way in; the list stays, folded
        ? el("details", {class: "match-option-group", id: "discard-list"},
          el("summary", {}, `Or choose from the list (${group.length})`), buttons)
        : group.length > 6 && groups.size > 1
        ? el("details", {class: "match-option-group"}, el("summary", {}, `${KIND_NAMES[kind] || kind} (${group.length})`), buttons)
        : el("div", {class: "match-option-group"}, groups.size > 1 ? el("h3", {}, KIND_NAMES[kind] || kind) : null, buttons);
      box.append(wrap);
    }
  }

  // -- choosing, trying, undoing and sending ------------------------------------------------------------------

  function pointAt(options) {
    selected = null;
    if (options.length === 1) {
      choose(options[0]);
      return;
    }
    // Several choices at one place (say, which resource to cache there): ask in the drawer.
    const box = document.getElementById("options");
    box.replaceChildren(el("div", {class: "match-option-group"}, el("h3", {}, "Choose one"),
      options.map((option) => el("button", {type: "button", class: "match-option", "data-kind": option.kind,
        "data-args": JSON.stringify(option.args), onclick: () => choose(option)}, option.label, costLine(option))),
      el("button", {type: "button", class: "match-undo", onclick: draw}, "Back")));
    openDrawer();
    const first = box.querySelector("button");
    if (first) first.focus();
  }

  async function post(url, body, extra) {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: Object.assign({"Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken()},
        extra || {}),
      body: JSON.stringify(body),
    });
    return [response, await response.json().catch(() => ({}))];
  }

  function setBusy(on, label) {
    busy = on;
    if (!on && missed) window.setTimeout(() => load(false), 0);
    const spinner = document.getElementById("spinner");
    spinner.hidden = !on;
    if (on) spinner.lastChild.textContent = ` ${label}`;
    root.classList.toggle("match-busy", on);
    for (const button of document.querySelectorAll(".match-option, .match-target, .match-send, .match-undo, .match-pick, .match-discard-pick")) {
      button.disabled = on;
    }
  }

  async function tryStaged(list) {
    const [response, body] = await post(PREVIEW, {version: data.version, options: list.map((o) => ({kind: o.kind, args: o.args}))});
    if (!response.ok) throw new Error(body.detail || `The choice was refused (${response.status}).`);
    return body;
  }

  async function choose(option) {
    if (busy) return;
    showError("");
    selected = null;
    setBusy(true, "Trying your choice…");
    try {
      const next = staged.concat([option]);
      const answer = await tryStaged(next);
      staged = next;
      preview = answer;
    } catch (err) {
      showError(err.message || "The choice could not be tried; check your connection and try again.");
      setBusy(false);
      await load(true);
      return;
    }
    setBusy(false);
    draw();
    if (autoOn() && preview && !preview.open) {  // the turn's last choice: send it at once (issue 33 item 7)
      await sendTurn();
      return;
    }
    const send = document.getElementById("turn-send");
    if (send) send.focus();
  }

  async function undo() {
    if (busy) return;
    showError("");
    selected = null;
    staged = staged.slice(0, -1);
    if (!staged.length) {
      preview = null;
      draw();
      return;
    }
    setBusy(true, "Taking it back…");
    try {
      preview = await tryStaged(staged);
    } catch (err) {
      staged = [];
      preview = null;
      showError(err.message);
    }
    setBusy(false);
    draw();
  }

  async function sendTurn() {
    if (busy || !staged.length) return;
    showError("");
    setBusy(true, "Sending your turn…");
    const list = staged;
    const before = pageKey(data);
    try {
      // The whole turn in one request, each choice at the version it expects: stored all together or not at all.
      const decisions = list.map((option, i) => ({version: data.version + i, option: {kind: option.kind, args: option.args}}));
      // The short answer (the summary): the view is read next, by the poll, so the server builds it once.
      const [response, body] = await post(TURNS, {decisions}, {Prefer: "return=minimal"});
      if (!response.ok) {
        showError(body.detail || `The turn was refused (${response.status}).`);
        staged = [];
        preview = null;
        setBusy(false);
        await load(true);
        return;
      }
      if (pageKey(body) !== before) {
        reloadKeepingError();  // the game ended, or its first move took the abort button away
        return;
      }
      staged = [];
      preview = null;
      await load(true);
      setBusy(false);
      draw();
    } catch (err) {
      showError("The turn could not be sent; check your connection and try again.");
      staged = [];
      preview = null;
      setBusy(false);
      await load(true);
    }
  }

  // -- drawing everything -------------------------------------------------------------------------------------

  function renderLog() {
    const log = document.getElementById("log");
    if (seenBefore === null) {
      // New since the later of what this browser showed last and the player's own last choice (made here or on
      // another device); a spectator's first visit marks nothing.
      const stored = Number(window.localStorage ? localStorage.getItem(SEEN_KEY) : NaN);
      const own = data.your_last_decision;
      if (Number.isFinite(stored) && stored > 0) seenBefore = Math.max(stored, own || 0);
      else seenBefore = own === null || own === undefined ? data.version : own;
    }
    // A move of one's own is never news: once the player has chosen (on this page or another), everything up to
    // that choice was seen, so the turn just sent is not marked "new since your last visit".
    if (Number.isFinite(data.your_last_decision) && data.your_last_decision > seenBefore) seenBefore = data.your_last_decision;
    // The story so far, grouped by turn and round, in the engine's words for this viewer. What happened since the
    // player last saw or played the match is marked, so a returning player sees what is new.
    const fresh = new Set();
    const upTo = catching && replay ? replay.number : Infinity;  // while others' moves are stepped through
    const groups = upTo === Infinity ? data.log : data.log
      .map((group) => ({title: group.title, lines: group.lines.filter((line) => line.decision <= upTo)}))
      .filter((group) => group.lines.length);
    fill(log, ...groups.map((group) => {
      const lines = group.lines.map((line) => {
        const isNew = line.decision > seenBefore;
        if (isNew) fresh.add(line.decision);
        return el("li", {class: isNew ? "match-new" : null, "data-decision": line.decision}, line.text);
      });
      const isNew = group.lines.some((line) => line.decision > seenBefore);
      return el("li", {class: isNew ? "match-new-group" : null}, el("strong", {}, group.title), el("ul", {}, lines));
    }));
    const note = document.getElementById("log-new");
    if (note) note.textContent = fresh.size ? `${plural(fresh.size, "move")} since your last visit (marked).` : "";
    log.scrollTop = log.scrollHeight;
    if (catching) return;  // seen once the last of them is shown
    try { localStorage.setItem(SEEN_KEY, String(data.version)); } catch (err) { /* private mode: no memory */ }
  }

  // -- the replay viewer: the whole match, move by move, on the drawn table -----------------------------------

  async function showStep(number) {
    if (!data || data.version === undefined) return;
    const target = Math.max(0, Math.min(number, data.version));
    try {
      const response = await fetch(`${API}replay/${target}/`, {credentials: "same-origin", headers: {Accept: "application/json"}});
      const body = await response.json().catch(() => ({}));
      if (!response.ok) {
        showError(body.detail || `The replay could not be loaded (${response.status}).`);
        return;
      }
      replay = body;
    } catch (err) {
      showError("The replay could not be loaded; check your connection.");
      return;
    }
    drawReplayBar();
    draw();
  }

  function drawReplayBar() {
    const bar = document.getElementById("replay-bar");
    if (!replay) {
      bar.hidden = true;
      bar.replaceChildren();
      return;
    }
    const n = replay.number;
    if (catching) {
      bar.hidden = false;
      fill(bar,
        el("p", {class: "match-replay-where", id: "catch-up-where", "aria-live": "polite"},
          `Move ${n} of ${catching.upTo}`, replay.entry ? ` · ${playerName(replay.entry.seat)}: ${replay.entry.label}` : ""),
        el("div", {class: "match-replay-controls"},
          el("button", {type: "button", class: "match-replay-step", id: "catch-up-skip",
            onclick: () => { catching.skip = true; }}, "Skip to now")));
      return;
    }
    const step = (to, text, label, id) => el("button", {type: "button", class: "match-replay-step", id,
      "aria-label": label, disabled: to < 0 || to > replay.last || to === n ? true : null,
      onclick: () => showStep(to)}, el("span", {class: `icon icon-${text}`, "aria-hidden": "true"}));
    bar.hidden = false;
    fill(bar,
      el("p", {class: "match-replay-where", "aria-live": "polite"}, `Replay: move ${n} of ${replay.last}`,
        replay.entry ? ` · ${playerName(replay.entry.seat)}: ${replay.entry.label}` : " · the game as it was set up"),
      el("div", {class: "match-replay-controls"},
        step(0, "replay-first", "to the start", "replay-first"), step(n - 1, "replay-back", "one move back", "replay-back"),
        step(n + 1, "replay-next", "one move on", "replay-next"), step(replay.last, "replay-last", "to the last move", "replay-last"),
        el("button", {type: "button", class: "match-replay-step", id: "replay-close",
          onclick: () => { replay = null; drawReplayBar(); draw(); }}, "Back to the game")),
      // The analysis board from this step, as the visitor saw it then (game/views_analysis.py: from_match).
      el("p", {class: "match-replay-analyse"}, el("a", {id: "replay-analyse",
        href: `${window.location.pathname.replace(/\/?$/, "/")}analyse/?move=${n}`}, "Analyse from this move")));
  }

  // A link to the replay (`#replay`, or `#move-12` for a step): opened once the page has its first data.
  let replayAsked = /^#(replay|move-\d+)$/.test(window.location.hash);
  function openAskedReplay() {
    if (!replayAsked || !data || data.version === undefined || data.status === "open") return;
    replayAsked = false;
    const step = window.location.hash.match(/^#move-(\d+)$/);
    showStep(step ? Number(step[1]) : 0);
  }
  window.addEventListener("hashchange", () => {
    replayAsked = /^#(replay|move-\d+)$/.test(window.location.hash);
    openAskedReplay();
  });

  // What the server draws itself (the end of the game, the action buttons, who left): when it changes, reload.
  function pageKey(d) {
    return d.page_key;  // game/matches/present.py: page_key
  }

  function renderChat() {
    const list = document.getElementById("chat-lines");
    if (!list || !data.chat) return;
    const shown = new Set(Array.from(list.querySelectorAll("li[data-id]"), (li) => li.dataset.id));
    const fresh = data.chat.filter((line) => !shown.has(String(line.id)));
    if (!fresh.length) return;
    const empty = document.getElementById("chat-empty");
    if (empty) empty.remove();
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    // textContent only: a line is shown exactly as written, never read as HTML.
    for (const line of fresh) {
      const item = el("li", {"data-id": line.id}, el("strong", {}, line.user), ": ", line.text);
      if (root.dataset.chatLine && line.user !== root.dataset.me) {  // report or mute: game/views_moderation.py
        item.append(" ", el("a", {class: "chat-more", href: `${root.dataset.chatLine}${line.id}/`,
          "aria-label": `Report or mute ${line.user}`, title: "Report or mute"}, "…"));
      }
      list.append(item);
    }
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  function renderClock() {
    const box = document.getElementById("match-deadline");
    if (!box) return;
    if (!data.deadline || data.status !== "playing") {
      box.textContent = "";
      return;
    }
    const hours = Math.max(0, (new Date(data.deadline) - Date.now()) / 3600000);
    const left = hours >= 48 ? `${Math.floor(hours / 24)} days` : hours >= 1 ? `${Math.floor(hours)} hours`
      : `${Math.max(1, Math.round(hours * 60))} minutes`;
    box.textContent = `Time left for ${playerName(data.to_move)} to move: ${left}.`;
  }

  function renderOpponents(v) {
    const others = v.players.filter((p) => p.seat !== data.your_seat);
    const box = document.getElementById("opponents");
    if (!others.length) {
      fill(box);
      return;
    }
    if (opponentShown === null || !others.some((p) => p.seat === opponentShown)) opponentShown = others[0].seat;
    const shown = others.find((p) => p.seat === opponentShown);
    const tabs = others.length > 1 ? el("div", {class: "match-tabs", role: "tablist", "aria-label": "other players' mats"},
      others.map((p) => el("button", {type: "button", role: "tab", class: "match-tab", "data-seat-tab": p.seat,
        "aria-selected": p.seat === opponentShown ? "true" : "false",
        onclick: () => { opponentShown = p.seat; draw(); }}, marker(p.seat), ` ${shortName(p.seat)}`,
        p.passed ? " (passed)" : ""))) : null;
    fill(box, tabs, el("section", {class: "match-player", "data-seat": shown.seat}, playerPanel(shown, v, false)));
  }

  // A redraw replaces the board's buttons; a keyboard player's place on it must survive that, so the focused
  // element is found again in the new board by the same identifying attributes.
  const FOCUS_KEYS = ["id", "data-pick", "data-space", "data-cave", "data-explore", "data-square", "data-take",
    "data-seat-tab", "data-kind", "data-args", "data-discard"];

  function focusKey() {
    const active = document.activeElement;
    if (!active || active === document.body || !root.contains(active)) return null;
    const pairs = FOCUS_KEYS.filter((name) => active.hasAttribute(name))
      .map((name) => `[${name}="${CSS.escape(active.getAttribute(name))}"]`);
    return pairs.length ? active.tagName.toLowerCase() + pairs.join("") : null;
  }

  function refocus(key) {
    if (!key || (document.activeElement && document.activeElement !== document.body)) return;
    const again = root.querySelector(key);
    if (again) again.focus({preventScroll: true});
  }

  function draw() {
    const key = focusKey();
    try {
      drawBoard();
    } finally {
      refocus(key);
    }
  }

  function drawBoard() {
    const v = view();
    renderDrawer();
    if (!v) return;
    const waiting = document.getElementById("match-waiting");
    if (waiting) waiting.hidden = true;
    const me = v.players.find((p) => p.seat === data.your_seat);
    const you = document.getElementById("you");
    if (me) {
      fill(you, ...playerPanel(me, v, true));
      fill(document.getElementById("hand"), el("h2", {}, "Your hand"), el("div", {class: "match-cards"}, hand(me)));
    } else {
      fill(you, el("p", {}, "You are watching this match."));
      fill(document.getElementById("hand"));
    }
    renderOpponents(v);
    renderAutoma(v);
    renderRound(v);
    renderDisplay(v);
    renderGuild(v);
    renderObjectivesNote();
    root.classList.toggle("match-trying", Boolean(staged.length));
  }

  function render() {
    document.getElementById("match-status").textContent = data.status_text;
    // The server draws each name as a link to its profile; the text is replaced only when the seats change.
    const seatsText = data.seats.map((s) => s.user).join(", ");
    const seatsLine = document.getElementById("match-seats");
    if (seatsLine.textContent.replace(/\s+/g, " ").trim() !== seatsText) seatsLine.textContent = seatsText;
    renderLog();
    renderChat();
    renderClock();
    draw();
  }

  function showError(message) {
    const box = document.getElementById("decision-error");
    box.textContent = message || "";
    box.hidden = !message;
  }

  // A refused move is often what shows the page it is behind (a move made in another tab): the page then reloads,
  // and the player must still read why their move was refused. The words wait in this tab's session storage.
  const ERROR_KEY = `wyrmdex-error-${root.dataset.api}`;

  function reloadKeepingError() {
    const box = document.getElementById("decision-error");
    try {
      if (!box.hidden && box.textContent) sessionStorage.setItem(ERROR_KEY, box.textContent);
    } catch (err) { /* no storage: the page reloads without the words */ }
    window.location.reload();
  }

  function showKeptError() {
    try {
      const kept = sessionStorage.getItem(ERROR_KEY);
      sessionStorage.removeItem(ERROR_KEY);
      if (kept) showError(kept);
    } catch (err) { /* no storage: nothing was kept */ }
  }

  async function load(force) {
    if ((busy && !force) || catching) {
      missed = true;  // looked at again once the page is free
      return;
    }
    missed = false;
    try {
      const response = await fetch(API, {credentials: "same-origin", headers: {Accept: "application/json"}});
      if (!response.ok) return;
      const fresh = await response.json();
      const freshStamp = `${fresh.version}:${fresh.status}:${fresh.seats.length}:${fresh.chat.length}:`
        + (fresh.chat.length ? fresh.chat[fresh.chat.length - 1].id : "") + ":" + pageKey(fresh)
        + ":" + (fresh.proposal_key || "");
      if (busy && !force) return;
      if (freshStamp !== stamp || force) {
        // The page's first data may be newer than the page itself (a move between drawing and fetching): compare
        // with the key the server drew the page with, or that change would never show.
        const drawn = data ? pageKey(data) : root.dataset.pageKey;
        // A take-back or abandon proposal asked, answered or gone (game/matches/proposals.py): drawn by the server.
        const proposalMoved = (fresh.proposal_key || "") !== (root.dataset.proposalKey || "");
        if ((data && data.status === "open") || (drawn && drawn !== pageKey(fresh)) || proposalMoved) {
          reloadKeepingError();  // the game began, ended or someone left: those parts are drawn by the server
          return;
        }
        if (data && fresh.version !== data.version && staged.length) {
          // Someone (or the clock) moved while this turn was being tried: it no longer applies.
          staged = [];
          preview = null;
          showError("The match moved on while you were choosing; choose again.");
        }
        const from = data ? Math.max(data.version, fresh.your_last_decision || 0) : null;
        data = fresh;
        stamp = freshStamp;
        if (from !== null && !replay && stepsWanted(from, fresh.version)) await catchUp(from, fresh.version);
        render();
      }
      openAskedReplay();
      lookSoonWhileMachinesPlay();
    } catch (err) {
      // Offline for a moment: the next poll tries again.
    }
  }

  // A bot (or a seat that left) moves within a second: look again soon rather than at the next poll.
  let soon = null;
  function lookSoonWhileMachinesPlay() {
    const seat = data && data.status === "playing" && data.seats.find((s) => s.seat === data.to_move);
    if (!seat || !(seat.controller === "bot" || seat.out) || soon) return;
    soon = setTimeout(() => { soon = null; if (!document.hidden) load(false); }, 700);
  }

  // Others' moves since `from`, one by one, when there are a few of them (one alone is simply the table now).
  function stepsWanted(from, to) {
    const calm = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    return !calm && to - from >= 2 && to - from <= MAX_STEPS;
  }

  async function catchUp(from, to) {
    catching = {upTo: to, skip: false};
    try {
      for (let n = from + 1; n < to && !catching.skip; n += 1) {
        const started = Date.now();
        const response = await fetch(`${API}replay/${n}/`, {credentials: "same-origin", headers: {Accept: "application/json"}});
        if (!response.ok) break;
        replay = await response.json();
        drawReplayBar();
        renderLog();
        draw();
        await new Promise((done) => setTimeout(done, Math.max(0, STEP_MS - (Date.now() - started))));
      }
    } catch (err) {
      // A step that cannot be read: show the table as it is now.
    }
    catching = null;
    replay = null;
    drawReplayBar();
    if (missed) window.setTimeout(() => load(false), 0);
  }

  function csrfToken() {
    // The page carries its token, so a board opened straight from a link can send a choice without a cookie read.
    return root.dataset.csrf || "";
  }

  function openDrawer() {
    const toggle = document.getElementById("drawer-toggle");
    document.getElementById("drawer-body").hidden = false;
    toggle.setAttribute("aria-expanded", "true");
    toggle.textContent = "Hide";
  }

  document.getElementById("drawer-toggle").addEventListener("click", (event) => {
    const body = document.getElementById("drawer-body");
    body.hidden = !body.hidden;
    event.currentTarget.setAttribute("aria-expanded", body.hidden ? "false" : "true");
    event.currentTarget.textContent = body.hidden ? "Show" : "Hide";
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && catching) {
      catching.skip = true;
    } else if (event.key === "Escape" && selected) {
      selected = null;
      draw();
    } else if (replay && !catching && !event.target.closest("input, textarea")) {
      if (event.key === "ArrowLeft") showStep(replay.number - 1);
      else if (event.key === "ArrowRight") showStep(replay.number + 1);
      else if (event.key === "Escape") { replay = null; drawReplayBar(); draw(); }
    }
  });

  const replayButton = document.getElementById("replay-open");
  if (replayButton) replayButton.addEventListener("click", () => showStep(0));

  // The chat is sent without leaving the page; without this script, the form posts and the page reloads.
  const chatForm = document.getElementById("chat-form");
  if (chatForm) {
    chatForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = document.getElementById("chat-text");
      const text = input.value;
      if (!text.trim()) return;
      showError("");
      try {
        const [response, body] = await post(root.dataset.chat, {text});
        if (!response.ok) {
          showError(body.detail || `The message was refused (${response.status}).`);
          return;
        }
        input.value = "";
        await load(true);
      } catch (err) {
        showError("The message could not be sent; check your connection and try again.");
      }
    });
  }

  // On a phone the drawer is a bar fixed at the bottom (static/match-phone.css): the page is padded by its height,
  // and the whole document's scroll-padding keeps what is scrolled to or focused out from under it.
  const drawer = document.getElementById("prompt");
  if (window.ResizeObserver) {
    new ResizeObserver(() => document.documentElement.style.setProperty("--drawer-h", `${drawer.offsetHeight}px`))
      .observe(drawer);
  }

  // Pushed: each new version is read at once. While the socket is up the poll is only a safety net.
  let pushed = false;
  if (window.WyrmdexPush && root.dataset.push) {
    window.WyrmdexPush.open(root.dataset.push, (message) => {
      // A new version, or something else shown changed (a chat line, a seat): read it (an unchanged read is a 304).
      if (message.kind === "match") load(false);
    }, (up) => { pushed = up; });
  }
  let sinceLook = 0;
  showKeptError();
  load(true);
  setInterval(() => {
    sinceLook += POLL_MS;
    if (document.hidden || (pushed && sinceLook < SAFETY_MS)) return;
    sinceLook = 0;
    load(false);
  }, POLL_MS);
  window.addEventListener("focus", () => load(false));
  document.addEventListener("visibilitychange", () => { if (!document.hidden) load(false); });
})();
