"""/api/analysis/engine/: the strong bot's preferred option and its estimates at a branch's pending decision, from
the deciding seat's view only; bad input is a 400 naming the field."""
import json

import pytest

from game.analysis.service import interval
from tests.analysis.conftest import position

pytestmark = pytest.mark.django_db


@pytest.fixture
def think(client, catalogue):
    def send(body):
        response = client.post("/api/analysis/engine/", data=json.dumps(body), content_type="application/json")
        return response.status_code, response.json()
    return send


@pytest.mark.parametrize("body, field", [
    ([], "body"),
    ({"budget": "fast"}, "budget"),
    ({"budget": True}, "budget"),
    ({"budget": 5}, "budget"),
    ({"budget": 0}, "budget"),
    ({"colour": 1}, "colour"),
    ({"position": {"setup": {"players": 9}}}, "position.setup.players"),
    ({"try": {"seat": 3}}, "try.seat"),
    ({"decisions": [{"kind": "fly", "args": []}]}, "decisions[0]"),
    ({"try": {"end": "game"}}, "try"),
])
def test_bad_input_is_a_400_naming_the_field(think, body, field):
    status, answer = think(body)
    assert status == 400, answer
    assert answer["field"] == field and answer["code"] == "invalid"


def test_the_engine_prefers_an_offered_option_and_estimates_each_option_it_tried(think, post):
    pos = position({"do": "coins", "seat": 1, "coins": 4}, players=2, seed=3)
    status, answer = think({"position": pos, "try": {"seat": 1}, "budget": 0.1})
    assert status == 200, answer
    status, board = post({"position": pos, "try": {"seat": 1}})
    offered = [(o["kind"], o["args"]) for o in board["pending"]["options"]]
    assert answer["seat"] == 1 and answer["who"] == "Player 2" and answer["measure"] == "margin"
    assert (answer["preferred"]["kind"], answer["preferred"]["args"]) in offered
    assert answer["offered"] == len(offered)
    considered = answer["considered"]
    assert 1 <= len(considered) <= len(offered)
    assert all((c["kind"], c["args"]) in offered and c["playouts"] >= 1 and 0 <= c["win"] <= 1 for c in considered)
    assert [c["margin"] for c in considered] == sorted((c["margin"] for c in considered), reverse=True)
    top = next(c for c in considered if (c["kind"], c["args"]) == (answer["preferred"]["kind"],
                                                                  answer["preferred"]["args"]))
    assert top["margin"] == answer["margin"] and top["label"] == answer["preferred"]["label"]
    assert sum(c["playouts"] for c in considered) == answer["playouts"]
    # The same request, the same answer: the search is seeded.
    assert think({"position": pos, "try": {"seat": 1}, "budget": 0.1}) == (200, answer)


def test_the_engine_answers_for_the_seat_asked_inside_a_branch(think, post):
    pos = position(players=2, seed=5)
    status, board = post({"position": pos})
    first = board["pending"]["options"][0]
    decisions = [{"kind": first["kind"], "args": first["args"]}]
    status, after = post({"position": pos, "decisions": decisions})
    status, answer = think({"position": pos, "decisions": decisions, "budget": 0.05})
    assert status == 200, answer
    assert answer["seat"] == after["pending"]["player"]
    assert answer["kind"] == after["pending"]["kind"]  # the same question the board shows


def test_in_a_solo_game_the_estimate_is_the_players_own_score(think):
    pos = {"setup": {"players": 1, "seed": 2, "automa": {"level": 2}}, "edits": [], "seat": 0}
    status, answer = think({"position": pos, "budget": 0.05})
    assert status == 200, answer
    assert answer["measure"] == "score" and answer["win"] is None
    assert answer["margin"] > 0 and all(c["win"] is None for c in answer["considered"])


def test_openapi_schema_documents_the_engine_endpoint(client):
    schema = client.get("/api/schema/?format=json").json()
    assert "post" in schema["paths"]["/api/analysis/engine/"]
    answer = schema["components"]["schemas"]["Engine"]["properties"]
    assert {"preferred", "considered", "margin", "win", "measure", "budget"} <= set(answer)


def test_each_option_has_an_interval_from_its_playouts_and_the_answer_says_whether_it_is_settled(think):
    pos = position({"do": "coins", "seat": 1, "coins": 4}, players=2, seed=3)
    status, answer = think({"position": pos, "try": {"seat": 1}, "budget": 0.25})
    assert status == 200, answer
    assert answer["max_budget"] == 4
    for c in answer["considered"]:
        if c["playouts"] < 2:
            assert c["interval"] is None
        else:
            low, high = c["interval"]
            assert low <= c["margin"] <= high
    top = next(c for c in answer["considered"] if c["label"] == answer["preferred"]["label"])
    assert answer["interval"] == top["interval"] and top["lead"] is None
    others = [c for c in answer["considered"] if c is not top]
    assert all(c["lead"] is None or c["lead"][0] <= c["lead"][1] for c in others)
    assert answer["settled"] == all(c["lead"] is not None and c["lead"][0] > 0 for c in others)
    if others:
        assert answer["closest"]["label"] in [c["label"] for c in others]


def test_thinking_longer_extends_the_same_search(think):
    """Twice the budget plays the same first playouts and as many again: every option has at least as many, and
    the whole search about twice as many."""
    pos = position({"do": "coins", "seat": 1, "coins": 4}, players=2, seed=3)
    _, short = think({"position": pos, "try": {"seat": 1}, "budget": 0.25})
    _, longer = think({"position": pos, "try": {"seat": 1}, "budget": 0.5})
    playouts = {c["label"]: c["playouts"] for c in short["considered"]}
    assert all(c["playouts"] >= playouts[c["label"]] for c in longer["considered"])
    assert longer["playouts"] >= 2 * short["playouts"] - len(playouts)


def test_an_interval_is_student_t_wide_and_needs_two_playouts():
    assert interval([8.0, 8.0, 12.0, 12.0]) == [6.3, 13.7]  # mean 10, sd 2.31, t(3) = 3.18: 10 ± 3.18 × 2.31 / 2
    assert interval([10.0]) is None and interval([]) is None
    assert interval([-1.0, 1.0] * 100) == [-0.1, 0.1]  # sd 1.0025, t(199) ~ 1.98


def test_a_lone_option_is_settled(think):
    """A seat with nothing to do but pass has one option: nothing to compare, so the choice is settled."""
    pos = position({"do": "coins", "seat": 0, "coins": 0}, {"do": "hand", "seat": 0, "dragons": 0},
                   {"do": "cave_cards", "seat": 0, "caves": 0}, {"do": "resources", "seat": 0,
                   "resources": {"meat": 0, "gold": 0, "crystal": 0, "milk": 0}}, players=2, seed=3)
    status, answer = think({"position": pos, "budget": 0.25})
    assert status == 200, answer
    assert [c["kind"] for c in answer["considered"]] == ["pass"]
    assert answer["settled"] and answer["closest"] is None
