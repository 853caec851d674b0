"""The leaderboards (game/players/boards.py) at /leaderboards/ and /api/leaderboards/: a pool's ratings, highest
first, people on one list and the bots and Automa levels on another, provisional ratings marked, paged by key."""
import pytest
from django.test import Client

from game.models import PlayerRating


@pytest.fixture
def rated(finish_rated, alice, bob, carol):
    """Alice and Bob played two games, Bob and Carol one, and Alice the Automa (level 2) once."""
    return [finish_rated(alice, bob, seed=11), finish_rated(alice, bob, seed=12), finish_rated(bob, carol, seed=13),
            finish_rated(alice, seed=4)]


def test_a_pool_lists_people_highest_first_and_links_their_profiles(rated, api_as):
    body = api_as(None).get("/api/leaderboards/?pool=2").json()
    expected = list(PlayerRating.objects.filter(pool="2", user__isnull=False).order_by("-rating")
                    .values_list("user__username", flat=True))
    assert [r["username"] for r in body["results"]] == expected and len(expected) == 3
    assert [r["rank"] for r in body["results"]] == [1, 2, 3]
    first = body["results"][0]
    assert first["profile"] == f"http://testserver/players/{first['username']}/"
    assert all(r["provisional"] for r in body["results"])  # a few games each: none settled yet
    assert body["next"] is None and body["pool_name"] == "2 players"


def test_the_bots_and_the_automa_have_their_own_list(rated, api_as):
    people = api_as(None).get("/api/leaderboards/?pool=all").json()["results"]
    engines = api_as(None).get("/api/leaderboards/?pool=all&who=engines").json()["results"]
    assert "automa:2" not in [r["engine"] for r in people]
    assert [(r["engine"], r["name"], r["profile"]) for r in engines] == [("automa:2", "Automa level 2", None)]
    html = Client().get("/leaderboards/?pool=1").content.decode()
    assert "Automa level 2" in html and 'href="/players/alice/"' in html


def test_pages_follow_each_other_by_cursor(rated, api_as):
    client = api_as(None)
    first = client.get("/api/leaderboards/?pool=all&limit=2").json()
    assert len(first["results"]) == 2 and first["next"]
    second = client.get(first["next"]).json()
    assert [r["rank"] for r in second["results"]] == [3] and second["next"] is None
    names = [r["username"] for r in first["results"] + second["results"]]
    assert names == list(PlayerRating.objects.filter(pool="all", user__isnull=False).order_by("-rating", "pk")
                         .values_list("user__username", flat=True))


@pytest.mark.parametrize("query, field", [("pool=6", "pool"), ("pool=solo", "pool"), ("who=robots", "who"),
                                          ("limit=0", "limit"), ("limit=x", "limit"), ("after=nope", "after"),
                                          ("after=nan_3", "after")])
def test_a_bad_choice_is_refused_by_name(db, api_as, query, field):
    response = api_as(None).get(f"/api/leaderboards/?{query}")
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_the_page_refuses_a_bad_pool_too(db):
    response = Client().get("/leaderboards/?pool=9")
    assert response.status_code == 400 and b"pool: choose one of" in response.content


def test_an_empty_pool_says_so(db):
    html = Client().get("/leaderboards/?pool=5").content.decode()
    assert "No ratings in this pool yet" in html and 'option value="5" selected' in html


def test_the_leaderboard_reads_a_bounded_number_of_queries(rated, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        assert Client().get("/leaderboards/?pool=all").status_code == 200
