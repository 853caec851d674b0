"""Positions: everything on the table and in hands, in words a person could write (docs/positions.md).

`export_position(state)` writes a position (plain JSON: card numbers, cave names, resource names);
`load_position(catalogue, data)` checks one and returns the game state it describes, raising `PositionError` (a
`MalformedDecision` with `.field`) on the first mistake; `build_position(catalogue, **partial)` fills in what a
partial position leaves out (the rest of the cards dealt at random) and loads it. Every state a game can reach
exports to a position that loads back to an equal state, even in the middle of an ability: the `engine` part keeps
the interpreter's stack, frames and pending question for that, under a seal keyed with `seal_key` (see `_seal`).

`position_to_text` / `position_from_text` give a compact form of a position for sharing in a URL.
"""
import base64
import hashlib
import hmac
import json
import secrets
import zlib

from ..language.vocabulary import CAVE_NAMES, CAVES, RESOURCES
from . import automa as solo
from .decisions import MalformedDecision
from .model import COLUMNS, Player
from .rng import Rng
from .scoring import final_result
from .state import GameState
from .tasks import HANDLERS

FORMAT = "wyrmdex-position"
VERSION = 1
TEXT_PREFIX = "wp1."
MAX_TEXT = 200_000  # characters of a shared position, far above any real one

TOP_KEYS = ("format", "version", "options", "round", "start_player", "current_player", "turns", "players", "guild",
            "objectives", "income_taken", "display", "decks", "discards", "revealed", "automa", "engine")
# The Automa's state (solo games, automa.py): her decision cards by number, her deck top first, the dragon and cave
# cards she took by number, and her counters.
AUTOMA_KEYS = ("level", "ravel", "cards", "deck", "aside", "played", "passed", "guild", "markers", "markers_ready",
               "dragons", "caves", "coins", "objectives", "cache", "income_space", "closed_income")
PLAYER_KEYS = ("coins", "resources", "hand", "cave_cards", "nest_eggs", "mat", "guild", "guild_markers",
               "objective_places", "explored", "passed", "income_space", "end_vp", "played_this_turn")
SPACE_KEYS = ("cave_card", "dragon", "eggs", "cached", "tucked", "training", "fed", "grown_up")
ENGINE_KEYS = ("rng", "next_frame", "stack", "frames", "pending", "seal")
PLAIN_TURN = [{"t": "turn"}]
# The key of seals made without one (tests, a process that exports and loads its own positions): good only inside
# the process that drew it. A server whose positions travel to a client and back passes its own secret key.
PROCESS_KEY = secrets.token_bytes(32)


class PositionError(MalformedDecision):
    """A position that cannot be loaded: `field` says where (e.g. "players[0].mat.crimson_cavern[2]"), the message
    what is wrong."""

    def __init__(self, field, message):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


# -- export -------------------------------------------------------------------------------------------------------

def export_position(st, seal_key=None):
    """The position of a game state, as plain JSON (see docs/positions.md); a state inside an ability carries the
    interpreter's part sealed with `seal_key` (bytes; the process's own key when None)."""
    cat = st.cat

    def dragon(i):
        return None if i is None else cat.dragons[i].number

    def cave(i):
        return None if i is None else cat.caves[i].number

    players = []
    for pl in st.players:
        mat = {}
        for c, name in enumerate(CAVES):
            mat[name] = [_space_out(cat, pl, c * COLUMNS + col) for col in range(COLUMNS)]
        players.append({
            "coins": pl.coins, "resources": dict(zip(RESOURCES, pl.res)), "hand": [dragon(d) for d in pl.hand],
            "cave_cards": [cave(c) for c in pl.caves], "nest_eggs": pl.nest, "mat": mat, "guild": pl.guild,
            "guild_markers": [list(m) for m in pl.markers], "objective_places": list(pl.objectives),
            "explored": dict(zip(CAVES, pl.explored)), "passed": pl.passed, "income_space": pl.income_space,
            "end_vp": dict(pl.end_vp), "played_this_turn": [dragon(d) for d in pl.fresh],
        })
    tile = cat.guild_tiles[st.guild_tile]["number"] if st.guild_tile >= 0 else None
    engine = {"rng": st.rng.state, "next_frame": st.next_frame}
    plain = st.stack == PLAIN_TURN and not st.frames and st.pending is not None
    if not plain:
        data = st.to_json()
        engine.update(json.loads(json.dumps({"stack": data["stack"], "frames": data["frames"],
                                             "pending": data["pending"]})))
        engine["seal"] = _seal(engine, seal_key)
    options = {"players": len(st.players), "academy": bool(st.options.get("academy")),
               "updated": bool(st.options.get("updated")), "seed": st.options.get("seed", 0)}
    automa = None
    if st.automa is not None:
        options["automa"] = dict(st.options["automa"])
        automa = json.loads(json.dumps(st.automa))
        automa["deck"].reverse()  # top first, as the decks
        automa["dragons"] = [dragon(d) for d in automa["dragons"]]
        automa["caves"] = [cave(c) for c in automa["caves"]]
    out = {
        "format": FORMAT, "version": VERSION,
        "options": options,
        "round": st.round, "start_player": st.start, "current_player": st.current, "turns": st.turns,
        "players": players,
        "guild": {"tile": tile, "squares": [[list(sq) for sq in row] for row in st.guild_board]},
        "objectives": [{"tile": cat.objective_tiles[t]["number"], "side": side} for t, side in st.objectives],
        "income_taken": {k: v for k, v in st.income_taken.items()},
        "display": {"dragons": [dragon(d) for d in st.display_dragons], "caves": [cave(c) for c in st.display_caves]},
        "decks": {"dragons": [dragon(d) for d in reversed(st.dragon_deck)],
                  "caves": [cave(c) for c in reversed(st.cave_deck)]},
        "discards": {"dragons": [dragon(d) for d in st.dragon_discard],
                     "caves": [cave(c) for c in st.cave_discard]},
        "revealed": [dragon(d) for d in st.revealed],
        "engine": engine,
    }
    if automa is not None:
        out["automa"] = automa
    return out


