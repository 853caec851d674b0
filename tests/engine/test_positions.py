"""Positions: every reachable state exports to a position that loads back equal; loading names the wrong field;
partial positions are built with the rest dealt at random; the compact text form round-trips."""
import copy
import hashlib
import json

import pytest

from game.engine.agents import RandomAgent
from game.engine.decisions import MalformedDecision
from game.engine.position import (
    PositionError,
    build_position,
    export_position,
    load_position,
    position_from_text,
    position_to_text,
)
from game.engine.state import GameState

from . import invariants
from .helpers import real_catalogue

CAT = real_catalogue()


def state_json(st):
    data = st.to_json()
    data.pop("log", None)  # a position is the table, not its history
    data.pop("decisions", None)
    return data


def round_trip_every_decision(seed, players, academy, automa=None):
    st = GameState.new(CAT, players=players, seed=seed, academy=academy, automa=automa)
    agent = RandomAgent(seed)
    steps = 0
    while True:
        position = json.loads(json.dumps(export_position(st)))
        again = load_position(CAT, position)
        assert state_json(again) == state_json(st), f"seed {seed}, decision {steps}: the position loads differently"
        if st.pending is None:
            return steps
        st.apply(agent.choose(st.pending.answers))
        steps += 1


@pytest.mark.parametrize("seed", range(6))
def test_every_reachable_state_round_trips_through_a_position(seed):
    steps = round_trip_every_decision(seed, players=2 + seed % 4, academy=seed % 2 == 1)
    assert steps > 50


@pytest.mark.parametrize("seed", range(3))
def test_every_reachable_solo_state_round_trips_with_the_automa(seed):
    steps = round_trip_every_decision(seed, players=1, academy=seed != 1, automa={"level": 1 + seed, "ravel": False})
    assert steps > 20


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 160))
def test_many_games_round_trip_through_positions(seed):
    round_trip_every_decision(seed, players=2 + seed % 4, academy=seed % 3 != 0)


def test_a_loaded_position_plays_on_exactly_like_the_original():
    st = GameState.new(CAT, players=3, seed=11, academy=True)
    agent = RandomAgent(11)
    for _ in range(120):
        st.apply(agent.choose(st.pending.answers))
    again = load_position(CAT, export_position(st))
    a, b = RandomAgent(5), RandomAgent(5)
    while st.pending is not None:
        st.apply(a.choose(st.pending.options))
        again.apply(b.choose(again.pending.options))
    assert again.result == st.result and state_json(again) == state_json(st)


def test_a_position_is_written_in_card_numbers_and_cave_names():
    st = build_position(CAT, players=[{"mat": {"golden_grotto": [50, {"dragon": 57, "eggs": 1, "tucked": [3]}]}},
                                      {}], seed=4)
    position = export_position(st)
    golden = position["players"][0]["mat"]["golden_grotto"]
    assert golden[0] == {"dragon": 50}
    assert golden[1]["dragon"] == 57 and golden[1]["eggs"] == 1 and golden[1]["tucked"] == [3]
    assert isinstance(golden[1]["cave_card"], int) and golden[2] is None
    assert position["players"][0]["mat"]["crimson_cavern"] == [{}, None, None, None]
    assert st.players[0].spaces[4].dragon == next(c.index for c in CAT.dragons if c.number == 50)


# -- bad positions ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def good():
    st = GameState.new(CAT, players=2, seed=3, academy=True)
    agent = RandomAgent(3)
    for _ in range(40):
        st.apply(agent.choose(st.pending.answers))
    return export_position(st)


def refused(position, field):
    before = copy.deepcopy(position)
    with pytest.raises(PositionError) as error:
        load_position(CAT, position)
    assert error.value.field == field, str(error.value)
    assert isinstance(error.value, MalformedDecision)
    assert position == before  # loading never edits its input
    return str(error.value)


def first_free_dragon(position):
    return position["decks"]["dragons"][0]


