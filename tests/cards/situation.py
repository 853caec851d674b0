"""A small, busy situation to run one card's ability in, and a snapshot of everything an ability can change.

The owner (seat 0) has the card on their mat among dragons of every trait and several sizes, eggs, a cached
resource and a tucked card, resources, coins and cards in hand, and room to excavate; two opponents have a little
of everything. `run_ability` fires one ability and answers every question by a fixed policy: say yes, act rather
than stop, and otherwise take the first option.
"""
from functools import lru_cache

from game.engine.interpreter import push_ability
from game.engine.model import COLUMNS
from game.engine.state import GameState

from tests.engine import invariants
from tests.engine.helpers import real_catalogue

CHANNELS = ("res", "coins", "hand", "caves", "eggs", "cached", "tucked", "guild", "mat_dragons", "mat_caves",
            "tokens", "end_vp")


@lru_cache(maxsize=1)
def by_number():
    cat = real_catalogue()
    return {(c.number, c.printing): c.index for c in cat.dragons}


@lru_cache(maxsize=1)
def caves_by_number():
    cat = real_catalogue()
    return {(c.number, c.printing): c.index for c in cat.caves}


def dragon_index(number, printing="original"):
    return by_number()[(number, printing)]


# The busy mat around the card under test, by printed number (an alternate of the same trait and size when the card
# under test is one of them). Home cave: the card in column 2 between an aggressive small, a helpful medium and a
# playful medium. Next cave: a shy large and a shy small. Last cave: a hatchling, and with the expansion a fledgling
# with one of two boxes trained and a fully trained one. Between them: every trait, every size, every printed kind.
LAYOUT = (
    ("home", 0, 62, 128), ("home", 2, 43, 38), ("home", 3, 48, 112),
    ("next", 0, 60, 81), ("next", 1, 139, 97),
    ("last", 0, 1, 3), ("last", 1, 206, 207), ("last", 2, 205, 196),
)
OPPONENT_DRAGONS = (56, 92, 155)


def fresh_game(players=3, seed=5, academy=True):
    cat = real_catalogue()
    st = GameState.new(cat, players=players, seed=seed, academy=academy)
    while st.pending is not None and st.pending.prompt != "Choose your action":
        st.apply(st.legal_options()[0])
    return st


def _give(st, seat, rich):
    pl = st.players[seat]
    pl.res = [3, 3, 3, 3] if rich else [1, 1, 1, 1]
    pl.coins = 6 if rich else 2
    pl.passed = False


def _take_from_deck(st, n, prefer=None):
    """The first n dragons of the deck (those `prefer` likes first)."""
    order = sorted(st.dragon_deck, key=lambda d: not prefer(d)) if prefer else list(st.dragon_deck)
    out = order[:n]
    for d in out:
        st.dragon_deck.remove(d)
    return out


def _pull(st, d):
    """Take one dragon out of the deck, the discard pile or the display."""
    if d in st.dragon_deck:
        st.dragon_deck.remove(d)
    elif d in st.dragon_discard:
        st.dragon_discard.remove(d)
    elif d in st.display_dragons:
        st.display_dragons[st.display_dragons.index(d)] = None
    else:
        raise AssertionError(f"dragon index {d} is not in this game's decks")


