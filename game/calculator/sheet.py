"""Check a score sheet as a person or an API client sends it, and answer every mistake by the field it is in.

`clean_sheet(data, catalogue)` returns the sheet in its normal form (cards named by slug or number, every dragon
with its column) or raises `SheetInvalid` whose `errors` map a field path such as `players[1].dragons[2].eggs` to
messages. Nothing here scores: that is `game.calculator.score`, which hands the mats to the engine.
"""
from cardsite.errors import SiteError
from game.engine import automa as solo
from game.engine.catalogue import CAVE_INDEX, CAVE_NAMES, CAVES, RESOURCES
from game.engine.model import COLUMNS

from .lookups import whole_number
from .score import PLACE_NAMES, cached_kinds, choice_options

MAX_PLAYERS = 5
MAX_NUMBER = 999
MAX_NAME = 40
ROUNDS = 4
MODES = ("quick", "card")

QUICK_FIELDS = ("dragon_vp", "end_game_vp", "eggs", "cached", "tucked", "objective_vp", "coins", "items",
                "fledglings", "visible_dragons", "guild_ability_vp")
CARD_FIELDS = ("nest_eggs", "coins", "resources", "hand_dragons", "hand_caves", "guild_ability_markers",
               "guild_other_markers", "guild_advances")
DRAGON_FIELDS = ("card", "cave", "column", "eggs", "cached", "tucked", "tokens", "choice")
COUNTED = ("eggs", "tucked", "tokens")
CAVE_CARD_FIELDS = ("card", "cave", "column")
# End-game abilities can cost points (Minor Sharpclaw), so a quick-mode total of them may be below zero.
SIGNED = {"end_game_vp"}


def _many(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class SheetInvalid(SiteError):
    """The sheet has mistakes; `errors` maps each field path to what is wrong with it, in plain words."""

    code = "invalid_sheet"

    def __init__(self, errors):
        field, messages = next(iter(errors.items()))
        super().__init__(messages[0], field, errors)


class Checker:
    def __init__(self, cat):
        self.cat = cat
        self.errors = {}

    def error(self, path, message):
        self.errors.setdefault(path, []).append(message)

    def known(self, obj, allowed, path):
        """Refuse fields the sheet does not have, so a misspelt field is not silently ignored."""
        if not isinstance(obj, dict):
            self.error(path, "expected an object with named fields")
            return False
        for key in obj:
            if key not in allowed:
                self.error(f"{path}.{key}" if path else key, "this field does not exist here")
        return True

    def whole(self, obj, key, path, default=0, maximum=MAX_NUMBER, signed=False, allow_none=False):
        where = f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}" if path else key
        value = obj.get(key)
        if value is None or value == "":
            if allow_none:
                return None
            value = default
        if whole_number(value) is not None:
            value = whole_number(value)
        # On a mistake an optional number reads as not given, so no check after this one reports the same box again.
        wrong = None if allow_none else default
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(where, "must be a whole number")
            return wrong
        if value < 0 and not signed:
            self.error(where, "cannot be negative")
            return wrong
        if abs(value) > maximum:
            self.error(where, f"must be at most {maximum}")
            return wrong
        return value

    def has_error(self, path):
        return path in self.errors

    def flag(self, obj, key, path):
        value = obj.get(key, False)
        if value in (True, False):
            return value
        self.error(f"{path}.{key}" if path else key, "must be true or false")
        return False

    def name(self, obj, path, default=""):
        value = obj.get("name", default)
        if not isinstance(value, str) or not value.strip():
            self.error(f"{path}.name", "give each player a name")
            return default or "?"
        if len(value.strip()) > MAX_NAME:
            self.error(f"{path}.name", f"at most {MAX_NAME} characters")
        return value.strip()[:MAX_NAME]

    def cave(self, obj, path):
        value = obj.get("cave")
        if isinstance(value, str):
            key = value.strip().lower().replace(" ", "_")
            if key in CAVE_INDEX:
                return key
        self.error(f"{path}.cave", f"choose one of {', '.join(CAVES)}")
        return None

    def guild_markers(self, obj, path):
        """END GAME markers, each given as the printed VP of its square."""
        values = obj.get("guild_markers", [])
        printed = self.cat.guild_end_vp
        if not isinstance(values, list):
            self.error(f"{path}.guild_markers", "expected a list of square values, e.g. [6, 1]")
            return []
        clean = []
        for k, value in enumerate(values):
            if whole_number(value) is not None:
                value = whole_number(value)
            if isinstance(value, bool) or not isinstance(value, int):
                self.error(f"{path}.guild_markers[{k}]", "must be a whole number")
            elif value < 0:
                self.error(f"{path}.guild_markers[{k}]", "cannot be negative")
            elif value not in printed:
                self.error(f"{path}.guild_markers[{k}]",
                           f"the END GAME squares are worth {', '.join(map(str, printed))} VP, not {value}")
            else:
                clean.append(value)
        return sorted(clean, reverse=True)


