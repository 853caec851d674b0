"""A match's saved state without its log (the same size from the first move to the last, old saves still load and
verify), and the database work of a move and of an unchanged poll (counted, not timed)."""
import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game.engine.state import GameState
from game.matches import integrity, services
from game.models import Match

from .conftest import play_randomly, user_at
from .test_integrity import verify_command


def _next(match, rng=None):
    match = Match.objects.get(pk=match.pk)
    state = services.load_state(match)
    options = state.legal_options()
    option = rng.choice(options) if rng else options[0]
    return user_at(match, state.pending.player), match.version, option.to_dict()


def test_the_saved_state_holds_no_log_and_does_not_grow_with_it(started):
    first = len(json.dumps(Match.objects.get(pk=started.pk).state))
    match = play_randomly(started.pk, 60, seed=3)
    assert match.version == 60 and "log" not in match.state and match.state["decisions"] == 60
    # more on the mats after 60 decisions, but not the 60 decisions themselves
    assert len(json.dumps(match.state)) < first + 1500
    assert services.replay(match).to_json() == match.state
    assert integrity.verify(match, replay=True) == []


def test_an_old_save_with_the_log_inside_loads_verifies_and_plays_on(started):
    match = play_randomly(started.pk, 15, seed=4)
    replayed = services.replay(match)
    old = dict(match.state, version=1, log=replayed.log)
    del old["decisions"]
    match.state = old
    integrity.reseal(match)  # as the old engine would have sealed it
    Match.objects.filter(pk=match.pk).update(state=old, seal=match.seal)
    match = Match.objects.get(pk=match.pk)
    assert services.load_state(match).to_json() == replayed.to_json()
    assert integrity.verify(match, replay=True) == []
    assert verify_command("--replay")[0] == 0
    user, version, option = _next(match)
    assert services.submit_decision(match.pk, user, version, option).version == 16
    stored = Match.objects.get(pk=match.pk).state
    assert stored["version"] == 2 and "log" not in stored and stored["decisions"] == 16
    assert integrity.verify(Match.objects.get(pk=match.pk), replay=True) == []


def test_a_loaded_match_state_plays_on_like_its_replay(started):
    match = play_randomly(started.pk, 20, seed=6)
    loaded = services.load_state(match)
    assert loaded.log is None and loaded.decided == 20
    assert GameState.to_json(services.replay(match)) == loaded.to_json()


def test_a_move_takes_at_most_six_queries_and_keeps_the_chain(started):
    """Six in a transaction (SQLite, or when PostgreSQL's one-statement write must give way to the locked path):
    the savepoint, the locked read, the update, the insert, the release. On PostgreSQL two: the read and the one
    statement that updates the row and inserts the decision."""
    match = play_randomly(started.pk, 4, seed=8)
    counts = []
    rng = random.Random(8)
    for _ in range(12):
        user, version, option = _next(match, rng)
        with CaptureQueriesContext(connection) as captured:
            match = services.submit_decision(match.pk, user, version, option)
        # A move that leaves an opponent's offer waiting reads that seat's standing order: one query more.
        offer = services.load_state(match).pending is not None and \
            services.load_state(match).pending.kind == "opponent_offer"
        counts.append(len(captured) - (1 if offer else 0))
        assert match.version == version + 1
    assert max(counts) <= (2 if connection.vendor == "postgresql" else 6), counts
    stored = Match.objects.get(pk=match.pk)
    # what the service answers without reading the row back is what was stored
    assert (match.version, match.state, match.chain, match.seal, match.to_move) == \
        (stored.version, stored.state, stored.chain, stored.seal, stored.to_move)
    assert integrity.verify(stored, replay=True) == []


def test_a_bad_move_is_refused_within_the_same_queries_and_changes_nothing(started, alice):
    with CaptureQueriesContext(connection) as captured:
        with pytest.raises(ValueError):
            services.submit_decision(started.pk, alice, 0, {"kind": "entice", "args": [9999, 0]})
    assert len(captured) <= 5
    assert Match.objects.get(pk=started.pk).version == 0 and not started.decisions.exists()


