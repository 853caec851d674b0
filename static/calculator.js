// Score calculator page. Without this script the page is a plain form that works; with it, only what applies shows:
// the chosen mode and number of players, dragon rows as they are needed, per dragon only the inputs it takes (and
// its nests), and running totals and ability VP from the server as you type (POST with `preview`, failing soft).
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var form = document.getElementById("calc-form");
  if (!form) return;
  var dragons = JSON.parse(document.getElementById("dragon-data").textContent);
  // The ways the server names a card (lookups.find_dragon): slug, number, "number name", or name alone.
  var bySlug = {}, byNumber = {}, byName = {};
  dragons.forEach(function (d) {
    bySlug[d.slug] = d;
    byNumber[d.number + " " + d.printing] = d;
    var name = d.name.toLowerCase() + " " + d.printing;
    if (!(name in byName)) byName[name] = d;
  });
  var count = document.getElementById("player-count");
  var solo = document.getElementById("solo");
  var academy = form.querySelector("input[name=academy]");
  var CAVE_NAMES = JSON.parse(document.getElementById("wyrmdex-vocabulary").textContent).cave_names;  // base.html

  function each(selector, fn, root) {
    Array.prototype.forEach.call((root || form).querySelectorAll(selector), fn);
  }

  function mode() {
    var checked = form.querySelector("input[name=mode]:checked");
    return checked ? checked.value : "quick";
  }

  function nameOf(i) {
    var input = form.querySelector("input[name='players[" + i + "].name']");
    return input ? input.value.trim() : "";
  }

  function filledPlayers() {
    var n = 0;
    for (var i = 0; i < 5; i++) if (nameOf(i)) n = i + 1;
    return Math.max(n, 1);
  }

  function showPlayers() {
    var n = solo.checked ? 1 : parseInt(count.value, 10);
    each("[data-player]", function (el) {
      var hidden = parseInt(el.getAttribute("data-player"), 10) >= n;
      el.classList.toggle("is-hidden", hidden);
      if (el.matches("td, fieldset, .calc-name, .calc-round-cell")) {
        each("input, select", function (input) { input.disabled = hidden; }, el);
      }
    });
    count.disabled = solo.checked;
  }

  function showMode() {
    form.classList.toggle("calc-mode-quick", mode() === "quick");
    form.classList.toggle("calc-mode-card", mode() === "card");
    form.classList.toggle("calc-solo", solo.checked);
  }

  function showNames() {
    for (var i = 0; i < 5; i++) {
      var name = nameOf(i) || "Player " + (i + 1);
      each(".calc-player-name[data-player='" + i + "']", function (el) { el.textContent = name; });
    }
  }

  function fillDatalist() {
    var list = document.getElementById("dragon-list");
    list.innerHTML = "";
    dragons.forEach(function (d) {
      if (d.academy && !academy.checked) return;
      var option = document.createElement("option");
      option.value = d.label;
      list.appendChild(option);
    });
  }

  function find(text) {
    text = text.trim().toLowerCase();
    if (!text) return null;
    if (bySlug[text]) return bySlug[text];
    var printing = academy.checked ? "updated" : "original";
    var space = text.indexOf(" ");
    var head = space < 0 ? text : text.slice(0, space);
    var rest = space < 0 ? "" : text.slice(space + 1);
    if (/^\d+$/.test(head)) {
      var updated = academy.checked || /\(updated\)$/.test(rest);
      var number = parseInt(head, 10);
      var card = byNumber[number + (updated ? " updated" : " original")] || byNumber[number + " original"];
      if (!card || !rest) return card || null;
      return card.name.toLowerCase() === rest.replace(/\(updated\)$/, "").trim() ? card : null;
    }
    return byName[text + " " + printing] || byName[text + " original"] || null;
  }

  function toggleField(input, show) {
    input.closest(".calc-field").classList.toggle("is-hidden", !show);
  }

  function updateRow(row) {
    var input = row.querySelector("input.calc-dragon");
    var dragon = find(input.value);
    var cave = row.closest(".calc-cave").getAttribute("data-key");
    row.classList.toggle("is-empty", !input.value.trim());
    var get = function (key) { return row.querySelector("[name$='." + key + "']"); };
    var info = row.querySelector(".calc-nests");
    toggleField(get("tokens"), !dragon || dragon.fledgling || !!get("tokens").value);
    toggleField(get("eggs"), !dragon || dragon.capacity > 0 || !!get("eggs").value);
    var counted = dragon && dragon.counts.length ? dragon.counts[0] : "";
    get("cached").closest(".calc-field").querySelector("span").textContent =
      counted ? counted.charAt(0).toUpperCase() + counted.slice(1) + " cached" : "Cached";
    toggleField(get("cached_other"), !!counted || !!get("cached_other").value);
    if (dragon) {
      var lives = dragon.caves.indexOf(cave) >= 0;
      input.setCustomValidity(lives ? "" : "This dragon does not live in this cave");
      var name = dragon.label.replace(/^\d+ /, "");
      info.textContent = name + " · " + (lives ? (dragon.capacity ? dragon.capacity + " nest" + (dragon.capacity > 1 ? "s" : "") : "no nest")
        : "lives in the " + dragon.caves.map(function (c) { return CAVE_NAMES[c]; }).join(" or "));
      info.classList.toggle("calc-warn", !lives);
    } else {
      input.setCustomValidity("");
      info.textContent = input.value.trim() ? "not found: pick a name from the list" : "";
      info.classList.toggle("calc-warn", !!input.value.trim());
    }
    var choice = row.querySelector(".calc-choice-field");
    var select = choice.querySelector("select");
    var options = dragon ? dragon.choices : [];
    choice.classList.toggle("is-hidden", !options.length && !select.value);
    if (options.length) {
      Array.prototype.forEach.call(select.options, function (opt) {
        if (opt.value === "") return;
        var found = options.filter(function (o) { return String(o[0]) === opt.value; })[0];
        opt.hidden = !found;
        if (found) opt.textContent = found[1];
      });
    }
  }

  // Each cave shows its filled rows and the first empty one: a row appears when the one above gets a dragon.
  function showRows(cave) {
    var shownEmpty = false;
    each(".calc-row", function (row) {
      var empty = row.classList.contains("is-empty");
      row.classList.toggle("is-spare", empty && shownEmpty);
      if (empty) shownEmpty = true;
    }, cave);
  }

  var timer = null;
  var asked = 0;
  function preview() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var body = new FormData(form);
      body.append("preview", "1");
      var mine = ++asked;
      fetch(window.location.pathname, { method: "POST", body: body, credentials: "same-origin",
                                        headers: { "X-Requested-With": "fetch" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) { if (mine === asked) showPreview(data); })
        .catch(function () { if (mine === asked) showPreview(null); });
    }, 400);
  }

  // A total the server cannot vouch for (another line has a mistake the ranking needs) is marked "≈", with a note.
  function showPreview(data) {
    var unsure = false;
    each("output.calc-running", function (out) {
      var block = out.getAttribute("data-block");
      var total = data ? data.totals[block] : undefined;
      var known = total !== undefined && total !== null;
      var final = known && data.final[block] !== false;
      out.textContent = !known ? "–" : (final ? "" : "≈ ") + total + " VP";
      out.classList.toggle("calc-unsure", known && !final);
      if (known && !final) {
        out.title = "Not final: another line has a mistake";
        if (!out.closest(".is-hidden")) unsure = true;
      } else {
        out.removeAttribute("title");
      }
    });
    var note = document.getElementById("calc-running-note");
    if (note) note.hidden = !unsure;
    each("output.calc-ability", function (out) {
      var vp = data ? data.abilities[out.getAttribute("data-for")] : undefined;
      out.textContent = vp === undefined ? "" : "· ability: " + vp + " VP";
    });
  }

  form.addEventListener("change", function (event) {
    var target = event.target;
    if (target.name === "mode" || target === solo) { showMode(); showPlayers(); }
    if (target === count) showPlayers();
    if (target === academy) fillDatalist();
    var row = target.closest && target.closest(".calc-row");
    if (row) { updateRow(row); showRows(row.closest(".calc-cave")); }
    preview();
  });
  form.addEventListener("input", function (event) {
    var target = event.target;
    var row = target.closest && target.closest(".calc-row");
    if (row && target.classList.contains("calc-dragon")) { updateRow(row); showRows(row.closest(".calc-cave")); }
    if (/\.name$/.test(target.name)) showNames();
    preview();
  });

  if (!count.getAttribute("data-initial")) count.value = String(Math.max(filledPlayers(), 2));
  showMode();
  showPlayers();
  showNames();
  fillDatalist();
  each(".calc-row", updateRow);
  each(".calc-cave", showRows);
  preview();
  var errors = document.getElementById("calc-errors");
  if (errors) {
    errors.scrollIntoView({ block: "start" });
    errors.focus({ preventScroll: true });
  }
})();
