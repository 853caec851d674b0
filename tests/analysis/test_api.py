"""/api/analysis/: bad input is a 400 naming the field and saves nothing; the answer's parts; the schema."""
import pytest

from game.language.vocabulary import SCORE_CATEGORIES
from tests.analysis.conftest import offered, pick, position, seat as seat_of, walk, yes

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("body, field", [
    ([], "body"),
    ({"colour": 1}, "colour"),
    ({"position": []}, "position"),
    ({"position": {"board": 1}}, "position.board"),
    ({"position": {"setup": {"players": 9}}}, "position.setup.players"),
    ({"position": {"setup": {"academy": "yes"}}}, "position.setup.academy"),
    ({"position": {"setup": {"players": 1, "automa": {"level": 9}}}}, "position.setup.automa.level"),
    ({"position": {"setup": {"players": 2, "automa": {"level": 1}}}}, "position.setup.automa"),
    ({"position": {"edits": {}}}, "position.edits"),
    ({"position": {"edits": [{"do": "fly"}]}}, "position.edits[0].do"),
    ({"position": {"edits": [{"do": "coins", "seat": 0, "coins": -1}]}}, "position.edits[0].coins"),
    ({"position": {"edits": [{"do": "coins", "seat": 7, "coins": 1}]}}, "position.edits[0].seat"),
    ({"position": {"edits": [{"do": "coins", "seat": 0, "coins": 1, "gems": 2}]}}, "position.edits[0].gems"),
    ({"position": {"edits": [{"do": "dragon", "seat": 0, "cave": "sky", "column": 1, "card": 5}]}},
     "position.edits[0].cave"),
    ({"position": {"edits": [{"do": "dragon", "seat": 0, "cave": "crimson", "column": 5, "card": 5}]}},
     "position.edits[0].column"),
    ({"position": {"edits": [{"do": "dragon", "seat": 0, "cave": "crimson", "column": 1, "card": "Nobody"}]}},
     "position.edits[0].card"),
    ({"position": {"edits": [{"do": "dragon", "seat": 0, "cave": "crimson", "column": 1, "card": 128, "eggs": 5}]}},
     "position.edits[0].eggs"),
    ({"position": {"edits": [{"do": "resources", "seat": 0, "resources": {"gems": 1}}]}},
     "position.edits[1].resources.gems".replace("[1]", "[0]")),
    ({"position": {"edits": [{"do": "hand", "seat": 0, "dragons": [128, "Nobody"]}]}},
     "position.edits[0].dragons[1]"),
    ({"position": {"edits": [{"do": "income", "seat": 0, "space": 1}]}}, "position.edits[0].space"),
    ({"position": {"state": "x"}}, "position.state"),
    ({"position": {"format": "wyrmdex-position", "version": 1, "colour": 1}}, "position.colour"),
    ({"position": {"format": "wyrmdex-position", "version": 1, "options": {"players": 2}, "players": [{}, {"coins": -1}]}},
     "position.players[1].coins"),
    ({"try": []}, "try"),
    ({"try": {"fly": 1}}, "try.fly"),
    ({"try": {"seat": 3}}, "try.seat"),
    ({"try": {"card": 128}}, "try.card"),
    ({"try": {"card": "cave 58"}}, "try.at"),
    ({"try": {"end": "match"}}, "try.end"),
    ({"try": {"guild": 0}}, "try.guild"),
    ({"try": {"exchange": "meat"}}, "try.exchange"),
    ({"try": {"exchange": ["gold", "gold", "meat"]}}, "try.exchange"),
    ({"decisions": {}}, "decisions"),
    ({"decisions": [{"kind": "fly", "args": []}]}, "decisions[0]"),
    ({"decisions": ["pass"]}, "decisions[0]"),
])
def test_bad_input_is_a_400_naming_the_field(post, body, field):
    from game.models import Match

    before = Match.objects.count()
    status, answer = post(body)
    assert status == 400, answer
    assert answer["field"] == field and answer["code"] == "invalid"
    assert answer["detail"].startswith(field)
    assert Match.objects.count() == before


def test_an_illegal_decision_carries_the_engines_reason(post):
    status, answer = post({"position": position({"do": "coins", "seat": 0, "coins": 0}),
                           "decisions": [{"kind": "explore", "args": [0]}]})
    assert status == 400 and answer["field"] == "decisions[0]"
    assert "this visit costs 1 coin" in answer["detail"]


