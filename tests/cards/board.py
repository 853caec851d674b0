"""Build an exact position from real cards by printed number, and drive its questions by hand."""
from game.engine.decisions import Option
from game.engine.interpreter import push_ability
from game.engine.model import COLUMNS

from tests.engine import invariants
from tests.engine.helpers import real_catalogue

from .situation import _pull, dragon_index, fresh_game

CAT = real_catalogue()


def build(players=2, academy=True, mats=None, hands=None):
    """A game past setup with empty mats, then each seat's mat set from {space: number or dict} and hands from
    {seat: [numbers]}. A dict space may say {"n": number, "eggs": 1, "cached": [..], "tucked": k, "tokens": t}.
    Spaces right of column 1 are excavated with cave cards from the deck. Every seat has 3 of each resource."""
    st = fresh_game(players, academy=academy)
    for pl in st.players:
        st.dragon_deck += pl.hand
        st.cave_deck += pl.caves
        pl.hand, pl.caves = [], []
        pl.res = [3, 3, 3, 3]
        pl.coins = 5
        pl.nest = 0
    for seat, spaces in (mats or {}).items():
        pl = st.players[seat]
        for index, spec in sorted(spaces.items()):
            spec = spec if isinstance(spec, dict) else {"n": spec}
            d = dragon_index(spec["n"], spec.get("printing", "original"))
            _pull(st, d)
            space = pl.spaces[index]
            space.dragon = d
            space.eggs = spec.get("eggs", 0)
            space.cached = list(spec.get("cached", [0, 0, 0, 0]))
            space.tokens = spec.get("tokens", 0)
            for _ in range(spec.get("tucked", 0)):
                space.tucked.append(st.dragon_deck.pop())
        for index in spaces:
            cave, col = divmod(index, COLUMNS)
            for c in range(1, col + 1):
                if pl.spaces[cave * COLUMNS + c].cave_card is None:
                    pl.spaces[cave * COLUMNS + c].cave_card = st.cave_deck.pop()
    for seat, numbers in (hands or {}).items():
        for number in numbers:
            d = dragon_index(number)
            _pull(st, d)
            st.players[seat].hand.append(d)
    st.refill_display()
    st.current = st.start = 0
    st.pending = None
    st.stack = [{"t": "turn"}]
    st.reask()
    return st


def fire(st, seat, effect, others=None, src=-1, cave=-1, source="test", kind="when_played"):
    """Queue an ability for `seat` (asked yes/no like a card's) and run to its first question."""
    st.pending = None
    push_ability(st, seat, effect, others, src=src, cave=cave, ask=True, source=source, kind=kind)
    st.run()


def fire_card(st, seat, number, kind, printing="original"):
    d = dragon_index(number, printing)
    ability = next(a for a in CAT.dragons[d].abilities if a["kind"] == kind)
    fire(st, seat, ability["effect"], ability.get("others"), src=d, kind=kind)


def answer(st, kind, *args):
    """Take the pending option of this kind (and these leading args); fail if there is none."""
    for option in st.legal_options():
        if option.kind == kind and tuple(option.args[:len(args)]) == args:
            st.apply(option)
            invariants.check(st, {"roundtrip": True})
            return option
    raise AssertionError(f"no option {kind}{args} in {st.legal_options()} ({st.pending and st.pending.prompt})")


def waiting(st):
    """True while the ability still asks something (the game is not back at a main action)."""
    return st.pending is not None and st.pending.prompt != "Choose your action"


def space_of(st, seat, number):
    return st.players[seat].find(dragon_index(number))


def yes_to_all(st, seat=None):
    while waiting(st) and Option("yes") in st.legal_options() and (seat is None or st.pending.player == seat):
        st.apply(Option("yes"))
