"""Resign, abort, rematch and invite links, through the API and the pages; every refusal changes nothing."""
import pytest

from game.matches import services
from game.models import Match, MatchSeat

from .conftest import pending, play_randomly, snapshot, user_at


def post(client, url, body=None):
    return client.post(url, body if body is not None else {}, format="json")


def three_player(alice, bob, carol, **options):
    match = services.create_match(alice, players=3, **options)
    services.join_match(match.pk, bob)
    services.join_match(match.pk, carol)
    return Match.objects.get(pk=match.pk)


# -- resign ------------------------------------------------------------------------------------------------------

def test_resigning_a_two_player_match_ends_it_for_the_other(api_as, started, alice, bob):
    response = post(api_as(bob), f"/api/matches/{started.public_id}/resign/")
    assert response.status_code == 200, response.json()
    match = Match.objects.get(pk=started.pk)
    assert match.status == Match.Status.FINISHED and match.ending == Match.Ending.LAST_STANDING
    assert match.places == [1, 2]
    assert MatchSeat.objects.get(match=match, seat=1).out == MatchSeat.Out.RESIGNED
    assert response.json()["ending_words"]["headline"] == "alice wins: every other player left the match."


def test_resigning_a_bigger_match_leaves_the_others_playing(api_as, catalogue, alice, bob, carol):
    match = three_player(alice, bob, carol)
    waiting = match.to_move
    leaver = next(u for u in (alice, bob, carol) if services.seat_of(match, u) != waiting)
    assert post(api_as(leaver), f"/api/matches/{match.public_id}/resign/").status_code == 200
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.PLAYING and match.to_move == waiting
    assert post(api_as(leaver), f"/api/matches/{match.public_id}/resign/").status_code == 409


def test_a_resigned_seat_is_placed_last_when_the_game_is_scored(catalogue, alice, bob, carol):
    match = three_player(alice, bob, carol)
    services.resign(match.pk, carol)
    seat = services.seat_of(match, carol)
    for _ in range(3000):
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.PLAYING:
            break
        if match.seats.get(seat=match.to_move).out:
            assert services.machine_move(match.pk, match.version)
        else:
            match = play_randomly(match.pk, 1, seed=match.version)
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.FINISHED and match.ending == Match.Ending.SCORED
    assert match.places[seat] == 3
    assert services.replay(match).to_json() == match.state


@pytest.mark.parametrize("who", ["stranger", "anonymous"])
def test_resign_is_refused_to_anyone_without_a_seat(api_as, started, make_user, who):
    user = make_user("dave") if who == "stranger" else None
    before = snapshot(started.pk)
    response = post(api_as(user), f"/api/matches/{started.public_id}/resign/")
    assert response.status_code == 403
    assert snapshot(started.pk) == before


def test_resign_page_button_leaves_the_match(client, started, bob):
    client.force_login(bob)
    response = client.post(f"/matches/{started.public_id}/resign/")
    assert response.status_code == 302
    page = client.get(f"/matches/{started.public_id}/").content.decode()
    assert "alice wins: every other player left the match." in page


# -- abort --------------------------------------------------------------------------------------------------------

def test_any_seated_player_aborts_before_the_first_move(api_as, started, bob):
    assert post(api_as(bob), f"/api/matches/{started.public_id}/abort/").status_code == 200
    match = Match.objects.get(pk=started.pk)
    assert match.status == Match.Status.ABORTED and match.deadline is None
    assert post(api_as(bob), f"/api/matches/{started.public_id}/abort/").status_code == 409


def test_the_creator_aborts_a_match_still_waiting_for_players(api_as, catalogue, alice):
    match = services.create_match(alice, players=3)
    assert post(api_as(alice), f"/api/matches/{match.public_id}/abort/").status_code == 200
    assert Match.objects.get(pk=match.pk).status == Match.Status.ABORTED


def test_abort_is_refused_after_the_first_move(api_as, started, alice, bob):
    seat, _, options = pending(started)
    services.submit_decision(started.pk, user_at(started, seat), 0, options[0])
    before = snapshot(started.pk)
    response = post(api_as(bob), f"/api/matches/{started.public_id}/abort/")
    assert response.status_code == 409 and "before its first move" in response.json()["detail"]
    assert snapshot(started.pk) == before