def clean_sheet(data, cat):
    """The sheet in its normal form, or SheetInvalid naming every field that is wrong."""
    ch = Checker(cat)
    if not isinstance(data, dict):
        raise SheetInvalid({"sheet": ["expected a JSON object"]})
    ch.known(data, ("mode", "academy", "title", "guild_tile", "objectives", "players", "automa", "me"), "")
    mode = data.get("mode", "quick")
    if mode not in MODES:
        ch.error("mode", "choose 'quick' (category totals) or 'card' (card by card)")
        mode = "quick"
    academy = ch.flag(data, "academy", "")
    title = data.get("title", "")
    if not isinstance(title, str) or len(title) > 80:
        ch.error("title", "a title is text of at most 80 characters")
        title = ""
    clean = {"mode": mode, "academy": academy, "title": title.strip(), "players": [], "automa": None}

    players = data.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        ch.error("players", f"a game has 1 to {MAX_PLAYERS} players")
        players = players if isinstance(players, list) else []
        players = players[:MAX_PLAYERS]
    if mode == "card":
        clean["guild_tile"] = _guild_tile(ch, data, academy)
        clean["objectives"] = _objectives(ch, data, academy)
    seen = {}
    for i, player in enumerate(players):
        path = f"players[{i}]"
        if mode == "quick":
            clean["players"].append(_quick_player(ch, player, path, academy))
        else:
            clean["players"].append(_card_player(ch, player, path, academy, clean.get("guild_tile"), seen))
    automa = data.get("automa")
    if automa is not None and automa is not False:
        if len(players) != 1:
            ch.error("automa", "the Automa only plays solo games: enter exactly one player with it")
        clean["automa"] = _automa(ch, automa, mode)
    me = data.get("me")
    if me is not None:
        if isinstance(me, bool) or not isinstance(me, int) or not 0 <= me < len(players):
            ch.error("me", "the number of your own line, from 0")
        else:
            clean["me"] = me
    _check_names(ch, clean)
    _check_shared_guild_squares(ch, clean)
    if mode == "card":
        _check_rounds(ch, clean)
    elif not clean["automa"] and not any(p["objective_vp"] for p in clean["players"]):
        for r in range(ROUNDS):
            _check_places(ch, [(f"players[{i}]", p["name"], p["objective_places"][r])
                               for i, p in enumerate(clean["players"])], r)
    if ch.errors:
        raise SheetInvalid(ch.errors)
    return clean


def _check_names(ch, clean):
    names = {}
    entries = clean["players"] + ([clean["automa"]] if clean["automa"] else [])
    for i, entry in enumerate(entries):
        key = entry["name"].lower()
        path = f"players[{i}].name" if i < len(clean["players"]) else "automa.name"
        if key in names:
            ch.error(path, f"two lines are called {entry['name']!r}: give each a different name")
        names[key] = path


def _check_shared_guild_squares(ch, clean):
    """Every END GAME square holds one marker in the whole game, except the last, unlimited one."""
    printed = ch.cat.guild_end_vp
    limited = printed[:-1]
    entries = [(f"players[{i}]", p) for i, p in enumerate(clean["players"])]
    if clean["automa"]:
        entries.append(("automa", clean["automa"]))
    taken = {}
    for path, entry in entries:
        for value in entry["guild_markers"]:
            if value in limited:
                if value in taken:
                    ch.error(f"{path}.guild_markers", f"the {value} VP END GAME square holds one marker, and "
                             f"{taken[value]} already has it")
                taken.setdefault(value, entry["name"])