def situation(card_index, players=3, academy=True):
    """A game where seat 0 has dragon `card_index` (None for cave cards: the space stays empty) on a busy mat."""
    cat = real_catalogue()
    st = fresh_game(players, academy=academy)
    for pl in st.players:  # starting hands go back to the decks; every card stays in exactly one place
        st.dragon_deck += pl.hand
        st.cave_deck += pl.caves
        pl.hand, pl.caves = [], []
    me = st.players[0]
    home = cat.dragons[card_index].habitats[0] if card_index is not None else 0
    caves = {"home": home, "next": (home + 1) % 3, "last": (home + 2) % 3}
    space = home * COLUMNS + 1
    taken = {card_index}
    for cave, col, number, alternate in LAYOUT:
        d = dragon_index(number)
        if d in taken:
            d = dragon_index(alternate)
        card = cat.dragons[d]
        if card.expansion != "base" and not academy:
            continue
        taken.add(d)
        _pull(st, d)
        index = caves[cave] * COLUMNS + col
        me.spaces[index].dragon = d
        me.spaces[index].eggs = min(1, card.capacity)
        if card.size == "fledgling":
            me.spaces[index].tokens = len(card.training) if col == 2 else 1
    if card_index is not None:
        _pull(st, card_index)
        me.spaces[space].dragon = card_index
        me.spaces[space].eggs = min(1, cat.dragons[card_index].capacity)
        me.spaces[space].cached = [1, 0, 1, 1]  # meat, crystal and milk, so "per X cached here" has something
        me.spaces[space].tucked = _take_from_deck(st, 1)
    # Excavated: columns 2-3 of every cave and column 4 of the home cave (the other two column-4 spaces stay open).
    for cave in range(3):
        for col in (1, 2, 3) if cave == home else (1, 2):
            me.spaces[cave * COLUMNS + col].cave_card = st.cave_deck.pop()
    first = me.spaces[home * COLUMNS]
    first.cached[0] = 1
    first.tucked = _take_from_deck(st, 1)
    me.nest = 1
    _give(st, 0, True)
    me.hand = _take_from_deck(st, 3, prefer=lambda d: len(cat.dragons[d].habitats) == 3)
    me.caves = [st.cave_deck.pop(), st.cave_deck.pop()]
    # Two guild markers, and round objectives where seat 0 placed last once.
    end_row = st.guild_board[-1]
    me.markers = [[-1, 0], [-1, 1]]
    end_row[0].append(0)
    end_row[1].append(0)
    me.objectives = [3, 1]
    for seat in range(1, players):
        opponent = st.players[seat]
        _give(st, seat, False)
        opponent.hand = _take_from_deck(st, 1)
        opponent.caves = [st.cave_deck.pop()]
        d = dragon_index(OPPONENT_DRAGONS[seat - 1])
        if d == card_index:
            d = dragon_index(OPPONENT_DRAGONS[-1])
        _pull(st, d)
        opponent.spaces[0].dragon = d
        opponent.objectives = [1, 2]
        fledgling = dragon_index(188)
        if seat == 1 and academy and fledgling != card_index:  # something for "each opponent may train"
            _pull(st, fledgling)
            opponent.spaces[COLUMNS].dragon = fledgling
    st.refill_display()
    st.current = st.start = 0
    st.pending = None
    st.stack = [{"t": "turn"}]
    return st, (space if card_index is not None else None)


def snapshot(st, seat):
    pl = st.players[seat]
    return {
        "res": tuple(pl.res), "coins": pl.coins, "hand": tuple(sorted(pl.hand)), "caves": tuple(sorted(pl.caves)),
        "eggs": tuple([pl.nest] + [s.eggs for s in pl.spaces]),
        "cached": tuple(tuple(s.cached) for s in pl.spaces), "tucked": tuple(tuple(s.tucked) for s in pl.spaces),
        "guild": (pl.guild, tuple(map(tuple, pl.markers))),
        "mat_dragons": tuple(s.dragon for s in pl.spaces), "mat_caves": tuple(s.cave_card for s in pl.spaces),
        "tokens": tuple(s.tokens for s in pl.spaces), "end_vp": sum(pl.end_vp.values()),
    }


def changed(before, after):
    return {k for k in CHANNELS if before[k] != after[k]}


PREFER = ("yes", "resource", "cache", "tuck", "egg_on", "train", "take", "pay", "play", "excavate", "activate",
          "choose", "pick")


def policy(options):
    for kind in PREFER:
        for option in options:
            if option.kind == kind:
                return option
    return next((o for o in options if o.kind not in ("no", "stop")), options[0])


def settle(st, limit=400, memo=None):
    """Answer every question until the game waits for seat 0's next action again; check invariants each step."""
    memo = {"roundtrip": False} if memo is None else memo
    steps = 0
    while st.pending is not None and st.pending.prompt != "Choose your action":
        st.apply(policy(st.legal_options()))
        invariants.check(st, memo)
        steps += 1
        assert steps < limit, f"the ability asked more than {limit} questions"
    return steps


def run_ability(st, seat, ability, src=-1, cave=-1, source="test"):
    """Fire one ability for `seat` as its card would, and settle it. Returns (before, after) per seat."""
    before = [snapshot(st, p) for p in range(len(st.players))]
    st.pending = None
    push_ability(st, seat, ability["effect"], ability.get("others"), src=src, cave=cave, ask=True, source=source,
                 kind=ability.get("kind", ""))
    st.run()
    settle(st)
    return before, [snapshot(st, p) for p in range(len(st.players))]
