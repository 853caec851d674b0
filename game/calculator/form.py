"""The calculator page's form: its fields, reading a POST into the API's sheet, and putting errors back on fields.

The page is plain HTML that works without JavaScript: five player names (empty ones are skipped), a quick-mode grid
of categories by players, and card by card a list of dragon rows per cave and player (the script shows rows as
they are needed; without it all four rows of each cave show). Card-mode totals and places are named
`players[i].card.*` so they never collide with the quick ones. Field names are paths, e.g.
`players[0].mat.golden_grotto[2].dragon` (the cave's second row), so an error the checker reports on
`players[0].dragons[3].eggs` can be shown beside the input it came from.
"""
from game.engine.catalogue import CAVE_NAMES, CAVES, RESOURCES
from game.engine.model import COLUMNS

from .lookups import whole_number
from .score import cached_kinds
from .sheet import MAX_PLAYERS, ROUNDS

QUICK = [
    ("guild_markers", "Guild END GAME squares (e.g. 6 1)", "text"),
    ("guild_ability_vp", "Guild END GAME ability VP", "number"),
    ("dragon_vp", "Printed dragon VP (not fledglings)", "number"),
    ("end_game_vp", "End-game abilities VP", "signed"),
    ("eggs", "Eggs", "number"),
    ("cached", "Cached resources", "number"),
    ("tucked", "Tucked cards", "number"),
    ("coins", "Coins left", "number"),
    ("items", "Other items left (resources and cards)", "number"),
    ("fledglings", "Fledglings on the mat", "number"),
    ("visible_dragons", "Dragons on the mat (tiebreak)", "number"),
]
CARD = [
    ("nest_eggs", "Eggs on the mat's nests", "number"),
    ("coins", "Coins left", "number"),
    ("resources", "Resources left", "number"),
    ("hand_dragons", "Dragon cards in hand", "number"),
    ("hand_caves", "Cave cards in hand", "number"),
    ("guild_markers", "Guild END GAME squares (e.g. 6 1)", "text"),
    ("guild_ability_markers", "Markers on the guild tile's END GAME ability", "number"),
    ("guild_other_markers", "Other guild markers", "number"),
    ("guild_advances", "Guild track advancements", "number"),
]
SPACE = [("eggs", "Eggs"), ("cached", "Cached"), ("cached_other", "Other kinds"), ("tucked", "Tucked"),
         ("tokens", "Training")]
AUTOMA = [
    ("name", "Name", "text"),
    ("level", "Level (1, 2 or 3)", "number"),
    ("dragon_cards", "Dragon cards she took", "number"),
    ("cave_cards", "Cave cards she took", "number"),
    ("guild_steps", "Guild track: spaces past her last brown space", "number"),
    ("guild_markers", "Guild END GAME squares (Ravel Mode)", "text"),
    ("dragon_vp", "Printed dragon VP", "number"),
    ("objective_vp", "Round objective VP (quick mode)", "number"),
    ("cache_tokens", "Cache tokens (Dragon Academy)", "number"),
    ("eggs", "Eggs", "number"),
    ("tucked", "Tucked cards", "number"),
    ("visible_dragons", "Dragons (tiebreak)", "number"),
]


def _int_or_text(text):
    """A box's number, or its text as typed when it is not one, so the sheet's check names the box."""
    number = whole_number(text)
    return text.strip() if number is None else number


def _markers(text):
    parts = text.replace(",", " ").split()
    return [_int_or_text(p) for p in parts]


