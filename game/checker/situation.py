"""A small situation to run one ability in: read and checked from plain JSON, then built as a real game state.

The person checking is seat 0. The card under test sits on a space of their mat (a cave card is being excavated
onto it; a guild row needs no space); a few other dragons may be placed by name with eggs, cached resources,
tucked cards, training tokens and feeds; the hand, resources, coins, nest eggs and guild advancements are given or
defaulted. Opponents get a little of everything so "each opponent may" parts have something to act with.

Columns are counted 1-4 here, as players say them; the engine counts spaces 0-11.
"""
from game.engine.catalogue import CAVE_INDEX, CAVE_NAMES, CAVES, RESOURCES
from game.engine.model import COLUMNS
from game.engine.position import build_position, export_position, load_position

from .errors import CheckerInputError

MAX_COUNT = 20  # eggs aside (nests limit them), no count in a small situation needs more
MAX_SEED = 2 ** 63 - 1
SPACE_KEYS = ("eggs", "cached", "tucked", "training_tokens", "fed")
TOP_KEYS = {"players", "seed", "academy", "at", "dragons", "excavated", "hand", "cave_cards", "resources", "coins",
            "nest_eggs", "guild", "deck_top"}
DEFAULTS = {"players": 2, "seed": 1, "academy": True, "hand": 3, "cave_cards": 2,
            "resources": {"meat": 1, "gold": 1, "crystal": 1, "milk": 1}, "coins": 6, "nest_eggs": 1, "guild": 0}


class Placed:
    """A dragon on seat 0's mat: where, and what lies on it."""

    __slots__ = ("dragon", "cave", "column", "eggs", "cached", "tucked", "tokens", "fed", "field")

    def __init__(self, dragon, cave, column, field):
        self.dragon, self.cave, self.column, self.field = dragon, cave, column, field
        self.eggs, self.cached, self.tucked, self.tokens, self.fed = 0, [0, 0, 0, 0], 0, 0, 0

    @property
    def index(self):
        return self.cave * COLUMNS + self.column


class Situation:
    __slots__ = ("players", "seed", "academy", "updated", "subject", "at", "placed", "excavated", "hand", "hand_count",
                 "cave_cards", "resources", "coins", "nest_eggs", "guild", "deck_top")


def _int(value, field, low=0, high=MAX_COUNT):
    if isinstance(value, bool) or not isinstance(value, int):
        raise CheckerInputError(field, "expected a whole number")
    if value < low:
        raise CheckerInputError(field, f"cannot be less than {low}" if low else "cannot be negative")
    if value > high:
        raise CheckerInputError(field, f"at most {high} in a small situation")
    return value


def _cave(value, field):
    if value not in CAVE_INDEX:
        raise CheckerInputError(field, f"expected one of {', '.join(CAVES)}")
    return CAVE_INDEX[value]


def _resources(value, field):
    if value is None:
        return [0, 0, 0, 0]
    if not isinstance(value, dict):
        raise CheckerInputError(field, 'expected an object such as {"meat": 1, "milk": 2}')
    out = [0, 0, 0, 0]
    for name, n in value.items():
        if name not in RESOURCES:
            raise CheckerInputError(f"{field}.{name}", f"is not a resource ({', '.join(RESOURCES)})")
        out[RESOURCES.index(name)] = _int(n, f"{field}.{name}")
    return out


def _object(value, field, keys):
    if not isinstance(value, dict):
        raise CheckerInputError(field, "expected an object")
    unknown = set(value) - set(keys)
    if unknown:
        raise CheckerInputError(f"{field}.{sorted(unknown)[0]}", f"is not a known field ({', '.join(sorted(keys))})")
    return value


def _where(data, field, default_cave, default_column):
    cave = _cave(data["cave"], f"{field}.cave") if "cave" in data else default_cave
    column = _int(data["column"], f"{field}.column", 1, COLUMNS) - 1 if "column" in data else default_column
    return cave, column


