"""Two requests deciding at the same version at the same moment: exactly one is stored, the other is told 409."""
import threading

import pytest
from django.db import connection

from cardsite.api_errors import StaleVersion
from game.matches import services
from game.models import Match

from .conftest import pending


@pytest.mark.django_db(transaction=True)
def test_two_decisions_at_one_version_store_exactly_one(catalogue, alice, bob):
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    options = pending(match)[2]
    barrier = threading.Barrier(2)
    outcomes = []

    def decide(option):
        try:
            barrier.wait()
            services.submit_decision(match.pk, alice, 0, option)
            outcomes.append("stored")
        except StaleVersion:
            outcomes.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=decide, args=(option,)) for option in options[:2]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["stale", "stored"]
    match = Match.objects.get(pk=match.pk)
    assert match.version == 1 and match.decisions.count() == 1
    assert services.replay(match).to_json() == match.state


def _race(mover, posts):
    """Send each (path, body) as `mover` from a thread of its own, all released at once; the answers' statuses."""
    from rest_framework.test import APIClient

    barrier = threading.Barrier(len(posts))
    statuses = []

    def send(path, body):
        client = APIClient()
        client.force_authenticate(mover)
        try:
            barrier.wait()
            statuses.append(client.post(path, body, format="json").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=post) for post in posts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(statuses)


@pytest.mark.django_db(transaction=True)
def test_racing_moves_through_the_api_apply_exactly_one_and_refuse_the_rest_with_409(catalogue, alice, bob):
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    seat, _, options = pending(match)
    mover = Match.objects.get(pk=match.pk).seats.get(seat=seat).user
    path = f"/api/matches/{match.public_id}/decisions/"
    assert _race(mover, [(path, {"version": 0, "option": option}) for option in (options * 4)[:4]]) == \
        [201, 409, 409, 409]
    match = Match.objects.get(pk=match.pk)
    assert match.version == 1 and match.decisions.count() == 1
    assert services.replay(match).to_json() == match.state


@pytest.mark.django_db(transaction=True)
def test_racing_turns_store_exactly_one_whole_turn_and_refuse_the_rest_with_409(catalogue, alice, bob):
    """The same confirmed turn of two choices sent four times at once: one is stored whole, three are 409."""
    from .test_turns import a_turn_of_two, decision

    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    mover, version, first, second = a_turn_of_two(match.pk)
    body = {"decisions": [decision(version, first), decision(version + 1, second)]}
    assert _race(mover, [(f"/api/matches/{match.public_id}/turns/", body)] * 4) == [201, 409, 409, 409]
    match = Match.objects.get(pk=match.pk)
    assert match.version == version + 2 and match.decisions.count() == version + 2
    assert services.replay(match).to_json() == match.state


def _wait_until_blocked_on_a_lock(timeout=10.0):
    """On PostgreSQL, until another connection waits for a row lock; SQLite shows no waiter, so a moment there."""
    import time

    if connection.vendor != "postgresql":
        time.sleep(0.3)
        return
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT pg_stat_clear_snapshot()")  # else a transaction sees its first look again
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> "
                           "pg_backend_pid() AND datname = current_database()")
            if cursor.fetchone()[0]:
                return
            time.sleep(0.01)
    raise AssertionError("the decision never waited for the match's lock")


@pytest.mark.django_db(transaction=True)
def test_a_decision_that_waited_for_the_lock_while_its_player_resigned_is_refused(catalogue, alice, bob, carol,
                                                                                  queue_without_worker):
    """The seats are read in the match's locking query: a decision that waited for the lock while its player
    resigned must see the seat as it is now (out), not as the statement began (PostgreSQL), and store nothing."""
    from django.db import transaction

    from game.matches.errors import NotYourTurn

    match = services.create_match(alice, players=3)
    services.join_match(match.pk, bob)
    services.join_match(match.pk, carol)
    seat, _, options = pending(match)
    mover = Match.objects.get(pk=match.pk).seats.get(seat=seat).user
    outcome = []
    # The departed seat's passes are the queue's to make (queue_without_worker): the match stays as the
    # resignation left it.

    def decide():
        try:
            services.submit_decision(match.pk, mover, 0, options[0])
            outcome.append("stored")
        except NotYourTurn as exc:
            outcome.append(str(exc))
        finally:
            connection.close()

    with transaction.atomic():
        Match.objects.select_for_update().get(pk=match.pk)  # hold the lock while the decision arrives
        thread = threading.Thread(target=decide)
        thread.start()
        _wait_until_blocked_on_a_lock()
        services.resign(match.pk, mover)
    thread.join()
    assert outcome == ["you have left this match; your seat only passes from now on"]
    match = Match.objects.get(pk=match.pk)
    assert match.version == 0 and not match.decisions.exists() and match.seats.get(seat=seat).out == "resigned"