def test_an_answer_lists_options_refusals_steps_table_rulings_and_a_state_to_go_on_from(ask):
    pos = position({"do": "dragon", "seat": 0, "cave": "crimson", "column": 1, "card": 80},
                   {"do": "hand", "seat": 0, "dragons": [128, 50]})
    result = ask(pos, {"card": 80}, [yes()])
    assert result["steps"][1]["label"] == "Yes" and result["decisions"] == [yes()]
    assert result["pending"]["who"] == "Player 1" and offered(result, "tuck")
    assert result["table"]["seats"][0]["mat"][0]["dragon"]["name"] == "Hawkish Firevern"
    assert "F4" in [r["id"] for r in result["rulings"]]
    assert [e["text"] for e in result["steps"][1]["events"]] == ["Player 1 used Hawkish Firevern's if-activated ability."]
    # the returned position (docs/positions.md) is a position too, even inside an ability: the branch goes on from it
    assert result["position"]["format"] == "wyrmdex-position"
    again = ask(result["position"])
    assert again["pending"]["kind"] == result["pending"]["kind"] == "tuck"
    assert again["pending"]["options"] == result["pending"]["options"]


def test_the_same_request_gives_the_same_answer(ask):
    pos = position({"do": "coins", "seat": 0, "coins": 3}, seed=7)
    assert ask(pos) == ask(pos)


def test_openapi_schema_documents_the_analysis_endpoint(client):
    schema = client.get("/api/schema/?format=json").json()
    post = schema["paths"]["/api/analysis/"]["post"]
    assert "400" in post["responses"]
    answer = schema["components"]["schemas"]["Analysis"]["properties"]
    assert {"pending", "steps", "rulings", "table", "position"} <= set(answer)


def test_each_step_narrates_its_events_as_the_acting_player_sees_them(ask):
    """The explorer's own draws are named; what another player draws would be hidden (view.events_for)."""
    pos = position({"do": "coins", "seat": 0, "coins": 3})
    result = ask(pos, {}, [{"kind": "explore", "args": [0]}])
    texts = [e["text"] for e in result["steps"][1]["events"]]
    assert "Player 1 explored the Crimson Cavern, paying 1 coin." in texts
    assert all(e["html"] for e in result["steps"][1]["events"])


def test_every_option_says_what_it_costs_gives_and_changes_before_it_is_taken(ask):
    """Hawkish Firevern, after tucking Sharp-Tongued Spitter: each resource of its cost is offered with its gain."""
    pos = position({"do": "dragon", "seat": 0, "cave": "crimson", "column": 1, "card": 80},
                   {"do": "hand", "seat": 0, "dragons": [128, 50]},
                   {"do": "resources", "seat": 0, "resources": {"meat": 0, "gold": 0, "crystal": 0, "milk": 0}})
    result = ask(pos, {"card": 80}, [yes()])
    tuck = next(o for o in offered(result, "tuck") if "Sharp-Tongued" in o["label"])
    assert tuck["card"]["number"] == 128 and "Player 1: dragon cards in hand 2 → 1" in tuck["result"]
    result = ask(pos, {"card": 80}, [yes(), {"kind": tuck["kind"], "args": tuck["args"]}])
    gains = {o["args"][0]: (o["cost"], o["gain"]) for o in offered(result, "resource")}
    assert gains == {"meat": ({}, {"meat": 1}), "crystal": ({}, {"crystal": 1})}


def test_the_changes_name_the_seat_that_acts_by_its_number_and_show_its_hand(ask):
    """The same card for Player 2: the changes speak of Player 2's hand and mat, never of "your" or an
    "opponent" (the checker's words for seat 0 and the others), and name the tucked card, as every hand is open here."""
    pos = position({"do": "dragon", "seat": 1, "cave": "crimson", "column": 1, "card": 80},
                   {"do": "hand", "seat": 1, "dragons": [128, 50]})
    result = ask(pos, {"seat": 1, "card": 80}, [yes()])
    tuck = next(o for o in offered(result, "tuck") if "Sharp-Tongued" in o["label"])
    assert "Player 2: dragon cards in hand 2 → 1" in tuck["result"]
    moved = [line for line in tuck["result"] if line.startswith("Sharp-Tongued Spitter")]
    assert len(moved) == 1 and "Player 2's hand → tucked under" in moved[0] and "on Player 2's mat" in moved[0]
    assert not [line for line in tuck["result"] if "your" in line or "opponent" in line.lower()]


def test_the_rulings_shown_follow_the_question_being_asked(ask):
    """A tuck question brings the tucking rulings; a main action brings those about the actions."""
    pos = position({"do": "dragon", "seat": 0, "cave": "crimson", "column": 1, "card": 128},
                   {"do": "hand", "seat": 0, "dragons": [50, 93]})
    main = {r["id"] for r in ask(pos)["rulings"]}
    assert {"B2", "R3", "B1"} <= main  # excavate, explore, exchange are offered
    assert "D1" not in main  # nothing here swaps dragons