def read_post(post, cat=None):
    """The API's sheet from the page's form, and where each API path's field lives on the page.

    `where` also maps each line, `players[seat]`, to its block on the page, `players[i]`. With the catalogue, cached
    items on a dragon that counts one kind (17, 29) are read as that kind and "other kinds"."""
    mode = post.get("mode", "quick")
    where = {}
    academy = post.get("academy") == "on"
    data = {"mode": mode, "academy": academy, "title": post.get("title", "").strip(), "players": []}
    if mode == "card":
        data["guild_tile"] = post.get("guild_tile", "").strip() or None
        objectives = []
        for r in range(ROUNDS):
            value = post.get(f"objectives[{r}]", "").strip()
            objectives.append({"tile": _int_or_text(value[:-1]), "side": value[-1]} if value else None)
            where[f"objectives[{r}].tile"] = where[f"objectives[{r}].side"] = f"objectives[{r}]"
        data["objectives"] = objectives
    for i in range(MAX_PLAYERS):
        prefix = f"players[{i}]"
        name = post.get(f"{prefix}.name", "").strip()
        if not name:
            continue
        seat = len(data["players"])
        api = f"players[{seat}]"
        where[api] = prefix
        where[f"{api}.name"] = f"{prefix}.name"
        player = {"name": name}
        fields, section = (QUICK, prefix) if mode == "quick" else (CARD, f"{prefix}.card")
        for key, _, kind in fields:
            raw = post.get(f"{section}.{key}", "").strip()
            where[f"{api}.{key}"] = f"{section}.{key}"
            if key == "guild_markers":
                player[key] = _markers(raw)
                for k in range(8):
                    where[f"{api}.{key}[{k}]"] = f"{section}.{key}"
            elif raw:
                player[key] = _int_or_text(raw)
        player["objective_places"] = _read_rounds(post, f"{section}.objective_places", f"{api}.objective_places",
                                                  where)
        if mode == "card":
            player["objective_counts"] = _read_rounds(post, f"{prefix}.objective_counts",
                                                      f"{api}.objective_counts", where)
            _read_mat(post, prefix, api, player, where, cat, academy)
        data["players"].append(player)
        if post.get("me") == str(i):
            data["me"] = seat
    if post.get("solo") == "on":
        automa = {}
        for key, _, kind in AUTOMA:
            raw = post.get(f"automa.{key}", "").strip()
            where[f"automa.{key}"] = f"automa.{key}"
            if key == "guild_markers":
                automa[key] = _markers(raw)
            elif raw:
                automa[key] = _int_or_text(raw) if kind == "number" else raw
        automa["ravel"] = post.get("automa.ravel") == "on"
        where["automa.ravel"] = "automa.ravel"
        if mode == "card":
            automa["objective_counts"] = _read_rounds(post, "automa.objective_counts", "automa.objective_counts",
                                                      where)
            automa["objective_places"] = _read_rounds(post, "automa.objective_places", "automa.objective_places",
                                                      where)
            automa.pop("objective_vp", None)
        data["automa"] = automa
    return data, where


def _read_rounds(post, name, api, where):
    values = []
    for r in range(ROUNDS):
        raw = post.get(f"{name}[{r}]", "").strip()
        values.append(_int_or_text(raw) if raw else None)
        where[f"{api}[{r}]"] = f"{name}[{r}]"
    where[api] = f"{name}[0]"
    return values


def _read_mat(post, prefix, api, player, where, cat, academy):
    """Each cave's rows, top to bottom, fill the cave from the left; empty rows are skipped."""
    dragons, cave_cards = [], []
    for cave in CAVES:
        placed = 0
        for row in range(1, COLUMNS + 1):
            space = f"{prefix}.mat.{cave}[{row}]"
            card = post.get(f"{space}.dragon", "").strip()
            if not card:
                continue
            k = len(dragons)
            placed += 1
            dragon = {"card": card, "cave": cave}
            for key, _ in SPACE:
                raw = post.get(f"{space}.{key}", "").strip()
                if raw and key != "cached_other":
                    dragon[key] = _int_or_text(raw)
            _read_cached(post, space, dragon, cat, academy)
            choice = post.get(f"{space}.choice", "").strip()
            if choice:
                dragon["choice"] = _int_or_text(choice)
            dragons.append(dragon)
            for key in ("card", "cave", "column"):
                where[f"{api}.dragons[{k}].{key}"] = f"{space}.dragon"
            for key, _ in SPACE + [("choice", "")]:
                where[f"{api}.dragons[{k}].{key}"] = f"{space}.{key}"
            for kind in RESOURCES:
                where[f"{api}.dragons[{k}].cached.{kind}"] = f"{space}.cached"
            where[f"{api}.dragons[{k}].cached.other"] = f"{space}.cached_other"
        dug = whole_number(post.get(f"{prefix}.mat.{cave}.excavated", ""))
        if dug is not None and dug >= 0:
            columns = list(range(max(placed, 1) + 1, min(dug, COLUMNS) + 1))
            if dug > COLUMNS:
                columns = [dug]  # past the mat's end: one space, so one error
            for column in columns:
                where[f"{api}.cave_cards[{len(cave_cards)}].column"] = f"{prefix}.mat.{cave}.excavated"
                cave_cards.append({"card": None, "cave": cave, "column": column})
    player["dragons"] = dragons
    player["cave_cards"] = cave_cards
    where[f"{api}.dragons"] = f"{prefix}.mat"
    where[f"{api}.cave_cards"] = f"{prefix}.mat"