def test_abort_is_refused_to_a_stranger(api_as, started, make_user):
    before = snapshot(started.pk)
    assert post(api_as(make_user("dave")), f"/api/matches/{started.public_id}/abort/").status_code == 403
    assert snapshot(started.pk) == before


# -- rematch ------------------------------------------------------------------------------------------------------

def finished(alice, bob, carol):
    match = three_player(alice, bob, carol, days_per_move=1, on_timeout="bot")
    services.resign(match.pk, carol)
    services.resign(match.pk, bob)
    return Match.objects.get(pk=match.pk)


def test_rematch_has_the_same_players_and_options_a_new_seed_and_rotated_seats(api_as, catalogue, alice, bob,
                                                                               carol):
    old = finished(alice, bob, carol)
    response = post(api_as(bob), f"/api/matches/{old.public_id}/rematch/")
    assert response.status_code == 200, response.json()
    new = Match.objects.get(public_id=response.json()["id"])
    assert new.rematch_of_id == old.pk and new.status == Match.Status.PLAYING
    assert (new.players, new.academy, new.updated, new.days_per_move, new.on_timeout, new.private) == \
        (old.players, old.academy, old.updated, old.days_per_move, old.on_timeout, old.private)
    assert new.seed != old.seed
    before = {s.user_id: s.seat for s in old.seats.all()}
    after = {s.user_id: s.seat for s in new.seats.all()}
    assert after == {user: (seat - 1) % 3 for user, seat in before.items()}
    assert all(s.controller == "person" and not s.out for s in new.seats.all())
    # Asking again, or another player asking, gives the same rematch.
    assert post(api_as(alice), f"/api/matches/{old.public_id}/rematch/").json()["id"] == new.public_id
    assert Match.objects.filter(rematch_of=old).count() == 1


def test_rematch_is_refused_before_the_end_and_to_strangers(api_as, started, alice, make_user):
    assert post(api_as(alice), f"/api/matches/{started.public_id}/rematch/").status_code == 409
    services.resign(started.pk, alice)
    assert post(api_as(make_user("dave")), f"/api/matches/{started.public_id}/rematch/").status_code == 403
    assert Match.objects.count() == 1


# -- invite links -------------------------------------------------------------------------------------------------

def test_an_invite_link_takes_a_seat_in_a_private_match(api_as, client, catalogue, alice, bob):
    match = services.create_match(alice, players=2, private=True)
    before = snapshot(match.pk)
    # without the link, the private match is not there for him at all
    assert post(api_as(bob), f"/api/matches/{match.public_id}/join/").status_code == 404
    assert snapshot(match.pk) == before
    assert match.public_id not in [m["id"] for m in api_as(bob).get("/api/matches/").json()["results"]]
    assert match.public_id in [m["id"] for m in api_as(alice).get("/api/matches/").json()["results"]]
    link = api_as(alice).get(f"/api/matches/{match.public_id}/").json()["invite_url"]
    client.force_login(bob)
    assert client.get(link).status_code == 200
    assert client.post(link).status_code == 302
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.PLAYING and services.seat_of(match, bob) == 1


def test_the_api_joins_with_an_invite_token(api_as, catalogue, alice, bob):
    match = services.create_match(alice, players=2, private=True)
    token = services.invite_token(match)
    response = post(api_as(bob), "/api/matches/invite/", {"token": token})
    assert response.status_code == 200, response.json()
    assert response.json()["your_seat"] == 1


@pytest.mark.parametrize("body", [{}, {"token": 5}, {"token": "forged"}, {"token": "x" * 300}, {"token": "a",
                                                                                                  "seat": 1}])
def test_a_bad_invite_token_is_refused_and_changes_nothing(api_as, catalogue, alice, bob, body):
    match = services.create_match(alice, players=2, private=True)
    before = snapshot(match.pk)
    response = post(api_as(bob), "/api/matches/invite/", body)
    assert response.status_code == 400
    assert response.json()["field"] in ("token", "seat")
    assert snapshot(match.pk) == before


def test_a_token_signed_for_something_else_is_refused(client, catalogue, alice, bob):
    from django.core import signing

    match = services.create_match(alice, players=2, private=True)
    wrong = signing.dumps(match.pk, salt="another-purpose")
    client.force_login(bob)
    response = client.post(f"/matches/invite/{wrong}/")
    assert response.status_code == 400 and "not valid" in response.content.decode()
    assert services.seat_of(Match.objects.get(pk=match.pk), bob) is None
