"""Profiles (game/players/profiles.py) at /players/<name>/ and /api/players/<name>/: a player's finished games
summed up, their ratings with each one's history drawn, their recent matches and favourite dragons; hidden from
others when they choose; none for guests or names nobody has."""
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from game.engine.view import view_for
from game.matches import services
from game.models import Guest, Match, Profile, RatingChange


def page(user, path):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(path)


def seat(match, user):
    return match.seats.get(user=user).seat


def score(match, user):
    return match.state["result"]["scores"][seat(match, user)]["total"]


@pytest.fixture
def games(finish_rated, alice, bob):
    """Alice's finished games: two base games and one Dragon Academy game against Bob, and a solo game."""
    return [finish_rated(alice, bob, seed=11), finish_rated(bob, alice, seed=12),
            finish_rated(alice, bob, seed=13, academy=True), finish_rated(alice, seed=4)]


def test_the_profile_sums_up_games_by_player_count_and_expansion(games, alice, api_as):
    body = api_as(None).get("/api/players/alice/").json()
    two = [m for m in games if m.players == 2]
    wins = [m for m in two if m.places[seat(m, alice)] == 1]
    solo = games[3]
    solo_won = solo.state["result"]["places"][0] == 1
    assert body["games"]["played"] == 4 and body["games"]["won"] == len(wins) + solo_won
    by_players = {t["key"]: t for t in body["by_players"]}
    assert by_players["2"]["played"] == 3 and by_players["2"]["won"] == len(wins)
    assert by_players["2"]["best_score"] == max(score(m, alice) for m in two)
    assert by_players["2"]["mean_score"] == pytest.approx(sum(score(m, alice) for m in two) / 3, abs=0.05)
    assert by_players["1"]["played"] == 1 and by_players["1"]["best_score"] == score(solo, alice)
    by_expansion = {t["key"]: t for t in body["by_expansion"]}
    assert by_expansion["academy"]["played"] == 1 and by_expansion["base"]["played"] == 3
    assert by_expansion["academy"]["best_score"] == score(games[2], alice)


def test_the_profile_lists_ratings_with_their_history(games, alice, api_as):
    ratings = {r["pool"]: r for r in api_as(None).get("/api/players/alice/").json()["ratings"]}
    assert set(ratings) == {"all", "1", "2"}
    assert ratings["all"]["games"] == 4 and len(ratings["all"]["history"]) == 4
    assert ratings["all"]["provisional"] is True  # four games leave the deviation wide
    last = RatingChange.objects.filter(rating__user=alice, rating__pool="all").latest("created", "pk")
    assert ratings["all"]["history"][-1]["after"] == pytest.approx(last.after, abs=0.05)
    assert ratings["all"]["history"][-1]["match"] == games[3].public_id
    assert ratings["all"]["rating"] == pytest.approx(last.after, abs=0.05)


def test_the_page_draws_each_ratings_history_as_a_chart(games, alice):
    html = page(None, "/players/alice/").content.decode()
    chart = re.search(r'<figure class="rating-chart" data-pool="all">.*?</figure>', html, re.S).group(0)
    points = re.search(r'<polyline class="line" points="([^"]+)"', chart).group(1).split()
    assert len(points) == 5  # where the rating started, then after each of the four games
    assert "<polygon class=\"band\"" in chart and "provisional" in html
    assert 'href="/leaderboards/?pool=2"' in html


def recent_links(user, username):
    html = page(user, f"/players/{username}/").content.decode()
    return re.findall(r'href="/matches/(\w+)/"', html.split('id="profile-recent"')[1])


def test_the_recent_matches_link_to_their_pages_newest_first(games, alice):
    newest_first = [m for m in sorted(games, key=lambda m: (m.changed, m.pk), reverse=True)]
    assert recent_links(alice, "alice") == [m.public_id for m in newest_first]
    assert games[3].private  # a solo game started by "play now" is private: others do not see it listed
    assert recent_links(None, "alice") == [m.public_id for m in newest_first if not m.private]