def test_ending_the_turn_over_the_hand_limit_asks_for_the_discard(ask):
    from tests.analysis.test_questions import cave_cards, hand
    pos = position(hand(128, 89, 157, 39, 50, 93, 100, 101), cave_cards(2))  # 10 cards, the limit is 9
    result = ask(pos, {"end": "turn", "seat": 0})
    assert result["pending"]["kind"] == "discard_cards" and result["pending"]["player"] == 0
    assert result["pending"]["data"] == {"keep": 9, "extra": 1}
    result = ask(pos, {"end": "turn", "seat": 0}, [pick(result, "discard", "dragon")])
    assert result["pending"]["kind"] == "main_action" and result["pending"]["player"] == 1  # the turn passes on


def test_ending_the_turn_under_the_limit_passes_it_to_the_next_player(ask):
    result = ask(position(), {"end": "turn", "seat": 0})
    assert result["pending"]["kind"] == "main_action" and result["pending"]["player"] == 1


def test_an_empty_table_starts_round_one_with_nothing_in_front_of_anyone(ask):
    result = ask({"setup": {"players": 3, "seed": 2, "empty": True}})
    table = result["table"]
    assert table["round"] == 1 and len(table["seats"]) == 3
    for s in table["seats"]:
        assert s["coins"] == 0 and s["hand"] == [] and s["cave_cards"] == [] and s["nest"] == 0
        assert all(space.get("dragon") is None for space in s["mat"])
    assert [o["kind"] for o in offered(result)] == ["pass"]  # nothing to pay with: only passing is left
    assert len([d for d in table["display"]["dragons"] if d]) == 3  # the display is dealt as in any game


def test_an_empty_table_takes_edits_like_any_position(ask):
    pos = {"setup": {"empty": True}, "edits": [{"do": "coins", "seat": 0, "coins": 2},
                                               {"do": "hand", "seat": 0, "dragons": [128]}]}
    result = ask(pos)
    assert seat_of(result)["coins"] == 2
    assert [d["number"] for d in seat_of(result)["hand"]] == [128]


def test_an_empty_setup_that_is_not_true_or_false_is_a_400(post):
    status, body = post({"position": {"setup": {"empty": "yes"}}})
    assert status == 400 and body["field"] == "position.setup.empty"


def test_the_final_count_is_given_by_category_once_the_game_is_over(ask):
    pos = position({"do": "dragon", "seat": 0, "card": 130, "cave": "crimson", "column": 1})
    assert ask(pos)["final"] is None
    result, _ = walk(ask, pos, {"end": "game"}, [], lambda r: r["finished"])
    final = result["final"]
    assert final["names"] == ["Player 1", "Player 2"]
    assert [row["key"] for row in final["rows"]] == list(SCORE_CATEGORIES)
    scores = result["table"]["result"]["scores"]
    for seat_, score in enumerate(scores):
        assert {row["key"]: row["values"][seat_] for row in final["rows"]} == {k: score[k] for k in SCORE_CATEGORIES}
        assert sum(row["values"][seat_] for row in final["rows"]) == final["totals"][seat_] == score["total"]
    assert final["places"] == result["table"]["result"]["places"]


def test_a_solo_games_final_count_gives_the_automas_parts_in_her_own_words(ask):
    result, _ = walk(ask, position(players=1), {"end": "game"}, [], lambda r: r["finished"])
    final = result["final"]
    assert final["names"] == ["Player 1", "The Automa"]
    mine = [row for row in final["rows"] if not row["automa"]]
    hers = [row for row in final["rows"] if row["automa"]]
    assert all(row["values"][1] is None for row in mine) and all(row["values"][0] is None for row in hers)
    assert any(row["label"] == "Automa: dragon cards taken" for row in hers)
    assert sum(row["values"][1] for row in hers) == final["totals"][1]


def test_cave_84s_options_say_what_each_path_icon_does(ask):
    attempt = {"seat": 0, "card": "cave 84", "at": {"cave": "crimson", "column": 2}}
    first = ask(position(academy=True), attempt)
    result = ask(position(academy=True), attempt, [pick(first, "yes")])
    labels = [o["label"] for o in offered(result, "activate_icon")]
    assert len(labels) == 15
    assert labels[0] == "Use the Crimson Cavern path icon 1 (before space 1): gain 1 resource of any kind"
    assert labels[1] == "Use the Crimson Cavern path icon 2 (before space 2): advance once on the Dragon Guild"
    assert labels[9].startswith("Use the Golden Grotto path icon 5 (at the end of the cave): tuck up to 2 dragon")
    assert labels[14].startswith("Use the Amethyst Abyss path icon 5 (at the end of the cave): up to twice: pay 1")