def _contents(cards, placed, data, field):
    card = cards.cat.dragons[placed.dragon]
    if placed.cave not in card.habitats:
        lives = " or the ".join(CAVE_NAMES[c] for c in card.habitats)
        raise CheckerInputError(f"{field}.cave", f"{card.label()} does not live in the {CAVE_NAMES[placed.cave]} "
                                                 f"(it lives in the {lives})")
    placed.eggs = _int(data.get("eggs", 0), f"{field}.eggs")
    if placed.eggs > card.capacity:
        raise CheckerInputError(f"{field}.eggs", f"{card.label()} has room for {card.capacity} egg(s)")
    placed.cached = _resources(data.get("cached"), f"{field}.cached")
    placed.tucked = _int(data.get("tucked", 0), f"{field}.tucked")
    placed.tokens = _int(data.get("training_tokens", 0), f"{field}.training_tokens")
    if placed.tokens > len(card.training):
        raise CheckerInputError(f"{field}.training_tokens", f"{card.label()} has {len(card.training)} training "
                                                            f"box(es)" if card.training else
                                f"{card.label()} is not a fledgling: it takes no training tokens")
    placed.fed = _int(data.get("fed", 0), f"{field}.fed", 0, 3)
    if placed.fed and card.size != "hatchling":
        raise CheckerInputError(f"{field}.fed", f"{card.label()} is not a hatchling: it is never fed")