def _guild_tile(ch, data, academy):
    number = data.get("guild_tile")
    if number in (None, ""):
        return None
    if whole_number(number) is not None:
        number = whole_number(number)
    index = ch.cat.guild_numbers.get(number) if isinstance(number, int) else None
    if index is None:
        ch.error("guild_tile", f"no Dragon Guild tile number {number!r}")
        return None
    tile = ch.cat.engine.guild_tiles[index]
    if tile.get("expansion", "base") != "base" and not academy:
        ch.error("guild_tile", f"{tile['name']} comes with Dragon Academy: turn the expansion on")
    return number


def _objectives(ch, data, academy):
    rounds = data.get("objectives", [])
    if not isinstance(rounds, list) or len(rounds) > ROUNDS:
        ch.error("objectives", f"a list of at most {ROUNDS} rounds, each {{'tile': number, 'side': 'a' or 'b'}}")
        return [None] * ROUNDS
    clean = []
    for r in range(ROUNDS):
        item = rounds[r] if r < len(rounds) else None
        path = f"objectives[{r}]"
        if item in (None, {}):
            clean.append(None)
            continue
        if not ch.known(item, ("tile", "side"), path):
            clean.append(None)
            continue
        number = item.get("tile")
        if whole_number(number) is not None:
            number = whole_number(number)
        index = ch.cat.objective_numbers.get(number) if isinstance(number, int) else None
        side = item.get("side")
        if index is None:
            ch.error(f"{path}.tile", f"no objective tile number {number!r}")
            clean.append(None)
            continue
        tile = ch.cat.engine.objective_tiles[index]
        if tile.get("expansion", "base") != "base" and not academy:
            ch.error(f"{path}.tile", "this objective tile comes with Dragon Academy: turn the expansion on")
        if side not in tile["sides"]:
            ch.error(f"{path}.side", f"choose a side: {', '.join(sorted(tile['sides']))}")
            clean.append(None)
            continue
        clean.append({"tile": number, "side": side})
    return clean


PLACE_WORDS = {"1st": 1, "2nd": 2, "3rd": 3, "other": 0, "others": 0, "all others": 0}


def _places(ch, obj, path, empty=0):
    """Objective placements per round: 1, 2, 3, or 0 for "all others"; a round left empty becomes `empty`."""
    places = obj.get("objective_places", [])
    where = f"{path}.objective_places"
    if places is None:
        places = []
    if not isinstance(places, list) or len(places) > ROUNDS:
        ch.error(where, f"a list of at most {ROUNDS} places: 1, 2, 3 or 0 for 'all others'")
        return [empty] * ROUNDS
    clean = []
    for r, place in enumerate(places):
        if isinstance(place, str):
            text = place.strip().lower()
            place = PLACE_WORDS.get(text, whole_number(text) if whole_number(text) is not None else place)
        if place is None or place == "":
            clean.append(empty)
            continue
        if isinstance(place, bool) or place not in (0, 1, 2, 3):
            ch.error(f"{where}[{r}]", "a place is 1, 2, 3, or 0 for 'all others'")
            place = empty
        clean.append(place)
    return clean + [empty] * (ROUNDS - len(clean))


def _check_places(ch, lines, r):
    """One round's places as the round tracker allows them: tied players share a place and the next player takes
    the next one, so a 2nd needs a 1st and a 3rd needs a 2nd. `lines` are (path, name, place) with a place given."""
    taken = {place for _, _, place in lines}
    for path, name, place in lines:
        if place > 1 and place - 1 not in taken:
            ch.error(f"{path}.objective_places[{r}]",
                     f"round {r + 1}: {name} is on {PLACE_NAMES[place]}, but nobody is on {PLACE_NAMES[place - 1]}. "
                     f"Tied players share a place and the next player takes the next one")


def game_cards(cat, academy):
    """The dragon cards of a game: the base cards, or with Dragon Academy its cards and updated printings."""
    printing = "updated" if academy else "original"
    chosen = {}
    for card in cat.dragons:
        if card.expansion != "base" and not academy:
            continue
        if card.number not in chosen or card.printing == printing:
            chosen[card.number] = card
    return list(chosen.values())


