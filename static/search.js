// Live card search: results as you type (from the API), a filter panel that writes the same query, keyboard use.
(function () {
  "use strict";
  const input = document.getElementById("q");
  if (!input) return;
  const form = input.form;
  const errorBox = document.getElementById("search-error");
  const lists = { dragon: document.getElementById("dragon-results"), cave: document.getElementById("cave-results") };
  const counts = { dragon: document.getElementById("dragon-count"), cave: document.getElementById("cave-count") };
  const panel = document.getElementById("filter-panel");
  const PAGE = 60;
  let timer = null;
  let generation = 0;
  let selected = -1;

  // --- the query's top-level terms, so the panel can read and rewrite its own fields -----------------------
  function splitTerms(text) {
    const terms = [];
    const re = /\s*((?:[^\s"()]+"[^"]*"|"[^"]*"|\(|\)|[^\s"()]+))/g;
    let m;
    while ((m = re.exec(text)) !== null) terms.push(m[1]);
    return terms;
  }
  function panelTermOf(term) {
    // Terms the panel owns: field:value or field>=n at top level, without negation.
    const m = /^(cave|size|trait|kind|expansion|cost\.(?:meat|gold|crystal|milk|coin|egg))(:|>=|<=)(.*)$/i.exec(term);
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
    search();
  }

  // --- results ----------------------------------------------------------------------------------------------
  function row(card, kind) {
    const li = document.createElement("li");
    li.className = "result";
    const a = document.createElement("a");
    a.href = card.page;
    const num = document.createElement("span");
    num.className = "result-number";
    num.textContent = card.number;
    const name = document.createElement("span");
    name.className = "result-name";
    name.textContent = card.name + (card.printing === "updated" ? " (updated)" : "");
    a.append(num, " ", name);
    const facts = document.createElement("span");
    facts.className = "result-facts";
    if (kind === "dragon") facts.textContent = `${card.vp} VP · ${card.size} · ${card.trait}`;
    const text = document.createElement("span");
    text.className = "result-text";
    text.textContent = card.ability_text.length > 160 ? card.ability_text.slice(0, 159) + "…" : card.ability_text;
    li.append(a, facts, text);
    return li;
  }

  async function fetchKind(kind, query) {
    const endpoint = kind === "dragon" ? "/api/dragons/" : "/api/caves/";
    const params = new URLSearchParams({ q: query, page_size: PAGE, format: "json" });
    const response = await fetch(`${endpoint}?${params}`, { headers: { Accept: "application/json" } });
    const body = await response.json();
    if (!response.ok) throw new Error(body.detail || (body.q && body.q[0]) || Object.values(body)[0]);
    return body;
  }

  async function search() {
    const query = input.value;
    const mine = ++generation;
    const url = new URL(window.location.href);
    if (query) url.searchParams.set("q", query); else url.searchParams.delete("q");
    history.replaceState(null, "", url);
    try {
      const [dragons, caves] = await Promise.all([fetchKind("dragon", query), fetchKind("cave", query)]);
      if (mine !== generation) return;  // a newer keystroke already asked
      errorBox.hidden = true;
      for (const [kind, body] of [["dragon", dragons], ["cave", caves]]) {
        lists[kind].replaceChildren(...body.results.map((card) => row(card, kind)));
        counts[kind].textContent = body.count;
      }
      const shown = dragons.results.length + caves.results.length;
      document.getElementById("shown-note").textContent =
        shown < dragons.count + caves.count ? ` (the first ${PAGE} of each shown: narrow the search to see the rest)` : "";
      document.getElementById("search-status").dataset.state = "done";
      selected = -1;
    } catch (error) {
      if (mine !== generation) return;
      errorBox.textContent = error.message;
      errorBox.hidden = false;
      document.getElementById("search-status").dataset.state = "error";
    }
  }

  // --- keyboard -----------------------------------------------------------------------------------------------
  function results() { return Array.from(document.querySelectorAll(".result-list .result a")); }
  function select(index) {
    const links = results();
    if (!links.length) return;
    selected = Math.max(0, Math.min(index, links.length - 1));
    links.forEach((link, i) => link.parentElement.classList.toggle("selected", i === selected));
    links[selected].scrollIntoView({ block: "nearest" });
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
    }
  });

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => { readPanelFromQuery(); search(); }, 120);
  });
  form.addEventListener("submit", (event) => { event.preventDefault(); clearTimeout(timer); search(); });
  panel.addEventListener("change", writeQueryFromPanel);
  if (window.matchMedia("(max-width: 44rem)").matches) panel.open = false;  // phones: results first
  readPanelFromQuery();
  document.getElementById("search-status").dataset.state = "ready";
})();
