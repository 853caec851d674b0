"""No position, however odd, makes loading or building fail with anything but a PositionError naming a field; a
position that loads gives a game that plays on."""
import copy
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from game.engine.agents import RandomAgent
from game.engine.position import PositionError, build_position, export_position, load_position
from game.engine.state import GameState

from .helpers import real_catalogue

CAT = real_catalogue()
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.sampled_from(
    ["crimson_cavern", "golden_grotto", "meat", "wood", "a", "b", "", "turn"]),
    st.lists(st.integers(-1, 270), max_size=3), st.dictionaries(st.sampled_from(["meat", "gems", "dragon", "t"]),
                                                                st.integers(-1, 5), max_size=2))


def _good(players, decisions, automa=None):
    st_ = GameState.new(CAT, players=players, seed=21, academy=True, automa=automa)
    agent = RandomAgent(21)
    for _ in range(decisions):
        st_.apply(agent.choose(st_.pending.options))
    return export_position(st_)


GOODS = [_good(3, 60), _good(1, 12, {"level": 2, "ravel": False})]


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, prefix + (i,))


PATHS = [[p for p in _paths(good) if p] for good in GOODS]


def _plays_on(state):
    agent = RandomAgent(1)
    for _ in range(20):
        if state.pending is None:
            return
        state.apply(agent.choose(state.pending.options))


@settings(max_examples=500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.sampled_from([0, 1]), data=st.data())
def test_an_edited_position_loads_or_is_refused_with_a_field(which, data):
    edits = data.draw(st.lists(st.tuples(st.sampled_from(PATHS[which]), VALUES, st.booleans()), min_size=1,
                               max_size=3))
    position = copy.deepcopy(GOODS[which])
    for path, value, delete in edits:
        target = position
        try:
            for key in path[:-1]:
                target = target[key]
            if delete and isinstance(target, dict):
                target.pop(path[-1], None)
            else:
                target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    try:
        state = load_position(CAT, json.loads(json.dumps(position)))
    except PositionError as error:
        assert error.field and error.message
        return
    _plays_on(state)


NUMBER = st.integers(1, 190)
SPACE = st.one_of(st.none(), NUMBER, st.fixed_dictionaries({"dragon": NUMBER}, optional={
    "eggs": st.integers(0, 3), "tucked": st.one_of(st.integers(0, 2), st.lists(NUMBER, max_size=1)),
    "cached": st.dictionaries(st.sampled_from(["meat", "milk"]), st.integers(0, 2), max_size=1)}), VALUES)
PLAYER = st.fixed_dictionaries({}, optional={
    "hand": st.one_of(st.integers(0, 4), st.lists(NUMBER, max_size=2), VALUES),
    "cave_cards": st.one_of(st.integers(0, 3), st.lists(st.integers(1, 80), max_size=1)),
    "coins": st.integers(0, 9), "resources": st.dictionaries(st.sampled_from(["meat", "gold"]), st.integers(0, 4)),
    "mat": st.dictionaries(st.sampled_from(["crimson_cavern", "golden_grotto", "amethyst_abyss"]),
                           st.lists(SPACE, max_size=4), max_size=2),
    "excavated": st.dictionaries(st.sampled_from(["amethyst_abyss", "golden_grotto"]), st.integers(1, 4),
                                 max_size=1),
    "guild_markers": st.one_of(st.just([[-1, 0]]), VALUES), "nest_eggs": st.integers(0, 2)})


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.one_of(st.integers(1, 6), st.lists(PLAYER, min_size=2, max_size=4)), round_=st.one_of(
       st.none(), st.integers(1, 4), VALUES),
       academy=st.booleans(), seed=st.integers(0, 10), deck_top=st.one_of(st.just({}), st.fixed_dictionaries(
           {}, optional={"dragons": st.lists(NUMBER, max_size=2), "caves": st.lists(st.integers(1, 80), max_size=1)}),
           VALUES), guild_tile=st.one_of(
           st.none(), st.integers(1, 8)))
def test_an_odd_partial_position_is_built_or_refused_with_a_field(players, round_, academy, seed, deck_top,
                                                                  guild_tile):
    partial = {"players": players, "academy": academy, "seed": seed, "deck_top": deck_top}
    if round_ is not None:
        partial["round"] = round_
    if guild_tile is not None:
        partial["guild_tile"] = guild_tile
    try:
        state = build_position(CAT, **partial)
    except PositionError as error:
        assert error.field and error.message
        return
    _plays_on(state)
