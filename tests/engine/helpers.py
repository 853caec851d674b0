"""Small catalogues for engine tests: our own board facts, plus made-up cards that exercise one rule each."""
import json
from functools import lru_cache
from pathlib import Path

from game.engine.catalogue import Catalogue, load_fixtures
from game.engine.decisions import Option
from game.engine.state import GameState

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
ALL_CAVES = ["crimson_cavern", "golden_grotto", "amethyst_abyss"]
PLAIN_TILE = {"number": 1, "name": "Test Guild", "expansion": "base", "rows": [
    {"position": 1, "squares": 1, "end_game": False, "effect": {"do": "gain", "item": "gold"}},
    {"position": 2, "squares": 2, "end_game": False, "effect": {"do": "gain", "item": "coin"}},
    {"position": 3, "squares": 1, "end_game": True, "effect": {"do": "score", "vp": 2, "per": {"what": "dragons"}}},
]}
PLAIN_OBJECTIVE = {"number": 1, "expansion": "base", "sides": {"a": {"counts": {"what": "dragons"}},
                                                                 "b": {"counts": {"what": "dragons"}}}}


@lru_cache(maxsize=1)
def real_catalogue():
    return load_fixtures(FIXTURES)


@lru_cache(maxsize=1)
def board_facts():
    return json.loads((FIXTURES / "board.json").read_text())["board_facts"]


def dragon(number, name=None, size="small", trait="shy", vp=1, capacity=2, cost=None, habitats=None, abilities=(),
           **extra):
    record = {"number": number, "printing": "original", "name": name or f"Test Dragon {number}",
              "expansion": extra.pop("expansion", "base"), "vp": vp, "size": size, "trait": trait,
              "capacity": capacity, "cost": cost if cost is not None else {}, "habitats": habitats or ALL_CAVES,
              "abilities": list(abilities)}
    record.update(extra)
    return record


def cave(number, abilities=(), expansion="base"):
    return {"number": number, "printing": "original", "expansion": expansion, "abilities": list(abilities)}


def make_catalogue(dragons=(), caves=(), tile=PLAIN_TILE, objectives=(PLAIN_OBJECTIVE,) * 4, filler=30):
    """The given cards first (indices 0, 1, ... in order), then plain filler cards so decks never run dry."""
    dragons = list(dragons) + [dragon(900 + i) for i in range(filler)]
    caves = list(caves) + [cave(900 + i) for i in range(filler)]
    return Catalogue.from_records(dragons, caves, [tile], list(objectives), board_facts())


def new_game(cat, players=2, seed=1, academy=False):
    """A game past setup: everyone took the first offered cards and resources; start player is seat 0."""
    st = GameState.new(cat, players=players, seed=seed, academy=academy)
    while st.pending is not None and st.pending.prompt != "Choose your action":
        st.apply(st.legal_options()[0])
    st.start = st.current = 0
    st.reask()
    return st


def clear_player(pl, coins=10):
    pl.coins = coins
    pl.res = [0, 0, 0, 0]
    pl.hand = []
    pl.caves = []
    pl.nest = 0


def put(st, seat, index, dragon_index, cave_card=None):
    """Put a dragon on a mat space (excavating it with a cave card index when it is not a first space)."""
    space = st.players[seat].spaces[index]
    if index % 4 and space.cave_card is None:
        space.cave_card = cave_card if cave_card is not None else 0
    space.dragon = dragon_index


def choose(st, kind, *args):
    st.apply(Option(kind, tuple(args)))


def answer_all(st, kind_order=("yes",)):
    """Answer every pending question of the current flow with the first option of a preferred kind."""
    while st.pending is not None and st.pending.prompt != "Choose your action":
        opts = st.legal_options()
        pick = next((o for k in kind_order for o in opts if o.kind == k), opts[0])
        st.apply(pick)


def fire(st, effect, src=-1, others=None, seat=0, ask=False):
    """Run an ability for `seat` right now, as if the dragon `src` on their mat had just triggered it."""
    from game.engine.interpreter import push_ability

    st.pending = None
    push_ability(st, seat, effect, others, src=src, ask=ask, source="test")
    st.run()


def options(st):
    return [(o.kind, *o.args) for o in st.legal_options()]
