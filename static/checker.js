// The ability checker page: the form and every step are plain links that work without this script. With it, a
// card's abilities load as the card is picked, more dragon rows open on demand, and each step is fetched and
// swapped in (with a spinner while the engine runs) instead of reloading the page.
(function () {
  "use strict";
  var root = document.getElementById("checker");
  var form = document.getElementById("checker-form");
  if (!root || !form) return;
  var cardInput = document.getElementById("ck-card");
  var abilitySelect = document.getElementById("ck-ability");
  var busy = 0;

  function spin(on) {
    busy += on ? 1 : -1;
    root.classList.toggle("ck-busy", busy > 0);
    root.setAttribute("aria-busy", busy > 0 ? "true" : "false");
  }

  // -- abilities of the picked card ---------------------------------------------------------------------------
  var lastCard = cardInput.value;
  function loadAbilities() {
    var card = cardInput.value.trim();
    if (!card || card === lastCard) return;
    lastCard = card;
    spin(true);
    fetch("/api/checker/?card=" + encodeURIComponent(card), {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); })
      .then(function (res) {
        var field = cardInput.closest(".ck-field");
        var old = field.querySelector(".ck-error");
        if (old) old.remove();
        field.classList.toggle("has-error", !res.ok);
        if (!res.ok) {
          var span = document.createElement("span");
          span.className = "ck-error";
          span.setAttribute("role", "alert");
          span.textContent = res.body.detail;
          field.appendChild(span);
          return;
        }
        abilitySelect.innerHTML = "";
        res.body.abilities.forEach(function (a) {
          var opt = document.createElement("option");
          opt.value = a.index;
          var text = a.label;
          opt.textContent = text.length > 90 ? text.slice(0, 89) + "…" : text;
          abilitySelect.appendChild(opt);
        });
      })
      .catch(function () { lastCard = null; })
      .then(function () { spin(false); });
  }
  cardInput.addEventListener("change", loadAbilities);
  cardInput.addEventListener("blur", loadAbilities);

  // -- more dragon rows ---------------------------------------------------------------------------------------
  var addButton = document.getElementById("ck-add-row");
  function hiddenRows() { return form.querySelectorAll(".ck-row[hidden]"); }
  if (addButton && hiddenRows().length) {
    addButton.hidden = false;
    addButton.addEventListener("click", function () {
      var rows = hiddenRows();
      if (rows.length) {
        rows[0].hidden = false;
        var input = rows[0].querySelector("input");
        if (input) input.focus();
      }
      addButton.hidden = hiddenRows().length === 0;
    });
  }

  // -- steps without reloading --------------------------------------------------------------------------------
  // Fetch a step's result and swap it in. A refused form (400) reloads as a whole page instead, so each mistake is
  // drawn beside its field.
  function show(query, push, formErrorsInPlace) {
    spin(true);
    var url = window.location.pathname + query;
    return fetch(url + (query ? "&" : "?") + "partial=1", {headers: {"Accept": "text/html"}})
      .then(function (r) {
        if (formErrorsInPlace && r.status === 400) { window.location.href = url; return null; }
        return r.text();
      })
      .then(function (html) {
        if (html === null) return;
        var old = document.getElementById("checker-result");
        var box = document.createElement("div");
        box.innerHTML = html;
        var fresh = box.querySelector("#checker-result");
        if (old && fresh) old.replaceWith(fresh);
        if (push) history.pushState({query: query}, "", url);
        var pending = document.querySelector(".ck-pending, .ck-done, .ck-errors");
        if (pending && pending.scrollIntoView) pending.scrollIntoView({block: "nearest"});
      })
      .catch(function () { window.location.href = url; })
      .then(function () { spin(false); });
  }

  root.addEventListener("click", function (event) {
    var link = event.target.closest("a.ck-option, a.ck-auto, a.ck-back, a.ck-restart");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    show(link.getAttribute("href"), true);
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, key) { if (String(value).trim() !== "") params.append(key, value); });
    show("?" + params.toString(), true, true);
  });

  window.addEventListener("popstate", function () { show(window.location.search, false); });
})();