def test_favourite_dragons_are_those_on_the_mat_at_the_end(games, alice, api_as):
    favourites = api_as(None).get("/api/players/alice/").json()["favourite_dragons"]
    played = {}
    for match in games:
        view = view_for(services.load_state(match))
        cards = services.snapshot_of(match).engine.dragons
        for space in view["players"][seat(match, alice)]["mat"]:
            if space["dragon"] is not None:
                played.setdefault(cards[space["dragon"]].name, set()).add(match.pk)
    assert favourites
    top = max(len(v) for v in played.values())
    assert favourites[0]["played"] == top
    for f in favourites:
        assert f["played"] == len(played[f["name"]])


def test_a_hidden_profile_is_not_found_by_others_and_shown_to_its_owner(games, alice, bob):
    response = page(alice, "/players/alice/")
    assert b"Hide my profile" in response.content
    client = Client()
    client.force_login(alice)
    assert client.post("/players/alice/visibility/", {"hidden": "on"}).status_code == 302
    assert Profile.objects.get(user=alice).hidden

    assert page(bob, "/players/alice/").status_code == 404
    assert page(None, "/players/alice/").status_code == 404
    assert page(bob, "/api/players/alice/").json()["detail"] == "there is no player alice"
    mine = page(alice, "/players/alice/")
    assert mine.status_code == 200 and b"Your profile is hidden" in mine.content
    leaderboard = page(bob, "/leaderboards/?pool=2").content.decode()
    assert "alice" in leaderboard and 'href="/players/alice/"' not in leaderboard  # rated, but not linked

    assert client.post("/players/alice/visibility/", {}).status_code == 302
    assert page(bob, "/players/alice/").status_code == 200


def test_only_the_owner_may_hide_a_profile(alice, bob):
    client = Client()
    client.force_login(bob)
    assert client.post("/players/alice/visibility/", {"hidden": "on"}).status_code == 404
    assert not Profile.objects.filter(user=alice).exists()


def test_an_unknown_name_and_a_guest_have_no_profile(catalogue, api_as):
    visitor = get_user_model().objects.create_user("guest-x1")
    Guest.objects.create(user=visitor)
    assert page(None, "/players/nobody/").status_code == 404
    assert page(None, "/api/players/nobody/").json()["detail"] == "there is no player nobody"
    assert page(None, "/players/guest-x1/").status_code == 404
    assert page(visitor, "/players/guest-x1/").status_code == 404  # not even to themselves: nothing is kept


def test_a_private_match_is_listed_only_to_who_may_see_it(finish_rated, alice, bob, carol):
    match = finish_rated(alice, bob, seed=11, private=True)
    assert match.public_id in page(bob, "/players/alice/").content.decode()
    assert match.public_id not in page(carol, "/players/alice/").content.decode()
    assert b"1 rated game" in page(carol, "/players/alice/").content  # the result counts all the same


def test_a_new_player_has_an_empty_profile(alice):
    html = page(None, "/players/alice/").content.decode()
    assert "No finished games yet" in html and "No rated games yet" in html


def test_the_profile_reads_a_bounded_number_of_queries(games, alice, bob, django_assert_max_num_queries):
    client = Client()
    client.force_login(bob)
    client.get("/players/alice/")  # the catalogue's data is read once per process, not per page
    with django_assert_max_num_queries(9):
        assert client.get("/players/alice/").status_code == 200
    with django_assert_max_num_queries(8):
        assert client.get("/api/players/alice/").status_code == 200
    assert Match.objects.filter(seats__user=alice).count() == 4


def test_the_navigation_links_a_signed_in_player_to_their_profile(alice):
    html = page(alice, "/matches/").content.decode()
    assert 'id="profile-link" href="/players/alice/"' in html
    assert 'href="/leaderboards/"' in html
    assert 'id="profile-link"' not in page(None, "/matches/").content.decode()


def test_a_guest_is_not_offered_a_profile(catalogue, client):
    client.post("/play/", {"opponent": "automa", "automa_level": "1"})
    html = client.get("/matches/").content.decode()
    assert "(guest)" in html and 'id="profile-link"' not in html
