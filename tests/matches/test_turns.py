"""POST /api/matches/<id>/turns/: a confirmed turn of several choices, stored all together or not at all."""
import json
import random

from game.matches import integrity, services
from game.models import Match

from .conftest import snapshot, user_at


def post(client, match, body):
    return client.post(f"/api/matches/{match.public_id}/turns/", data=json.dumps(body), content_type="application/json")


def play_until(match_id, wanted, seed=5):
    """Play on at random until the player to move has a first choice after which `wanted(seat, trial)` holds;
    answer that player, the version, the first option and an option of the question after it."""
    rng = random.Random(seed)
    for _ in range(200):
        match = Match.objects.get(pk=match_id)
        state = services.load_state(match)
        seat = state.pending.player
        for first in state.legal_options():
            trial = state.clone()
            trial.apply(first)
            if trial.pending is not None and wanted(seat, trial):
                return user_at(match, seat), match.version, first, trial.legal_options()[0]
        option = rng.choice(state.legal_options())
        services.submit_decision(match_id, user_at(match, seat), match.version, option.to_dict())
    raise AssertionError("no such position in 200 decisions")


def a_turn_of_two(match_id, seed=5):
    """A first choice after which the same player chooses again, and a second choice."""
    return play_until(match_id, lambda seat, trial: trial.pending.player == seat, seed)


def decision(version, option):
    return {"version": version, "option": option.to_dict()}


def test_a_turn_of_two_choices_is_stored_at_once(api_as, started):
    user, version, first, second = a_turn_of_two(started.pk)
    answer = post(api_as(user), started, {"decisions": [decision(version, first), decision(version + 1, second)]})
    assert answer.status_code == 201, answer.json()
    match = Match.objects.get(pk=started.pk)
    assert answer.json()["version"] == match.version >= version + 2
    stored = list(match.decisions.filter(number__in=(version + 1, version + 2)).order_by("number")
                  .values_list("kind", "args"))
    assert stored == [(first.kind, list(first.args)), (second.kind, list(second.args))]
    assert integrity.verify(match, replay=True) == []


def test_a_turn_is_stored_in_as_few_statements_as_one_decision(started):
    """On PostgreSQL a turn is read unlocked and written in one statement, however many choices it holds; on SQLite
    it is the locked path (a transaction, one update and one insert per choice). Either way the chain is whole."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    user, version, first, second = a_turn_of_two(started.pk)
    with CaptureQueriesContext(connection) as captured:
        match = services.submit_turn(started.pk, user, [decision(version, first), decision(version + 1, second)])
    assert match.version == Match.objects.get(pk=started.pk).version == version + 2
    if connection.vendor == "postgresql":
        assert len(captured) == 2, [q["sql"][:80] for q in captured.captured_queries]
    assert integrity.verify(Match.objects.get(pk=started.pk), replay=True) == []


def test_an_illegal_choice_in_the_middle_stores_nothing_and_is_named(api_as, started):
    user, version, first, second = a_turn_of_two(started.pk)
    before = snapshot(started.pk)
    illegal = {"kind": "entice", "args": [9999, 0]}
    answer = post(api_as(user), started, {"decisions": [decision(version, first),
                                                        {"version": version + 1, "option": illegal},
                                                        decision(version + 2, second)]})
    assert answer.status_code == 400, answer.json()
    assert answer.json()["field"] == "decisions[1].option" and "choice 2" in answer.json()["detail"]
    assert snapshot(started.pk) == before  # the first choice, legal on its own, was not kept either


def test_a_first_version_that_is_not_the_matchs_is_409_and_stores_nothing(api_as, started):
    user, version, first, second = a_turn_of_two(started.pk, seed=9)
    if version == 0:  # take one decision more, so the turn can be sent at a version that has passed
        services.submit_decision(started.pk, user, 0, first.to_dict())
        user, version, first, second = a_turn_of_two(started.pk, seed=9)
    before = snapshot(started.pk)
    answer = post(api_as(user), started, {"decisions": [decision(version - 1, first),
                                                        decision(version, second)]})
    assert answer.status_code == 409 and answer.json()["code"] == "stale_version"
    assert snapshot(started.pk) == before


def test_a_later_version_that_does_not_follow_is_400_and_stores_nothing(api_as, started):
    user, version, first, second = a_turn_of_two(started.pk)
    before = snapshot(started.pk)
    answer = post(api_as(user), started, {"decisions": [decision(version, first), decision(version + 5, second)]})
    assert answer.status_code == 400 and answer.json()["field"] == "decisions[1].version"
    assert snapshot(started.pk) == before


def test_a_choice_after_the_turn_passed_is_400_and_stores_nothing(api_as, started):
    user, version, first, theirs = play_until(started.pk, lambda seat, trial: trial.pending.player != seat)
    before = snapshot(started.pk)
    answer = post(api_as(user), started, {"decisions": [decision(version, first), decision(version + 1, theirs)]})
    assert answer.status_code == 400 and answer.json()["field"] == "decisions[1]", answer.json()
    assert snapshot(started.pk) == before


def test_bad_turn_bodies_are_400_naming_the_field(api_as, started, alice):
    client = api_as(alice)
    before = snapshot(started.pk)
    cases = [({}, "decisions"), ({"decisions": []}, "decisions"), ({"decisions": "pass"}, "decisions"),
             ({"decisions": [{"option": {"kind": "pass"}}]}, "decisions[0].version"),
             ({"decisions": [{"version": 0}]}, "decisions[0].option"),
             ({"decisions": [{"version": "0", "option": {"kind": "pass"}}]}, "decisions[0].version"),
             ({"decisions": [{"version": 0, "option": {"kind": 7}}]}, "decisions[0].option"),
             ({"decisions": [{"version": 0, "option": {"kind": "pass"}, "why": 1}]}, "decisions[0].why"),
             ({"decisions": [7]}, "decisions[0]"), ({"decisions": [], "extra": 1}, "extra")]
    for body, field in cases:
        answer = post(client, started, body)
        assert answer.status_code == 400 and answer.json()["field"] == field, (body, answer.json())
    assert snapshot(started.pk) == before


def test_a_turn_from_a_stranger_or_out_of_turn_is_403(api_as, started, make_user):
    match = Match.objects.get(pk=started.pk)
    state = services.load_state(match)
    waiting = user_at(match, 1 - state.pending.player)
    option = state.legal_options()[0]
    assert post(api_as(make_user("dave")), started, {"decisions": [decision(0, option)]}).status_code == 403
    assert post(api_as(waiting), started, {"decisions": [decision(0, option)]}).status_code == 403
    assert post(api_as(None), started, {"decisions": [decision(0, option)]}).status_code in (401, 403)
    assert Match.objects.get(pk=started.pk).version == 0