def _read_cached(post, space, dragon, cat, academy):
    """One number, or by kind for a dragon that counts one kind: its kind in `cached`, the rest in `cached_other`."""
    other = post.get(f"{space}.cached_other", "").strip()
    index = cat.find_dragon(dragon["card"], academy) if cat else None
    counted = cached_kinds(cat.engine.dragons[index]) if index is not None else []
    if counted:
        dragon["cached"] = {counted[0]: dragon.get("cached", 0), "other": _int_or_text(other) if other else 0}
    elif other:
        extra = _int_or_text(other)
        cached = dragon.get("cached", 0)
        if isinstance(extra, int) and isinstance(cached, int):
            dragon["cached"] = cached + extra
        else:  # by kind, so each box that cannot be read is named: "other" is the second box, any kind the first
            dragon["cached"] = {"other": extra, **({} if isinstance(cached, int) else {RESOURCES[0]: cached})}


def place_errors(errors, where):
    """Errors keyed by the page's field names; those with no field of their own are kept for the top."""
    placed, general = {}, []
    for path, messages in errors.items():
        name = where.get(path)
        if name is None:
            general += [f"{path}: {m}" for m in messages]
        else:
            placed.setdefault(name, []).extend(messages)
    return placed, general


def layout(post, errors):
    """The page's blocks with their current values and errors, for the template; `summary` lists every error with
    the label of its field, for the list at the top."""
    value = post.get if post else (lambda key, default="": default)
    labels = {}

    def field(name, label, kind="number", where=""):
        labels[name] = f"{where} · {label}" if where else label
        return {"name": name, "label": label, "kind": kind, "value": value(name, ""), "errors": errors.get(name, []),
                "where": where}

    players = []
    for i in range(MAX_PLAYERS):
        prefix = f"players[{i}]"
        who = value(f"{prefix}.name", "").strip() or f"Player {i + 1}"
        caves = []
        for c, cave in enumerate(CAVES):
            rows = []
            for row in range(1, COLUMNS + 1):
                space = f"{prefix}.mat.{cave}[{row}]"
                at = f"{who} · {CAVE_NAMES[c]}"
                rows.append({
                    "row": row, "space": space,
                    "dragon": field(f"{space}.dragon", f"Dragon {row}", "dragon", at),
                    "counts": [field(f"{space}.{key}", label, "number", at) for key, label in SPACE],
                    "choice": field(f"{space}.choice", "End-game choice", "choice", at),
                    "filled": bool(value(f"{space}.dragon", "").strip()),
                })
            caves.append({"key": cave, "name": CAVE_NAMES[c], "rows": rows,
                          "excavated": field(f"{prefix}.mat.{cave}.excavated", "Spaces dug", "select",
                                             f"{who} · {CAVE_NAMES[c]}")})
        players.append({
            "index": i,
            "name": field(f"{prefix}.name", f"Player {i + 1}", "text"),
            "who": who,
            "quick": [field(f"{prefix}.{key}", label, kind, who) for key, label, kind in QUICK],
            "places": [field(f"{prefix}.objective_places[{r}]", f"Round {r + 1}", "place", who)
                       for r in range(ROUNDS)],
            "card": [field(f"{prefix}.card.{key}", label, kind, who) for key, label, kind in CARD],
            "card_places": [field(f"{prefix}.card.objective_places[{r}]", "Place", "place", f"{who} · Round {r + 1}")
                            for r in range(ROUNDS)],
            "caves": caves,
            "mat": field(f"{prefix}.mat", "Mat", "mat", who),
            "objective_counts": [field(f"{prefix}.objective_counts[{r}]", "Count", "number", f"{who} · Round {r + 1}")
                                 for r in range(ROUNDS)],
            "me": value("me", "0") == str(i),
        })
    automa = {
        "fields": [field(f"automa.{key}", label, kind, "Automa") for key, label, kind in AUTOMA],
        "ravel": value("automa.ravel", "") == "on",
        "objective_counts": [field(f"automa.objective_counts[{r}]", "Count", "number", f"Automa · Round {r + 1}")
                             for r in range(ROUNDS)],
        "places": [field(f"automa.objective_places[{r}]", "Place", "place", f"Automa · Round {r + 1}")
                   for r in range(ROUNDS)],
    }
    rounds = [{"index": r, "objective": field(f"objectives[{r}]", f"Round {r + 1} objective", "select"),
               "cells": [{"player": p["index"], "who": p["who"], "place": p["card_places"][r],
                          "count": p["objective_counts"][r]}
                         for p in players],
               "automa": {"place": automa["places"][r], "count": automa["objective_counts"][r]}}
              for r in range(ROUNDS)]
    quick_rows = [{"label": players[0]["quick"][k]["label"], "cells": [p["quick"][k] for p in players]}
                  for k in range(len(QUICK))]
    quick_rows += [{"label": f"Round {r + 1} objective place", "place": True,
                    "cells": [p["places"][r] for p in players]} for r in range(ROUNDS)]
    form = {
        "mode": value("mode", "quick"),
        "academy": value("academy", "") == "on",
        "solo": value("solo", "") == "on",
        "title": field("title", "Title (optional)", "text"),
        "guild_tile": field("guild_tile", "Dragon Guild tile", "select"),
        "rounds": rounds,
        "players": players,
        "quick_rows": quick_rows,
        "automa": automa,
        "player_count": int(value("player_count", "") or 0) or None,
    }
    form["summary"] = [{"id": "f-" + _slug(name), "label": labels.get(name, name), "message": message}
                       for name, messages in errors.items() for message in messages]
    return form


