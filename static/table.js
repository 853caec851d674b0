// The shared table of Wyrmspan, drawn from the engine's view_for and the printed board facts: the round tracker
// (objective tiles, counts, placed markers, Dragon Academy income spaces), the Dragon Guild (track and tile), the
// display and decks, cards and a player's supply. The match page (static/match.js) and the analysis board
// (static/analysis.js) both draw with it; each passes a context saying how to name players and what a click on a
// square, a place or a card does there (nothing, on a replay).
//
// ctx: {view, board, cards, guildRows, guildComplete, objectiveTexts, marker(seat), shortName(seat),
//       playerName(seat), automaName, and optional hooks: square(row, sq, seats), track(i), places(round),
//       income(round, i, who), displayExtra(type, i), emptySlot(type, i), adjust(pl, item)}
(function () {
  "use strict";
  const VOCABULARY = JSON.parse(document.getElementById("wyrmdex-vocabulary").textContent);  // base.html
  const CAVES = VOCABULARY.caves.map((cave) => VOCABULARY.cave_names[cave]);
  const RESOURCES = VOCABULARY.resources;
  const ICON_NAMES = {"any-resource": "any resource", any_resource: "any resource"};
  const PLACES = ["1st", "2nd", "3rd"];

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function fill(node, ...children) {
    node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  }

  function plural(n, word) {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
  }

  function pic(name, label) {
    const shown = ICON_NAMES[name] || name;
    return el("span", {class: "icon icon-" + String(name).replace("_", "-"), role: "img", "aria-label": label || shown,
      title: label || shown});
  }

  // Markers side by side, a space between them, so their words read "P1 P2" and not "P1P2" (the gap is CSS's).
  function markerRow(ctx, seats) {
    return seats.flatMap((seat, i) => (i ? [" ", ctx.marker(seat)] : [ctx.marker(seat)]));
  }

  // What the mat prints along a cave's path (before each space, and at its end), as the walk meets it.
  function printed(item, where) {
    if (!item) return el("span", {class: "match-path-icon"});
    return el("span", {class: "match-path-icon", title: `${where}: ${item.text}`},
      item.icon ? pic(item.icon, item.text) : "•");
  }

  // A click target on the drawn table: `act` is {label, onclick, extra, cls, attrs} from a context's hook.
  function target(act, base, body) {
    return el("button", Object.assign({type: "button", class: `${base} ${act.cls || "match-target"}`,
      onclick: act.onclick, "aria-label": act.label, "aria-pressed": act.pressed === undefined ? null : String(act.pressed)},
    act.attrs || {}), body, act.extra || null);
  }

  // -- cards ---------------------------------------------------------------------------------------------------

  function costPics(cost) {
    const bits = Object.entries(cost || {}).map(([k, v]) => el("span", {class: "match-cost"}, String(v), pic(k)));
    return bits.length ? bits : [el("span", {class: "match-cost"}, "free")];
  }

  function dragonCard(ctx, index, extra) {
    const card = ctx.cards.dragons[index];
    if (!card) return el("div", {class: "match-card"}, `Dragon #${index}`);
    return el("div", {class: "match-card match-dragon", "data-dragon": index},
      el("a", {class: "match-card-name", href: card.url, target: "_blank", rel: "noopener"},
        `${card.name} (${card.number}${card.printing === "updated" ? ", updated" : ""})`),
      el("div", {class: "match-card-facts"},
        el("span", {class: "match-card-vp", title: `${card.vp} VP`}, String(card.vp), pic("vp", "VP")), " ",
        costPics(card.cost), ` · ${card.size} · ${card.trait} · nests ${card.capacity} · `,
        card.habitats.map((h) => el("span", {class: `match-habitat match-habitat-${h}`}, CAVES[h])).reduce(
          (acc, x) => acc.length ? [...acc, " / ", x] : [x], [])),
      card.text ? el("div", {class: "match-card-text"}, card.text) : null,
      extra || null);
  }

  function caveCard(ctx, index, extra) {
    const card = ctx.cards.caves[index];
    if (!card) return el("div", {class: "match-card"}, `Cave card #${index}`);
    return el("div", {class: "match-card match-cavecard", "data-cave": index},
      el("a", {class: "match-card-name", href: card.url, target: "_blank", rel: "noopener"},
        pic("cave", "cave card"), ` Cave card ${card.number}`),
      card.text ? el("div", {class: "match-card-text"}, card.text) : null,
      extra || null);
  }

  // -- a player's supply ---------------------------------------------------------------------------------------

  function supply(ctx, pl) {
    const item = (name, count, label) => {
      const shown = el("span", {class: "match-item", title: `${count} ${label}`}, pic(name, label), ` ${count}`);
      const buttons = ctx.adjust ? ctx.adjust(pl, name) : null;
      return buttons ? el("span", {class: "match-adjust", "data-item": name}, buttons[0], shown, buttons[1]) : shown;
    };
    return el("div", {class: "match-supply"},
      item("coin", pl.coins, "coins"),
      RESOURCES.map((r) => item(r, pl.resources[r], r)),
      ctx.adjust ? null : el("span", {class: "match-item"},
        `hand: ${plural(pl.hand_count, "dragon")}, ${plural(pl.cave_card_count, "cave card")}`),
      ctx.adjust ? null : el("span", {class: "match-item"}, pic("guild", "guild"), ` guild ${pl.guild_advancements}`),
      pl.passed && !ctx.adjust ? el("span", {class: "match-item match-passed"}, "passed this round") : null);
  }

  // -- the round tracker ---------------------------------------------------------------------------------------

  function passedLine(ctx) {
    const v = ctx.view;
    const passed = v.players.filter((p) => p.passed).map((p) => ctx.shortName(p.seat));
    if (v.automa && v.automa.passed) passed.push(ctx.automaName);
    return passed.length ? `Passed: ${passed.join(", ")}.` : "Nobody has passed yet.";
  }

  // Who sits on each Dragon Academy income space of the round in play (a seat's income_space is this round's).
  function incomeRow(ctx, rnd) {
    const v = ctx.view;
    const spaces = (ctx.board && ctx.board.academy_income) ? ctx.board.academy_income[rnd - 1] || [] : [];
    // Only the round in play's: who sits on a space is known for it alone, and the rest would crowd the tracker.
    if (!v.options.academy || !spaces.length || rnd !== v.round) return null;
    const sitters = v.players.map((p) => ({seat: p.seat, space: p.income_space}));
    if (v.automa) sitters.push({seat: v.automa.seat, space: v.automa.income_space});
    // One list item a space, so that each reads (and is read aloud) apart: "1. Gain 6 coins." then "2. Advance…"
    return el("div", {class: "match-income", "data-income-round": rnd}, el("span", {class: "match-note"}, "Income spaces:"),
      el("ol", {class: "match-income-list"}, spaces.map((text, i) => {
        const who = sitters.filter((s) => s.space === i).map((s) => s.seat);
        const body = [text, who.length ? " " : null, markerRow(ctx, who)];
        const act = ctx.income ? ctx.income(rnd, i, who) : null;
        return el("li", {}, act ? target(act, "match-income-space", body)
          : el("span", {class: "match-income-space", "data-income": `${rnd}:${i}`}, body));
      })));
  }

  function round(ctx) {
    const v = ctx.view;
    const vp = ctx.board ? ctx.board.objective_vp : [];
    const counts = v.objective_counts;
    const rows = v.objectives.map((o, i) => {
      const rnd = i + 1;
      const placing = v.players.map((p) => ({seat: p.seat, places: p.objective_places}));
      if (v.automa) placing.push({seat: v.automa.seat, places: v.automa.objective_places});
      const placed = placing.filter((p) => p.places.length > i).map((p) => {
        const place = p.places[i];
        const got = place ? (vp[i] || [])[place - 1] || 0 : 0;
        return el("span", {class: "match-placed"}, ctx.marker(p.seat), ` ${place ? PLACES[place - 1] : "—"} ${got} VP`);
      });
      const now = rnd === v.round && counts ? v.players.map((p) => el("span", {class: "match-placed"},
        ctx.marker(p.seat), ` ${counts[p.seat]}`)) : [];
      if (now.length && v.automa && v.automa.objective_count !== null) {
        now.push(el("span", {class: "match-placed"}, ctx.marker(v.automa.seat), ` ${v.automa.objective_count}`));
      }
      const places = ctx.places ? ctx.places(rnd) : null;
      return el("li", {class: rnd === v.round ? "match-now" : "", "data-round": rnd},
        el("strong", {}, `Round ${rnd}`), ` (tile ${o.tile}${o.side.toUpperCase()}): ${ctx.objectiveTexts[i] || ""}`,
        el("div", {class: "match-note"}, "VP for 1st/2nd/3rd: ", (vp[i] || []).join(" / ")),
        now.length ? el("div", {class: "match-standing"}, "Now: ", now) : null,
        places || (placed.length ? el("div", {class: "match-standing"}, "Placed: ", placed) : null),
        incomeRow(ctx, rnd));
    });
    return [
      el("h2", {}, `Round ${v.round} of ${v.objectives.length}`),
      el("p", {}, `Start player: ${ctx.playerName(v.start_player)}. `, passedLine(ctx)),
      el("ol", {class: "match-objectives", id: "objectives-list"}, rows),
      ctx.board && ctx.board.income && !v.options.academy ? el("p", {class: "match-note", id: "round-income"},
        `At the end of each round the objective is scored, then every player's income: ${ctx.board.income}`) : null,
    ];
  }

  // -- the Dragon Guild ----------------------------------------------------------------------------------------

  function guild(ctx) {
    const v = ctx.view;
    const board = ctx.board;
    const trackFacts = board ? board.guild_track : [];
    const spaces = trackFacts.map((sp, i) => {
      const body = [sp.brown ? pic("guild", "place a marker") : pic(sp.icon, sp.text),
        el("span", {class: "match-track-who"}, markerRow(ctx, v.players.filter((p) => p.guild_space === i).map((p) => p.seat)
          .concat(v.automa && v.automa.guild_space === i ? [v.automa.seat] : [])))];
      const act = ctx.track ? ctx.track(i) : null;
      return el("li", {class: "match-track-space" + (sp.brown ? " match-track-brown" : ""),
        title: sp.brown ? "place a marker on the guild tile" : sp.text},
      act ? target(act, "match-track-button", body) : body);
    });
    const rows = ctx.guildRows || [];
    const squares = v.guild.squares;
    const squareCell = (row, sq, seats) => {
      const act = ctx.square ? ctx.square(row, sq, seats) : null;
      const body = seats.length ? markerRow(ctx, seats) : ["□"];
      return act ? target(Object.assign({attrs: {"data-square": `${row}:${sq}`}}, act), "match-square", body)
        : el("span", {class: "match-square"}, body);
    };
    const endRow = squares.length > rows.length ? squares[squares.length - 1] : null;
    return [
      el("h2", {}, `Dragon Guild: ${v.guild.tile || "none"}`),
      el("ol", {class: "match-track", "aria-label": "the guild track"}, spaces),
      ctx.guildComplete === false ? el("p", {class: "match-note"},
        "Some rows of this tile are not known yet, so the game plays it with the rows shown here only.") : null,
      el("ol", {class: "match-guild"}, rows.map((row, i) => el("li", {},
        el("span", {class: "match-markers"}, (squares[i] || []).map((seats, sq) => squareCell(i, sq, seats))), " ",
        row.end_game ? "(end of game) " : "", row.text))),
      endRow ? el("p", {class: "match-guild-end"}, "End of game VP: ",
        endRow.map((seats, sq) => el("span", {},
          squareCell(-1, sq, seats), ` ${(board && board.guild_end_vp[sq]) || ""} `))) : null,
    ];
  }

  // -- the display and the decks -------------------------------------------------------------------------------

  function display(ctx) {
    const v = ctx.view;
    const dis = v.discards;
    const extra = (type, i) => ctx.displayExtra ? ctx.displayExtra(type, i) : null;
    const empty = (type, i) => ctx.emptySlot ? ctx.emptySlot(type, i)
      : type === "dragon" ? el("div", {class: "match-card"}, "(empty)") : null;
    const discardNames = dis.dragons.slice(-8).reverse().map((d) => (ctx.cards.dragons[d] || {}).name || `#${d}`);
    return [
      el("h2", {}, "Display and decks"),
      el("p", {class: "match-decks"}, pic("dragon", "dragon deck"), ` dragon deck ${v.decks.dragons} · `,
        pic("cave", "cave deck"), ` cave deck ${v.decks.caves} · discarded: ${plural(dis.dragons.length, "dragon")}, `
        + `${plural(dis.caves.length, "cave card")}`),
      // The display under its own heading, the discard pile after it: the six face-up cards are not part of the pile
      el("h3", {class: "match-display-title"}, "Display"),
      el("div", {class: "match-display"},
        v.display.dragons.map((d, i) => d === null ? empty("dragon", i) : dragonCard(ctx, d, extra("dragon", i))),
        v.display.caves.map((c, i) => c === null ? empty("cave", i) : caveCard(ctx, c, extra("cave", i)))),
      discardNames.length ? el("details", {class: "match-discards"}, el("summary", {}, "Discard pile (newest first)"),
        el("p", {}, discardNames.join(", "))) : null,
    ];
  }

  window.WyrmdexTable = {el, fill, plural, pic, printed, costPics, dragonCard, caveCard, supply, round, guild, display,
    passedLine, PLACES};
})();