def quick_limits(cat, academy, dragons=0):
    """What the rules allow in quick mode, from the board facts and the game's cards (docs/calculator.md explains
    each): `dragons` is the number of dragons on the mat when it is known."""
    cards = game_cards(cat, academy)
    shown = dragons or cat.max_dragons
    adults = sorted((c.vp for c in cards if c.size != "fledgling"), reverse=True)
    nests = sorted((c.capacity for c in cards), reverse=True)
    return {
        "visible_dragons": cat.max_dragons,
        "eggs": cat.mat_nests + sum(nests[:shown]),
        "dragon_vp": sum(adults[:shown]),
        "fledglings": min(shown, sum(1 for c in cards if c.size == "fledgling")),
        "tucked": len(cards) - dragons,
    }


LIMIT_WORDS = {
    "visible_dragons": "a mat holds at most {n} dragons",
    "eggs": "at most {n}: the mat's nests and the largest nests of as many dragons as the mat holds",
    "dragon_vp": "at most {n}: the highest printed VP of as many dragons as the mat holds",
    "fledglings": "at most {n}: the fledglings in the game that fit on the mat",
    "tucked": "at most {n}: the game's dragon cards that are not on the mat",
}


def _quick_player(ch, player, path, academy):
    if not ch.known(player, ("name", "guild_markers", "objective_places", *QUICK_FIELDS), path):
        return {"name": "?", "guild_markers": [], "objective_places": [0] * ROUNDS, **{f: 0 for f in QUICK_FIELDS}}
    entry = {"name": ch.name(player, path), "guild_markers": ch.guild_markers(player, path),
             "objective_places": _places(ch, player, path)}
    for field in QUICK_FIELDS:
        entry[field] = ch.whole(player, field, path, signed=field in SIGNED)
    if entry["objective_vp"] and any(entry["objective_places"]):
        ch.error(f"{path}.objective_vp", "give the objective VP or the placements, not both")
    limits = quick_limits(ch.cat.engine, academy, min(entry["visible_dragons"], ch.cat.engine.max_dragons))
    for field, limit in limits.items():
        if field == "fledglings" and entry[field] and not academy:
            ch.error(f"{path}.fledglings", "fledglings come with Dragon Academy: turn the expansion on")
        elif entry[field] > limit:
            ch.error(f"{path}.{field}", LIMIT_WORDS[field].format(n=limit))
    if entry["fledglings"] > entry["visible_dragons"] and not ch.has_error(f"{path}.visible_dragons"):
        ch.error(f"{path}.fledglings", "fledglings are dragons on the mat: at most as many as the dragons")
    if len(entry["guild_markers"]) > ch.cat.engine.markers_per_player:
        ch.error(f"{path}.guild_markers", f"each player has {ch.cat.engine.markers_per_player} guild markers")
    return entry


def _automa(ch, automa, mode):
    fields = ("name", "guild_markers", "dragon_vp", "objective_vp", "objective_counts", "objective_places",
              "cache_tokens", "level", "ravel", "dragon_cards", "cave_cards", "guild_steps",
              "visible_dragons", "eggs", "cached", "tucked")
    if automa is True:
        automa = {}
    if not ch.known(automa, fields, "automa"):
        automa = {}
    entry = {"name": (automa.get("name") or "Automa"), "guild_markers": ch.guild_markers(automa, "automa")}
    if not isinstance(entry["name"], str) or len(entry["name"]) > MAX_NAME:
        ch.error("automa.name", f"at most {MAX_NAME} characters")
        entry["name"] = "Automa"
    for field in ("dragon_vp", "objective_vp", "cache_tokens", "visible_dragons", "eggs", "cached", "tucked",
                  "dragon_cards", "cave_cards", "guild_steps"):
        entry[field] = ch.whole(automa, field, "automa")
    entry["ravel"] = ch.flag(automa, "ravel", "automa")
    known = solo.levels(ch.cat.engine, entry["ravel"])
    entry["level"] = ch.whole(automa, "level", "automa", default=1)
    if entry["level"] not in known:
        ch.error("automa.level", f"the Automa's levels are {', '.join(map(str, known))}")
        entry["level"] = known[0]
    furthest = max(solo.steps_past_brown(ch.cat.engine, k) for k in range(len(ch.cat.engine.guild_spaces)))
    if entry["guild_steps"] > furthest:
        ch.error("automa.guild_steps", f"at most {furthest}: the next space is a brown one")
    if entry["visible_dragons"] > ch.cat.engine.max_dragons:
        ch.error("automa.visible_dragons", f"at most {ch.cat.engine.max_dragons} dragons")
    if mode == "card":
        entry["objective_counts"] = _counts(ch, automa, "automa")
        entry["objective_places"] = _places(ch, automa, "automa", empty=None)
        _one_of_place_or_count(ch, entry, "automa")
    return entry


