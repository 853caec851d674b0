// Score calculator page: show the fields of the chosen mode, the chosen number of players, and per dragon only the
// inputs that make sense (training for fledglings, the end-game choice when there is one). The page works without it.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var form = document.getElementById("calc-form");
  if (!form) return;
  var dragons = JSON.parse(document.getElementById("dragon-data").textContent);
  var byLabel = {};
  dragons.forEach(function (d) { byLabel[d.label.toLowerCase()] = d; });
  var count = document.getElementById("player-count");
  var solo = document.getElementById("solo");
  var academy = form.querySelector("input[name=academy]");
  var players = Array.prototype.slice.call(form.querySelectorAll(".calc-player"));

  function mode() {
    var checked = form.querySelector("input[name=mode]:checked");
    return checked ? checked.value : "quick";
  }

  function filledPlayers() {
    var n = 0;
    players.forEach(function (p, i) {
      if (p.querySelector("input[name$='.name']").value.trim()) n = i + 1;
    });
    return Math.max(n, 1);
  }

  function showPlayers() {
    var n = solo.checked ? 1 : parseInt(count.value, 10);
    players.forEach(function (p, i) {
      var hidden = i >= n;
      p.classList.toggle("is-hidden", hidden);
      p.querySelectorAll("input, select").forEach(function (el) { el.disabled = hidden; });
    });
    count.disabled = solo.checked;
  }

  function showMode() {
    form.classList.toggle("calc-mode-quick", mode() === "quick");
    form.classList.toggle("calc-mode-card", mode() === "card");
    form.classList.toggle("calc-solo", solo.checked);
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
    if (byLabel[text]) return byLabel[text];
    var number = parseInt(text, 10);
    if (String(number) === text) {
      var wanted = academy.checked ? " (updated)" : "";
      var match = null;
      dragons.forEach(function (d) {
        if (parseInt(d.label, 10) === number && (!match || d.label.slice(-wanted.length) === wanted)) match = d;
      });
      return match;
    }
    return null;
  }

  function updateSpace(space) {
    var input = space.querySelector("input.calc-dragon");
    var dragon = find(input.value);
    space.classList.toggle("is-empty", !input.value.trim());
    var tokens = space.querySelector("input[name$='.tokens']");
    var eggs = space.querySelector("input[name$='.eggs']");
    var choice = space.querySelector(".calc-choice-field");
    var select = choice.querySelector("select");
    tokens.closest(".calc-field").classList.toggle("is-hidden", !!dragon && !dragon.training);
    if (dragon) {
      eggs.max = dragon.capacity;
      tokens.max = dragon.training;
      var cave = space.getAttribute("data-cave");
      var lives = dragon.habitats.split(",").indexOf(cave) >= 0;
      input.setCustomValidity(lives ? "" : "This dragon does not live in this cave");
    } else {
      input.setCustomValidity("");
    }
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

  form.addEventListener("change", function (event) {
    var target = event.target;
    if (target.name === "mode" || target === solo) { showMode(); showPlayers(); }
    if (target === count) showPlayers();
    if (target === academy) fillDatalist();
    var space = target.closest && target.closest(".calc-space");
    if (space) updateSpace(space);
  });
  form.addEventListener("input", function (event) {
    var space = event.target.closest && event.target.closest(".calc-space");
    if (space && event.target.classList.contains("calc-dragon")) updateSpace(space);
  });

  if (!count.getAttribute("data-initial")) count.value = String(Math.max(filledPlayers(), 2));
  showMode();
  showPlayers();
  fillDatalist();
  form.querySelectorAll(".calc-space").forEach(updateSpace);
  var errors = document.getElementById("calc-errors");
  if (errors) {
    var first = form.querySelector("[aria-invalid=true]");
    (first || errors).scrollIntoView({ block: "center" });
  }
})();
