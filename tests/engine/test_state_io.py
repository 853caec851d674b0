"""Saving, loading, replaying and viewing a game."""
import json

import pytest

from game.engine.decisions import MalformedDecision, Option
from game.engine.state import GameState
from game.engine.view import view_for

from .helpers import choose, fire, make_catalogue, position, real_catalogue, seat

CAT = make_catalogue()


def test_game_paused_mid_ability_resumes_from_json():
    st = position(CAT)
    fire(st, {"do": "choose", "pick": 2, "options": [{"do": "gain", "item": "meat"}, {"do": "gain", "item": "gold"},
                                                     {"do": "gain", "item": "milk"}]})
    choose(st, "choose", 1)
    saved = json.loads(json.dumps(st.to_json()))
    loaded = GameState.from_json(CAT, saved)
    for game in (st, loaded):
        assert game.legal_options() == [Option("choose", (0,)), Option("choose", (2,))]
        choose(game, "choose", 2)
    assert loaded.to_json() == st.to_json() and st.players[0].res == [0, 1, 0, 1]


def test_option_round_trips_through_dict():
    option = Option("entice", (12, 2))
    assert Option.from_dict(option.to_dict()) == option
    assert option.to_dict() == {"kind": "entice", "args": [12, 2]}


def test_loading_something_else_is_a_clear_error():
    with pytest.raises(MalformedDecision):
        GameState.from_json(CAT, {"version": 99})


def test_bad_setup_options_are_refused():
    with pytest.raises(MalformedDecision, match="players"):
        GameState.new(CAT, players=7)
    with pytest.raises(MalformedDecision, match="seed"):
        GameState.new(CAT, players=2, seed="x")


def test_player_view_hides_other_hands_and_deck_order():
    st = GameState.new(real_catalogue(), players=3, seed=5)
    view = view_for(st, 1)
    text = json.dumps(view)
    assert view["players"][1]["hand"] == st.players[1].hand
    assert view["players"][0]["hand"] is None and view["players"][0]["hand_count"] == 3
    assert view["decks"]["dragons"] == len(st.dragon_deck) and "dragon_deck" not in text
    assert "rng" not in view and "stack" not in view
    assert (view["pending"].get("options") is not None) == (st.pending.player == 1)


def test_spectator_sees_no_hand_and_no_options():
    st = GameState.new(real_catalogue(), players=2, seed=5)
    view = view_for(st, None)
    assert all(p["hand"] is None and p["cave_cards"] is None for p in view["players"])
    assert "options" not in view["pending"]


def test_tucked_cards_are_face_down_in_every_view():
    st = position(CAT, [seat(CAT, mat={0: {"dragon": 3, "tucked": [4, 5]}}), seat(CAT)])
    assert view_for(st, 0)["players"][0]["mat"][0]["tucked"] == 2


def test_options_in_the_view_carry_readable_labels():
    st = GameState.new(real_catalogue(), players=2, seed=5)
    view = view_for(st, st.pending.player)
    assert all(isinstance(o["label"], str) and o["label"] for o in view["pending"]["options"])


def test_view_keeps_the_seed_secret():
    st = GameState.new(real_catalogue(), players=2, seed=987654)
    view = view_for(st, 0)
    assert "seed" not in view["options"] and "987654" not in json.dumps(view)


def test_illegal_egg_placement_names_the_rule():
    from game.engine.decisions import IllegalDecision

    st = position(CAT, [seat(CAT, mat={0: 2, 4: 3}), seat(CAT)])
    fire(st, {"do": "lay_egg"})
    before = st.to_json()
    with pytest.raises(IllegalDecision, match="empty nest"):
        st.apply(Option("egg_on", (7,)))
    assert st.to_json() == before