def _counts(ch, obj, path):
    counts = obj.get("objective_counts", [])
    if not isinstance(counts, list) or len(counts) > ROUNDS:
        ch.error(f"{path}.objective_counts", f"a list of at most {ROUNDS} numbers (empty: count from the mat)")
        return [None] * ROUNDS
    counts = list(counts) + [None] * (ROUNDS - len(counts))
    holder = dict(enumerate(counts))
    return [ch.whole(holder, r, f"{path}.objective_counts", allow_none=True) for r in range(ROUNDS)]


def _one_of_place_or_count(ch, entry, path):
    for r, (count, place) in enumerate(zip(entry["objective_counts"], entry["objective_places"])):
        if count is not None and place is not None and not ch.has_error(f"{path}.objective_places[{r}]"):
            ch.error(f"{path}.objective_places[{r}]", f"round {r + 1}: give the place or the count, not both")


def _check_rounds(ch, clean):
    """Card mode, round by round: places from the round tracker for every line or for none, laid out as the
    tracker allows; counts only where the round's objective tile is known, since they are ranked by it."""
    lines = [(f"players[{i}]", p) for i, p in enumerate(clean["players"])]
    if clean["automa"]:
        lines.append(("automa", clean["automa"]))
    for r in range(ROUNDS):
        placed = [(path, e["name"], e["objective_places"][r]) for path, e in lines
                  if e["objective_places"][r] is not None]
        if placed:
            for path, entry in lines:
                if entry["objective_places"][r] is None and not ch.has_error(f"{path}.objective_places[{r}]"):
                    ch.error(f"{path}.objective_places[{r}]",
                             f"round {r + 1}: the other lines have places from the round tracker; "
                             f"give {entry['name']}'s place too (all others if no marker)")
            _check_places(ch, placed, r)
        elif clean["objectives"][r] is None:
            for path, entry in lines:
                if entry["objective_counts"][r] is not None:
                    ch.error(f"{path}.objective_counts[{r}]",
                             f"round {r + 1} has no objective tile, so a count cannot be placed: choose the "
                             f"tile, or give the places from the round tracker")


def _card_player(ch, player, path, academy, guild_tile, seen):
    fields = ("name", "dragons", "cave_cards", "guild_markers", "objective_counts", "objective_places", *CARD_FIELDS)
    if not ch.known(player, fields, path):
        player = {"name": "?"}
    cat = ch.cat.engine
    entry = {"name": ch.name(player, path), "guild_markers": ch.guild_markers(player, path)}
    for field in CARD_FIELDS:
        entry[field] = ch.whole(player, field, path)
    entry["objective_counts"] = _counts(ch, player, path)
    entry["objective_places"] = _places(ch, player, path, empty=None)
    _one_of_place_or_count(ch, entry, path)
    if entry["nest_eggs"] > cat.mat_nests:
        ch.error(f"{path}.nest_eggs", f"the mat has {cat.mat_nests} nests: at most {cat.mat_nests} eggs there")
    markers = len(entry["guild_markers"]) + entry["guild_ability_markers"] + entry["guild_other_markers"]
    if markers > cat.markers_per_player:
        ch.error(f"{path}.guild_markers",
                 f"each player has {cat.markers_per_player} guild markers, and this line places {markers}")
    if entry["guild_ability_markers"]:
        _check_ability_row(ch, entry, path, guild_tile)
    entry["dragons"], spaces = _dragons(ch, player, path, academy, entry["name"], seen)
    entry["cave_cards"] = _cave_cards(ch, player, path, academy, spaces, entry["name"], seen)
    return entry


def _check_ability_row(ch, entry, path, guild_tile):
    if guild_tile is None:
        ch.error(f"{path}.guild_ability_markers", "choose the game's Dragon Guild tile to score its END GAME row")
        return
    tile = ch.cat.engine.guild_tiles[ch.cat.guild_numbers[guild_tile]]
    rows = [row for row in tile.get("rows", ()) if row.get("end_game")]
    if not rows:
        ch.error(f"{path}.guild_ability_markers", f"{tile['name']} has no END GAME ability row in the catalogue")
    elif entry["guild_ability_markers"] > rows[0]["squares"]:
        ch.error(f"{path}.guild_ability_markers",
                 f"the END GAME row of {tile['name']} has {_many(rows[0]['squares'], 'square')}")