def read(cards, subject, data):
    """Check a situation (plain JSON, every field optional) and return it as a Situation; raise on the first
    mistake with its field."""
    if data is None:
        data = {}
    _object(data, "situation", TOP_KEYS)
    f = "situation"
    s = Situation()
    s.players = _int(data.get("players", DEFAULTS["players"]), f"{f}.players", 2, 5)  # the engine has no solo play
    s.seed = _int(data.get("seed", DEFAULTS["seed"]), f"{f}.seed", 0, MAX_SEED)
    academy = data.get("academy", DEFAULTS["academy"])
    if not isinstance(academy, bool):
        raise CheckerInputError(f"{f}.academy", "expected true or false")
    s.academy = academy
    s.subject = subject
    # The updated printings come with Dragon Academy, unless the card under test is an original printing of one.
    s.updated = academy
    if subject.kind in ("dragon", "cave"):
        twins = cards.cat.dragons if subject.kind == "dragon" else cards.cat.caves
        if any(c.number == subject.number and c.printing != subject.printing for c in twins):
            s.updated = subject.printing == "updated"
        if subject.record.expansion != "base" and subject.printing == "original" and not academy:
            raise CheckerInputError(f"{f}.academy", f"{subject.name} is a Dragon Academy card: play with Dragon "
                                                    f"Academy to check it")
    if subject.kind == "guild" and subject.record.get("expansion", "base") != "base" and not academy:
        raise CheckerInputError(f"{f}.academy", f"{subject.name} is a Dragon Academy tile: play with Dragon Academy "
                                                f"to check it")
    pool = set(cards.cat.dragon_deck(s.academy, s.updated))
    used = {}  # dragon index -> field that placed it, so a card is in one place only

    def named(ref, field):
        index = cards.dragon(ref, field, s.updated)
        if index not in pool and index != subject.index:
            card = cards.cat.dragons[index]
            other = "original" if card.printing == "updated" else "updated"
            why = "a Dragon Academy card" if card.expansion != "base" and not s.academy else \
                f"the {card.printing} printing, and this game uses the {other} one"
            raise CheckerInputError(field, f"{card.label()} is not among this game's cards: it is {why}")
        return index

    def claim(dragon, field):
        if dragon in used:
            raise CheckerInputError(field, f"{cards.cat.dragons[dragon].label()} is already used at {used[dragon]}; "
                                           f"the game has one copy of each card")
        used[dragon] = field

    s.placed = []
    s.at = None
    at = _object(data.get("at", {}), f"{f}.at", ("cave", "column") + SPACE_KEYS)
    if subject.kind == "dragon":
        card = subject.record
        cave, column = _where(at, f"{f}.at", card.habitats[0] if card.habitats else 0, 0)
        placed = Placed(subject.index, cave, column, f"{f}.at")
        _contents(cards, placed, at, f"{f}.at")
        claim(subject.index, f"{f}.at")
        s.placed.append(placed)
        s.at = placed.index
    elif subject.kind == "cave":
        extra = set(at) - {"cave", "column"}
        if extra:
            raise CheckerInputError(f"{f}.at.{sorted(extra)[0]}", "a cave card being excavated holds nothing")
        cave, column = _where(at, f"{f}.at", 0, 1)
        if column == 0:
            raise CheckerInputError(f"{f}.at.column", "column 1 needs no cave card: excavate column 2, 3 or 4")
        s.at = cave * COLUMNS + column

    others = data.get("dragons", [])
    if not isinstance(others, list):
        raise CheckerInputError(f"{f}.dragons", "expected a list of dragons")
    room = 12 - len(s.placed)
    if len(others) > room:
        raise CheckerInputError(f"{f}.dragons", f"too many dragons: a mat holds 12, so at most {room} more here")
    spots = {p.index: p.field for p in s.placed}
    for i, entry in enumerate(others):
        field = f"{f}.dragons[{i}]"
        _object(entry, field, ("card", "cave", "column") + SPACE_KEYS)
        if "card" not in entry:
            raise CheckerInputError(f"{field}.card", "required: the dragon's name or number")
        dragon = named(entry["card"], f"{field}.card")
        claim(dragon, field)
        if "cave" not in entry:
            raise CheckerInputError(f"{field}.cave", f"required: one of {', '.join(CAVES)}")
        if "column" not in entry:
            raise CheckerInputError(f"{field}.column", "required: 1 to 4")
        cave, column = _where(entry, field, 0, 0)
        placed = Placed(dragon, cave, column, field)
        _contents(cards, placed, entry, field)
        if placed.index in spots:
            raise CheckerInputError(f"{field}.column", f"{CAVE_NAMES[cave]} column {column + 1} already holds the "
                                                       f"dragon at {spots[placed.index]}")
        if s.at is not None and subject.kind == "cave" and placed.index == s.at:
            raise CheckerInputError(f"{field}.column", "that space is the one the cave card is excavated onto")
        spots[placed.index] = field
        s.placed.append(placed)

    # Excavation runs left to right: each cave is dug up to its rightmost dragon, and by default one more column
    # stays open so abilities that excavate have somewhere to go.
    s.excavated = []
    given = _object(data.get("excavated", {}), f"{f}.excavated", CAVES)
    for cave in range(3):
        need = max([p.column + 1 for p in s.placed if p.cave == cave] + [1])
        if subject.kind == "cave" and s.at // COLUMNS == cave:
            limit = s.at % COLUMNS
            if need > limit:
                raise CheckerInputError(f"{f}.dragons", f"a dragon sits at or right of the space the cave card is "
                                                        f"excavated onto in the {CAVE_NAMES[cave]}")
            if CAVES[cave] in given and given[CAVES[cave]] != limit:
                raise CheckerInputError(f"{f}.excavated.{CAVES[cave]}", f"the cave card goes onto column "
                                                                        f"{limit + 1}, so {limit} must be dug")
            s.excavated.append(limit)
            continue
        name = CAVES[cave]
        if name in given:
            n = _int(given[name], f"{f}.excavated.{name}", 1, COLUMNS)
            if n < need:
                raise CheckerInputError(f"{f}.excavated.{name}", f"a dragon sits in column {need}, so at least {need}"
                                                                 f" columns are excavated")
        else:
            n = max(need, 3)
        s.excavated.append(n)

    hand = data.get("hand", DEFAULTS["hand"])
    s.hand, s.hand_count = [], 0
    if isinstance(hand, list):
        if len(hand) > MAX_COUNT:
            raise CheckerInputError(f"{f}.hand", f"at most {MAX_COUNT} cards in a small situation")
        for i, ref in enumerate(hand):
            dragon = named(ref, f"{f}.hand[{i}]")
            claim(dragon, f"{f}.hand[{i}]")
            s.hand.append(dragon)
    else:
        s.hand_count = _int(hand, f"{f}.hand")
    s.cave_cards = _int(data.get("cave_cards", DEFAULTS["cave_cards"]), f"{f}.cave_cards")
    s.resources = _resources(data.get("resources", DEFAULTS["resources"]), f"{f}.resources")
    s.coins = _int(data.get("coins", DEFAULTS["coins"]), f"{f}.coins", 0, 50)
    s.nest_eggs = _int(data.get("nest_eggs", DEFAULTS["nest_eggs"]), f"{f}.nest_eggs", 0, 2)
    s.guild = _int(data.get("guild", DEFAULTS["guild"]), f"{f}.guild", 0, 30)
    top = data.get("deck_top", [])
    if not isinstance(top, list) or len(top) > 10:
        raise CheckerInputError(f"{f}.deck_top", "expected a list of at most 10 dragons (the first is on top)")
    s.deck_top = []
    for i, ref in enumerate(top):
        dragon = named(ref, f"{f}.deck_top[{i}]")
        claim(dragon, f"{f}.deck_top[{i}]")
        s.deck_top.append(dragon)
    return s