def test_an_unchanged_poll_reads_one_small_row_and_not_the_state(api_as, started, alice):
    client = api_as(alice)
    first = client.get(f"/api/matches/{started.public_id}/")
    assert first.status_code == 200
    with CaptureQueriesContext(connection) as captured:
        again = client.get(f"/api/matches/{started.public_id}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    assert len(captured) == 1, [q["sql"] for q in captured]
    assert '"state"' not in captured[0]["sql"]
    # a move changes the answer: the old tag gets the new view with a new tag
    user, version, option = _next(started)
    services.submit_decision(started.pk, user, version, option)
    moved = client.get(f"/api/matches/{started.public_id}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"] and moved.json()["version"] == 1


def test_polling_a_match_that_does_not_exist_is_404(api_as, alice):
    assert api_as(alice).get("/api/matches/999999/", HTTP_IF_NONE_MATCH='"m999999-v0"').status_code == 404


def _events_reads(captured):
    """The queries that read decisions' events by number, apart from the match's own read."""
    return [q["sql"] for q in captured if '"events"' in q["sql"] and '"game_match"' not in q["sql"]]


def test_the_story_kept_between_requests_is_the_story_told_afresh(api_as, started, alice, bob):
    from game.matches import present

    play_randomly(started.pk, 30, seed=11)
    for user in (alice, bob, None):
        present._told.clear()
        fresh = api_as(user).get(f"/api/matches/{started.public_id}/").json()["log"]
        with CaptureQueriesContext(connection) as captured:
            kept = api_as(user).get(f"/api/matches/{started.public_id}/").json()["log"]
        assert kept == fresh and fresh
        # told from memory: no events are read but the newest few's, which come with the match's own read
        assert len(captured) <= 2 and not _events_reads(captured)
    # two more decisions: their events come with the page, and the story is the one told afresh
    for user in (alice, bob, None):
        api_as(user).get(f"/api/matches/{started.public_id}/")
    play_randomly(started.pk, 2, seed=12)
    kept_logs = {}
    for user in (alice, bob, None):
        with CaptureQueriesContext(connection) as captured:
            kept_logs[user] = api_as(user).get(f"/api/matches/{started.public_id}/").json()["log"]
        assert not _events_reads(captured)
    for user in (alice, bob, None):
        present._told.clear()
        assert kept_logs[user] == api_as(user).get(f"/api/matches/{started.public_id}/").json()["log"]
    # each seat is told its own story: alice's drawn cards are named to her only
    present._told.clear()
    assert api_as(alice).get(f"/api/matches/{started.public_id}/").json()["log"] != \
        api_as(bob).get(f"/api/matches/{started.public_id}/").json()["log"]


def _signed_in_moves(match, alice, bob, moves=12, **headers):
    """Moves through the API as the board sends them, each after the poll that told the mover the opponent's last
    decision: (answer, queries, whether an offer waits after it) for each."""
    from django.test import Client

    clients = {}
    for user in (alice, bob):
        clients[user.pk] = Client()
        clients[user.pk].force_login(user)
    rng = random.Random(8)
    for _ in range(moves):
        user, version, option = _next(match, rng)
        client = clients[user.pk]
        assert client.get(f"/api/matches/{match.public_id}/").status_code == 200  # the poll before the move
        with CaptureQueriesContext(connection) as captured:
            answer = client.post(f"/api/matches/{match.public_id}/decisions/", {"version": version, "option": option},
                                 content_type="application/json", **headers)
        assert answer.status_code == 201 and answer.json()["version"] == version + 1
        match = Match.objects.get(pk=match.pk)
        assert match.version == version + 1 and match.decisions.count() == version + 1
        pending = services.load_state(match).pending
        yield client, answer, captured, pending is not None and pending.kind == "opponent_offer"


def test_a_move_through_the_api_signed_in_takes_at_most_eight_queries(started, alice, bob):
    """The whole request as the board sent it before it asked for the minimal answer.

    The eight, each needed: the session read with its user (1, cardsite/accounts/sessions.py); the savepoint, the
    locked match row read with its seats and newest decision rows, the conditional update and the decision's insert,
    and the release (5, the service's own: the 409 on a racing move rests on them); the answer's log page, read without events since the story told them all before and holds this
    move's events in hand (1); the chat (1). On PostgreSQL the service's five are two (the read, and one statement
    that updates the row and inserts the decision)."""
    from game.matches import present

    match = play_randomly(started.pk, 4, seed=8)
    counts = []
    for client, answer, captured, offer in _signed_in_moves(match, alice, bob):
        present._told.clear()  # the answer's story, told from the events in hand, is the story told afresh
        assert answer.json()["log"] == client.get(f"/api/matches/{match.public_id}/").json()["log"]
        assert "Preference-Applied" not in answer
        counts.append(len(captured) - (1 if offer else 0))  # a waiting offer reads that seat's standing order
    assert max(counts) <= (5 if connection.vendor == "postgresql" else 8), counts
    assert integrity.verify(Match.objects.get(pk=match.pk), replay=True) == []


def test_a_move_asked_to_answer_minimally_takes_at_most_six_queries_and_shows_no_state(started, alice, bob):
    """`Prefer: return=minimal`, as the board sends a turn: the summary and `your_turn`, nothing of the state.

    The six: the session read with its user (1); the savepoint, the locked match row with its seats and newest
    decision rows, the conditional update, the decision's insert and the release (5); on PostgreSQL those five are
    two. The answer reads nothing."""
    match = play_randomly(started.pk, 4, seed=8)
    counts = []
    for client, answer, captured, offer in _signed_in_moves(match, alice, bob, HTTP_PREFER="return=minimal"):
        assert answer["Preference-Applied"] == "return=minimal"
        body = answer.json()
        assert not {"view", "log", "chat", "cards", "board"} & set(body)
        whole = client.get(f"/api/matches/{match.public_id}/").json()
        assert body["your_turn"] == whole["your_turn"]
        assert {k: v for k, v in whole.items() if k in body} == body
        counts.append(len(captured) - (1 if offer else 0))
    assert max(counts) <= (3 if connection.vendor == "postgresql" else 6), counts
    assert integrity.verify(Match.objects.get(pk=match.pk), replay=True) == []


@pytest.mark.parametrize("prefer", ["return=representation", "return", "minimal", "return=minimal-ish", "\u00e9=;,,"])
def test_a_prefer_header_that_does_not_ask_for_minimal_gets_the_whole_match(started, alice, bob, prefer):
    from django.test import Client

    user, version, option = _next(started)
    client = Client()
    client.force_login(user)
    answer = client.post(f"/api/matches/{started.public_id}/decisions/", {"version": version, "option": option},
                         content_type="application/json", HTTP_PREFER=prefer)
    assert answer.status_code == 201 and "Preference-Applied" not in answer
    assert answer.json()["view"] is not None and "chat" in answer.json()


def test_a_turn_asked_to_answer_minimally_names_the_preference_and_stores_the_turn(started, alice):
    from django.test import Client

    user, version, option = _next(started)
    client = Client()
    client.force_login(user)
    answer = client.post(f"/api/matches/{started.public_id}/turns/",
                         {"decisions": [{"version": version, "option": option}]}, content_type="application/json",
                         HTTP_PREFER="respond-async, return=minimal; foo=bar")
    assert answer.status_code == 201 and answer["Preference-Applied"] == "return=minimal"
    assert answer.json()["version"] == 1 and "view" not in answer.json()
    assert Match.objects.get(pk=started.pk).decisions.count() == 1


def test_a_match_read_in_one_query_shows_what_the_orm_read_shows(started, alice, bob):
    """`services.read_match` (the row, its catalogue digest, creator and seats in one statement) against the ORM's
    `readable()`: the same view for a player, the other player and a spectator, before and after moves, and after
    a seat left."""
    from django.contrib.auth.models import AnonymousUser

    from game.matches import present

    def both(match_id):
        for one in (services.read_match(match_id), services.read_match(match_id, log_length=present.LOG_LENGTH)):
            orm = services.readable().get(pk=match_id)
            for user in (alice, bob, AnonymousUser()):
                present._told.clear()
                first = present.match_json(one, user)
                present._told.clear()
                assert first == present.match_json(orm, user)
                assert present.options_json(one, user) == present.options_json(orm, user)

    both(started.pk)
    play_randomly(started.pk, 9, seed=5)
    both(started.pk)
    services.post_chat(started.pk, alice, "good luck <b>all</b>")
    play_randomly(started.pk, 55, seed=6)  # past one page of the log
    both(started.pk)
    match = Match.objects.get(pk=started.pk)
    if match.status == Match.Status.PLAYING:
        user = user_at(match, services.load_state(match).pending.player)
        services.resign(started.pk, user)
        both(started.pk)


def test_a_match_read_in_one_query_of_a_match_that_does_not_exist_is_404(db):
    from django.http import Http404

    for missing in (10 ** 9, "x", None, 0, -1, 2 ** 63, 10 ** 30):
        with pytest.raises(Http404):
            services.read_match(missing)
        with pytest.raises(Http404):
            services.read_match(missing, log_length=60)


def test_a_signed_in_player_reads_the_view_in_two_queries_and_the_options_in_two(started, alice, bob):
    """The view: the session with its user, then the match with its seats, its log page (with the events of its
    newest decisions) and whether it has a chat; older events only when this process has not told them yet (and
    the chat when there is one). The options: the session with its user, the match with its seats."""
    from django.test import Client

    from game.matches import present

    def view_queries():
        with CaptureQueriesContext(connection) as captured:
            answer = client.get(f"/api/matches/{started.public_id}/")
        assert answer.status_code == 200
        return [q["sql"][:80] for q in captured.captured_queries]

    match = play_randomly(started.pk, 6, seed=9)
    client = Client()
    client.force_login(alice)
    present._told.clear()
    assert len(view_queries()) == 2  # nothing told yet, but every decision's events came with the page
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(f"/api/matches/{match.public_id}/options/")
    assert answer.status_code == 200 and len(captured) == 2, [q["sql"][:80] for q in captured.captured_queries]

    match = play_randomly(started.pk, 3 * services.EVENTS_WITH_PAGE, seed=10)
    assert match.version > services.EVENTS_WITH_PAGE + 6
    present._told.clear()
    told_none = view_queries()
    assert len(told_none) == 3 and "events" in told_none[2], told_none  # the older decisions' events, once
    play_randomly(started.pk, 1, seed=11)
    assert len(view_queries()) == 2  # the told lines are kept; the new decision's events came with the page


def test_the_view_names_each_players_own_last_decision_and_a_spectator_none(api_as, started, alice, bob):
    match = play_randomly(started.pk, 9, seed=13)
    for user in (alice, bob):
        seat = next(s.seat for s in match.seats.all() if s.user_id == user.pk)
        own = match.decisions.filter(seat=seat).order_by("-number").first()
        assert api_as(user).get(f"/api/matches/{match.public_id}/").json()["your_last_decision"] == (own.number if own
                                                                                                else 0)
    assert api_as(None).get(f"/api/matches/{match.public_id}/").json()["your_last_decision"] is None


@pytest.mark.parametrize("path", ["", "options/", "orders/", "replay/1/"])
def test_a_match_id_beyond_what_the_database_holds_is_404_on_every_read(api_as, alice, path):
    for pk in (2 ** 63, 10 ** 30):
        assert api_as(alice).get(f"/api/matches/{pk}/{path}").status_code == 404
        assert api_as(None).get(f"/api/matches/{pk}/{path}").status_code in (403, 404)


def test_a_decision_for_a_match_id_beyond_what_the_database_holds_is_404(api_as, alice):
    answer = api_as(alice).post(f"/api/matches/{10 ** 30}/decisions/", {"version": 0, "option": {"kind": "pass",
                                                                                               "args": []}},
                                format="json")
    assert answer.status_code == 404
