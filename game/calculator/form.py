"""The calculator page's form: its fields, reading a POST into the API's sheet, and putting errors back on fields.

The page is plain HTML that works without JavaScript: five player blocks (empty ones are skipped), quick totals
and a card-by-card mat grid (3 caves x 4 columns) per player; card-mode totals are named `players[i].card.*` so
they never collide with the quick ones. Field names are paths, e.g.
`players[0].mat.golden_grotto[2].dragon`, so an error the checker reports on `players[0].dragons[3].eggs` can be
shown beside the input it came from.
"""
from game.engine.catalogue import CAVE_NAMES, CAVES
from game.engine.model import COLUMNS

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
SPACE = [("eggs", "Eggs"), ("cached", "Cached"), ("tucked", "Tucked"), ("tokens", "Training")]
AUTOMA = [
    ("name", "Name", "text"),
    ("guild_markers", "Guild END GAME squares", "text"),
    ("dragon_vp", "Printed dragon VP", "number"),
    ("objective_vp", "Round objective VP (quick mode)", "number"),
    ("cache_tokens", "Cache tokens (Dragon Academy)", "number"),
    ("eggs", "Eggs", "number"),
    ("tucked", "Tucked cards", "number"),
    ("visible_dragons", "Dragons (tiebreak)", "number"),
]


def _int_or_text(text):
    text = text.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    return text


def _markers(text):
    parts = text.replace(",", " ").split()
    return [_int_or_text(p) for p in parts]


def read_post(post):
    """The API's sheet from the page's form, and where each API path's field lives on the page."""
    mode = post.get("mode", "quick")
    where = {}
    data = {"mode": mode, "academy": post.get("academy") == "on", "title": post.get("title", "").strip(),
            "players": []}
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
        if mode == "quick":
            places = [post.get(f"{prefix}.objective_places[{r}]", "").strip() for r in range(ROUNDS)]
            player["objective_places"] = [_int_or_text(p) if p else None for p in places]
            for r in range(ROUNDS):
                where[f"{api}.objective_places[{r}]"] = f"{prefix}.objective_places[{r}]"
            where[f"{api}.objective_places"] = f"{prefix}.objective_places[0]"
        if mode == "card":
            _read_mat(post, prefix, api, player, where)
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
        if mode == "card":
            counts = []
            for r in range(ROUNDS):
                raw = post.get(f"automa.objective_counts[{r}]", "").strip()
                counts.append(_int_or_text(raw) if raw else None)
                where[f"automa.objective_counts[{r}]"] = f"automa.objective_counts[{r}]"
            automa["objective_counts"] = counts
            automa.pop("objective_vp", None)
        data["automa"] = automa
    return data, where


