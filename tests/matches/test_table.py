"""The drawn table's data (board facts, costs and targets of options, objective standings) and turns tried out
before they are sent (POST /api/matches/<id>/preview/), with every refusal of bad input."""
import json
import random

import pytest

from game.engine.view import view_for
from game.matches import services, table
from game.models import Match

from .conftest import pending, play_randomly, snapshot, user_at


def post(client, url, body):
    return client.post(url, data=json.dumps(body), content_type="application/json")


def url(match):
    return f"/api/matches/{match.public_id}/preview/"


def test_the_board_shows_the_printed_mat_guild_track_and_objective_points(api_as, started, alice):
    body = api_as(alice).get(f"/api/matches/{started.public_id}/").json()
    board = body["board"]
    assert [cave["name"] for cave in board["mat"]] == ["crimson_cavern", "golden_grotto", "amethyst_abyss"]
    assert all(len(cave["before"]) == 4 and cave["end"]["text"] for cave in board["mat"])
    assert board["mat"][0]["before"][1]["icon"] == "guild"
    assert board["mat"][0]["before"][3]["icon"] == "egg"
    assert board["excavate_eggs"] == [0, 0, 1, 2]
    assert len(board["guild_track"]) == 12 and board["guild_track"][0]["brown"]
    assert board["guild_track"][2]["icon"] == "meat"
    assert board["objective_vp"][0] == [4, 1, 0]
    assert body["view"]["objective_counts"] is not None and len(body["view"]["objective_counts"]) == 2


def test_looking_at_the_objective_standings_changes_nothing_in_the_state(started):
    match = play_randomly(started.pk, 25, seed=4)
    state = services.load_state(match)
    before = json.dumps(state.to_json(), sort_keys=True)
    counts = view_for(state, 0)["objective_counts"]
    assert json.dumps(state.to_json(), sort_keys=True) == before
    assert all(isinstance(n, int) and n >= 0 for n in counts)


def test_main_actions_show_their_costs_and_where_they_point(api_as, started):
    match = play_randomly(started.pk, 4, seed=1)  # both players' setup: the start player chooses an action
    seat, _, _ = pending(match)
    client = api_as(user_at(match, seat))
    options = client.get(f"/api/matches/{match.public_id}/").json()["view"]["pending"]["options"]
    explore = [o for o in options if o["kind"] == "explore"]
    assert explore and all(o["cost"].get("coin") == 1 and o["target"] == {"cave": o["args"][0]} for o in explore)
    entice = [o for o in options if o["kind"] == "entice"]
    for o in entice:
        assert o["target"]["hand"] == ["dragon", o["args"][0]]
        assert o["target"]["space"] == o["args"][1] * 4  # the first empty space of that cave
        assert o["cost"]["coin"] >= 1
    passing = [o for o in options if o["kind"] == "pass"]
    assert passing and passing[0]["cost"] == {} and passing[0]["target"] is None


def test_a_setup_choice_is_tried_without_storing_it(api_as, started, alice):
    before = snapshot(started.pk)
    _, _, options = pending(started)
    response = post(api_as(alice), url(started), {"version": 0, "options": [options[0]]})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["open"] is True and body["reason"] is None
    assert body["view"]["pending"]["player"] == 0
    assert {o["kind"] for o in body["view"]["pending"]["options"]} == {"resources"}
    assert len(body["view"]["players"][0]["hand"]) + len(body["view"]["players"][0]["cave_cards"]) == 4
    assert "seed" not in body["view"]["options"]
    assert snapshot(started.pk) == before


def test_the_setup_is_closed_once_the_other_player_must_answer(api_as, started, alice):
    _, _, options = pending(started)
    choices = [options[0], {"kind": "resources", "args": ["meat", "meat", "meat"]}]
    body = post(api_as(alice), url(started), {"version": 0, "options": choices}).json()
    assert body == {"version": 0, "open": False, "reason": "other_player", "staged": 2}
    assert Match.objects.get(pk=started.pk).version == 0


