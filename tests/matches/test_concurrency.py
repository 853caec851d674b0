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


@pytest.mark.django_db(transaction=True)
def test_racing_moves_through_the_api_apply_exactly_one_and_refuse_the_rest_with_409(catalogue, alice, bob):
    from rest_framework.test import APIClient

    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    seat, _, options = pending(match)
    mover = Match.objects.get(pk=match.pk).seats.get(seat=seat).user
    racers = (options * 4)[:4]
    barrier = threading.Barrier(len(racers))
    statuses = []

    def decide(option):
        client = APIClient()
        client.force_authenticate(mover)
        try:
            barrier.wait()
            response = client.post(f"/api/matches/{match.pk}/decisions/", {"version": 0, "option": option},
                                   format="json")
            statuses.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=decide, args=(option,)) for option in racers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 409, 409, 409]
    match = Match.objects.get(pk=match.pk)
    assert match.version == 1 and match.decisions.count() == 1
    assert services.replay(match).to_json() == match.state
