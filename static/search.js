// Live card search: results as you type (from the API), all of them page by page, a type toggle, a filter panel
// that writes the same query, keyboard use.
(function () {
  "use strict";
  const input = document.getElementById("q");
  if (!input) return;
  const form = input.form;
  const errorBox = document.getElementById("search-error");
  const panel = document.getElementById("filter-panel");
  const PAGE = 60;
  let timer = null;
  let generation = 0;
  let selected = -1;
  // The result the arrow keys reach is only outlined on screen, while focus stays in the search box: this region
  // says it aloud to a screen reader.
  const spoken = document.getElementById("search-selected");

  // --- the query's top-level terms, so the panel can read and rewrite its own fields -----------------------
  function splitTerms(text) {
    const terms = [];
    const re = /\s*((?:[^\s"()]+"[^"]*"|"[^"]*"|\(|\)|[^\s"()]+))/g;
    let m;
    while ((m = re.exec(text)) !== null) terms.push(m[1]);
    return terms;
  }
  // The cost items the panel offers are drawn by the server from the vocabulary; read them from the panel, so this
  // file keeps no list of its own.
  const costItems = panel ? Array.from(panel.querySelectorAll('[data-field^="cost."]'),
    (box) => box.dataset.field.slice(5).replace(/[^a-z_]/gi, "")) : [];
  const PANEL_TERM = new RegExp(
    `^(cave|size|trait|kind|expansion${costItems.length ? `|cost\\.(?:${costItems.join("|")})` : ""})(:|>=|<=)(.*)$`, "i");

  function panelTermOf(term) {
    // Terms the panel owns: field:value or field>=n at top level, without negation.
    const m = PANEL_TERM.exec(term);
    if (m) return { field: m[1].toLowerCase(), op: m[2], value: m[3] };
    const v = /^vp(>=|<=)(\d+)$/i.exec(term);
    if (v) return { field: "vp", op: v[1], value: v[2] };
    return null;
  }
  function hasParens(terms) { return terms.some((t) => t === "(" || t === ")" || t.toLowerCase() === "or"); }

  function readPanelFromQuery() {
    const terms = splitTerms(input.value);
    const state = {};
    if (!hasParens(terms)) {
      for (const term of terms) {
        const t = panelTermOf(term);
        if (!t) continue;
        if (t.field === "vp") state["vp" + t.op] = t.value;
        else if (t.field.startsWith("cost.")) state[t.field] = ["1"];
        else state[t.field] = t.value.toLowerCase().split(",");
      }
    }
    panel.querySelectorAll("input[data-field]").forEach((box) => {
      const field = box.dataset.field;
      if (box.type === "checkbox") box.checked = (state[field] || []).includes(box.value);
      else box.value = state[field + box.dataset.op] || "";
    });
  }

  function writeQueryFromPanel() {
    const kept = splitTerms(input.value).filter((term) => !panelTermOf(term));
    const groups = {};
    const added = [];
    panel.querySelectorAll("input[data-field]").forEach((box) => {
      const field = box.dataset.field;
      if (box.type === "checkbox") {
        if (!box.checked) return;
        if (field.startsWith("cost.")) added.push(field + ">=1");
        else (groups[field] = groups[field] || []).push(box.value);
      } else if (box.value !== "" && /^\d+$/.test(box.value)) {
        added.push("vp" + box.dataset.op + box.value);
      }
    });
    for (const field of Object.keys(groups)) added.unshift(field + ":" + groups[field].join(","));
    input.value = kept.concat(added).join(" ");
    errorBox.hidden = true;
    search(true);
  }

  // --- results ----------------------------------------------------------------------------------------------
  // Each kind of card: its API endpoint, its list, its counts, and how many of its results are on the page.
  const KINDS = {
    dragon: { endpoint: "/api/dragons/", noun: "dragon" },
    cave: { endpoint: "/api/caves/", noun: "cave card" },
    guild: { endpoint: "/api/guild-tiles/", noun: "guild tile" },
    objective: { endpoint: "/api/objective-tiles/", noun: "objective tile" },
  };
  for (const kind of Object.keys(KINDS)) {
    const k = KINDS[kind];
    k.list = document.getElementById(kind + "-results");
    k.count = document.getElementById(kind + "-count");
    k.group = document.getElementById(kind + "-group");
    k.more = document.getElementById(kind + "-more");
    k.total = Number(k.count.textContent) || 0;
    k.shown = k.list.children.length;
  }
  const resultsBox = document.getElementById("results");
  const status = document.getElementById("search-status");
  const SETTLE = 700;  // ms without typing before an error is shown: no flashes while a query is half written
  let errorTimer = null;
  let shownQuery = input.value;
  let lastInput = -Infinity;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function icon(name, label) {
    const span = el("span", "icon icon-" + name);
    if (label) { span.title = label; span.setAttribute("role", "img"); span.setAttribute("aria-label", label); }
    else span.setAttribute("aria-hidden", "true");
    return span;
  }
  const KIND_LABELS = { when_played: "When played", if_activated: "If activated", once_per_round: "Once per round",
                        end_game: "End game" };
  function kindIcons(kinds) { return kinds.map((kind) => icon("kind-" + kind.replace(/_/g, "-"), KIND_LABELS[kind])); }
  function capital(word) { return word.charAt(0).toUpperCase() + word.slice(1); }
  function clip(text) { return text.length > 160 ? text.slice(0, 159) + "…" : text; }

  // The same row as templates/cardsite/_card_row.html, from the API's representation of the card.
  function row(card, kind) {
    const li = el("li", "result result-" + kind);
    const a = el("a", "result-title");
    a.href = card.page;
    let name = card.name, text = card.ability_text;
    if (kind === "guild") text = card.abilities.map((ability) => ability.text).join(" · ");
    if (kind === "objective") {
      name = "Objective tile " + card.number;
      text = card.sides.map((side) => side.side.toUpperCase() + ": " + side.text).join(" · ");
    }
    a.append(el("span", "result-number", String(card.number)), " ",
             el("span", "result-name", name + (card.printing === "updated" ? " (updated)" : "")));
    li.append(a);
    const facts = el("span", "result-facts");
    if (kind === "dragon") {
      const vp = el("span", "result-vp");
      vp.title = card.vp + " VP";
      vp.append(icon("vp"), String(card.vp), el("span", "visually-hidden", " VP"));
      li.append(vp);
      const cost = el("span", "result-cost");
      const items = Object.entries(card.cost);
      if (!items.length) cost.append(el("span", "cost-item", "free"));
      for (const [item, count] of items) {
        const chip = el("span", "cost-item");
        chip.title = count + " " + item;
        chip.append(icon(item), String(count), el("span", "visually-hidden", " " + item));
        cost.append(chip);
      }
      const caves = el("span", "result-caves");
      for (const cave of card.habitats) {
        const short = cave.split("_")[0];
        const chip = el("span", "cave-chip habitat-" + short);
        chip.title = cave.split("_").map(capital).join(" ");
        chip.append(icon("cave"), short);
        caves.append(chip);
      }
      facts.append(cost, caves, el("span", "result-traits", capital(card.size) + " · " + capital(card.trait)),
                   ...kindIcons(card.kinds));
    } else if (kind === "cave" && card.ability_kind) {
      facts.append(...kindIcons([card.ability_kind]));
    }
    li.append(facts, el("span", "result-text", clip(text)));
    return li;
  }

  async function fetchPage(kind, query, page) {
    const params = new URLSearchParams({ q: query, page_size: PAGE, format: "json" });
    if (page > 1) params.set("page", page);
    const response = await fetch(`${KINDS[kind].endpoint}?${params}`, { headers: { Accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) throw new Error(body.detail || (body.q && body.q[0]) || Object.values(body)[0]);
    return body;
  }

  function shownType() {
    const checked = form.querySelector('input[name="type"]:checked');
    return checked ? checked.value : "all";
  }

  function updateMore(kind) {
    const k = KINDS[kind];
    const left = k.total - k.shown;
    k.more.hidden = left <= 0;
    k.more.firstChild.textContent = `Show ${Math.min(left, PAGE)} more `;
    k.more.querySelector(".more-left").textContent = `(${left} not shown yet)`;
    const url = new URL(window.location.href);
    url.searchParams.set("type", kind);
    url.searchParams.set("page", Math.floor(k.shown / PAGE) + 1);
    k.more.href = url.search;
  }

  function updateStatus() {
    status.textContent = Object.entries(KINDS)
      .map(([kind, k]) => `${k.total} ${k.noun}${k.total === 1 ? "" : "s"}`).join(", ");
    for (const [kind, k] of Object.entries(KINDS)) {
      k.count.textContent = k.total;
      k.group.querySelector(".group-count").textContent = k.total;
      k.group.querySelector(".empty-note").hidden = k.total > 0;
      updateMore(kind);
    }
  }

  function showType() {
    const type = shownType();
    resultsBox.dataset.type = type;
    for (const [kind, k] of Object.entries(KINDS)) k.group.hidden = type !== "all" && type !== kind;
    const url = new URL(window.location.href);
    if (type === "all") url.searchParams.delete("type"); else url.searchParams.set("type", type);
    url.searchParams.delete("page");
    history.replaceState(null, "", url);
    selected = -1;
  }

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
  }

  // An unreadable query greys the old results out at once (they no longer answer what is typed) and blanks the
  // counts, but its message waits until the box has been left alone for a moment and still holds that very query,
  // so a half-written query never flashes an error.
  function refuse(message, query, mine, now) {
    resultsBox.classList.add("stale");
    resultsBox.setAttribute("aria-busy", "true");
    for (const k of Object.values(KINDS)) {
      k.count.textContent = "–";
      k.group.querySelector(".group-count").textContent = "–";
    }
    status.textContent = "The query cannot be read yet.";
    clearTimeout(errorTimer);
    const settle = () => {
      if (mine !== generation || input.value !== query) return;
      const wait = lastInput + SETTLE - performance.now();
      if (wait > 0 && !now) errorTimer = setTimeout(settle, wait);
      else showError(message);
    };
    settle();
  }

  async function search(now) {
    const query = input.value;
    const mine = ++generation;
    const url = new URL(window.location.href);
    if (query) url.searchParams.set("q", query); else url.searchParams.delete("q");
    url.searchParams.delete("page");
    history.replaceState(null, "", url);
    try {
      const kinds = Object.keys(KINDS);
      const bodies = await Promise.all(kinds.map((kind) => fetchPage(kind, query, 1)));
      if (mine !== generation) return;  // a newer keystroke already asked
      clearTimeout(errorTimer);
      errorBox.hidden = true;
      resultsBox.classList.remove("stale");
      resultsBox.removeAttribute("aria-busy");
      kinds.forEach((kind, i) => {
        const k = KINDS[kind];
        k.list.replaceChildren(...bodies[i].results.map((card) => row(card, kind)));
        k.total = bodies[i].count;
        k.shown = bodies[i].results.length;
      });
      shownQuery = query;
      updateStatus();
      status.dataset.state = "done";
      selected = -1;
    } catch (error) {
      if (mine !== generation) return;
      refuse(error.message, query, mine, now);
      status.dataset.state = "error";
    }
  }

  async function showMore(kind) {
    const k = KINDS[kind];
    const mine = generation;
    const page = Math.floor(k.shown / PAGE) + 1;
    const body = await fetchPage(kind, shownQuery, page);
    if (mine !== generation) return;
    const rows = body.results.map((card) => row(card, kind));
    k.list.append(...rows);
    k.shown += rows.length;
    k.total = body.count;
    updateMore(kind);
    if (rows.length) rows[0].querySelector("a").focus();  // keyboard users carry on from the first new card
    status.dataset.state = "done";
  }

  // --- keyboard -----------------------------------------------------------------------------------------------
  function results() {
    return Array.from(document.querySelectorAll(".result-group:not([hidden]) .result-list .result a"));
  }
  function select(index) {
    const links = results();
    if (!links.length) return;
    selected = Math.max(0, Math.min(index, links.length - 1));
    links.forEach((link, i) => link.parentElement.classList.toggle("selected", i === selected));
    links[selected].scrollIntoView({ block: "nearest" });
    const name = links[selected].textContent.replace(/\s+/g, " ").trim();
    spoken.textContent = `Result ${selected + 1} of ${links.length}: ${name}. Enter opens it.`;
  }

  document.addEventListener("keydown", (event) => {
    const typing = event.target.matches("input, textarea, select");
    if (event.key === "/" && !typing) {
      event.preventDefault();
      input.focus();
      input.select();
    } else if (event.key === "ArrowDown" && (event.target === input || !typing)) {
      event.preventDefault();
      select(selected + 1);
    } else if (event.key === "ArrowUp" && (event.target === input || !typing)) {
      event.preventDefault();
      select(selected - 1);
    } else if (event.key === "Enter" && selected >= 0 && (event.target === input || !typing)) {
      event.preventDefault();
      window.location.href = results()[selected].href;
    } else if (event.key === "Escape" && event.target === input) {
      selected = -1;
      results().forEach((link) => link.parentElement.classList.remove("selected"));
      spoken.textContent = "";
    }
  });

  input.addEventListener("input", () => {
    clearTimeout(timer);
    clearTimeout(errorTimer);  // still typing: an error waits for the pause after the next answer
    errorBox.hidden = true;  // and an old one no longer speaks of what is typed
    lastInput = performance.now();
    timer = setTimeout(() => { readPanelFromQuery(); search(false); }, 120);
  });
  form.addEventListener("submit", (event) => { event.preventDefault(); clearTimeout(timer); search(true); });
  document.getElementById("type-toggle").addEventListener("change", showType);
  for (const kind of Object.keys(KINDS)) {
    KINDS[kind].more.addEventListener("click", (event) => {
      event.preventDefault();
      status.dataset.state = "loading";
      showMore(kind);
    });
  }
  panel.addEventListener("change", writeQueryFromPanel);
  if (window.matchMedia("(max-width: 44rem)").matches) panel.open = false;  // phones: results first
  readPanelFromQuery();
  document.getElementById("search-status").dataset.state = "ready";
})();
