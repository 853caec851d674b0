"""Setting the round on the board skips rounds whose objectives were never scored here: the round in play scores its
own objective at its own values and at its own place on the tracker (places are kept per round, by index)."""
import pytest

from game.engine.scoring import place_on_round
from tests.analysis.conftest import position, walk

pytestmark = pytest.mark.django_db


def game_over(result):
    return result["finished"]


def nest_capacity_in_round_4(*edits, players=2):
    return position({"do": "objective_tile", "round": 4, "tile": 3, "side": "a"}, *edits,
                    {"do": "round", "round": 4}, players=players)


def test_ending_the_game_after_the_round_is_set_to_4_scores_round_4s_objective_at_round_4s_values(ask):
    pos = nest_capacity_in_round_4({"do": "dragon", "seat": 0, "card": 130, "cave": "crimson", "column": 1})
    result, _ = walk(ask, pos, {"end": "game"}, [], game_over)
    # The round-4 place is at the round-4 index (rounds 1 to 3 were never scored: "all others", worth nothing).
    assert [s["objectives"] for s in result["table"]["seats"]] == [[0, 0, 0, 1], [0, 0, 0, 0]]
    assert [score["objectives"] for score in result["table"]["result"]["scores"]] == [7, 0]
    view = result["drawing"]["view"]["players"]
    assert [p["objective_places"][3] for p in view] == [1, 0]  # the tracker draws them on round 4


def test_four_players_in_round_4_score_7_7_4_0(ask):
    pos = nest_capacity_in_round_4({"do": "dragon", "seat": 0, "card": 53, "cave": "crimson", "column": 1},
                                   {"do": "dragon", "seat": 1, "card": 89, "cave": "crimson", "column": 1},
                                   {"do": "dragon", "seat": 2, "card": 128, "cave": "crimson", "column": 1},
                                   players=4)
    result, _ = walk(ask, pos, {"end": "game"}, [], game_over)
    assert [s["objectives"][3] for s in result["table"]["seats"]] == [1, 1, 2, 0]
    assert [score["objectives"] for score in result["table"]["result"]["scores"]] == [7, 7, 4, 0]


def test_a_marker_put_on_the_round_in_play_is_replaced_by_that_rounds_score(ask):
    pos = position({"do": "objective_tile", "round": 1, "tile": 3, "side": "a"},
                   {"do": "dragon", "seat": 1, "card": 128, "cave": "crimson", "column": 1},
                   {"do": "objective", "seat": 0, "round": 1, "place": 1})
    result, _ = walk(ask, pos, {"end": "round"}, [], lambda r: r["table"]["round"] == 2)
    assert [s["objectives"] for s in result["table"]["seats"]] == [[0], [1]]


def test_a_place_is_recorded_at_its_rounds_index():
    places = []
    place_on_round(places, 3, 2)
    assert places == [0, 0, 2]
    place_on_round(places, 2, 1)  # a round scored again (a position edited back): what came after it goes
    assert places == [0, 1]


def test_ending_the_game_from_round_1_scores_round_4s_objective_at_round_4s_values(ask):
    """'End the game' jumps to the last round as the round edit does: the same rounds are skipped."""
    pos = position({"do": "objective_tile", "round": 4, "tile": 3, "side": "a"},
                   {"do": "dragon", "seat": 0, "card": 130, "cave": "crimson", "column": 1})
    result, _ = walk(ask, pos, {"end": "game"}, [], game_over)
    assert [s["objectives"] for s in result["table"]["seats"]] == [[0, 0, 0, 1], [0, 0, 0, 0]]
    assert [score["objectives"] for score in result["table"]["result"]["scores"]] == [7, 0]