def test_a_dragon_on_a_space_not_excavated_is_refused(good):
    position = copy.deepcopy(good)
    dragon = position["decks"]["dragons"].pop(0)
    position["players"][0]["mat"]["crimson_cavern"][3] = {"dragon": dragon}
    position["players"][0]["mat"]["crimson_cavern"][1] = position["players"][0]["mat"]["crimson_cavern"][1] or {
        "cave_card": position["decks"]["caves"].pop(0)}
    position["players"][0]["mat"]["crimson_cavern"][2] = position["players"][0]["mat"]["crimson_cavern"][2] or {
        "cave_card": position["decks"]["caves"].pop(0)}
    message = refused(position, "players[0].mat.crimson_cavern[3]")
    assert "Crimson Cavern column 4 holds a dragon but the space is not excavated" in message


def test_an_unknown_card_number_is_refused(good):
    position = copy.deepcopy(good)
    position["players"][1]["hand"].append(999)
    last = len(position["players"][1]["hand"]) - 1
    assert "no dragon card numbered 999" in refused(position, f"players[1].hand[{last}]")


def test_a_card_in_two_places_is_refused(good):
    position = copy.deepcopy(good)
    dragon = position["decks"]["dragons"][5]
    position["players"][0]["hand"].append(dragon)
    message = refused(position, "decks.dragons[5]")
    assert "also at players[0].hand" in message


def test_a_card_in_no_place_is_refused(good):
    position = copy.deepcopy(good)
    position["decks"]["caves"].pop()
    assert "nowhere" in refused(position, "decks.caves")


def test_more_eggs_than_a_dragons_nests_are_refused(good):
    position = copy.deepcopy(good)
    big = next(c for c in CAT.dragons if c.number in position["decks"]["dragons"] and c.capacity == 2)
    position["decks"]["dragons"].remove(big.number)
    position["players"][0]["mat"]["crimson_cavern"][0] = {"dragon": big.number, "eggs": 3}
    position["players"][0]["mat"]["golden_grotto"][0] = position["players"][0]["mat"]["golden_grotto"][0] or {}
    assert "has room for 2 egg(s), not 3" in refused(position, "players[0].mat.crimson_cavern[0].eggs")


def test_a_resource_outside_the_vocabulary_is_refused(good):
    position = copy.deepcopy(good)
    position["players"][0]["resources"]["wood"] = 1
    refused(position, "players[0].resources.wood")


def test_wrong_shapes_and_counts_name_their_field(good):
    cases = [
        (("version",), 2, "version"),
        (("players", 0, "coins"), -1, "players[0].coins"),
        (("players", 0, "nest_eggs"), 3, "players[0].nest_eggs"),
        (("players", 1, "passed"), "no", "players[1].passed"),
        (("players", 0, "mat", "crimson_cavern", 0, "cave_card"), 5, "players[0].mat.crimson_cavern[0].cave_card"),
        (("players", 0, "guild_markers"), [[0, 7]], "players[0].guild_markers[0][1]"),
        (("players", 0, "unknown"), 1, "players[0].unknown"),
        (("round",), 9, "round"),
        (("current_player",), 2, "current_player"),
        (("objectives", 0, "side"), "c", "objectives[0].side"),
        (("guild", "tile"), 42, "guild.tile"),
        (("engine", "stack"), [{"t": "nonsense"}], "engine.stack[0]"),
    ]
    for path, value, field in cases:
        position = copy.deepcopy(good)
        target = position
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        refused(position, field)


def test_a_dragon_academy_card_in_a_base_game_is_refused():
    st = build_position(CAT, players=2, academy=False, seed=1)
    position = export_position(st)
    fledgling = next(c.number for c in CAT.dragons if c.size == "fledgling")
    position["players"][0]["hand"].append(fledgling)
    assert "without the expansion" in refused(position, "players[0].hand[2]")


def test_a_marker_missing_from_the_guild_tile_is_refused(good):
    position = copy.deepcopy(good)
    position["players"][0]["guild_markers"] = [[-1, 0]]
    assert "no such marker" in refused(position, "players[0].guild_markers[0]")


# -- the compact text ---------------------------------------------------------------------------------------------

def test_the_compact_text_round_trips_and_is_url_safe(good):
    text = position_to_text(good)
    assert text.startswith("wp1.") and all(c.isalnum() or c in "-_." for c in text)
    assert len(text) < len(json.dumps(good)) // 2
    assert position_from_text(text) == good


