// The match board: draws what GET /api/matches/<id>/ returns, offers the pending options as buttons, sends the
// chosen one with the version it was chosen at, and polls for other players' moves every few seconds and on focus.
(function () {
  "use strict";
  const root = document.getElementById("match");
  if (!root) return;
  const API = root.dataset.api;
  const DECISIONS = root.dataset.decisions;
  const POLL_MS = 4000;
  const CAVES = ["Crimson Cavern", "Golden Grotto", "Amethyst Abyss"];
  const RESOURCES = ["meat", "gold", "crystal", "milk"];
  const KIND_NAMES = {
    pass: "Pass", excavate: "Excavate", entice: "Entice", explore: "Explore", exchange: "Exchange",
    discard_cards: "Cards to discard", resources: "Starting resources",
  };
  let data = null;
  let busy = false;
  let stamp = "";

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

  function icon(name, count) {
    return el("span", {class: "match-item", title: name},
      el("span", {class: "icon icon-" + name, "aria-hidden": "true"}), `${count} ${name}`);
  }

  function playerName(seat) {
    const found = data.seats.find((s) => s.seat === seat);
    const name = found ? found.user : `Player ${seat + 1}`;
    return seat === data.your_seat ? `${name} (you)` : name;
  }

  function dragonCard(index, extra) {
    const card = data.cards.dragons[index];
    if (!card) return el("div", {class: "match-card"}, `Dragon #${index}`);
    const cost = Object.entries(card.cost).map(([k, v]) => `${v} ${k}`).join(", ") || "free";
    return el("div", {class: "match-card match-dragon", "data-dragon": index},
      el("a", {class: "match-card-name", href: card.url, target: "_blank", rel: "noopener"},
        `${card.name} (${card.number}${card.printing === "updated" ? ", updated" : ""})`),
      el("div", {class: "match-card-facts"},
        `${card.vp} VP · ${card.size} · ${card.trait} · nests ${card.capacity} · cost ${cost} · `
        + card.habitats.map((h) => CAVES[h]).join(" / ")),
      card.text ? el("div", {class: "match-card-text"}, card.text) : null,
      extra || null);
  }

  function caveCard(index) {
    const card = data.cards.caves[index];
    if (!card) return el("div", {class: "match-card"}, `Cave card #${index}`);
    return el("div", {class: "match-card match-cavecard", "data-cave": index},
      el("a", {class: "match-card-name", href: card.url, target: "_blank", rel: "noopener"},
        `Cave card ${card.number}`),
      card.text ? el("div", {class: "match-card-text"}, card.text) : null);
  }

  function space(sp, column) {
    const excavated = column === 0 || sp.cave_card !== null;
    const bits = [];
    if (sp.dragon !== null) {
      const card = data.cards.dragons[sp.dragon];
      bits.push(el("a", {class: "match-space-dragon", href: card ? card.url : "#", target: "_blank", rel: "noopener",
        title: card ? card.text : ""}, card ? card.name : `Dragon #${sp.dragon}`));
      const marks = [];
      if (sp.eggs) marks.push(icon("egg", sp.eggs));
      for (const [res, n] of Object.entries(sp.cached)) marks.push(icon(res, n));
      if (sp.tucked) marks.push(el("span", {class: "match-item"}, `${sp.tucked} tucked`));
      if (sp.training_tokens) marks.push(el("span", {class: "match-item"}, `${sp.training_tokens} trained`));
      if (sp.grown_up) marks.push(el("span", {class: "match-item"}, "grown up"));
      bits.push(el("div", {class: "match-space-marks"}, marks));
    } else if (excavated) {
      bits.push(el("span", {class: "match-space-empty"}, "empty"));
    } else {
      bits.push(el("span", {class: "match-space-empty"}, "not excavated"));
    }
    if (sp.cave_card !== null) {
      const cave = data.cards.caves[sp.cave_card];
      bits.push(el("div", {class: "match-space-cave", title: cave ? cave.text : ""}, `cave card ${cave ? cave.number : ""}`));
    }
    return el("div", {class: "match-space" + (excavated ? "" : " match-space-closed")
      + (sp.dragon !== null ? " match-space-full" : ""), "data-space": sp.index}, bits);
  }

  function mat(pl) {
    const rows = [0, 1, 2].map((cave) => el("div", {class: `match-cave match-cave-${cave}`},
      el("div", {class: "match-cave-name"}, CAVES[cave]),
      [0, 1, 2, 3].map((col) => space(pl.mat[cave * 4 + col], col))));
    return el("div", {class: "match-mat"}, rows);
  }

  function playerPanel(pl, view) {
    const turn = data.status === "playing" && view.pending && view.pending.player === pl.seat;
    const res = RESOURCES.map((r) => icon(r, pl.resources[r]));
    const places = pl.objective_places.map((p, i) => `round ${i + 1}: ${p ? ["1st", "2nd", "3rd"][p - 1] : "-"}`);
    return [
      el("h2", {}, playerName(pl.seat), turn ? el("span", {class: "match-turn"}, " · choosing now") : null,
        pl.passed ? el("span", {class: "match-passed"}, " · passed") : null),
      el("div", {class: "match-supply"}, icon("coin", pl.coins), res, icon("egg", pl.nest_eggs),
        el("span", {class: "match-item"}, `in hand: ${plural(pl.hand_count, "dragon")}, ${plural(pl.cave_card_count, "cave card")}`),
        el("span", {class: "match-item"}, `guild space ${pl.guild_space + 1}`)),
      places.length ? el("div", {class: "match-places"}, "Objectives: " + places.join(", ")) : null,
      mat(pl),
    ];
  }

  function renderPrompt(view) {
    const text = document.getElementById("prompt-text");
    const box = document.getElementById("options");
    box.replaceChildren();
    if (!view) return;
    const pending = view.pending;
    if (!pending || data.status !== "playing") {
      text.textContent = data.status === "aborted" ? "This match was aborted." : "The game is over.";
      return;
    }
    // A seat the server plays (a bot after a timeout, or a player who left) is not offered the options.
    const mine = data.seats.find((s) => s.seat === data.your_seat);
    const served = mine && (mine.out || mine.controller === "bot");
    if (pending.player !== data.your_seat || !pending.options || served) {
      text.textContent = `Waiting for ${playerName(pending.player)}: ${pending.prompt}.`;
      return;
    }
    text.textContent = `Your turn: ${pending.prompt}.`;
    const groups = new Map();
    for (const option of pending.options) {
      if (!groups.has(option.kind)) groups.set(option.kind, []);
      groups.get(option.kind).push(option);
    }
    for (const [kind, options] of groups) {
      const buttons = options.map((option) => el("button", {type: "button", class: "match-option",
        "data-kind": option.kind, "data-args": JSON.stringify(option.args), onclick: () => decide(option)},
        option.label));
      box.append(el("div", {class: "match-option-group"},
        groups.size > 1 ? el("h3", {}, KIND_NAMES[kind] || kind) : null, buttons));
    }
  }

  function renderSide(view) {
    fill(document.getElementById("round"),
      el("h2", {}, `Round ${view.round}`),
      el("p", {}, `Start player: ${playerName(view.start_player)}. Dragon deck ${view.decks.dragons}, `
        + `cave deck ${view.decks.caves}.`));
    fill(document.getElementById("display"),
      el("h2", {}, "Display"),
      el("div", {class: "match-display"},
        view.display.dragons.map((d) => d === null ? el("div", {class: "match-card"}, "(empty)") : dragonCard(d)),
        view.display.caves.map((c) => c === null ? null : caveCard(c))));
    const rows = data.guild_rows || [];
    const squares = view.guild.squares;
    fill(document.getElementById("guild"),
      el("h2", {}, `Dragon Guild: ${view.guild.tile || "none"}`),
      data.guild_complete ? null : el("p", {class: "match-note"},
        "Some rows of this tile are not known yet, so the game plays it with the rows shown here only."),
      el("ol", {class: "match-guild"}, rows.map((row, i) => el("li", {},
        row.text, " ", el("span", {class: "match-markers"},
          (squares[i] || []).map((seats) => seats.length ? seats.map(playerName).join("+") : "□").join(" "))))),
      squares.length > rows.length ? el("p", {}, "END GAME VP row: ", squares[squares.length - 1]
        .map((seats) => seats.length ? seats.map(playerName).join("+") : "□").join(" ")) : null);
    fill(document.getElementById("objectives"),
      el("h2", {}, "Round objectives"),
      el("ol", {class: "match-objectives"}, view.objectives.map((o, i) => el("li",
        {class: i + 1 === view.round ? "match-now" : ""},
        `Round ${i + 1} (tile ${o.tile}${o.side.toUpperCase()}): ${data.objective_texts[i] || ""}`))));
  }

  function renderLog() {
    const log = document.getElementById("log");
    fill(log, ...data.log.map((entry) => el("li", {value: entry.number},
      el("strong", {}, playerName(entry.seat)), ": ", entry.label)));
    log.scrollTop = log.scrollHeight;
  }

  // What the server draws itself (the end of the game, the action buttons, who left): when it changes, reload.
  function pageKey(d) {
    return `${d.status}|${d.rematch}|${d.version === 0}|` + d.seats.map((s) => `${s.controller}:${s.out || ""}`).join(",");
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
    for (const line of fresh) list.append(el("li", {"data-id": line.id}, el("strong", {}, line.user), ": ", line.text));
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

  function render() {
    document.getElementById("match-status").textContent = data.status_text;
    document.getElementById("match-seats").textContent = data.seats.map((s) => s.user).join(", ");
    const view = data.view;
    renderPrompt(view);
    renderLog();
    renderChat();
    renderClock();
    if (!view) return;
    const waiting = document.getElementById("match-waiting");
    if (waiting) waiting.hidden = true;
    const me = view.players.find((p) => p.seat === data.your_seat);
    const others = view.players.filter((p) => p.seat !== data.your_seat);
    const you = document.getElementById("you");
    const hand = document.getElementById("hand");
    if (me) {
      fill(you, ...playerPanel(me, view).filter(Boolean));
      fill(hand, el("h2", {}, "Your hand"),
        el("div", {class: "match-cards"}, me.hand.map((d) => dragonCard(d)), me.cave_cards.map(caveCard)));
    } else {
      fill(you, el("p", {}, "You are watching this match."));
      fill(hand);
    }
    fill(document.getElementById("opponents"), ...others.map((pl) =>
      el("section", {class: "match-player", "data-seat": pl.seat}, playerPanel(pl, view))));
    renderSide(view);
  }

  function showError(message) {
    const box = document.getElementById("decision-error");
    box.textContent = message || "";
    box.hidden = !message;
  }

  async function load(force) {
    if (busy && !force) return;
    try {
      const response = await fetch(API, {credentials: "same-origin", headers: {Accept: "application/json"}});
      if (!response.ok) return;
      const fresh = await response.json();
      const freshStamp = `${fresh.version}:${fresh.status}:${fresh.seats.length}:${fresh.chat.length}:`
        + (fresh.chat.length ? fresh.chat[fresh.chat.length - 1].id : "") + ":" + pageKey(fresh);
      if (busy && !force) return;
      if (freshStamp !== stamp || force) {
        if (data && (data.status === "open" || pageKey(data) !== pageKey(fresh))) {
          window.location.reload();  // the game began, ended or someone left: those parts are drawn by the server
          return;
        }
        data = fresh;
        stamp = freshStamp;
        render();
      }
    } catch (err) {
      // Offline for a moment: the next poll tries again.
    }
  }

  function csrfToken() {
    // The page carries its token, so a board opened straight from a link can send a choice without a cookie read.
    return root.dataset.csrf || "";
  }

  async function decide(option) {
    if (busy) return;
    busy = true;
    showError("");
    document.getElementById("spinner").hidden = false;
    root.classList.add("match-busy");
    for (const button of document.querySelectorAll(".match-option")) button.disabled = true;
    try {
      const response = await fetch(DECISIONS, {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken()},
        body: JSON.stringify({version: data.version, option: {kind: option.kind, args: option.args}}),
      });
      const body = await response.json().catch(() => ({}));
      if (response.ok) {
        const before = pageKey(data);
        data = body;
        if (pageKey(data) !== before) {
          window.location.reload();
          return;
        }
        stamp = "";  // the next poll redraws with the chat and everything else
        render();
      } else {
        showError(body.detail || `The choice was refused (${response.status}).`);
        busy = false;
        await load(true);
      }
    } catch (err) {
      showError("The choice could not be sent; check your connection and try again.");
      for (const button of document.querySelectorAll(".match-option")) button.disabled = false;
    } finally {
      busy = false;
      document.getElementById("spinner").hidden = true;
      root.classList.remove("match-busy");
    }
  }

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
        const response = await fetch(root.dataset.chat, {
          method: "POST", credentials: "same-origin",
          headers: {"Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken()},
          body: JSON.stringify({text}),
        });
        const body = await response.json().catch(() => ({}));
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

  load(true);
  setInterval(() => { if (!document.hidden) load(false); }, POLL_MS);
  window.addEventListener("focus", () => load(false));
  document.addEventListener("visibilitychange", () => { if (!document.hidden) load(false); });
})();
