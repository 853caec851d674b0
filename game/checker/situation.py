"""A small situation to run one ability in: read and checked from plain JSON, then built as a real game state.

The person checking is seat 0. The card under test sits on a space of their mat (a cave card is being excavated
onto it; a guild row needs no space); a few other dragons may be placed by name with eggs, cached resources,
tucked cards, training tokens and feeds; the hand, resources, coins, nest eggs and guild advancements are given or
defaulted. Opponents get a little of everything so "each opponent may" parts have something to act with.

Columns are counted 1-4 here, as players say them; the engine counts spaces 0-11.
"""
from game.engine.catalogue import CAVE_INDEX, CAVE_NAMES, CAVES, RESOURCES
from game.engine.model import COLUMNS
from game.engine.state import GameState

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


def _pull(st, dragon):
    """Take a dragon card out of wherever setup put it (deck, discard, display, a hand)."""
    if dragon in st.dragon_deck:
        st.dragon_deck.remove(dragon)
    elif dragon in st.dragon_discard:
        st.dragon_discard.remove(dragon)
    elif dragon in st.display_dragons:
        st.display_dragons[st.display_dragons.index(dragon)] = None
    else:
        for pl in st.players:
            if dragon in pl.hand:
                pl.hand.remove(dragon)


def _from_bottom(deck, n):
    """Cards for hands and tucks come from the bottom of the deck, so the top (what `reveal` and draws see)
    depends on the seed and `deck_top` only."""
    taken = deck[:n]
    del deck[:n]
    return taken


def build(cat, s):
    """A real game state for the situation, paused where the ability is about to fire."""
    st = GameState.new(cat, players=s.players, seed=s.seed, academy=s.academy, updated=s.updated)
    while st.pending is not None and st.pending.prompt != "Choose your action":
        st.apply(st.legal_options()[0])  # setup: keep the first offered cards and resources; replaced below
    for pl in st.players:  # hands go back under the deck; the situation says what each player holds
        st.dragon_deck[:0] = pl.hand
        st.cave_deck[:0] = pl.caves
        pl.hand, pl.caves = [], []
    named = [p.dragon for p in s.placed] + s.hand + s.deck_top
    for dragon in named:
        _pull(st, dragon)
    if s.subject.kind == "cave" and s.subject.index in st.cave_deck:
        st.cave_deck.remove(s.subject.index)
    elif s.subject.kind == "cave" and s.subject.index in st.display_caves:
        st.display_caves[st.display_caves.index(s.subject.index)] = None
    me = st.players[0]
    for cave in range(3):
        for column in range(1, s.excavated[cave]):
            me.spaces[cave * COLUMNS + column].cave_card = _from_bottom(st.cave_deck, 1)[0]
    for p in s.placed:
        space = me.spaces[p.index]
        space.dragon, space.eggs, space.cached = p.dragon, p.eggs, list(p.cached)
        space.tucked = _from_bottom(st.dragon_deck, p.tucked)
        space.tokens, space.fed, space.grown = p.tokens, p.fed, p.fed >= 3
    me.hand = list(s.hand) + _from_bottom(st.dragon_deck, s.hand_count)
    me.caves = _from_bottom(st.cave_deck, s.cave_cards)
    if s.subject.kind == "cave":
        me.caves.append(s.subject.index)  # in hand, about to be excavated
    me.res, me.coins, me.nest, me.guild = list(s.resources), s.coins, s.nest_eggs, s.guild
    st.dragon_deck.extend(reversed(s.deck_top))  # the deck is drawn from its end
    for seat in range(1, s.players):
        pl = st.players[seat]
        pl.res, pl.coins, pl.nest = [1, 1, 1, 1], 2, 1
        pl.hand = _from_bottom(st.dragon_deck, 1)
        pl.caves = _from_bottom(st.cave_deck, 1)
    st.refill_display()
    for pl in st.players:
        pl.passed, pl.fresh, pl.explored = False, [], [0, 0, 0]
    st.round, st.start, st.current = 1, 0, 0
    st.pending = None
    st.frames = {}
    st.stack = [{"t": "turn", "checker_end": True}]  # when the ability is over, seat 0 is asked for an action
    return st