def test_trying_out_shows_nothing_hidden_and_ends_where_a_card_is_drawn(started):
    """Seeded playout: every decision is first tried; an open answer never shows a card drawn from a deck, a
    closed one shows no table at all, and the reasons a turn closes all occur."""
    rng = random.Random(11)
    reasons = set()
    for _ in range(160):
        match = Match.objects.get(pk=started.pk)
        state = services.load_state(match)
        if state.pending is None:
            break
        seat = state.pending.player
        option = rng.choice(state.legal_options())
        answer = table.preview(match, user_at(match, seat), match.version, [option.to_dict()])
        reasons.add(answer["reason"])
        after = services.load_state(match)
        after.apply(option)
        if answer["open"]:
            assert answer["view"]["decks"] == {"dragons": len(after.dragon_deck), "caves": len(after.cave_deck)}
            assert answer["view"]["decks"] == {"dragons": len(state.dragon_deck), "caves": len(state.cave_deck)}
            assert answer["view"]["players"][seat]["hand"] == after.players[seat].hand
            assert answer["view"]["pending"]["player"] == seat
        else:
            assert "view" not in answer
        services.submit_decision(match.pk, user_at(match, seat), match.version, option.to_dict())
    assert {"reveal", "turn_over", "other_player", None} <= reasons


@pytest.mark.parametrize("body, field", [
    ({"options": []}, "version"),
    ({"version": "0", "options": [{"kind": "pass"}]}, "version"),
    ({"version": True, "options": [{"kind": "pass"}]}, "version"),
    ({"version": 0}, "options"),
    ({"version": 0, "options": []}, "options"),
    ({"version": 0, "options": {"kind": "pass"}}, "options"),
    ({"version": 0, "options": ["pass"]}, "options"),
    ({"version": 0, "options": [{"kind": "pass", "args": [None]}]}, "options"),
    ({"version": 0, "options": [{"kind": "explore", "args": [0]}]}, "options"),
    ({"version": 0, "options": [{"kind": "pass"}] * 61}, "options"),
    ({"version": 0, "options": [{"kind": "pass"}], "colour": "red"}, "colour"),
])
def test_bad_previews_name_the_field_and_store_nothing(api_as, started, alice, body, field):
    before = snapshot(started.pk)
    response = post(api_as(alice), url(started), body)
    assert response.status_code == 400, response.json()
    assert response.json()["field"] == field
    assert snapshot(started.pk) == before


def test_a_body_that_is_not_an_object_is_refused(api_as, started, alice):
    response = post(api_as(alice), url(started), [1, 2])
    assert response.status_code == 400 and response.json()["field"] == "body"


def test_choices_past_the_end_of_what_can_be_tried_are_refused(api_as, started, alice):
    _, _, options = pending(started)
    choices = [options[0], {"kind": "resources", "args": ["meat", "meat", "meat"]}, {"kind": "pass", "args": []}]
    response = post(api_as(alice), url(started), {"version": 0, "options": choices})
    assert response.status_code == 400 and response.json()["field"] == "options"
    assert "choice 2" in response.json()["detail"]


def test_previews_are_refused_out_of_turn_stale_unseated_or_anonymous(api_as, started, alice, bob, carol):
    _, _, options = pending(started)
    body = {"version": 0, "options": [options[0]]}
    assert post(api_as(bob), url(started), body).status_code == 403
    assert post(api_as(carol), url(started), body).status_code == 403
    assert post(api_as(None), url(started), body).status_code == 403
    assert post(api_as(alice), url(started), dict(body, version=3)).status_code == 409
    assert post(api_as(alice), "/api/matches/999/preview/", body).status_code == 404


def test_an_open_match_cannot_be_tried(api_as, catalogue, alice):
    match = services.create_match(alice, players=2)
    response = post(api_as(alice), url(match), {"version": 0, "options": [{"kind": "pass"}]})
    assert response.status_code == 409


