// The analysis board (templates/game/analysis.html): keeps the position (setup + edits), the attempt and a tree of
// branches (each a list of decisions), asks /api/analysis/ and draws what it answers. Nothing is stored on the server.
(function () {
  "use strict";
  var root = document.getElementById("analysis");
  if (!root) return;
  var api = root.dataset.api;
  var engineApi = root.dataset.engine;
  var VOCABULARY = JSON.parse(document.getElementById("wyrmdex-vocabulary").textContent);  // base.html
  var CAVES = VOCABULARY.caves;
  var CAVE_LABELS = VOCABULARY.cave_names;
  var SHORT = VOCABULARY.cave_short;
  var startData = JSON.parse(document.getElementById("an-start").textContent || "null");

  // A shared link's line (views_analysis.py `_line`): what was tried, every branch and the one shown.
  var startLine = JSON.parse(document.getElementById("an-line").textContent || "null");

  var position = startData || {setup: {players: 2, seed: 1, academy: false}, edits: []};
  var attempt = startLine ? startLine.try : {};
  var branches = startLine ? startLine.branches : [[]];  // each branch is a list of decisions; the move tree's leaves
  var current = startLine ? startLine.current : 0;
  // Set by what asks the engine something (a try, an option, a branch): the answer is then brought into view, as
  // on a phone it sits far below the table. An edit of the table does not move the page.
  var reveal = Boolean(startLine);
  var viewSeat = 0;
  var last = null;
  var refusal = null;  // the last 400's body: {detail, field}

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function costText(cost) {
    if (!cost) return "";
    var parts = Object.keys(cost).map(function (k) { return cost[k] + " " + k; });
    return parts.length ? "costs " + parts.join(", ") : "costs nothing";
  }

  // Scroll `node` to the top of the window when it is not already in full view, and give it the focus (without a
  // second scroll) so that a screen reader reads the answer next.
  function bringIntoView(node) {
    var box = node.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight - Math.min(box.height, window.innerHeight / 2)) {
      node.scrollIntoView({block: "start"});
    }
    if (!node.hasAttribute("tabindex")) node.setAttribute("tabindex", "-1");
    node.focus({preventScroll: true});
  }

  function send() {
    var body = {position: position, try: attempt, decisions: branches[current]};
    root.classList.add("an-busy");
    return fetch(api, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (response) { return response.json().then(function (data) { return [response.status, data]; }); })
      .then(function (pair) {
        root.classList.remove("an-busy");
        var errors = $("an-errors");
        if (pair[0] !== 200) {
          reveal = false;
          refusal = pair[1];
          errors.hidden = false;
          errors.textContent = pair[1].detail || "Something went wrong.";
          errors.dataset.field = pair[1].field || "";
          return null;
        }
        errors.hidden = true;
        last = pair[1];
        draw();
        if (reveal) bringIntoView($("an-question"));
        reveal = false;
        return last;
      })
      .catch(function () {
        root.classList.remove("an-busy");
        $("an-errors").hidden = false;
        $("an-errors").textContent = "The server did not answer; try again.";
      });
  }

  function edit(change) {
    position.edits = (position.edits || []).concat([change]);
    branches = [[]];
    current = 0;
    return send().then(function (answer) {
      if (answer === null) {  // refused: the edit is taken back, the error names the field
        position.edits = position.edits.slice(0, -1);
      }
    });
  }

  // -- the table ----------------------------------------------------------------------------------------------
  // The mat and the hands are the board's own (every seat is editable); the shared table (round tracker, guild,
  // display, supplies) is drawn by static/table.js from the engine's public view, as the match page draws it. Each
  // click is one edit of the position; a refused edit is taken back and the error names its field.
  var T = window.WyrmdexTable;
  var make = T.el;  // el with children and handlers, for the pieces beside the shared drawing

  function shown() { return last.table.seats[viewSeat] || last.table.seats[0]; }

  function seatName(seat) { return "Player " + (seat + 1); }

  function marker(seat) {
    return make("span", {class: "match-marker match-seat-" + seat, title: seatName(seat)}, "P" + (seat + 1));
  }

  // The markers a button shows, in words for its name: a button's name holds what it shows (WCAG's label in
  // name), so a person who says what they see ("click P1") reaches it.
  function markersText(seats) {
    return seats.map(function (s) { return marker(s).textContent; }).join(" ");
  }

  // A small edit button: at least 44px square, keyed so that focus finds it again after the redraw.
  function editButton(key, text, label, onclick, extra) {
    return make("button", Object.assign({type: "button", class: "an-edit", "data-key": key, "aria-label": label,
      onclick: onclick}, extra || {}), text);
  }

  function plusMinus(key, label, count, set, high) {
    return [
      editButton(key + ":-", "−", label + ": one fewer", function () { set(count - 1); },
        {disabled: count <= 0 ? true : null}),
      editButton(key + ":+", "+", label + ": one more", function () { set(count + 1); },
        {disabled: high !== undefined && count >= high ? true : null}),
    ];
  }

  function tableContext() {
    var d = last.drawing, seat = shown().seat, name = seatName(seat);
    var v = d.view, me = v.players[seat];
    return {
      view: v, board: d.board, cards: d.cards, guildRows: d.guild_rows, guildComplete: d.guild_complete,
      objectiveTexts: d.objective_texts, marker: marker, shortName: seatName, playerName: seatName,
      automaName: "The Automa",
      track: function (i) {
        var size = d.board.guild_track.length, lap = Math.floor(me.guild_advancements / size);
        var steps = lap * size + ((i - d.board.guild_start) % size + size) % size;
        var here = v.players.filter(function (p) { return p.guild_space === i; }).map(function (p) { return p.seat; });
        if (v.automa && v.automa.guild_space === i) here.push(v.automa.seat);
        return {cls: "an-edit", label: "Track space " + (i + 1) + (here.length ? ", " + markersText(here) : "") +
          ": move " + name + "'s guild token here",
          pressed: me.guild_space === i, attrs: {"data-key": "track:" + i},
          onclick: function () { edit({do: "guild", seat: seat, advancements: steps}); }};
      },
      square: function (row, sq, seats) {
        var rowNumber = row === -1 ? v.guild.squares.length : row + 1, mine = seats.indexOf(seat) >= 0;
        var where = (row === -1 ? "the END GAME row" : "guild tile row " + rowNumber) + ", square " + (sq + 1);
        return {cls: "an-edit", pressed: mine, attrs: {"data-key": "square:" + row + ":" + sq},
          label: (mine ? "Take " + name + "'s marker off " : "Put " + name + "'s marker on ") + where +
            (seats.length ? ", holding " + markersText(seats) : ""),
          onclick: function () {
            edit({do: mine ? "remove_marker" : "marker", seat: seat, row: rowNumber, square: sq + 1});
          }};
      },
      places: function (rnd) { return objectivePlaces(v, d.board, seat, rnd); },
      income: function (rnd, i, who) {
        if (rnd !== v.round) return null;  // a seat's income space is the round in play's
        var mine = who.indexOf(seat) >= 0;
        return {cls: "an-edit", pressed: mine, attrs: {"data-key": "income:" + i},
          label: (mine ? name + " leaves income space " : name + " passes onto income space ") + (i + 1),
          onclick: function () { edit({do: "income", seat: seat, space: mine ? null : i + 1}); }};
      },
      displayExtra: function (type, i) {
        return editButton("display:" + type + ":" + i, "Take out ×", "Take out this card from the display",
          function () { setDisplay(type, i, null); }, {class: "an-edit an-display-slot", "data-slot": type + ":" + i});
      },
      emptySlot: function (type, i) {
        var typed = type === "dragon" ? dragonTyped() : caveTyped();
        return make("div", {class: "match-card an-empty-slot"}, "(empty " + type + " slot) ",
          editButton("display:" + type + ":" + i, typed === null ? "Fill from the deck" : "Put " + typed + " here",
            (typed === null ? "Fill from the deck" : "Put " + typed + " here") + ": the empty " + type + " slot",
            function () { setDisplay(type, i, typed === null ? "deck" : typed); },
            {class: "an-edit an-display-slot", "data-slot": type + ":" + i}));
      },
      adjust: function (pl, item) {
        var count = item === "coin" ? pl.coins : pl.resources[item];
        return plusMinus("supply:" + item, name + "'s " + (item === "coin" ? "coins" : item), count, function (n) {
          if (item === "coin") return edit({do: "coins", seat: pl.seat, coins: n});
          var res = {};
          res[item] = n;
          return edit({do: "resources", seat: pl.seat, resources: res});
        });
      },
    };
  }

  // The places of a round's objective, each a button putting the shown player's marker there.
  function objectivePlaces(v, board, seat, rnd) {
    var vp = board.objective_vp[rnd - 1] || [];
    var mine = v.players[seat].objective_places;
    var box = make("div", {class: "an-places match-standing"}, "Markers: ");
    [1, 2, 3, 0].forEach(function (place) {
      var here = v.players.filter(function (p) { return p.objective_places.length >= rnd && p.objective_places[rnd - 1] === place; });
      var pressed = mine.length >= rnd && mine[rnd - 1] === place;
      var words = place ? T.PLACES[place - 1] + " (" + (vp[place - 1] || 0) + " VP)" : "all others";
      box.appendChild(editButton("place:" + rnd + ":" + place, [words, " "].concat(here.map(function (p, i) { return i ? [" ", marker(p.seat)] : marker(p.seat); })),
        "Put " + seatName(seat) + "'s objective marker on round " + rnd + ": " + words +
          (here.length ? " " + markersText(here.map(function (p) { return p.seat; })) : ""),
        function () { edit({do: "objective", seat: seat, round: rnd, place: place}); },
        {"aria-pressed": String(pressed), class: "an-edit an-place"}));
    });
    if (mine.length === rnd) {
      box.appendChild(editButton("place:" + rnd + ":off", "take off", "Take " + seatName(seat) + "'s round " + rnd +
        " objective marker off", function () { edit({do: "objective", seat: seat, round: rnd, place: null}); },
        {class: "an-edit an-place"}));
    }
    return box;
  }

  function dragonTyped() {
    var card = $("an-dragon").value.trim();
    if (!card) return null;
    var m = /^(\d+)/.exec(card);
    return m ? Number(m[1]) : card.replace(/ \(updated\)$/, "");
  }

  function caveTyped() {
    var m = /(\d+)/.exec($("an-cave").value);
    return m ? Number(m[1]) : null;
  }

  function setDisplay(type, i, card) {
    var shownDisplay = last.table.display;
    var dragons = shownDisplay.dragons.map(function (d) { return d ? d.number : null; });
    var caves = shownDisplay.caves.slice();
    if (type === "dragon") dragons[i] = card; else caves[i] = card;
    edit({do: "display", dragons: dragons, caves: caves});
  }

  function drawSeats(table) {
    var box = $("an-seats");
    box.textContent = "";
    var select = $("an-try-seat");
    var chosen = select.value;
    select.textContent = "";
    table.seats.forEach(function (seat) {
      var tab = el("button", {type: "button", role: "tab", "aria-selected": String(seat.seat === viewSeat),
        "data-key": "seat:" + seat.seat},
        seat.name + (seat.seat === table.current ? " (to move)" : "") + (seat.passed ? " · passed" : ""));
      tab.addEventListener("click", function () { viewSeat = seat.seat; draw(); });
      box.appendChild(tab);
      select.appendChild(el("option", {value: String(seat.seat)}, seat.name));
    });
    select.value = chosen || "0";
  }

  // The shown player: supply with +/−, mat nests, passing, the turn, and a line in words for screen readers.
  function drawPlayer(table, seat, ctx) {
    var box = $("an-player");
    var pl = ctx.view.players[seat.seat];
    var passed = make("button", {type: "button", class: "an-edit an-passed", "data-key": "passed",
      "aria-pressed": String(seat.passed), onclick: function () { edit({do: "passed", seat: seat.seat, passed: !seat.passed}); }},
    seat.passed ? seat.name + " has passed (click: not passed)" : seat.name + " has not passed (click: passed)");
    var nest = plusMinus("nest", seat.name + "'s eggs in mat nests", seat.nest, function (n) {
      edit({do: "nest", seat: seat.seat, eggs: n}); }, last.drawing.board.mat_nests);
    var turn = seat.seat === table.current ? make("span", {class: "an-note"}, "to move")
      : make("button", {type: "button", class: "an-edit an-turn", "data-key": "turn", onclick: function () {
        position.seat = seat.seat; branches = [[]]; current = 0; attempt = {seat: seat.seat}; send();
      }}, "make " + seat.name + " the one to move");
    T.fill(box,
      make("h3", {}, marker(seat.seat), " ", seat.name, " · ", seat.vp + " VP on the table"),
      T.supply(ctx, pl),
      make("div", {class: "an-player-row"},
        make("span", {class: "match-adjust", "data-item": "nest"}, nest[0],
          make("span", {class: "match-item"}, T.pic("egg", "eggs in mat nests"), " " + seat.nest + " in mat nests"), nest[1]),
        passed, turn),
      make("p", {class: "an-summary"}, seat.name + ": " + T.plural(seat.coins, "coin") + " · " +
        VOCABULARY.resources.map(function (r) { return seat.resources[r] + " " + r; }).join(", ") + " · " +
        T.plural(seat.nest, "egg") + " in mat nests · hand: " +
        (seat.hand.map(function (d) { return d.name + " (" + d.number + ")"; }).join(", ") || "none") +
        " · " + T.plural(seat.cave_cards.length, "cave card") + " · guild " + seat.guild + " · round " + table.round));
  }

  // Rules the position breaks (the answer's `broken_rules`): said above the mat and beside the question, and the
  // spaces concerned are marked on the mat. The board allows them, for what-if questions.
  function drawBroken() {
    var broken = last.broken_rules || [];
    [$("an-broken"), $("an-broken-note")].forEach(function (box, i) {
      box.textContent = "";
      box.hidden = !broken.length;
      if (!broken.length) return;
      box.appendChild(el("strong", {}, i ? "The answer is for a position the rules could not reach."
        : "This position breaks a rule of the game (allowed here, for what-if questions):"));
      if (i) return;
      var list = el("ul");
      broken.forEach(function (b) {
        var li = el("li", {"data-rule": b.rule}, b.text + " ");
        if (b.rules) li.appendChild(el("a", {href: b.rules}, "the rule"));
        list.appendChild(li);
      });
      box.appendChild(list);
    });
  }

  function brokenAt(seat, cave, column) {
    return (last.broken_rules || []).filter(function (b) {
      return b.seat === seat && b.cave === cave && b.column === column;
    });
  }

  function drawMat(table, seat) {
    var mat = $("an-mat");
    mat.textContent = "";
    CAVES.forEach(function (cave, c) {
      var times = seat.explored[cave];
      var head = make("div", {class: "an-cave-name"}, make("span", {}, CAVE_LABELS[cave]),
        make("span", {class: "an-explored", title: "explores of this cave this round"}, "explored " + times + "× ", plusMinus("explore:" + cave, seat.name + "'s explores of the " + CAVE_LABELS[cave] + " this round", times,
          function (n) { edit({do: "explored", seat: seat.seat, cave: cave, times: n}); },
          last.drawing.board.explore_costs.length)));
      mat.appendChild(head);
      // The cave's path as the mat prints it: its icons between the spaces, as on the match page.
      var facts = last.drawing.board.mat[c];
      var path = make("div", {class: "match-path an-path"});
      mat.appendChild(path);
      seat.mat.filter(function (s) { return s.cave === cave; }).forEach(function (s) {
        path.appendChild(T.printed(facts && facts.before[s.column - 1], "before space " + s.column));
        var button = el("button", {type: "button", class: "an-space " + (s.excavated ? "an-dug" : "an-closed"),
          "data-cave": cave, "data-column": String(s.column), "data-key": "space:" + cave + ":" + s.column});
        var title = s.dragon ? s.dragon.name + " (" + s.dragon.number + ")" : (s.excavated ? "empty" : "not excavated");
        button.appendChild(el("strong", {}, "Column " + s.column));
        button.appendChild(el("span", {class: "an-space-what"}, title));
        if (s.dragon) {
          var bits = ["eggs " + s.eggs + "/" + s.dragon.capacity];
          Object.keys(s.cached).forEach(function (r) { bits.push(s.cached[r] + " " + r); });
          if (s.tucked) bits.push(s.tucked + " tucked");
          if (s.dragon.training) bits.push("training " + s.tokens + "/" + s.dragon.training);
          button.appendChild(document.createTextNode(bits.join(" · ")));
        } else if (s.cave_card) {
          button.appendChild(document.createTextNode("cave card " + s.cave_card));
        }
        var broken = brokenAt(seat.seat, cave, s.column);
        if (broken.length) {
          button.classList.add("an-space-broken");
          button.appendChild(el("span", {class: "an-space-warning"}, " ⚠ " + broken.map(function (b) {
            return b.rule === "habitat" ? "not its cave" : b.rule === "from_left" ? "gap on its left" : "Dragon Academy card";
          }).join(", ")));
        }
        button.addEventListener("click", function () { clickSpace(seat.seat, cave, s); });
        path.appendChild(button);
      });
      path.appendChild(T.printed(facts && facts.end, "end of the cave"));
    });
  }

  // The shown player's hand: dragons and cave cards, each a click away from the discard; more by the typed card.
  function drawHand(seat) {
    var hand = seat.hand.map(function (d) { return d.number; });
    var caves = seat.cave_cards;
    var dragonsRow = make("div", {class: "an-clicks", id: "an-clicks"}, make("span", {class: "an-note"}, "Dragons in hand: "));
    seat.hand.forEach(function (d, i) {
      dragonsRow.appendChild(editButton("hand:" + d.number, d.name + " (" + d.number + ") ×", "Discard " + d.name + " from the hand",
        function () { edit({do: "hand", seat: seat.seat, dragons: hand.slice(0, i).concat(hand.slice(i + 1))}); },
        {class: "an-edit an-hand-card", "data-card": String(d.number)}));
    });
    dragonsRow.appendChild(editButton("hand:add", "+ the dragon typed above", "Add the dragon typed above to the hand",
      function () {
        var card = dragonTyped();
        if (card === null) { $("an-dragon").focus(); return; }
        edit({do: "hand", seat: seat.seat, dragons: hand.concat([card])});
      }, {class: "an-edit an-hand-add"}));
    var cavesRow = make("div", {class: "an-clicks"}, make("span", {class: "an-note"}, "Cave cards in hand: "));
    caves.forEach(function (number, i) {
      cavesRow.appendChild(editButton("cave:" + number, "cave " + number + " ×", "Discard cave " + number + " from the hand",
        function () { edit({do: "cave_cards", seat: seat.seat, caves: caves.slice(0, i).concat(caves.slice(i + 1))}); },
        {class: "an-edit an-cave-card", "data-card": String(number)}));
    });
    var typed = caveTyped();
    cavesRow.appendChild(editButton("cave:add", typed === null ? "+ a cave card from the deck" : "+ cave card " + typed,
      typed === null ? "Add a cave card from the deck to the hand" : "Add cave card " + typed + " to the hand",
      function () { edit({do: "cave_cards", seat: seat.seat, caves: caves.concat([caveTyped() === null ? "deck" : caveTyped()])}); },
      {class: "an-edit an-cave-add"}));
    T.fill($("an-hand"), dragonsRow, cavesRow);
  }

  function drawShared(table, ctx) {
    var less = editButton("round:-", "−", "The round before", function () { edit({do: "round", round: table.round - 1}); },
      {class: "an-edit an-round-less", disabled: table.round <= 1 ? true : null});
    var more = editButton("round:+", "+", "The next round", function () { edit({do: "round", round: table.round + 1}); },
      {class: "an-edit an-round-more", disabled: table.round >= ctx.view.objectives.length ? true : null});
    var round = T.round(ctx);
    round[0].append(" ", less, more);
    T.fill($("an-round"), round);
    T.fill($("an-guild"), T.guild(ctx), make("p", {class: "an-note"}, "Click a track space to move " +
      seatName(shown().seat) + "'s guild token there, a square of the tile to put their marker on it (or take it off)."));
    T.fill($("an-display"), T.display(ctx));
  }

  function drawTable(table) {
    var seat = shown(), ctx = tableContext();
    drawPlayer(table, seat, ctx);
    drawMat(table, seat);
    drawHand(seat);
    drawShared(table, ctx);
    // Each box shows the position and remembers it as its default: Apply sends only the boxes changed since.
    var form = $("an-supply"), res = seat.resources;
    function put(input, value) { input.defaultValue = String(value); input.value = String(value); }
    put(form.coins, seat.coins); put(form.nest, seat.nest); put(form.caves, seat.cave_cards.length);
    VOCABULARY.resources.forEach(function (r) { put(form[r], res[r]); });
    put(form.hand, seat.hand.map(function (d) { return d.number; }).join(", "));
    put(form.guild, seat.guild); put(form.round, table.round);
    form.passed.defaultChecked = seat.passed; form.passed.checked = seat.passed;
    put(form.explored_crimson, seat.explored.crimson_cavern);
    put(form.explored_golden, seat.explored.golden_grotto);
    put(form.explored_amethyst, seat.explored.amethyst_abyss);
    put(form.display_dragons, table.display.dragons.map(function (d) { return d ? d.number : ""; }).join(", "));
    put(form.display_caves, table.display.caves.map(function (c) { return c || ""; }).join(", "));
  }

  function clickSpace(seat, cave, s) {
    var tool = (document.querySelector("input[name=tool]:checked") || {}).value;
    var at = {seat: seat, cave: cave, column: s.column};
    if (tool === "excavate") return edit(Object.assign({do: "excavate"}, at));
    if (tool === "dragon") {
      var card = $("an-dragon").value.trim();
      if (!card) { $("an-dragon").focus(); return; }
      var ref = /^\d+$/.test(card) ? Number(card) : card.replace(/ \(updated\)$/, "");
      var m = /^(\d+) /.exec(card);
      if (m) ref = Number(m[1]);
      return edit(Object.assign({do: "dragon", card: ref}, at));
    }
    if (tool === "remove") return edit(Object.assign({do: "remove_dragon"}, at));
    if (!s.dragon) return edit(Object.assign({do: "space"}, at));  // the server says the space needs a dragon
    if (tool === "egg") return edit(Object.assign({do: "space", eggs: s.eggs + 1}, at));
    if (tool === "unegg") return edit(Object.assign({do: "space", eggs: Math.max(0, s.eggs - 1)}, at));
    if (tool === "tuck") return edit(Object.assign({do: "space", tucked: s.tucked + 1}, at));
    if (tool === "train") return edit(Object.assign({do: "space", tokens: s.tokens + 1}, at));
    if (tool === "cache") {
      var r = $("an-cache").value, cached = {};
      cached[r] = (s.cached[r] || 0) + 1;
      return edit(Object.assign({do: "space", cached: cached}, at));
    }
  }

  // A comma-separated list of card numbers or names; for the display (`slots`), an empty place is an empty slot.
  function numbers(text, slots) {
    var parts = text.split(",").map(function (t) { return t.trim(); });
    if (!slots) parts = parts.filter(Boolean);
    else if (parts.length === 1 && !parts[0]) parts = [];
    return parts.map(function (t) { return t === "" ? null : /^\d+$/.test(t) ? Number(t) : t; });
  }

  // The typing forms send only what was changed (each input remembers the value drawn as its default), so a form
  // never sends back an old value over a change made in another box; a refusal is shown on the box it names.
  function changed(input) {
    return input.type === "checkbox" ? input.checked !== input.defaultChecked : input.value !== input.defaultValue;
  }

  function clearFieldError() {
    root.querySelectorAll("[aria-invalid=true]").forEach(function (input) {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
    });
    var shownError = $("an-field-error");
    if (shownError) shownError.remove();
  }

  function showFieldError(input, error) {
    clearFieldError();
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", "an-field-error");
    var label = input.closest("label") || input;
    label.insertAdjacentElement("afterend", el("span", {id: "an-field-error", class: "an-field-error",
      "data-field": error.field || ""}, error.detail || "Something went wrong."));
    input.focus();
  }

  $("an-supply").addEventListener("submit", function (event) {
    event.preventDefault();
    var f = event.target, seat = viewSeat, changes = [], inputs = [];
    var n = function (v) { return Number(v); };
    function add(input, change) { changes.push(change); inputs.push(input); }
    clearFieldError();
    if (changed(f.coins)) add(f.coins, {do: "coins", seat: seat, coins: n(f.coins.value)});
    VOCABULARY.resources.forEach(function (r) {
      if (!changed(f[r])) return;
      var res = {};
      res[r] = n(f[r].value);
      add(f[r], {do: "resources", seat: seat, resources: res});
    });
    if (changed(f.nest)) add(f.nest, {do: "nest", seat: seat, eggs: n(f.nest.value)});
    if (changed(f.caves)) add(f.caves, {do: "cave_cards", seat: seat, caves: n(f.caves.value)});
    if (changed(f.hand)) add(f.hand, {do: "hand", seat: seat, dragons: numbers(f.hand.value)});
    if (changed(f.guild)) add(f.guild, {do: "guild", seat: seat, advancements: n(f.guild.value)});
    [["crimson", f.explored_crimson], ["golden", f.explored_golden], ["amethyst", f.explored_amethyst]].forEach(function (c) {
      if (changed(c[1])) add(c[1], {do: "explored", seat: seat, cave: c[0], times: n(c[1].value)});
    });
    if (changed(f.passed)) add(f.passed, {do: "passed", seat: seat, passed: f.passed.checked});
    if (changed(f.round)) add(f.round, {do: "round", round: n(f.round.value)});
    if (changed(f.display_dragons)) add(f.display_dragons, {do: "display", dragons: numbers(f.display_dragons.value, true)});
    if (changed(f.display_caves)) add(f.display_caves, {do: "display", caves: numbers(f.display_caves.value, true)});
    if (!changes.length) return;
    var before = position.edits || [];
    position.edits = before.concat(changes);
    branches = [[]]; current = 0;
    send().then(function (answer) {
      if (answer !== null) return;
      position.edits = before;
      var m = /^position\.edits\[(\d+)\]/.exec((refusal && refusal.field) || "");
      var input = m ? inputs[Number(m[1]) - before.length] : null;
      if (input) showFieldError(input, refusal);
    });
  });

  $("an-marks").addEventListener("submit", function (event) {
    event.preventDefault();
    var f = event.target, what = (event.submitter || {}).value, seat = viewSeat;
    if (what === "marker") edit({do: "marker", seat: seat, row: Number(f.row.value), square: Number(f.square.value)});
    if (what === "objective") edit({do: "objective", seat: seat, round: Number(f.round.value), place: Number(f.place.value)});
    if (what === "income") edit({do: "income", seat: seat, space: Number(f.income.value)});
    if (what === "turn") { position.seat = seat; branches = [[]]; current = 0; attempt = {seat: seat}; send(); }
  });

  // The typed dragon and cave card name what a click on the table adds: the buttons say so as it is typed.
  ["an-dragon", "an-cave"].forEach(function (id) {
    $(id).addEventListener("input", function () { if (last) drawTable(last.table); });
  });

  $("an-setup").addEventListener("submit", function (event) {
    event.preventDefault();
    var f = event.target;
    position = {setup: {players: Number(f.players.value), seed: Number(f.seed.value) || 0, academy: f.academy.checked},
      edits: []};
    if ((event.submitter || {}).value === "empty") position.setup.empty = true;
    attempt = {}; branches = [[]]; current = 0; viewSeat = 0;
    send();
  });

  $("an-load").addEventListener("click", function () {
    try {
      position = JSON.parse($("an-position").value);
    } catch (e) {
      $("an-errors").hidden = false;
      $("an-errors").textContent = "position: not valid JSON (" + e.message + ")";
      return;
    }
    branches = [[]]; current = 0;
    send();
  });

  // -- trying things ------------------------------------------------------------------------------------------
  $("an-try").addEventListener("submit", function (event) {
    event.preventDefault();
    var f = event.target, what = (event.submitter || {}).value || "main";
    attempt = {seat: Number(f.seat.value)};
    if (what === "card") {
      var card = f.card.value.trim(), m = /^(\d+) /.exec(card);
      attempt.card = m ? Number(m[1]) : card;
      attempt.ability = Number(f.ability.value) || 0;
      if (/^cave/i.test(card)) attempt.at = {cave: f.at_cave.value, column: Number(f.at_column.value)};
    }
    if (what === "turn") attempt = {end: "turn", seat: Number(f.seat.value)};
    if (what === "round") attempt = {end: "round"};
    if (what === "game") attempt = {end: "game"};
    if (what === "guild") attempt.guild = Number(f.guild.value) || 1;
    if (what === "exchange") {
      // the exchange may be made at any point, by any player: whoever is being asked is asked again afterwards
      attempt.exchange = Array.prototype.map.call($("an-exchange-give").querySelectorAll("select"),
        function (s) { return s.value; }).concat([f.exchange_get.value]);
    }
    branches = [[]]; current = 0;
    reveal = true;
    send();
  });

  // The exchange's pickers: the resources given (as many as the board's rate asks, 2 by the printed board) and the
  // kind received, in the vocabulary's words.
  function exchangePickers(give) {
    var box = $("an-exchange-give");
    if (box.children.length === give) return;
    box.textContent = "";
    for (var i = 0; i < give; i++) {
      var pick = el("select", {"aria-label": "Resource given (" + (i + 1) + " of " + give + ")"});
      VOCABULARY.resources.forEach(function (r) { pick.appendChild(el("option", {value: r}, r)); });
      box.appendChild(pick);
    }
  }
  exchangePickers(2);
  VOCABULARY.resources.forEach(function (r) { $("an-exchange-get").appendChild(el("option", {value: r}, r)); });
  $("an-exchange-get").selectedIndex = 1;

  function choose(option) {
    branches[current] = branches[current].concat([{kind: option.kind, args: option.args}]);
    reveal = true;
    send();
  }

  function backTo(step) {
    // a new branch that shares the first `step` decisions: the old one stays in the tree
    branches.push(branches[current].slice(0, step));
    current = branches.length - 1;
    reveal = true;
    send();
  }

  function drawQuestion() {
    var box = $("an-question");
    box.textContent = "";
    if (!last.pending) { box.appendChild(el("p", {}, last.finished ? "The game is over." : "Nothing is asked.")); return; }
    var p = last.pending;
    box.appendChild(el("h3", {}, p.who + ": " + p.prompt));
    var list = el("ul", {class: "an-options"});
    p.options.forEach(function (option) {
      var li = el("li");
      var button = el("button", {type: "button", "data-kind": option.kind}, option.label);
      if (option.detail) button.appendChild(el("span", {class: "an-cost"}, " (" + option.detail + ")"));
      if (option.cost) button.appendChild(el("span", {class: "an-cost"}, " — " + costText(option.cost)));
      button.addEventListener("click", function () { choose(option); });
      li.appendChild(button);
      var result = (option.result || []).filter(function (t) { return t.indexOf(": VP ") < 0; });
      if (result.length) li.appendChild(el("div", {class: "an-result"}, "→ " + result.slice(0, 4).join("; ")));
      list.appendChild(li);
    });
    box.appendChild(list);
    if (p.not_allowed.length) {
      var details = el("details", {class: "an-refused", open: ""});
      details.appendChild(el("summary", {}, "Not allowed now (" + p.not_allowed.length + ")"));
      var ul = el("ul");
      p.not_allowed.forEach(function (o) {
        // A refused option's price is what it would cost; an empty one says nothing (it was refused, not free).
        var price = o.cost && Object.keys(o.cost).length ? " — it would " + costText(o.cost).replace(/^costs/, "cost") : "";
        var li = el("li", {}, o.reason + (o.hint ? " (" + o.hint + ")" : "") + price + " ");
        if (o.rules) li.appendChild(el("a", {href: o.rules}, "the rule"));
        ul.appendChild(li);
      });
      details.appendChild(ul);
      box.appendChild(details);
    }
  }

  // The final count, category by category, as a score pad shows it (the answer's `final`, once the game is over).
  function drawFinal() {
    var section = $("an-final"), final = last.final;
    section.hidden = !final;
    var wrap = $("an-final-table");
    wrap.textContent = "";
    if (!final) return;
    var table = el("table", {class: "match-scores", id: "an-final-scores"});
    var head = el("tr");
    head.appendChild(el("th", {scope: "col"}, "Category"));
    final.names.forEach(function (name) { head.appendChild(el("th", {scope: "col"}, name)); });
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    final.rows.forEach(function (row) {
      var tr = el("tr", row.automa ? {class: "match-automa-part"} : {});
      tr.appendChild(el("th", {scope: "row"}, row.label));
      row.values.forEach(function (vp) {
        tr.appendChild(vp === null ? el("td", {}, "—") : el("td", {"data-category": row.key}, String(vp)));
      });
      body.appendChild(tr);
    });
    var foot = table.appendChild(el("tfoot"));
    [["Total", final.totals, "match-total"], ["Place", final.places, ""]].forEach(function (line) {
      var tr = el("tr", line[2] ? {class: line[2]} : {});
      tr.appendChild(el("th", {scope: "row"}, line[0]));
      line[1].forEach(function (n) { tr.appendChild(el("td", {}, String(n))); });
      foot.appendChild(tr);
    });
    wrap.appendChild(table);
  }

  function drawSteps() {
    var list = $("an-steps");
    list.textContent = "";
    last.steps.forEach(function (step) {
      var li = el("li", {}, (step.who ? step.who + ": " : "") + step.label + " ");
      if (step.number > 0) {
        var back = el("button", {type: "button", class: "an-back"}, "try another option here");
        back.addEventListener("click", function () { backTo(step.number - 1); });
        li.appendChild(back);
      }
      var texts = (step.events || []).map(function (e) { return e.text; })
        .concat((step.changes || []).map(function (c) { return c.text; }));
      if (texts.length) {
        var ul = el("ul", {class: "an-events"});
        texts.forEach(function (t) { ul.appendChild(el("li", {}, t)); });
        li.appendChild(ul);
      }
      list.appendChild(li);
    });
  }

  function drawBranches() {
    var list = $("an-branches");
    list.textContent = "";
    branches.forEach(function (branch, i) {
      var li = el("li", {class: i === current ? "an-current" : ""});
      var button = el("button", {type: "button"}, "Branch " + (i + 1) + ": " + branch.length + " decision" +
        (branch.length === 1 ? "" : "s") + (branch.length ? ", last " + branch[branch.length - 1].kind + " " +
        branch[branch.length - 1].args.join(" ") : ""));
      button.addEventListener("click", function () { current = i; reveal = true; send(); });
      li.appendChild(button);
      list.appendChild(li);
    });
  }

  function drawRulings() {
    var box = $("an-rulings");
    box.textContent = "";
    if (!last.rulings.length) return;
    var details = el("details", {class: "rulings"});
    details.appendChild(el("summary", {}, "Official rulings this position touches (" + last.rulings.length + ")"));
    last.rulings.forEach(function (r) {
      var article = el("article", {class: "ruling ruling-" + r.kind, "data-ruling": r.id});
      var h = el("h4");
      h.appendChild(el("a", {href: "/rules/#ruling-" + r.id}, r.id));
      h.appendChild(document.createTextNode(" · " + r.question));
      article.appendChild(h);
      article.appendChild(el("p", {}, r.answer));
      article.appendChild(el("p", {class: "ruling-meta"}, r.kind_label));
      details.appendChild(article);
    });
    box.appendChild(details);
  }

  // -- the strong bot's opinion -------------------------------------------------------------------------------
  var asking = 0;  // which request is current: an answer for a branch left behind is dropped

  function clearEngine() {
    asking += 1;
    $("an-engine-answer").textContent = "";
    $("an-engine-status").textContent = last && last.pending ? "Ask which option the strong bot prefers for " +
      last.pending.who + "." : "Nothing to decide here.";
    $("an-engine-progress").hidden = true;
    $("an-engine-ask").disabled = !(last && last.pending);
  }

  function signed(vp, measure) {
    return (vp > 0 && measure === "margin" ? "+" : "") + vp.toFixed(1);
  }

  // An estimate with its 95 % interval: how far the playouts' mean may be from what more playouts would find.
  function estimateText(c, measure) {
    var range = c.interval ? " (95 % between " + signed(c.interval[0], measure) + " and " +
      signed(c.interval[1], measure) + ")" : " (too few playouts for an interval)";
    if (measure === "score") return "about " + c.margin.toFixed(1) + " VP at the end" + range;
    return signed(c.margin, measure) + " VP ahead" + range + (c.win === null ? "" : " · wins " + Math.round(100 * c.win) + " %");
  }

  function drawEngine(answer) {
    var box = $("an-engine-answer");
    box.textContent = "";
    var best = el("p", {class: "an-engine-best"});
    best.appendChild(el("strong", {}, answer.preferred.label));
    best.appendChild(document.createTextNode(" — " + estimateText(answer, answer.measure)));
    box.appendChild(best);
    var take = el("button", {type: "button", id: "an-engine-take"}, "Take this option");
    take.addEventListener("click", function () { choose(answer.preferred); });
    box.appendChild(take);
    var list = el("ol", {class: "an-engine-list"});
    answer.considered.forEach(function (c) {
      var li = el("li", {"data-kind": c.kind}, c.label + ": " + estimateText(c, answer.measure) + " (" +
        c.playouts + " playout" + (c.playouts === 1 ? "" : "s") + ")");
      if (c.kind === answer.preferred.kind && JSON.stringify(c.args) === JSON.stringify(answer.preferred.args)) {
        li.classList.add("an-engine-top");
      }
      list.appendChild(li);
    });
    box.appendChild(list);
    box.appendChild(el("p", {class: "an-engine-note"}, answer.considered.length + " of " + answer.offered +
      " options searched (the rest looked worse one move ahead), " + answer.playouts + " playouts in all. " +
      (answer.measure === "score" ? "The estimate is the player's own final score; the Automa's is left out."
        : "The estimate is the VP ahead of the strongest opponent when the playouts stop.")));
    var rival = answer.closest;
    box.appendChild(el("p", {class: "an-engine-settled", "data-settled": String(answer.settled)}, answer.settled
      ? "Settled: in the same playouts, the preferred option beats every other one (each lead's 95 % interval is above 0)."
      : "Not settled: thinking longer may change the choice. " + (rival && rival.lead
        ? "In the same playouts its lead over " + rival.label + " is between " + signed(rival.lead[0], "margin") +
          " and " + signed(rival.lead[1], "margin") + " VP."
        : "There are too few playouts to compare the options.")));
    // Thinking longer: twice the time, up to the server's limit (the longer search extends this one's playouts).
    var longer = Math.min(answer.max_budget, answer.budget * 2);
    if (longer > answer.budget) {
      var more = el("button", {type: "button", id: "an-engine-longer"}, "Think longer (" + longer + " s)");
      more.addEventListener("click", function () { ask(longer); });
      box.appendChild(more);
    } else {
      box.appendChild(el("p", {class: "an-engine-note"}, "This is the longest the server thinks (" +
        answer.max_budget + " s)."));
    }
  }

  $("an-engine-form").addEventListener("submit", function (event) {
    event.preventDefault();
    ask(Number(event.target.budget.value));
  });

  function ask(budget) {
    if (!last || !last.pending) return;
    var select = $("an-engine-form").budget;
    if (Array.prototype.some.call(select.options, function (o) { return Number(o.value) === budget; })) {
      select.value = String(budget);
    }
    var ticket = ++asking, started = Date.now();
    var bar = $("an-engine-progress"), status = $("an-engine-status");
    $("an-engine-answer").textContent = "";
    $("an-engine-ask").disabled = true;
    bar.hidden = false;
    bar.value = 0;
    status.textContent = "Thinking for " + last.pending.who + "…";
    // The search runs on the server for at most `budget` seconds of CPU: the bar shows the time passing.
    var timer = setInterval(function () {
      bar.value = Math.min(95, 100 * (Date.now() - started) / (1000 * budget + 400));
    }, 100);
    var body = {position: position, try: attempt, decisions: branches[current], budget: budget};
    fetch(engineApi, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(function (response) { return response.json().then(function (data) { return [response.status, data]; }); })
      .then(function (pair) {
        clearInterval(timer);
        if (ticket !== asking) return;
        bar.hidden = true;
        $("an-engine-ask").disabled = false;
        if (pair[0] !== 200) { status.textContent = pair[1].detail || "Something went wrong."; return; }
        status.textContent = "The strong bot's choice for " + pair[1].who + " (" + pair[1].budget + " s):";
        drawEngine(pair[1]);
      })
      .catch(function () {
        clearInterval(timer);
        if (ticket !== asking) return;
        bar.hidden = true;
        $("an-engine-ask").disabled = false;
        status.textContent = "The server did not answer; try again.";
      });
  }

  // A redraw replaces the board's buttons: a keyboard user's place is found again by the same key.
  function focusKey() {
    var active = document.activeElement;
    if (!active || active === document.body || !root.contains(active)) return null;
    if (active.dataset.key) return '[data-key="' + CSS.escape(active.dataset.key) + '"]';
    if (active.id) return "#" + CSS.escape(active.id);
    return null;
  }

  function draw() {
    var key = focusKey();
    clearEngine();
    drawSeats(last.table);
    if (last.drawing && last.drawing.board.exchange) exchangePickers(last.drawing.board.exchange.give);
    drawTable(last.table);
    drawBroken();
    drawQuestion();
    drawFinal();
    drawSteps();
    drawBranches();
    drawRulings();
    // The link shares the position and, once something was tried, the line: the try, every branch and the one
    // shown, as a study link shares its move tree.
    var text = JSON.stringify(position);
    $("an-position").value = JSON.stringify(position, null, 1);
    var link = location.pathname + "?p=" + encodeURIComponent(text);
    var tried = Object.keys(attempt).length || branches.length > 1 || branches[0].length;
    if (tried) link += "&line=" + encodeURIComponent(JSON.stringify({try: attempt, branches: branches, current: current}));
    $("an-share").href = link;
    $("an-share-line").href = link;
    if (link.length < 8000) history.replaceState(null, "", link);
    if (key && (!document.activeElement || document.activeElement === document.body || !root.contains(document.activeElement))) {
      var again = root.querySelector(key);
      if (again && !again.disabled) again.focus({preventScroll: true});
    }
  }

  // A link whose line the engine refuses (a decision no longer legal) still opens its position, and says why.
  send().then(function (answer) {
    if (answer !== null || !startLine) return;
    var why = (refusal && refusal.detail) || "";
    attempt = {}; branches = [[]]; current = 0;
    send().then(function () {
      var errors = $("an-errors");
      errors.hidden = false;
      errors.textContent = "The link's line could not be replayed, so only its position is shown: " + why;
    });
  });
})();
