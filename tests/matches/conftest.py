"""Shared fixtures for match tests: users, signed-in API clients, and matches at their first decision."""
import json
import random
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import F
from rest_framework.test import APIClient

from game.matches import services
from game.models import Match, MatchDecision, MatchSeat


@pytest.fixture(autouse=True)
def quick_polls(settings):
    """Open match pages ask every 0.3 s instead of every 4 s: a game played through two browsers, or against bots,
    waits on each page noticing the other side's move, and at 4 s a whole game spends minutes waiting."""
    settings.MATCH_POLL_MS = 300


@pytest.fixture
def queue_without_worker():
    """Tasks are queued (in memory) and nothing runs them: what a change leaves for the queue stays undone."""
    from huey.contrib.djhuey import HUEY
    from huey.storage import MemoryStorage

    HUEY.immediate = False
    HUEY.storage = MemoryStorage("wyrmdex-test-no-worker")
    yield HUEY.storage
    HUEY.immediate = True


@pytest.fixture
def make_user(db):
    def make(name):
        return get_user_model().objects.create_user(name, password="a-long-test-password")
    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def api_as():
    """An API client signed in as a user (or anonymous for None)."""
    def make(user):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client
    return make


@pytest.fixture
def started(catalogue, alice, bob):
    """A two-player match, both seated, waiting for its first decision (alice is seat 0, bob seat 1)."""
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    return Match.objects.get(pk=match.pk)


def snapshot(match_id):
    """Everything stored about a match, to compare before and after a refused request."""
    match = Match.objects.get(pk=match_id)
    return (match.status, match.version, json.dumps(match.state, sort_keys=True), match.players,
            list(match.decisions.values_list("number", "kind", "args")), list(match.seats.values_list("seat", "user")))


def pending(match):
    """(seat, question kind, options) of the match's pending decision, read through the engine."""
    state = services.load_state(Match.objects.get(pk=match.pk))
    return state.pending.player, state.pending.kind, [o.to_dict() for o in state.pending.options]


def user_at(match, seat):
    return Match.objects.get(pk=match.pk).seats.get(seat=seat).user


def play_randomly(match_id, decisions, seed):
    """Take up to `decisions` random legal decisions through the services, as the players would."""
    rng = random.Random(seed)
    for _ in range(decisions):
        match = Match.objects.get(pk=match_id)
        state = services.load_state(match)
        if state.pending is None:
            break
        option = rng.choice(state.legal_options())
        services.submit_decision(match_id, user_at(match, state.pending.player), match.version, option.to_dict())
    return Match.objects.get(pk=match_id)


@pytest.fixture
def nobody_at_a_table():
    """No page has read any match: who is at a table is kept in the cache, which outlives a test's database."""
    cache.clear()


def moved_long_ago(match_id):
    """The seats taken and decisions made so far in the match move an hour back: the players came, moved and left,
    as players answering turn emails do (taking a seat or moving in the last few minutes counts as being at the
    table, game/matches/notify.py)."""
    MatchDecision.objects.filter(match_id=match_id).update(created=F("created") - timedelta(hours=1))
    MatchSeat.objects.filter(match_id=match_id).update(joined=F("joined") - timedelta(hours=1))


def later(match, seconds=1):
    """A moment `seconds` after the match's current deadline: what the sweep sees once that deadline passed."""
    return Match.objects.get(pk=match.pk).deadline + timedelta(seconds=seconds)


@pytest.fixture
def open_browser():
    """Open headless Chromium windows of a given size (`open_browser("390,844")`); all are closed after the test."""
    from tests.browser import start_chromium

    drivers = []

    def make(size):
        drivers.append(start_chromium(size))
        return drivers[-1]

    yield make
    for driver in drivers:
        driver.quit()


@pytest.fixture
def finish_rated(catalogue):
    """Play a match out with random legal decisions through the services and rate it, as the queue would once the
    last move commits: `finish_rated(alice, bob, seed=11, academy=True)`; one player alone plays the Automa."""
    from game.ratings.service import rate_finished

    def finish(creator, *others, seed, academy=False, private=False, automa_level=2):
        if others:
            match = services.create_match(creator, players=1 + len(others), academy=academy, private=private)
            for other in others:
                services.join_match(match.pk, other, invited=private)
        else:
            match = services.play_now(creator, opponent="automa", automa_level=automa_level)
        match = play_randomly(match.pk, 5000, seed=seed)
        assert match.status == Match.Status.FINISHED
        rate_finished()
        return Match.objects.get(pk=match.pk)
    return finish