@pytest.mark.parametrize("text", ["", "wp1.", "wp1.!!!", "hello", None, "wp1." + "A" * 40])
def test_a_damaged_text_is_refused_by_field(text):
    with pytest.raises(PositionError) as error:
        position_from_text(text)
    assert error.value.field == "text"


# -- partial positions --------------------------------------------------------------------------------------------

def test_a_partial_position_places_what_it_names_and_deals_the_rest():
    st = build_position(CAT, players=[{"mat": {"crimson_cavern": [48, {"dragon": 38, "eggs": 1, "tucked": 2}]},
                                       "hand": [62, 88], "cave_cards": 1, "coins": 3,
                                       "resources": {"meat": 2}},
                                      {"hand": 4}], round=2, seed=9)
    invariants.check(st, {"roundtrip": True})  # every card in exactly one place
    me = st.players[0]
    numbers = {c.index: c.number for c in CAT.dragons}
    assert numbers[me.spaces[0].dragon] == 48 and numbers[me.spaces[1].dragon] == 38
    assert me.spaces[1].cave_card is not None and me.spaces[1].eggs == 1 and len(me.spaces[1].tucked) == 2
    assert sorted(numbers[d] for d in me.hand) == [62, 88] and len(me.caves) == 1
    assert me.coins == 3 and me.res == [2, 0, 0, 0]
    assert len(st.players[1].hand) == 4 and st.round == 2 and me.objectives == [0]
    assert st.pending.player == 0 and st.at_main_action()
    assert state_json(build_position(CAT, players=[{"hand": 4}, {}], seed=9)) == \
        state_json(build_position(CAT, players=[{"hand": 4}, {}], seed=9))
    assert build_position(CAT, seed=1).dragon_deck != build_position(CAT, seed=2).dragon_deck


def test_a_partial_position_stacks_the_deck_and_sets_whose_turn_it_is():
    st = build_position(CAT, players=3, deck_top={"dragons": [62, 88]}, start_player=1, current_player=2,
                        display={"dragons": [38, None, None]})
    numbers = {c.index: c.number for c in CAT.dragons}
    assert [numbers[d] for d in st.dragon_deck[-2:]] == [88, 62]  # drawn from the end: 62 first
    assert numbers[st.display_dragons[0]] == 38
    assert st.start == 1 and st.current == 2 and st.pending.player == 2


def test_a_partial_position_may_leave_display_slots_empty():
    st = build_position(CAT, seed=4, display={"dragons": [None, "empty", 38], "caves": ["empty"] * 3})
    numbers = {c.index: c.number for c in CAT.dragons}
    assert st.display_dragons[0] is not None and st.display_dragons[1] is None
    assert numbers[st.display_dragons[2]] == 38 and st.display_caves == [None, None, None]
    invariants.check(st, {"roundtrip": True})  # the cards not shown are in the decks


def test_a_bad_partial_position_names_its_field():
    cases = [
        ({"players": 0}, "players"),
        ({"players": [{"hand": [62]}, {"hand": [62]}]}, "players[1].hand[0]"),
        ({"players": [{"mat": {"crimson": [48]}}, {}]}, "players[0].mat.crimson"),
        ({"players": [{"mat": {"crimson_cavern": [{"dragon": 38, "eggs": 5}]}}, {}]},
         "players[0].mat.crimson_cavern[0].eggs"),
        ({"players": [{"hand": 500}, {}]}, "players[0].hand"),
        ({"colour": "red"}, "colour"),
        ({"players": [{"resources": {"wood": 1}}, {}]}, "players[0].resources.wood"),
        ({"display": {"caves": [None, "gone"]}}, "display.caves[1]"),
    ]
    for partial, field in cases:
        with pytest.raises(PositionError) as error:
            build_position(CAT, **partial)
        assert error.value.field == field, str(error.value)


# -- solo ---------------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def solo():
    st = GameState.new(CAT, players=1, seed=8, academy=True, automa={"level": 2, "ravel": False})
    agent = RandomAgent(8)
    for _ in range(12):
        st.apply(agent.choose(st.pending.answers))
    assert st.automa["dragons"] or st.automa["markers"] or st.automa["played"]
    return export_position(st)


