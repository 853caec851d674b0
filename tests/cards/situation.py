"""A small, busy situation to run one card's ability in, and a snapshot of everything an ability can change.

The owner (seat 0) has the card on their mat among dragons of every trait and several sizes, eggs, a cached
resource and a tucked card, resources, coins and cards in hand, and room to excavate; two opponents have a little
of everything. `run_ability` fires one ability and answers every question by a fixed policy: say yes, act rather
than stop, and otherwise take the first option.
"""
from functools import lru_cache

from game.engine.model import COLUMNS
from game.engine.position import export_position, load_position
from game.engine.state import GameState
from game.language.vocabulary import CAVES
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
    """The position of a new game once every player took the first offered cards and resources, dealt as counted."""
    cat = real_catalogue()
    st = GameState.new(cat, players=players, seed=seed, academy=academy)
    dealt = [(list(pl.hand), list(pl.caves)) for pl in st.players], (list(st.display_dragons), list(st.display_caves))
    while st.pending is not None and st.pending.kind != "main_action":
        st.apply(st.legal_options()[0])
    return _deal_as_counted(cat, export_position(st), *dealt)


def _deal_as_counted(cat, position, hands, display):
    """The exact tables were counted on a deal that gave the players their cards before the display (the engine
    now fills the display first, as the rulebook sets up). The same cards came off the decks, so hand them round
    as they lay then: the display's cards to seat 0, each seat's to the next, the last seat's to the display; each
    seat then keeps what the first offered choice keeps (it discards its lowest cards, dragons first)."""
    dragon, cave = (lambda i: cat.dragons[i].number), (lambda i: cat.caves[i].number)
    then = [display] + hands[:-1]
    position["display"] = {"dragons": [dragon(d) for d in hands[-1][0]], "caves": [cave(c) for c in hands[-1][1]]}
    position["discards"] = {"dragons": [], "caves": []}
    for pl, (dragons, caves) in zip(position["players"], then):
        cards = [("dragon", d) for d in sorted(dragons)] + [("cave", c) for c in sorted(caves)]
        dropped = cards[:max(len(cards) - cat.setup.get("keep_cards", 4), 0)]
        pl["hand"] = [dragon(d) for d in dragons if ("dragon", d) not in dropped]
        pl["cave_cards"] = [cave(c) for c in caves if ("cave", c) not in dropped]
        position["discards"]["dragons"] += [dragon(i) for kind, i in dropped if kind == "dragon"]
        position["discards"]["caves"] += [cave(i) for kind, i in dropped if kind == "cave"]
    return position


class Table:
    """A dealt game's position (game/engine/position.py), edited by card number: decks list the top card first."""

    def __init__(self, position):
        self.pos = position
        self.decks = position["decks"]

    def pull(self, number):
        """Take one dragon out of the deck, the discard pile or the display."""
        for pile in (self.decks["dragons"], self.pos["discards"]["dragons"]):
            if number in pile:
                pile.remove(number)
                return number
        slots = self.pos["display"]["dragons"]
        if number in slots:
            slots[slots.index(number)] = None
            return number
        raise AssertionError(f"dragon {number} is not in this game's decks")

    def take(self, n, prefer=None):
        """The n dragons nearest the bottom of the deck (those `prefer` likes first)."""
        order = list(reversed(self.decks["dragons"]))
        if prefer:
            order.sort(key=lambda d: not prefer(d))
        out = order[:n]
        for d in out:
            self.decks["dragons"].remove(d)
        return out

    def top_cave(self):
        return self.decks["caves"].pop(0)

    def refill_display(self):
        for i in range(3):  # as the engine refills: slot by slot, a dragon then a cave card, from the top
            for key in ("dragons", "caves"):
                if self.pos["display"][key][i] is None and self.decks[key]:
                    self.pos["display"][key][i] = self.decks[key].pop(0)


def _give(pl, rich):
    pl["resources"] = {r: 3 if rich else 1 for r in ("meat", "gold", "crystal", "milk")}
    pl["coins"] = 6 if rich else 2
    pl["passed"] = False