def partial(cat, s, guild_row=None):
    """The situation as a partial position (game/engine/position.py): seat 0's mat, hand and supply as read, the
    opponents a little of everything, the rest dealt at random from the situation's seed."""
    me = {"coins": s.coins, "resources": dict(zip(RESOURCES, s.resources)), "nest_eggs": s.nest_eggs,
          "guild": s.guild, "hand": [cat.dragons[d].number for d in s.hand] if s.hand else s.hand_count,
          "cave_cards": s.cave_cards, "excavated": {CAVES[c]: max(1, n) for c, n in enumerate(s.excavated)}}
    mat = {name: [None] * COLUMNS for name in CAVES}
    for p in s.placed:
        space = {"dragon": cat.dragons[p.dragon].number, "eggs": p.eggs, "tucked": p.tucked, "training": p.tokens,
                 "fed": p.fed, "grown_up": p.fed >= 3,
                 "cached": {r: n for r, n in zip(RESOURCES, p.cached) if n}}
        mat[CAVES[p.cave]][p.column] = space
    if s.subject.kind == "cave":  # the cave card lies on the space it is excavated onto, its cost paid
        mat[CAVES[s.at // COLUMNS]][s.at % COLUMNS] = {"cave_card": s.subject.number}
    me["mat"] = mat
    if s.subject.kind == "guild":  # a marker just placed on the row under test
        me["guild_markers"] = [[guild_row, 0]]
    opponent = {"resources": {r: 1 for r in RESOURCES}, "coins": 2, "nest_eggs": 1, "hand": 1, "cave_cards": 1}
    out = {"players": [me] + [dict(opponent) for _ in range(1, s.players)], "academy": s.academy,
           "updated": s.updated, "seed": s.seed, "deck_top": {"dragons": [cat.dragons[d].number for d in s.deck_top]}}
    if s.subject.kind == "guild":
        out["guild_tile"] = s.subject.record["number"]
    return out


def build(cat, s, guild_row=None):
    """A real game state for the situation: seat 0 is about to choose an action, and the ability fires from there.
    The card under test is in place: a cave card on the space it is excavated onto, a guild marker on its row."""
    return build_position(cat, **partial(cat, s, guild_row))  # read() checked it: a PositionError here is a bug


def before_placing(st, s):
    """The same position a moment earlier: the cave card still in hand, the guild marker not yet placed (so the
    first step shows them arriving)."""
    if s.subject.kind not in ("cave", "guild"):
        return st
    position = export_position(st)
    me = position["players"][0]
    if s.subject.kind == "cave":
        me["mat"][CAVES[s.at // COLUMNS]][s.at % COLUMNS] = None
        me["cave_cards"].append(s.subject.number)
    else:
        me["guild_markers"] = []
        del position["guild"]["squares"]
    return load_position(st.cat, position)