def _space_out(cat, pl, index):
    """A mat space: null when not excavated and empty; otherwise only what is there."""
    s = pl.spaces[index]
    if not pl.excavated(index) and s.dragon is None and not (s.eggs or any(s.cached) or s.tucked or s.tokens
                                                               or s.fed or s.grown):
        return None
    out = {}
    if s.cave_card is not None:
        out["cave_card"] = cat.caves[s.cave_card].number
    if s.dragon is not None:
        out["dragon"] = cat.dragons[s.dragon].number
    if s.eggs:
        out["eggs"] = s.eggs
    if any(s.cached):
        out["cached"] = {r: n for r, n in zip(RESOURCES, s.cached) if n}
    if s.tucked:
        out["tucked"] = [cat.dragons[d].number for d in s.tucked]
    if s.tokens:
        out["training"] = s.tokens
    if s.fed:
        out["fed"] = s.fed
    if s.grown:
        out["grown_up"] = True
    return out


# -- load ---------------------------------------------------------------------------------------------------------

def _int(value, field, low=0, high=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(field, "expected a whole number")
    if value < low:
        raise PositionError(field, f"cannot be less than {low}" if low else "cannot be negative")
    if high is not None and value > high:
        raise PositionError(field, f"cannot be more than {high}")
    return value


def _bool(value, field):
    if not isinstance(value, bool):
        raise PositionError(field, "expected true or false")
    return value


def _list(value, field, most=None):
    if not isinstance(value, list):
        raise PositionError(field, "expected a list")
    if most is not None and len(value) > most:
        raise PositionError(field, f"at most {most} entries")
    return value


def _object(value, field, keys):
    if not isinstance(value, dict):
        raise PositionError(field, "expected an object")
    for key in value:
        if key not in keys:
            raise PositionError(f"{field}.{key}" if isinstance(key, str) else field,
                                f"is not a field of a position here (expected one of {', '.join(keys)})")
    return value


def _resources(value, field):
    _object(value, field, RESOURCES)
    return [_int(value.get(r, 0), f"{field}.{r}") for r in RESOURCES]


class _Cards:
    """This game's cards by printed number, and where each has been put so far (a card is in one place)."""

    def __init__(self, cat, academy, updated):
        self.cat = cat
        self.dragon_pool = cat.dragon_deck(academy, updated)
        self.cave_pool = cat.cave_deck(academy, updated)
        self.dragons = {cat.dragons[i].number: i for i in self.dragon_pool}
        self.caves = {cat.caves[i].number: i for i in self.cave_pool}
        self.academy = academy
        self.seen = {"dragon": {}, "cave": {}}

    def _why_not(self, kind, number):
        cards = self.cat.dragons if kind == "dragon" else self.cat.caves
        known = [c for c in cards if c.number == number]
        if not known:
            return f"there is no {kind} card numbered {number}"
        card = known[0]
        if card.expansion != "base" and not self.academy:
            return f"{kind} card {number} is a Dragon Academy card, and this game is played without the expansion"
        return f"{kind} card {number} is not among this game's cards (its other printing is)"

    def ref(self, kind, number, field, place=True):
        """The catalogue index of the card numbered `number`; with `place`, claim it for `field`."""
        _int(number, field, 1)
        index = (self.dragons if kind == "dragon" else self.caves).get(number)
        if index is None:
            raise PositionError(field, self._why_not(kind, number))
        if place:
            seen = self.seen[kind]
            if index in seen:
                raise PositionError(field, f"{self.label(kind, index)} is also at {seen[index]}; the game has one "
                                           f"copy of each card")
            seen[index] = field
        return index

    def label(self, kind, index):
        return self.cat.dragons[index].label() if kind == "dragon" else self.cat.caves[index].label()

    def check_all_placed(self, field):
        for kind, pool in (("dragon", self.dragon_pool), ("cave", self.cave_pool)):
            missing = [i for i in pool if i not in self.seen[kind]]
            if missing:
                names = ", ".join(str((self.cat.dragons if kind == "dragon" else self.cat.caves)[i].number)
                                  for i in missing[:8])
                more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
                raise PositionError(f"{field}.{kind}s", f"{len(missing)} of this game's {kind} cards are nowhere "
                                                        f"(numbers {names}{more}): every card is in a hand, on a mat, "
                                                        f"in the display, a deck or a discard pile")


def load_position(catalogue, data, seal_key=None):
    """The game state a position describes; raise PositionError naming the first wrong field. The interpreter's part
    of a position inside an ability is taken only under a seal made with the same `seal_key` as `export_position`'s."""
    cat = catalogue
    _object(data, "position", TOP_KEYS)
    if data.get("format", FORMAT) != FORMAT:
        raise PositionError("format", f"expected {FORMAT!r}")
    if data.get("version") != VERSION:
        raise PositionError("version", f"this engine reads positions of version {VERSION}")
    options = _object(data.get("options", {}), "options", ("players", "academy", "updated", "seed", "automa"))
    raw_players = _list(data.get("players"), "players")
    n = _int(options.get("players", len(raw_players)), "options.players", 1, 5)
    if len(raw_players) != n:
        raise PositionError("players", f"lists {len(raw_players)} players but options.players is {n}")
    academy = _bool(options.get("academy", False), "options.academy")
    updated = _bool(options.get("updated", academy), "options.updated")
    seed = options.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PositionError("options.seed", "expected a whole number")
    try:
        automa = solo.check_options(cat, n, options.get("automa"))
    except MalformedDecision as error:
        raise PositionError(f"options.{getattr(error, 'field', 'automa')}", str(error).split(": ", 1)[-1]) from None
    cards = _Cards(cat, academy, updated)
    st = GameState(cat)
    st.options = {"players": n, "seed": seed, "academy": academy, "updated": updated}
    if automa is not None:
        st.options["automa"] = automa
    seats = 2 if automa is not None else n  # the Automa sits at seat 1
    st.round = _int(data.get("round", 1), "round", 1, cat.rounds)
    st.start = _int(data.get("start_player", 0), "start_player", 0, seats - 1)
    st.current = _int(data.get("current_player", st.start if automa is None else 0), "current_player", 0, n - 1)
    st.turns = _int(data.get("turns", 0), "turns")

    guild = _object(data.get("guild", {}), "guild", ("tile", "squares"))
    tile = guild.get("tile")
    if tile is None:
        st.guild_tile = -1
    else:
        _int(tile, "guild.tile", 1)
        choices = {cat.guild_tiles[i]["number"]: i for i in cat.guild_tiles_for(academy)}
        if tile not in choices:
            raise PositionError("guild.tile", f"no Dragon Guild tile numbered {tile} can be dealt in this game "
                                              f"(tiles {', '.join(map(str, sorted(choices)))})")
        st.guild_tile = choices[tile]
    rows = st.tile_rows()
    shape = [row["squares"] for row in rows] + [len(cat.guild_end_vp)]

    st.players = [_player(cat, cards, st, i, p, rows, shape) for i, p in enumerate(raw_players)]
    if automa is None and "automa" in data:
        raise PositionError("automa", "only a solo game (options.players 1) has the Automa")
    if automa is not None and "automa" in data:
        st.automa = _automa(cat, cards, automa, data["automa"], rows, shape)
    _guild_squares(st, guild, shape, seats)

    objectives = _list(data.get("objectives", []), "objectives", cat.rounds)
    allowed = {cat.objective_tiles[i]["number"]: i for i in cat.objectives_for(academy)}
    used = set()
    for k, entry in enumerate(objectives):
        field = f"objectives[{k}]"
        _object(entry, field, ("tile", "side"))
        number = _int(entry.get("tile"), f"{field}.tile", 1)
        if number not in allowed:
            raise PositionError(f"{field}.tile", f"no objective tile numbered {number} in this game")
        if number in used:
            raise PositionError(f"{field}.tile", f"objective tile {number} is already used for an earlier round")
        used.add(number)
        if entry.get("side") not in ("a", "b"):
            raise PositionError(f"{field}.side", 'expected "a" or "b"')
        st.objectives.append([allowed[number], entry["side"]])
    for i, pl in enumerate(st.players):
        if len(pl.objectives) > len(st.objectives):
            raise PositionError(f"players[{i}].objective_places", f"{len(pl.objectives)} places but only "
                                                                  f"{len(st.objectives)} round objectives")

    income = _object(data.get("income_taken", {}), "income_taken",
                     tuple(str(k) for k in range(len(max(cat.academy_income.values(), key=len, default=())))))
    for key, seat in income.items():
        _int(seat, f"income_taken.{key}", 0, seats - 1)
        taken = st.players[seat].income_space if seat < n else (st.automa or {}).get("income_space")
        if taken != int(key):
            raise PositionError(f"income_taken.{key}", f"player {seat} has not taken income space {key}")
    for i, pl in enumerate(st.players):
        if pl.income_space is not None and income.get(str(pl.income_space)) != i:
            raise PositionError(f"players[{i}].income_space", f"income space {pl.income_space} is not listed as "
                                                              f"taken by player {i} in income_taken")
    st.income_taken = dict(income)

    display = _object(data.get("display", {}), "display", ("dragons", "caves"))
    for kind, key, slots in (("dragon", "dragons", st.display_dragons), ("cave", "caves", st.display_caves)):
        row = _list(display.get(key, [None, None, None]), f"display.{key}", 3)
        for k, number in enumerate(row):
            if number is not None:
                slots[k] = cards.ref(kind, number, f"display.{key}[{k}]")
    for part, target in (("decks", (st.dragon_deck, st.cave_deck)), ("discards", (st.dragon_discard, st.cave_discard))):
        pile = _object(data.get(part, {}), part, ("dragons", "caves"))
        for kind, key, out in (("dragon", "dragons", target[0]), ("cave", "caves", target[1])):
            for k, number in enumerate(_list(pile.get(key, []), f"{part}.{key}")):
                out.append(cards.ref(kind, number, f"{part}.{key}[{k}]"))
    st.dragon_deck.reverse()  # a position lists the top card first; the engine draws from the end
    st.cave_deck.reverse()
    for k, number in enumerate(_list(data.get("revealed", []), "revealed")):
        st.revealed.append(cards.ref("dragon", number, f"revealed[{k}]"))
    if automa is not None:
        for k, (tile, side) in enumerate(st.objectives):
            if not solo._automa_values(cat, tile, side):
                raise PositionError(f"objectives[{k}]", "the Automa cannot play this objective side (it has no "
                                                        "Automa values)")
        if st.automa is None:  # a solo position that leaves her out: she starts afresh
            start = st.start
            solo.setup(st, [])
            st.start = start
    cards.check_all_placed("decks")
    return _engine(st, _object(data.get("engine", {}), "engine", ENGINE_KEYS), seal_key)


def _player(cat, cards, st, i, data, rows, shape):
    f = f"players[{i}]"
    _object(data, f, PLAYER_KEYS)
    pl = Player(i)
    pl.coins = _int(data.get("coins", 0), f"{f}.coins")
    pl.res = _resources(data.get("resources", {}), f"{f}.resources")
    pl.hand = [cards.ref("dragon", d, f"{f}.hand[{k}]") for k, d in enumerate(_list(data.get("hand", []),
                                                                                      f"{f}.hand"))]
    pl.caves = [cards.ref("cave", c, f"{f}.cave_cards[{k}]")
                for k, c in enumerate(_list(data.get("cave_cards", []), f"{f}.cave_cards"))]
    pl.nest = _int(data.get("nest_eggs", 0), f"{f}.nest_eggs", 0, cat.mat_nests)
    mat = _object(data.get("mat", {}), f"{f}.mat", CAVES)
    for c, name in enumerate(CAVES):
        spaces = _list(mat.get(name, []), f"{f}.mat.{name}", COLUMNS)
        spaces = spaces + [None] * (COLUMNS - len(spaces))
        for col, entry in enumerate(spaces):
            _space_in(cat, cards, pl, c, col, entry, f"{f}.mat.{name}[{col}]")
        for col in range(1, COLUMNS):
            if pl.excavated(c * COLUMNS + col) and not pl.excavated(c * COLUMNS + col - 1):
                raise PositionError(f"{f}.mat.{name}[{col}]", f"{CAVE_NAMES[c]} column {col + 1} is excavated but "
                                                               f"column {col} is not (caves are dug left to right)")
    if pl.dragon_count() > cat.max_dragons:
        raise PositionError(f"{f}.mat", f"a mat holds at most {cat.max_dragons} dragons")
    pl.guild = _int(data.get("guild", 0), f"{f}.guild")
    markers = _list(data.get("guild_markers", []), f"{f}.guild_markers", cat.markers_per_player)
    for k, marker in enumerate(markers):
        field = f"{f}.guild_markers[{k}]"
        if not (isinstance(marker, list) and len(marker) == 2):
            raise PositionError(field, "expected [row, square] (row -1 is the END GAME VP row)")
        row = _int(marker[0], f"{field}[0]", -1, len(rows) - 1)
        square = _int(marker[1], f"{field}[1]", 0, shape[row] - 1)
        pl.markers.append([row, square])
    places = _list(data.get("objective_places", []), f"{f}.objective_places", cat.rounds)
    pl.objectives = [_int(p, f"{f}.objective_places[{k}]", 0, 3) for k, p in enumerate(places)]
    explored = _object(data.get("explored", {}), f"{f}.explored", CAVES)
    pl.explored = [_int(explored.get(name, 0), f"{f}.explored.{name}", 0, len(cat.explore_costs)) for name in CAVES]
    pl.passed = _bool(data.get("passed", False), f"{f}.passed")
    space = data.get("income_space")
    if space is not None:
        spaces = cat.academy_income.get(st.round, ())
        if not st.options["academy"]:
            raise PositionError(f"{f}.income_space", "income spaces are Dragon Academy's; this game is played "
                                                     "without it")
        pl.income_space = _int(space, f"{f}.income_space", 0, max(len(spaces) - 1, 0))
    end_vp = data.get("end_vp", {})
    if not isinstance(end_vp, dict):
        raise PositionError(f"{f}.end_vp", "expected an object: what each end-game source scored")
    pl.end_vp = {str(k): _int(v, f"{f}.end_vp.{k}", -1000) for k, v in end_vp.items()}
    pl.fresh = [cards.ref("dragon", d, f"{f}.played_this_turn[{k}]", place=False)
                for k, d in enumerate(_list(data.get("played_this_turn", []), f"{f}.played_this_turn"))]
    return pl


def _space_in(cat, cards, pl, c, col, entry, field):
    where = f"{CAVE_NAMES[c]} column {col + 1}"
    if entry is None:
        return
    _object(entry, field, SPACE_KEYS)
    space = pl.spaces[c * COLUMNS + col]
    if entry.get("cave_card") is not None:
        if col == 0:
            raise PositionError(f"{field}.cave_card", f"{where} is excavated from the start: it takes no cave card")
        space.cave_card = cards.ref("cave", entry["cave_card"], f"{field}.cave_card")
    elif col:
        if entry.get("dragon") is not None:
            raise PositionError(field, f"{where} holds a dragon but the space is not excavated (give its cave_card)")
        if any(entry.get(k) for k in SPACE_KEYS[2:]):
            raise PositionError(field, f"{where} is not excavated: nothing can lie there")
        raise PositionError(f"{field}.cave_card", f"{where}: an excavated space names its cave card; write null for "
                                                  f"a space not excavated")
    if entry.get("dragon") is None:
        things = [k for k in SPACE_KEYS[2:] if entry.get(k)]
        if things:
            raise PositionError(f"{field}.{things[0]}", f"{where} has no dragon, so nothing can lie on it")
        return
    space.dragon = cards.ref("dragon", entry["dragon"], f"{field}.dragon")
    card = cat.dragons[space.dragon]
    space.eggs = _int(entry.get("eggs", 0), f"{field}.eggs")
    if space.eggs > card.capacity:
        raise PositionError(f"{field}.eggs", f"{card.label()} has room for {card.capacity} egg(s), not "
                                             f"{space.eggs}")
    space.cached = _resources(entry.get("cached", {}), f"{field}.cached")
    space.tucked = [cards.ref("dragon", d, f"{field}.tucked[{k}]")
                    for k, d in enumerate(_list(entry.get("tucked", []), f"{field}.tucked"))]
    space.tokens = _int(entry.get("training", 0), f"{field}.training")
    if space.tokens > len(card.training):
        raise PositionError(f"{field}.training", f"{card.label()} has {len(card.training)} training box(es)"
                            if card.training else f"{card.label()} is not a fledgling: it takes no training tokens")
    space.fed = _int(entry.get("fed", 0), f"{field}.fed")
    space.grown = _bool(entry.get("grown_up", False), f"{field}.grown_up")
    if (space.fed or space.grown) and card.size != "hatchling":
        raise PositionError(f"{field}.fed" if space.fed else f"{field}.grown_up",
                            f"{card.label()} is not a hatchling: it is never fed and never grows up")


def _automa(cat, cards, options, data, rows, shape):
    """The Automa's state in a solo position, checked: her own cards, the game's cards she took, her counters."""
    f = "automa"
    _object(data, f, AUTOMA_KEYS)
    missing = [k for k in AUTOMA_KEYS if k not in data]
    if missing:
        raise PositionError(f"{f}.{missing[0]}", "required in the Automa's state")
    for key in ("level", "ravel"):
        if data[key] != options[key]:
            raise PositionError(f"{f}.{key}", f"differs from options.automa.{key}")
    a = {"level": options["level"], "ravel": options["ravel"]}
    a["cards"] = sorted(solo.deck_cards(cat, options["level"], options["ravel"]))
    piles = {}
    for key in ("deck", "aside", "played"):
        piles[key] = [_int(n, f"{f}.{key}[{k}]", 1) for k, n in enumerate(_list(data[key], f"{f}.{key}"))]
    mine = [_int(n, f"{f}.cards[{k}]", 1) for k, n in enumerate(_list(data["cards"], f"{f}.cards"))]
    if sorted(mine) != a["cards"] or sorted(piles["deck"] + piles["aside"] + piles["played"]) != a["cards"]:
        raise PositionError(f"{f}.deck", f"her deck, the card set aside and the cards played are her level's cards "
                                         f"({', '.join(map(str, a['cards']))}), each once")
    a["cards"] = list(data["cards"])
    a["deck"] = list(reversed(piles["deck"]))  # the engine draws from the end
    a["aside"], a["played"] = piles["aside"], piles["played"]
    a["passed"] = _bool(data["passed"], f"{f}.passed")
    a["guild"] = _int(data["guild"], f"{f}.guild")
    a["markers"] = []
    for k, marker in enumerate(_list(data["markers"], f"{f}.markers", cat.markers_per_player)):
        if not (isinstance(marker, list) and len(marker) == 2):
            raise PositionError(f"{f}.markers[{k}]", "expected [row, square] (row -1 is the END GAME VP row)")
        row = _int(marker[0], f"{f}.markers[{k}][0]", -1, len(rows) - 1)
        a["markers"].append([row, _int(marker[1], f"{f}.markers[{k}][1]", 0, shape[row] - 1)])
    a["markers_ready"] = _int(data["markers_ready"], f"{f}.markers_ready", 0,
                              cat.markers_per_player - len(a["markers"]))
    a["dragons"] = [cards.ref("dragon", d, f"{f}.dragons[{k}]") for k, d in enumerate(_list(data["dragons"],
                                                                                           f"{f}.dragons"))]
    a["caves"] = [cards.ref("cave", c, f"{f}.caves[{k}]") for k, c in enumerate(_list(data["caves"], f"{f}.caves"))]
    a["coins"] = _int(data["coins"], f"{f}.coins")
    a["objectives"] = [_int(p, f"{f}.objectives[{k}]", 0, 3)
                       for k, p in enumerate(_list(data["objectives"], f"{f}.objectives", cat.rounds))]
    a["cache"] = _int(data["cache"], f"{f}.cache")
    a["income_space"] = None if data["income_space"] is None else _int(data["income_space"], f"{f}.income_space")
    a["closed_income"] = [_int(i, f"{f}.closed_income[{k}]")
                          for k, i in enumerate(_list(data["closed_income"], f"{f}.closed_income"))]
    return a


def _guild_squares(st, guild, shape, seats):
    """The tile's squares: given (they keep the order markers arrived in), or laid out from the players' markers."""
    given = guild.get("squares")
    if given is None:
        st.guild_board = [[[] for _ in range(k)] for k in shape]
        for pl in st.players:
            for row, square in pl.markers:
                st.guild_board[row][square].append(pl.seat)
        for row, square in st.automa["markers"] if st.automa is not None else ():
            st.guild_board[row][square].append(solo.SEAT)
    else:
        _list(given, "guild.squares")
        if len(given) != len(shape):
            raise PositionError("guild.squares", f"the tile has {len(shape) - 1} rows and the END GAME VP row, so "
                                                 f"{len(shape)} lists of squares")
        board = []
        for r, (row, k) in enumerate(zip(given, shape)):
            if not isinstance(row, list) or len(row) != k:
                raise PositionError(f"guild.squares[{r}]", f"this row has {k} square(s)")
            board.append([[_int(seat, f"guild.squares[{r}][{s}][{j}]", 0, seats - 1)
                           for j, seat in enumerate(_list(square, f"guild.squares[{r}][{s}]"))]
                          for s, square in enumerate(row)])
        st.guild_board = board
    last = len(shape) - 1
    for r, row in enumerate(st.guild_board):
        for s, on in enumerate(row):
            if len(on) > 1 and not (r == last and s == len(row) - 1):
                raise PositionError(f"guild.squares[{r}][{s}]", "holds more than one marker; only the END GAME VP "
                                                                 "row's last square takes several")
            for seat in set(on):
                mine = [r if r < last else -1, s]
                theirs, field = (st.players[seat].markers, f"players[{seat}].guild_markers") \
                    if seat < len(st.players) else (st.automa["markers"] if st.automa else [], "automa.markers")
                if theirs.count(mine) != on.count(seat):
                    raise PositionError(field, f"does not list the marker at guild.squares[{r}][{s}]")
    if st.automa is not None:
        for k, (row, square) in enumerate(st.automa["markers"]):
            if solo.SEAT not in st.guild_board[row if row >= 0 else last][square]:
                raise PositionError(f"automa.markers[{k}]", "no such marker on the tile's squares")
    for pl in st.players:
        for k, (row, square) in enumerate(pl.markers):
            if pl.seat not in st.guild_board[row if row >= 0 else last][square]:
                raise PositionError(f"players[{pl.seat}].guild_markers[{k}]", "no such marker on the tile's squares")


def _seal(engine, key):
    """The keyed digest (HMAC-SHA256) of the interpreter's part (stack, frames, question). They are the engine's own
    working data, copied out as they are, not a table anyone edits: the loader trusts their shape, so a forged task
    could crash the game. Only the holder of `key` can seal them, so a position whose seal does not match is refused
    before they are read. Positions are edited through their table fields."""
    inner = {name: engine.get(name) for name in ("stack", "frames", "pending")}
    text = json.dumps(inner, sort_keys=True, separators=(",", ":"))
    return hmac.new(PROCESS_KEY if key is None else key, text.encode(), hashlib.sha256).hexdigest()


def _engine(st, engine, seal_key):
    """The generator and, for a state paused inside an ability, the interpreter's stack, frames and question."""
    st.rng = Rng(_int(engine.get("rng", st.options["seed"] % 2 ** 64), "engine.rng", 0, 2 ** 64 - 1))
    st.next_frame = _int(engine.get("next_frame", 0), "engine.next_frame")
    if "stack" not in engine:
        for key in ("frames", "pending"):
            if key in engine:
                raise PositionError(f"engine.{key}", "given without engine.stack")
        st.stack = [{"t": "turn"}]
        st.run()
        if "next_frame" in engine:  # asking the main action numbers a few scratch frames: keep the count exact
            st.next_frame = engine["next_frame"]
        return st
    stack = _list(engine["stack"], "engine.stack")
    for k, task in enumerate(stack):
        if not isinstance(task, dict) or not isinstance(task.get("t"), str) or task["t"] not in HANDLERS:
            raise PositionError(f"engine.stack[{k}]", "not a task of this engine")
    frames = _object(engine.get("frames", {}), "engine.frames", tuple(engine.get("frames") or ()))
    for key, frame in frames.items():
        if not isinstance(frame, dict) or not {"p", "src", "owner", "cave", "parent", "vars"} <= set(frame):
            raise PositionError(f"engine.frames.{key}", "not a frame of this engine")
    pending = engine.get("pending")
    if pending is not None:
        if not isinstance(pending, dict):
            raise PositionError("engine.pending", "expected an object")
        _int(pending.get("player"), "engine.pending.player", 0, len(st.players) - 1)
        if not stack:
            raise PositionError("engine.pending", "a question needs its task on engine.stack")
    # Only the holder of the key seals: a stack of the right shape is still not read unless the seal matches.
    seal = engine.get("seal")
    if not isinstance(seal, str) or not hmac.compare_digest(seal.encode("utf-8", "replace"),
                                                           _seal(engine, seal_key).encode()):
        raise PositionError("engine.stack", "the interpreter's stack, frames or question were edited or not sealed "
                                            "here (engine.seal does not match them); edit a position through its "
                                            "table fields, or leave engine.stack out to start at a main action")
    data = st.to_json()
    data.update(stack=stack, frames=frames, pending=pending)
    try:
        loaded = GameState.from_json(st.cat, json.loads(json.dumps(data)))
    except MalformedDecision as error:
        raise PositionError("engine.pending", str(error)) from None
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise PositionError("engine", f"not the engine state of a position ({error})") from None
    loaded.log, loaded.decided = [], 0  # a position is the table, not its history: a new log starts here
    loaded.result = None
    if loaded.pending is None and not loaded.stack:
        loaded.result = final_result(loaded)  # a finished game
        if loaded.automa is not None:
            solo.add_to_result(loaded, loaded.result)
    elif loaded.pending is None:
        loaded.run()
    return loaded


# -- partial positions --------------------------------------------------------------------------------------------

PARTIAL_KEYS = ("players", "automa", "academy", "updated", "seed", "round", "start_player", "current_player", "turns",
                "guild_tile", "objectives", "display", "deck_top", "discards", "income_taken")
PARTIAL_PLAYER_KEYS = PLAYER_KEYS + ("excavated",)
DEFAULT_PLAYER = {"coins": 6, "nest_eggs": 1, "hand": 2, "cave_cards": 2}
EMPTY_SLOT = "empty"  # a display slot a partial position leaves empty (null: dealt)


def build_position(catalogue, **partial):
    """A game state from a partial position: what is named is placed, the rest is dealt at random (seeded).

    Keys as in a position, plus: `players` may be a count; `academy`, `updated`, `seed` at the top; a player's
    `hand`, `cave_cards` and a space's `tucked` may be counts (cards dealt at random); a mat space may be a dragon
    number; `excavated` ({cave: columns}) digs columns with random cave cards (a dragon's column is dug anyway);
    `guild_tile` is a tile number; `deck_top` ({"dragons": [...], "caves": [...]}, top first) stacks the decks;
    a `display` slot left out or null is dealt, "empty" stays empty.
    Unless told otherwise it is `current_player`'s main action in round 1.
    """
    cat = catalogue
    for key in partial:
        if key not in PARTIAL_KEYS:
            raise PositionError(key, f"is not a field of a partial position (expected one of "
                                     f"{', '.join(PARTIAL_KEYS)})")
    seed = partial.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PositionError("seed", "expected a whole number")
    academy = _bool(partial.get("academy", False), "academy")
    updated = _bool(partial.get("updated", academy), "updated")
    players = partial.get("players", 2)
    if isinstance(players, int) and not isinstance(players, bool):
        players = [{} for _ in range(_int(players, "players", 1, 5))]
    players = _list(players, "players", 5)
    n = len(players)
    if n < 1:
        raise PositionError("players", "a game has 1 to 5 players (1: solo, against the Automa)")
    automa = partial.get("automa", {"level": 1, "ravel": False} if n == 1 else None)
    rng = Rng(seed)
    cards = _Cards(cat, academy, updated)
    named = {"dragon": set(), "cave": set()}

    def name(kind, number, field):
        index = cards.ref(kind, number, field, place=False)
        if index in named[kind]:
            raise PositionError(field, f"{cards.label(kind, index)} is named twice; the game has one copy of each "
                                       f"card")
        named[kind].add(index)
        return number

    # First every named card, so the random ones come only from the rest.
    out_players = []
    for i, raw in enumerate(players):
        f = f"players[{i}]"
        _object(raw, f, PARTIAL_PLAYER_KEYS)
        p = {k: v for k, v in raw.items() if k != "excavated"}
        for key in ("hand", "cave_cards"):
            value = raw.get(key, DEFAULT_PLAYER[key])
            if isinstance(value, list):
                [name("dragon" if key == "hand" else "cave", d, f"{f}.{key}[{k}]") for k, d in enumerate(value)]
        mat = _object(raw.get("mat", {}), f"{f}.mat", CAVES)
        for c, cave in enumerate(CAVES):
            for col, entry in enumerate(_list(mat.get(cave, []), f"{f}.mat.{cave}", COLUMNS)):
                field = f"{f}.mat.{cave}[{col}]"
                if isinstance(entry, int) and not isinstance(entry, bool):
                    name("dragon", entry, f"{field}")
                elif isinstance(entry, dict):
                    if entry.get("dragon") is not None:
                        name("dragon", entry["dragon"], f"{field}.dragon")
                    if entry.get("cave_card") is not None:
                        name("cave", entry["cave_card"], f"{field}.cave_card")
                    if isinstance(entry.get("tucked"), list):
                        for k, d in enumerate(entry["tucked"]):
                            name("dragon", d, f"{field}.tucked[{k}]")
        out_players.append(p)
    display = _object(partial.get("display", {}), "display", ("dragons", "caves"))
    for kind, key in (("dragon", "dragons"), ("cave", "caves")):
        for k, number in enumerate(_list(display.get(key, []), f"display.{key}", 3)):
            if number is not None and number != EMPTY_SLOT:
                name(kind, number, f"display.{key}[{k}]")
    top = _object(partial.get("deck_top", {}), "deck_top", ("dragons", "caves"))
    discards = _object(partial.get("discards", {}), "discards", ("dragons", "caves"))
    for kind, key in (("dragon", "dragons"), ("cave", "caves")):
        for k, number in enumerate(_list(top.get(key, []), f"deck_top.{key}")):
            name(kind, number, f"deck_top.{key}[{k}]")
        for k, number in enumerate(_list(discards.get(key, []), f"discards.{key}")):
            name(kind, number, f"discards.{key}[{k}]")

    rest = {"dragon": [i for i in cards.dragon_pool if i not in named["dragon"]],
            "cave": [i for i in cards.cave_pool if i not in named["cave"]]}
    rng.shuffle(rest["dragon"])
    rng.shuffle(rest["cave"])

    def deal(kind, count, field):
        pile = rest[kind]
        if count > len(pile):
            raise PositionError(field, f"only {len(pile)} {kind} cards are left to deal")
        got = [pile.pop() for _ in range(count)]
        return [(cat.dragons if kind == "dragon" else cat.caves)[i].number for i in got]

    for i, (raw, p) in enumerate(zip(players, out_players)):
        f = f"players[{i}]"
        for key, default in DEFAULT_PLAYER.items():
            p.setdefault(key, raw.get(key, default))
        if isinstance(partial.get("round", 1), int):  # each round already played scored its objective
            p.setdefault("objective_places", [0] * max(0, min(partial.get("round", 1), cat.rounds) - 1))
        for key in ("hand", "cave_cards"):
            if not isinstance(p[key], list):
                p[key] = deal("dragon" if key == "hand" else "cave", _int(p[key], f"{f}.{key}", 0, 20), f"{f}.{key}")
        dug = _object(raw.get("excavated", {}), f"{f}.excavated", CAVES)
        mat = {}
        for c, cave in enumerate(CAVES):
            entries = list(_list((raw.get("mat") or {}).get(cave, []), f"{f}.mat.{cave}", COLUMNS))
            entries += [None] * (COLUMNS - len(entries))
            columns = _int(dug.get(cave, 1), f"{f}.excavated.{cave}", 1, COLUMNS)
            spaces = []
            for col, entry in enumerate(entries):
                field = f"{f}.mat.{cave}[{col}]"
                if isinstance(entry, int) and not isinstance(entry, bool):
                    entry = {"dragon": entry}
                elif entry is not None:
                    entry = dict(_object(entry, field, SPACE_KEYS))
                if entry is not None and isinstance(entry.get("tucked"), int) and not isinstance(entry["tucked"],
                                                                                                  bool):
                    entry["tucked"] = deal("dragon", _int(entry["tucked"], f"{field}.tucked", 0, 20),
                                           f"{field}.tucked")
                spaces.append(entry)
            last = max([col + 1 for col, e in enumerate(spaces) if e is not None] + [columns])
            for col in range(last):
                entry = spaces[col] if spaces[col] is not None else {}
                if col and entry.get("cave_card") is None:
                    entry["cave_card"] = deal("cave", 1, f"{f}.mat.{cave}[{col}].cave_card")[0]
                spaces[col] = entry
            mat[cave] = spaces
        p["mat"] = mat

    tiles = cat.guild_tiles_for(academy)
    tile = partial.get("guild_tile")
    if tile is None and tiles:
        tile = cat.guild_tiles[tiles[rng.below(len(tiles))]]["number"]
    objectives = partial.get("objectives")
    if objectives is None:
        pool = cat.objectives_for(academy)
        rng.shuffle(pool)
        sides = [(t, "ab"[rng.below(2)]) for t in pool]
        if automa is not None:  # solo: only sides the Automa can play
            sides = [(t, side) for t, side in sides if isinstance(automa, dict) and solo.rules(cat)
                     and solo._automa_values(cat, t, side)]
        objectives = [{"tile": cat.objective_tiles[t]["number"], "side": side} for t, side in sides[:cat.rounds]]
    shown = {}
    for kind, key in (("dragon", "dragons"), ("cave", "caves")):
        row = list(display.get(key, [])) + [None] * (3 - len(display.get(key, [])))
        shown[key] = [None if number == EMPTY_SLOT else number if number is not None
                      else (deal(kind, 1, f"display.{key}[{k}]")[0] if rest[kind] else None)
                      for k, number in enumerate(row)]
    books = (cat.dragons, cat.caves)
    decks = {key: list(top.get(key, [])) + [books[j][i].number for i in reversed(rest[kind])]
             for j, (kind, key) in enumerate((("dragon", "dragons"), ("cave", "caves")))}
    start = partial.get("start_player", 0)
    position = {
        "format": FORMAT, "version": VERSION,
        "options": dict({"players": n, "academy": academy, "updated": updated, "seed": seed},
                        **({"automa": automa} if automa is not None else {})),
        "round": partial.get("round", 1), "start_player": start,
        "current_player": partial.get("current_player", start if automa is None else 0),
        "turns": partial.get("turns", 0),
        "players": out_players, "guild": {"tile": tile}, "objectives": objectives,
        "income_taken": partial.get("income_taken", {}), "display": shown, "decks": decks,
        "discards": {"dragons": list(discards.get("dragons", [])), "caves": list(discards.get("caves", []))},
        "engine": {"rng": rng.state},
    }
    return load_position(cat, position)


# -- the compact text form ----------------------------------------------------------------------------------------

def position_to_text(position):
    """A position as one URL-safe line: "wp1." and the base64url of its deflated JSON."""
    raw = json.dumps(position, separators=(",", ":"), sort_keys=True).encode()
    return TEXT_PREFIX + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def position_from_text(text):
    """The position a compact text holds (not yet loaded: pass it to `load_position`)."""
    if not isinstance(text, str) or not text.startswith(TEXT_PREFIX):
        raise PositionError("text", f"a shared position starts with {TEXT_PREFIX!r}")
    if len(text) > MAX_TEXT:
        raise PositionError("text", "too long to be a position")
    body = text[len(TEXT_PREFIX):]
    try:
        raw = zlib.decompressobj().decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)), 4_000_000)
        data = json.loads(raw)
    except (ValueError, zlib.error):
        raise PositionError("text", "damaged: it does not decode to a position (was it cut short?)") from None
    if not isinstance(data, dict):
        raise PositionError("text", "does not hold a position")
    return data