def _dragons(ch, player, path, academy, owner, seen):
    """The mat's dragons, and every (cave, column) a dragon takes, a misnamed one included."""
    cat = ch.cat.engine
    items = player.get("dragons", [])
    if not isinstance(items, list):
        ch.error(f"{path}.dragons", "expected a list of dragons")
        return [], set()
    if len(items) > cat.max_dragons:
        ch.error(f"{path}.dragons", f"a mat holds at most {cat.max_dragons} dragons, not {len(items)}")
        return [], set()
    clean = []
    taken = {}
    next_column = {cave: 1 for cave in CAVES}
    for k, item in enumerate(items):
        where = f"{path}.dragons[{k}]"
        if not ch.known(item, DRAGON_FIELDS, where):
            continue
        index = ch.cat.find_dragon(item.get("card"), academy)
        card = None if index is None else cat.dragons[index]
        if index is None:
            ch.error(f"{where}.card", f"no dragon called {item.get('card')!r} in the catalogue")
        cave = _dragon_cave(ch, item, where, card)
        column = ch.whole(item, "column", where, allow_none=True)
        if cave is not None:
            # The space is taken even when the card is misnamed, so one typo is one error, not a gap after it.
            column = next_column[cave] if column is None else column
            if not 1 <= column <= COLUMNS:
                ch.error(f"{where}.column", f"a cave has columns 1 to {COLUMNS}")
                cave = None
            elif (cave, column) in taken:
                ch.error(f"{where}.column", f"column {column} of the {CAVE_NAMES[CAVE_INDEX[cave]]} already holds "
                         f"the dragon of dragons[{taken[(cave, column)]}]")
                cave = None
            else:
                taken[(cave, column)] = k
                next_column[cave] = max(next_column[cave], column + 1)
        if card is None:
            continue
        if card.expansion != "base" and not academy:
            ch.error(f"{where}.card", f"{card.name} comes with Dragon Academy: turn the expansion on")
        if index in seen:
            ch.error(f"{where}.card", f"{card.name} is already on {seen[index]}'s mat: each card is in one place")
        seen.setdefault(index, owner)
        if cave is None:
            continue
        if CAVE_INDEX[cave] not in card.habitats:
            lives = " or ".join(CAVE_NAMES[h] for h in card.habitats)
            ch.error(f"{where}.cave", f"{card.name} lives in the {lives}, not the {CAVE_NAMES[CAVE_INDEX[cave]]}")
        dragon = {"card": ch.cat.slugs[index], "cave": cave, "column": column}
        for field in COUNTED:
            dragon[field] = ch.whole(item, field, where)
        dragon["cached"] = _cached(ch, item, where, card)
        if dragon["eggs"] > card.capacity:
            ch.error(f"{where}.eggs", f"{card.name} has {_many(card.capacity, 'nest')}: at most "
                     f"{_many(card.capacity, 'egg')}")
        if dragon["tokens"] and card.size != "fledgling":
            ch.error(f"{where}.tokens", f"{card.name} is not a fledgling: it takes no training tokens")
        elif dragon["tokens"] > len(card.training):
            ch.error(f"{where}.tokens", f"{card.name} has {len(card.training)} training boxes")
        choice = item.get("choice")
        if choice not in (None, ""):
            options = choice_options(card)
            values = [value for value, _ in options]
            if whole_number(choice) is not None:
                choice = whole_number(choice)
            if not options:
                ch.error(f"{where}.choice", f"{card.name} has no end-game choice to make")
            elif choice not in values:
                ch.error(f"{where}.choice", f"choose one of {values} for {card.name}")
            else:
                dragon["choice"] = choice
        clean.append(dragon)
    for (cave, column), k in taken.items():
        if column > 1 and (cave, column - 1) not in taken:
            ch.error(f"{path}.dragons[{k}].column",
                     f"dragons fill a cave from the left: column {column - 1} of the "
                     f"{CAVE_NAMES[CAVE_INDEX[cave]]} is empty")
    clean.sort(key=lambda dragon: (CAVE_INDEX[dragon["cave"]], dragon["column"]))
    return clean, set(taken)