def test_the_replay_steps_through_the_match_as_the_viewer_may_see_it(api_as, started, alice):
    match = play_randomly(started.pk, 12, seed=2)
    client = api_as(alice)
    first = client.get(f"/api/matches/{match.public_id}/replay/0/").json()
    assert first["number"] == 0 and first["last"] == 12 and first["entry"] is None
    assert first["view"]["decisions"] == 0 and len(first["view"]["players"][0]["hand"]) == 3
    for number in (1, 7, 12):
        step = client.get(f"/api/matches/{match.public_id}/replay/{number}/").json()
        decision = match.decisions.get(number=number)
        assert step["view"]["decisions"] == number
        assert step["entry"]["number"] == number and step["entry"]["seat"] == decision.seat
        assert step["view"]["players"][1]["hand"] is None  # the other hand stays hidden at every step
        assert "seed" not in step["view"]["options"]
        assert not (step["view"]["pending"] or {}).get("options")
        assert set(map(int, step["cards"]["dragons"])) >= set(step["view"]["players"][0]["hand"])
    last = client.get(f"/api/matches/{match.public_id}/replay/12/").json()
    now = client.get(f"/api/matches/{match.public_id}/").json()["view"]
    assert last["view"]["players"] == now["players"] and last["view"]["display"] == now["display"]
    watcher = api_as(None).get(f"/api/matches/{match.public_id}/replay/5/").json()
    assert all(p["hand"] is None for p in watcher["view"]["players"])


def test_bad_replay_steps_are_refused(api_as, catalogue, started, alice):
    response = api_as(alice).get(f"/api/matches/{started.public_id}/replay/1/")
    assert response.status_code == 400 and response.json()["field"] == "number"
    assert api_as(alice).get(f"/api/matches/{started.public_id}/replay/-1/").status_code == 404
    assert api_as(alice).get(f"/api/matches/{started.public_id}/replay/x/").status_code == 404
    assert api_as(alice).get("/api/matches/999/replay/0/").status_code == 404
    waiting = services.create_match(alice, players=2)
    assert api_as(alice).get(f"/api/matches/{waiting.public_id}/replay/0/").status_code == 409


def test_undo_within_a_turn_shows_the_table_before_the_last_staged_choice(api_as, started):
    """The board's undo drops the last staged choice and tries the rest again (static/match.js undo() ->
    tryStaged): that answer is the table as it was after the choices kept, not after the one taken back."""
    rng = random.Random(5)

    def question(pending):  # what the table asks: its prompt and each option
        pending = pending or {}
        return pending.get("prompt"), [(o["kind"], list(o["args"])) for o in pending.get("options") or ()]
    def two_tries(client, match, state):
        """A first choice and a second after it, both open to try, whose tables ask different things (two
        yes-or-no questions in a row look alike by their options alone, so the prompt counts too)."""
        for first_option in state.legal_options()[:8]:
            first = first_option.to_dict()
            once = post(client, url(match), {"version": match.version, "options": [first]}).json()
            if not once["open"]:
                continue
            for second in once["view"]["pending"]["options"][:4]:
                second = {"kind": second["kind"], "args": second["args"]}
                twice = post(client, url(match), {"version": match.version, "options": [first, second]}).json()
                if twice["open"] and question(twice["view"]["pending"]) != question(once["view"]["pending"]):
                    return first_option, once, twice
        return None

    for _ in range(200):  # play on until a turn has two choices that can both be tried before sending
        match = Match.objects.get(pk=started.pk)
        state = services.load_state(match)
        assert state.pending is not None, "the game ended before a turn had two choices to try"
        seat = state.pending.player
        client = api_as(user_at(match, seat))
        found = two_tries(client, match, state)
        if found:
            first_option, once, twice = found
            first = first_option.to_dict()
            break
        services.submit_decision(match.pk, user_at(match, seat), match.version,
                                 rng.choice(state.legal_options()).to_dict())
    else:
        pytest.fail("no turn with two choices to try in 200 decisions")
    before = snapshot(match.pk)
    undone = post(client, url(match), {"version": match.version, "options": [first]})
    assert undone.status_code == 200
    assert undone.json() == once and undone.json()["staged"] == 1
    # and that is the engine's own table after the first choice alone, as this seat may see it
    state.apply(first_option)
    asked = view_for(state, seat)["pending"]

    assert question(undone.json()["view"]["pending"]) == question(asked) != question(twice["view"]["pending"])
    assert snapshot(match.pk) == before