def test_a_solo_position_holds_the_automas_state_by_card_number(solo):
    assert solo["options"]["players"] == 1 and solo["options"]["automa"] == {"level": 2, "ravel": False}
    numbers = {c.number for c in CAT.dragons}
    assert all(n in numbers for n in solo["automa"]["dragons"])
    assert sorted(solo["automa"]["deck"] + solo["automa"]["aside"] + solo["automa"]["played"]) == \
        sorted(solo["automa"]["cards"])


def test_a_bad_automa_state_names_its_field(solo):
    cases = [
        (lambda p: p["automa"].pop("deck"), "automa.deck"),
        (lambda p: p["automa"]["deck"].append(99), "automa.deck"),
        (lambda p: p["automa"].__setitem__("level", 3), "automa.level"),
        (lambda p: p["automa"].__setitem__("coins", -1), "automa.coins"),
        (lambda p: (p["automa"].__setitem__("markers", [[-1, 0]]), p["guild"].__setitem__("squares", [
            [[seat for seat in square if seat != 1] for square in row] for row in p["guild"]["squares"]])),
         "automa.markers[0]"),
        (lambda p: p["options"].pop("automa"), "options.automa"),
        (lambda p: p["automa"]["dragons"].append(p["decks"]["dragons"][0]), "decks.dragons[0]"),
    ]
    for edit, field in cases:
        position = copy.deepcopy(solo)
        edit(position)
        refused(position, field)
    position = copy.deepcopy(good_position())
    position["automa"] = solo["automa"]
    refused(position, "automa")


def good_position():
    st = build_position(CAT, players=2, seed=1)
    return export_position(st)


def test_a_partial_solo_position_deals_the_automa_afresh():
    st = build_position(CAT, players=[{"hand": [38]}], automa={"level": 3, "ravel": False}, academy=True, seed=2)
    invariants.check(st, {"roundtrip": True})
    assert st.automa["level"] == 3 and len(st.automa["deck"]) == 7 and st.pending.player == 0
    assert all(CAT.objective_tiles[t]["sides"][side].get("automa_values") for t, side in st.objectives)
    with pytest.raises(PositionError) as error:
        build_position(CAT, players=1, automa={"level": 99, "ravel": False})
    assert error.value.field == "options.automa.level"


def test_an_edited_interpreter_stack_is_refused_by_its_seal():
    """Inside an ability the position carries the engine's stack as it is, sealed: editing a task (here who it is
    for) is refused naming engine.stack, where it used to load and crash the game a few decisions later."""
    st = GameState.new(real_catalogue(), players=2, seed=8)
    agent = RandomAgent(8)
    while "stack" not in export_position(st)["engine"]:
        st.apply(agent.choose(st.pending.answers))
    position = export_position(st)
    assert load_position(real_catalogue(), json.loads(json.dumps(position))).pending.kind == st.pending.kind
    position["engine"]["stack"][-1]["p"] = True
    with pytest.raises(PositionError) as refused:
        load_position(real_catalogue(), position)
    assert refused.value.field == "engine.stack"


def test_the_stacks_seal_is_keyed_so_only_the_holder_of_the_key_can_make_one():
    """The seal is an HMAC under the caller's key (the site passes one derived from its secret): a position sealed
    under another key, or under an unkeyed hash of its JSON as anyone could compute, is refused."""
    st = GameState.new(real_catalogue(), players=2, seed=8)
    agent = RandomAgent(8)
    while "stack" not in export_position(st)["engine"]:
        st.apply(agent.choose(st.pending.answers))
    ours = export_position(st, seal_key=b"the site's own key")
    assert load_position(real_catalogue(), copy.deepcopy(ours), seal_key=b"the site's own key").pending.kind == \
        st.pending.kind
    for key in (b"another key", None):
        with pytest.raises(PositionError) as refused:
            load_position(real_catalogue(), copy.deepcopy(ours), seal_key=key)
        assert refused.value.field == "engine.stack"
    inner = {name: ours["engine"].get(name) for name in ("stack", "frames", "pending")}
    ours["engine"]["seal"] = hashlib.sha256(json.dumps(inner, sort_keys=True, separators=(",", ":"))
                                            .encode()).hexdigest()[:16]
    with pytest.raises(PositionError):
        load_position(real_catalogue(), ours, seal_key=b"the site's own key")
