"""The lobby at /play/: seeks joined with one click, the minimum rating, quick pairing, bots filling a seek that
waited, the games being played, and a bounded number of queries however many rows it lists."""
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from game.matches import lobby, services
from game.models import Match, MatchSeat, PlayerRating
from game.ratings import service as ratings

from .conftest import play_randomly


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def rate(user, value):
    PlayerRating.objects.create(user=user, pool="all", rating=value, rd=80, volatility=0.06)


def test_lobby_lists_a_public_seek_with_what_it_wants_and_hides_private_ones(catalogue, alice, bob):
    services.create_match(alice, players=3, academy=True, days_per_move=7, rated=False, min_rating=1400)
    services.create_match(alice, players=2, private=True)
    page = signed_in(bob).get("/play/")
    assert page.status_code == 200
    [seek] = page.context["seeks"]
    assert (seek["players"], seek["wanted"], seek["academy"], seek["days_per_move"], seek["rated"],
            seek["min_rating"]) == (3, 2, True, 7, False, 1400)
    text = page.content.decode()
    assert "3 players, 2 wanted" in text and "casual" in text and "1400 or more" in text
    assert "Play the computer" in text and 'id="play-bots"' in text  # what /play/ did before is still here


def test_one_click_join_from_the_lobby_takes_the_last_seat_and_starts(catalogue, alice, bob):
    match = services.create_match(alice, players=2)
    response = signed_in(bob).post(f"/play/join/{match.public_id}/")
    assert response.status_code == 302 and response.url == match.get_absolute_url()
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING
    assert list(match.seats.values_list("user__username", flat=True)) == ["alice", "bob"]


def test_join_below_the_minimum_rating_is_refused_naming_the_rating(catalogue, alice, bob):
    rate(bob, 1320.4)
    match = services.create_match(alice, players=2, min_rating=1600)
    response = signed_in(bob).post(f"/play/join/{match.public_id}/")
    assert response.status_code == 403
    assert "at least 1600; yours is 1320" in response.content.decode()
    assert match.seats.count() == 1 and Match.objects.get(pk=match.pk).status == Match.Status.OPEN


def test_an_invite_link_passes_the_minimum_rating(catalogue, alice, bob):
    match = services.create_match(alice, players=2, min_rating=1600)
    services.join_match(match.pk, bob, invited=True)
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING


def test_a_newcomer_counts_as_the_starting_rating(catalogue, alice, bob):
    match = services.create_match(alice, players=2, min_rating=1500)
    services.join_match(match.pk, bob)
    assert ratings.current_rating(bob) == 1500
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYING


def test_quick_pairing_joins_the_oldest_fitting_two_player_seek(catalogue, alice, bob, carol, make_user):
    dave = make_user("dave")
    rate(bob, 1400)
    too_high = services.create_match(alice, players=2, min_rating=1700)
    three = services.create_match(carol, players=3)
    oldest = services.create_match(dave, players=2)
    newer = services.create_match(carol, players=2)
    Match.objects.filter(pk=too_high.pk).update(created=timezone.now() - timedelta(hours=3))
    Match.objects.filter(pk=oldest.pk).update(created=timezone.now() - timedelta(hours=2))
    response = signed_in(bob).post("/play/quick/")
    assert response.url == oldest.get_absolute_url()
    assert Match.objects.get(pk=oldest.pk).status == Match.Status.PLAYING
    for untouched in (too_high, three, newer):
        assert Match.objects.get(pk=untouched.pk).seats.count() == 1


def test_quick_pairing_opens_a_seek_when_none_fits_and_gives_it_back_when_asked_again(catalogue, alice):
    match, joined = lobby.quick_pair(alice)
    assert not joined and match.players == 2 and match.status == Match.Status.OPEN and not match.private
    again, joined = lobby.quick_pair(alice)
    assert again.pk == match.pk and not joined
    assert Match.objects.count() == 1


def test_two_quick_pairings_find_each_other(catalogue, alice, bob):
    first, _ = lobby.quick_pair(alice)
    second, joined = lobby.quick_pair(bob)
    assert joined and second.pk == first.pk
    assert Match.objects.get(pk=first.pk).status == Match.Status.PLAYING


def test_the_sweep_fills_a_seek_that_allowed_bots_once_it_waited(catalogue, alice, bob):
    allowed = services.create_match(alice, players=3, bot_fill=True, timeout_level="greedy")
    services.join_match(allowed.pk, bob)
    not_allowed = services.create_match(alice, players=2)
    services.sweep()  # too soon
    assert Match.objects.get(pk=allowed.pk).status == Match.Status.OPEN
    services.sweep(now=timezone.now() + services.BOT_FILL_AFTER + timedelta(seconds=1))
    filled = Match.objects.get(pk=allowed.pk)
    assert filled.status == Match.Status.PLAYING and filled.state is not None
    seats = list(filled.seats.order_by("seat"))
    assert [(s.user.username if s.user else None, s.controller, s.level) for s in seats] == [
        ("alice", "person", ""), ("bob", "person", ""), (None, "bot", "greedy")]
    assert Match.objects.get(pk=not_allowed.pk).status == Match.Status.OPEN
    assert services.load_state(filled).pending is not None  # dealt and sealed like any started match


def test_the_creator_fills_with_bots_now_and_nobody_else_may(catalogue, alice, bob):
    match = services.create_match(alice, players=4)
    response = signed_in(bob).post(f"/matches/{match.public_id}/fill/")
    assert response.status_code == 403 and Match.objects.get(pk=match.pk).status == Match.Status.OPEN
    response = signed_in(alice).post(f"/matches/{match.public_id}/fill/")
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.players == 4
    assert MatchSeat.objects.filter(match=match, controller="bot", user__isnull=True).count() == 3


def test_a_casual_game_is_not_rated(catalogue, alice, bob):
    match = services.create_match(alice, players=2, rated=False)
    services.join_match(match.pk, bob)
    services.resign(match.pk, bob)
    ratings.rate_finished()
    assert Match.objects.get(pk=match.pk).rated_at is not None
    assert not PlayerRating.objects.exists()


def test_games_being_played_are_listed_with_round_and_scores(catalogue, started, carol):
    play_randomly(started.pk, 8, seed=1)
    services.create_match(carol, players=2, private=True)
    page = Client().get("/play/")
    [game] = page.context["live"]
    assert game["id"] == started.public_id and game["round"] == 1
    assert [p["name"] for p in game["players"]] == ["alice", "bob"]
    assert all(isinstance(p["score"], int) for p in game["players"])
    assert f'href="/matches/{started.public_id}/"' in page.content.decode()


@pytest.fixture
def crowded(catalogue, make_user):
    """Twelve seeks and six games being played, by different players."""
    for n in range(12):
        services.create_match(make_user(f"seeker{n}"), players=2 + n % 4, academy=n % 2 == 0, min_rating=1200)
    for n in range(6):
        match = services.create_match(make_user(f"host{n}"), players=2)
        services.join_match(match.pk, make_user(f"guest{n}"))
        play_randomly(match.pk, 3, seed=n)


def test_the_lobby_reads_a_bounded_number_of_queries(crowded, alice, django_assert_max_num_queries):
    client = signed_in(alice)
    client.get("/play/")  # the catalogue snapshot is read once per process
    # Session, user, seeks, their seats, live games, their seats, and the turn count in the menu: never per row.
    with django_assert_max_num_queries(8):
        page = client.get("/play/")
    assert len(page.context["seeks"]) == 12 and len(page.context["live"]) == 6