def situation(card_index, players=3, academy=True, trained=False):
    """A game where seat 0 has dragon `card_index` (None for cave cards: the space stays empty) on a busy mat; with
    `trained`, a fledgling under test has every training box filled (its abilities are active)."""
    cat = real_catalogue()
    table = Table(fresh_game(players, academy=academy))
    pos = table.pos
    number = {i: c.number for i, c in enumerate(cat.dragons)}
    pool = set(cat.dragon_deck(academy, pos["options"]["updated"]))
    for pl in pos["players"]:  # starting hands go back on top of the decks; every card stays in exactly one place
        table.decks["dragons"][:0] = reversed(pl["hand"])
        table.decks["caves"][:0] = reversed(pl["cave_cards"])
        pl["hand"], pl["cave_cards"] = [], []
    me = pos["players"][0]
    home = cat.dragons[card_index].habitats[0] if card_index is not None else 0
    caves = {"home": home, "next": (home + 1) % 3, "last": (home + 2) % 3}
    space = home * COLUMNS + 1

    def put(pl, index, entry):
        pl["mat"][CAVES[index // COLUMNS]][index % COLUMNS] = entry

    def at(pl, index):
        return pl["mat"][CAVES[index // COLUMNS]][index % COLUMNS]

    taken = {card_index}
    for cave, col, n, alternate in LAYOUT:
        d = dragon_index(n)
        if d in taken:
            d = dragon_index(alternate)
        card = cat.dragons[d]
        if card.expansion != "base" and not academy:
            continue
        taken.add(d)
        table.pull(card.number)
        entry = {"dragon": card.number, "eggs": min(1, card.capacity)}
        if card.size == "fledgling":
            entry["training"] = len(card.training) if col == 2 else 1
        put(me, caves[cave] * COLUMNS + col, entry)
    if card_index is not None:
        if card_index not in pool:
            raise AssertionError(f"dragon index {card_index} is not in this game's decks")
        table.pull(number[card_index])
        put(me, space, {"dragon": number[card_index], "eggs": min(1, cat.dragons[card_index].capacity),
                        "cached": {"meat": 1, "crystal": 1, "milk": 1},  # so "per X cached here" has something
                        "tucked": table.take(1), "training": len(cat.dragons[card_index].training) if trained else 0})
    # Excavated: columns 2-3 of every cave and column 4 of the home cave (the other two column-4 spaces stay open).
    for cave in range(3):
        for col in (1, 2, 3) if cave == home else (1, 2):
            entry = at(me, cave * COLUMNS + col) or {}
            entry["cave_card"] = table.top_cave()
            put(me, cave * COLUMNS + col, entry)
    first = at(me, home * COLUMNS)
    first.setdefault("cached", {})["meat"] = 1
    first["tucked"] = table.take(1)
    me["nest_eggs"] = 1
    _give(me, True)
    index_of = {number[i]: i for i in pool}
    me["hand"] = table.take(3, prefer=lambda n: len(cat.dragons[index_of[n]].habitats) == 3)
    me["cave_cards"] = [table.top_cave(), table.top_cave()]
    me["guild_markers"] = [[-1, 0], [-1, 1]]  # two guild markers, and round objectives where seat 0 placed last once
    pos["guild"].pop("squares")
    me["objective_places"] = [3, 1]
    for seat in range(1, players):
        opponent = pos["players"][seat]
        _give(opponent, False)
        opponent["hand"] = table.take(1)
        opponent["cave_cards"] = [table.top_cave()]
        d = dragon_index(OPPONENT_DRAGONS[seat - 1])
        if d == card_index:
            d = dragon_index(OPPONENT_DRAGONS[-1])
        table.pull(number[d])
        put(opponent, 0, {"dragon": number[d]})
        opponent["objective_places"] = [1, 2]
        fledgling = dragon_index(188)
        if seat == 1 and academy and fledgling != card_index:  # something for "each opponent may train"
            table.pull(188)
            put(opponent, COLUMNS, {"dragon": 188})
    table.refill_display()
    pos["current_player"] = pos["start_player"] = 0
    for key in ("stack", "frames", "pending"):  # seat 0 to choose an action; the ability fires from there
        pos["engine"].pop(key, None)
    return load_position(cat, pos), (space if card_index is not None else None)


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
    while st.pending is not None and st.pending.kind != "main_action":
        st.apply(policy(st.legal_options()))
        invariants.check(st, memo)
        steps += 1
        assert steps < limit, f"the ability asked more than {limit} questions"
    return steps


def run_ability(st, seat, ability, src=-1, cave=-1, source="test"):
    """Fire one ability for `seat` as its card would, and settle it. Returns (before, after) per seat."""
    before = [snapshot(st, p) for p in range(len(st.players))]
    st.fire_ability(seat, ability, src=src, cave=cave, source=source)
    settle(st)
    return before, [snapshot(st, p) for p in range(len(st.players))]