def _slug(name):
    from django.utils.text import slugify
    return slugify(name)


def to_post(sheet, cat):
    """A saved sheet back as the page's form values, so it can be corrected and scored again."""
    post = {"mode": sheet["mode"], "title": sheet.get("title", ""), "player_count": str(len(sheet["players"]))}
    if sheet.get("academy"):
        post["academy"] = "on"
    if "me" in sheet:
        post["me"] = str(sheet["me"])
    if sheet["mode"] == "card":
        if sheet.get("guild_tile") is not None:
            post["guild_tile"] = str(sheet["guild_tile"])
        for r, chosen in enumerate(sheet.get("objectives") or ()):
            if chosen:
                post[f"objectives[{r}]"] = f"{chosen['tile']}{chosen['side']}"
    for i, player in enumerate(sheet["players"]):
        prefix = f"players[{i}]"
        post[f"{prefix}.name"] = player["name"]
        if sheet["mode"] == "quick":
            for key, _, _ in QUICK:
                post[f"{prefix}.{key}"] = _text(player.get(key))
            for r, place in enumerate(player.get("objective_places", ())):
                post[f"{prefix}.objective_places[{r}]"] = str(place) if place else ""
            continue
        for key, _, _ in CARD:
            post[f"{prefix}.card.{key}"] = _text(player.get(key))
        _rounds_to_post(post, player, f"{prefix}.card.objective_places", f"{prefix}.objective_counts")
        rows = {}
        for dragon in player["dragons"]:  # in cave and column order
            rows[dragon["cave"]] = rows.get(dragon["cave"], 0) + 1
            space = f"{prefix}.mat.{dragon['cave']}[{rows[dragon['cave']]}]"
            card = cat.engine.dragons[cat.dragon_slugs[dragon["card"]]]
            post[f"{space}.dragon"] = cat.dragon_label(card.index)
            for key in ("eggs", "tucked", "tokens"):
                post[f"{space}.{key}"] = _text(dragon.get(key))
            cached = dragon.get("cached", 0)
            if isinstance(cached, dict):
                counted = cached_kinds(card)[:1]
                post[f"{space}.cached"] = _text(sum(n for kind, n in cached.items() if kind in counted))
                post[f"{space}.cached_other"] = _text(sum(n for kind, n in cached.items() if kind not in counted))
            else:
                post[f"{space}.cached"] = _text(cached)
            if "choice" in dragon:
                post[f"{space}.choice"] = str(dragon["choice"])
        for cave_card in player["cave_cards"]:
            name = f"{prefix}.mat.{cave_card['cave']}.excavated"
            if cave_card["column"] > rows.get(cave_card["cave"], 0):
                post[name] = str(max(int(post.get(name) or 0), cave_card["column"]))
    automa = sheet.get("automa")
    if automa:
        post["solo"] = "on"
        for key, _, _ in AUTOMA:
            post[f"automa.{key}"] = _text(automa.get(key))
        if automa.get("ravel"):
            post["automa.ravel"] = "on"
        if sheet["mode"] == "card":
            _rounds_to_post(post, automa, "automa.objective_places", "automa.objective_counts")
    return post


def _rounds_to_post(post, entry, places, counts):
    for r, place in enumerate(entry.get("objective_places") or ()):
        post[f"{places}[{r}]"] = "" if place is None else str(place)  # 0 is "all others", not empty
    for r, count in enumerate(entry.get("objective_counts") or ()):
        post[f"{counts}[{r}]"] = "" if count is None else str(count)  # 0 is a count


def _text(value):
    """A form value: empty for nothing or zero (the field's default), a list as space-separated numbers."""
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return "" if value in (None, 0) else str(value)