def _dragon_cave(ch, item, where, card):
    """The dragon's cave: as given, or its only habitat when it lives in one cave and none was given."""
    if item.get("cave") in (None, ""):
        if card is None:
            return None  # the card's own error says enough
        if len(card.habitats) == 1:
            return CAVES[card.habitats[0]]
        lives = " or ".join(CAVE_NAMES[h] for h in card.habitats)
        ch.error(f"{where}.cave", f"{card.name} lives in the {lives}: say which")
        return None
    return ch.cave(item, where)


def _cached(ch, item, where, card):
    """Cached items: a number, or {resource: number} for a dragon that counts one kind (17 and 29 count only
    milk or meat), where "other" stands for every kind the dragon does not count."""
    counted = cached_kinds(card)
    value = item.get("cached")
    if not isinstance(value, dict):
        number = ch.whole(item, "cached", where)
        if number and counted:
            kinds = " or ".join(counted)
            ch.error(f"{where}.cached", f"{card.name} scores only {kinds} cached on it: give cached by kind, e.g. "
                     f'{{"{counted[0]}": {number}, "other": 0}}')
        return number
    by_kind = {}
    for kind in value:
        if kind not in RESOURCES and kind != "other":
            ch.error(f"{where}.cached.{kind}", f"a kind is one of {', '.join(RESOURCES)} or other")
            continue
        by_kind[kind] = ch.whole(value, kind, f"{where}.cached")
    other = by_kind.pop("other", 0)
    if other:
        spare = [r for r in RESOURCES if r not in counted]
        by_kind[spare[0]] = by_kind.get(spare[0], 0) + other
    return {kind: n for kind, n in by_kind.items() if n} or 0  # nothing cached is 0, however it was given


def _cave_cards(ch, player, path, academy, spaces, owner, seen):
    items = player.get("cave_cards", [])
    if not isinstance(items, list):
        ch.error(f"{path}.cave_cards", "expected a list of cave cards")
        return []
    clean = []
    taken = set()
    for k, item in enumerate(items):
        where = f"{path}.cave_cards[{k}]"
        if not ch.known(item, CAVE_CARD_FIELDS, where):
            continue
        ref = item.get("card")
        number = None
        if ref not in (None, "", "?"):
            index = ch.cat.find_cave(ref, academy)
            if index is None:
                ch.error(f"{where}.card", f"no cave card {ref!r} in the catalogue")
                continue
            card = ch.cat.engine.caves[index]
            if card.expansion != "base" and not academy:
                ch.error(f"{where}.card", f"cave card {card.number} comes with Dragon Academy: turn the expansion on")
            key = ("cave", index)
            if key in seen:
                ch.error(f"{where}.card", f"cave card {card.number} is already on {seen[key]}'s mat")
            seen.setdefault(key, owner)
            number = card.number
        cave = ch.cave(item, where)
        column = ch.whole(item, "column", where, allow_none=True)
        if cave is None or column is None:
            if column is None and not ch.has_error(f"{where}.column"):
                ch.error(f"{where}.column", "say which column (2 to 4) the cave card covers")
            continue
        if column == 1:
            ch.error(f"{where}.column", "the first space of each cave starts excavated: it takes no cave card")
            continue
        if not 2 <= column <= COLUMNS:
            ch.error(f"{where}.column", f"cave cards go in columns 2 to {COLUMNS}")
            continue
        if (cave, column) in taken:
            ch.error(f"{where}.column",
                     f"column {column} of the {CAVE_NAMES[CAVE_INDEX[cave]]} already has a cave card")
            continue
        taken.add((cave, column))
        clean.append({"card": number, "cave": cave, "column": column})
    # A dragon beyond the first column sits on a cave card, named or not; a misnamed dragon's space counts too, so
    # its one error is not followed by a gap in the cave.
    for cave, column in sorted(spaces):
        if column > 1 and (cave, column) not in taken:
            taken.add((cave, column))
            clean.append({"card": None, "cave": cave, "column": column})
    for k, item in enumerate(clean):
        if item["column"] > 2 and (item["cave"], item["column"] - 1) not in taken:
            ch.error(f"{path}.cave_cards", f"caves are excavated from the left: column {item['column'] - 1} of the "
                     f"{CAVE_NAMES[CAVE_INDEX[item['cave']]]} has no cave card")
    clean.sort(key=lambda c: (CAVE_INDEX[c["cave"]], c["column"]))
    return clean