def _read_mat(post, prefix, api, player, where):
    dragons, cave_cards, counts = [], [], []
    for cave in CAVES:
        for column in range(1, COLUMNS + 1):
            space = f"{prefix}.mat.{cave}[{column}]"
            card = post.get(f"{space}.dragon", "").strip()
            if card:
                k = len(dragons)
                dragon = {"card": card, "cave": cave, "column": column}
                for key, _ in SPACE:
                    raw = post.get(f"{space}.{key}", "").strip()
                    if raw:
                        dragon[key] = _int_or_text(raw)
                choice = post.get(f"{space}.choice", "").strip()
                if choice:
                    dragon["choice"] = _int_or_text(choice)
                dragons.append(dragon)
                for key in ("card", "cave", "column"):
                    where[f"{api}.dragons[{k}].{key}"] = f"{space}.dragon"
                for key, _ in SPACE + [("choice", "")]:
                    where[f"{api}.dragons[{k}].{key}"] = f"{space}.{key}"
            cave_card = post.get(f"{space}.cave_card", "").strip()
            if cave_card and column > 1:
                k = len(cave_cards)
                cave_cards.append({"card": _int_or_text(cave_card), "cave": cave, "column": column})
                for key in ("card", "cave", "column"):
                    where[f"{api}.cave_cards[{k}].{key}"] = f"{space}.cave_card"
    for r in range(ROUNDS):
        raw = post.get(f"{prefix}.objective_counts[{r}]", "").strip()
        counts.append(_int_or_text(raw) if raw else None)
        where[f"{api}.objective_counts[{r}]"] = f"{prefix}.objective_counts[{r}]"
    player["dragons"] = dragons
    player["cave_cards"] = cave_cards
    player["objective_counts"] = counts
    where[f"{api}.dragons"] = f"{prefix}.mat"
    where[f"{api}.cave_cards"] = f"{prefix}.mat"
    where[f"{api}.objective_counts"] = f"{prefix}.objective_counts[0]"


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
    """The page's blocks with their current values and errors, for the template."""
    value = post.get if post else (lambda key, default="": default)

    def field(name, label, kind="number"):
        return {"name": name, "label": label, "kind": kind, "value": value(name, ""), "errors": errors.get(name, [])}

    players = []
    for i in range(MAX_PLAYERS):
        prefix = f"players[{i}]"
        caves = []
        for c, cave in enumerate(CAVES):
            spaces = []
            for column in range(1, COLUMNS + 1):
                space = f"{prefix}.mat.{cave}[{column}]"
                spaces.append({
                    "column": column,
                    "dragon": field(f"{space}.dragon", f"{CAVE_NAMES[c]} {column}: dragon", "dragon"),
                    "cave_card": field(f"{space}.cave_card", "Cave card", "cave") if column > 1 else None,
                    "counts": [field(f"{space}.{key}", label) for key, label in SPACE],
                    "choice": field(f"{space}.choice", "End-game choice", "choice"),
                })
            caves.append({"key": cave, "name": CAVE_NAMES[c], "spaces": spaces})
        players.append({
            "index": i,
            "name": field(f"{prefix}.name", "Name", "text"),
            "quick": [field(f"{prefix}.{key}", label, kind) for key, label, kind in QUICK],
            "places": [field(f"{prefix}.objective_places[{r}]", f"Round {r + 1} objective", "place")
                       for r in range(ROUNDS)],
            "card": [field(f"{prefix}.card.{key}", label, kind) for key, label, kind in CARD],
            "caves": caves,
            "mat_errors": errors.get(f"{prefix}.mat", []),
            "objective_counts": [field(f"{prefix}.objective_counts[{r}]", f"Round {r + 1}") for r in range(ROUNDS)],
            "me": value("me", "0") == str(i),
        })
    automa = {
        "fields": [field(f"automa.{key}", label, kind) for key, label, kind in AUTOMA],
        "objective_counts": [field(f"automa.objective_counts[{r}]", f"Round {r + 1}") for r in range(ROUNDS)],
    }
    return {
        "mode": value("mode", "quick"),
        "academy": value("academy", "") == "on",
        "solo": value("solo", "") == "on",
        "title": field("title", "Title (optional)", "text"),
        "guild_tile": field("guild_tile", "Dragon Guild tile", "select"),
        "objectives": [field(f"objectives[{r}]", f"Round {r + 1} objective", "select") for r in range(ROUNDS)],
        "players": players,
        "automa": automa,
        "player_count": int(value("player_count", "") or 0) or None,
    }


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
        for r, count in enumerate(player.get("objective_counts", ())):
            post[f"{prefix}.objective_counts[{r}]"] = "" if count is None else str(count)  # 0 is a count
        for dragon in player["dragons"]:
            space = f"{prefix}.mat.{dragon['cave']}[{dragon['column']}]"
            post[f"{space}.dragon"] = cat.dragon_label(cat.dragon_slugs[dragon["card"]])
            for key, _ in SPACE:
                post[f"{space}.{key}"] = _text(dragon.get(key))
            if "choice" in dragon:
                post[f"{space}.choice"] = str(dragon["choice"])
        for cave_card in player["cave_cards"]:
            if cave_card["card"] is not None:
                post[f"{prefix}.mat.{cave_card['cave']}[{cave_card['column']}].cave_card"] = str(cave_card["card"])
    automa = sheet.get("automa")
    if automa:
        post["solo"] = "on"
        for key, _, _ in AUTOMA:
            post[f"automa.{key}"] = _text(automa.get(key))
        for r, count in enumerate(automa.get("objective_counts") or ()):
            post[f"automa.objective_counts[{r}]"] = "" if count is None else str(count)
    return post


def _text(value):
    """A form value: empty for nothing or zero (the field's default), a list as space-separated numbers."""
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return "" if value in (None, 0) else str(value)
