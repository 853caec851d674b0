"""GET /api/lobby/ (seeks and games being played, paged), POST /api/lobby/quick/ and /api/lobby/<id>/fill/, and
the matches API's create and join with the lobby's fields."""
from datetime import timedelta

import pytest
from django.utils import timezone

from game.matches import services
from game.models import Match, PlayerRating

from .conftest import play_randomly


def test_the_lobby_lists_seeks_oldest_first_and_pages_after_the_last_one(catalogue, make_user, api_as):
    made = [services.create_match(make_user(f"p{n}"), players=2 + n % 3) for n in range(5)]
    for n, match in enumerate(made):
        Match.objects.filter(pk=match.pk).update(created=timezone.now() - timedelta(minutes=10 - n))
    client = api_as(None)
    first = client.get("/api/lobby/", {"limit": 2}).json()
    assert [s["id"] for s in first["seeks"]] == [m.public_id for m in made[:2]]
    assert first["next"] == made[1].public_id
    rest = client.get("/api/lobby/", {"limit": 2, "after": first["next"]}).json()
    last = client.get("/api/lobby/", {"limit": 2, "after": rest["next"]}).json()
    assert [s["id"] for s in rest["seeks"] + last["seeks"]] == [m.public_id for m in made[2:]]
    assert last["next"] is None
    assert first["seeks"][0] | {"created": None} == {
        "id": made[0].public_id, "url": made[0].get_absolute_url(), "created": None,
        "creator": {"name": "p0", "rating": None}, "players": 2, "seated": 1, "wanted": 1, "seats": ["p0"],
        "academy": False, "days_per_move": 3, "rated": True, "min_rating": None, "bot_fill": False,
        "time_control": "move", "bank_days": None, "increment_days": None, "clock_text": "3 days per move",
        "yours": False, "seated_here": False}


def test_the_lobby_lists_games_being_played(started, api_as):
    play_randomly(started.pk, 4, seed=2)
    [game] = api_as(None).get("/api/lobby/").json()["live"]
    assert game["id"] == started.public_id and game["round"] == 1
    assert [(p["seat"], p["name"]) for p in game["players"]] == [(0, "alice"), (1, "bob")]


@pytest.mark.parametrize("query, field", [
    ({"limit": "lots"}, "limit"), ({"limit": 0}, "limit"), ({"limit": 51}, "limit"),
    ({"after": "no such id!"}, "after"), ({"after": "abcdefghjkmn"}, "after"), ({"page": 2}, "page")])
def test_bad_lobby_input_is_a_400_naming_the_field(db, api_as, query, field):
    response = api_as(None).get("/api/lobby/", query)
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_creating_through_the_api_takes_the_lobby_fields(catalogue, alice, api_as):
    response = api_as(alice).post("/api/matches/", {"players": 3, "rated": False, "min_rating": 1450,
                                                    "bot_fill": True}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["rated"], body["min_rating"], body["bot_fill"]) == (False, 1450, True)
    match = Match.objects.get()
    assert (match.rated, match.min_rating, match.bot_fill) == (False, 1450, True)


@pytest.mark.parametrize("body, field", [({"min_rating": "high"}, "min_rating"), ({"min_rating": 5}, "min_rating"),
                                         ({"rated": "yes"}, "rated"), ({"bot_fill": 1}, "bot_fill")])
def test_bad_lobby_fields_on_create_are_a_400_naming_the_field(catalogue, alice, api_as, body, field):
    response = api_as(alice).post("/api/matches/", {"players": 2, **body}, format="json")
    assert response.status_code == 400 and response.json()["field"] == field
    assert not Match.objects.exists()


def test_joining_below_the_minimum_through_the_api_is_refused(catalogue, alice, bob, api_as):
    PlayerRating.objects.create(user=bob, pool="all", rating=1288, rd=70, volatility=0.06)
    match = services.create_match(alice, players=2, min_rating=1300)
    response = api_as(bob).post(f"/api/matches/{match.public_id}/join/")
    assert response.status_code == 403
    assert response.json()["code"] == "rating_too_low"
    assert "at least 1300; yours is 1288" in response.json()["detail"]
    assert Match.objects.get().seats.count() == 1


def test_quick_pairing_through_the_api_opens_then_joins(catalogue, alice, bob, api_as):
    opened = api_as(alice).post("/api/lobby/quick/")
    assert opened.status_code == 201 and opened.json()["status"] == "open"
    joined = api_as(bob).post("/api/lobby/quick/")
    assert joined.status_code == 200 and joined.json()["id"] == opened.json()["id"]
    assert Match.objects.get().status == Match.Status.PLAYING


def test_fill_through_the_api_is_the_creators(catalogue, alice, bob, api_as):
    match = services.create_match(alice, players=3)
    assert api_as(bob).post(f"/api/lobby/{match.public_id}/fill/").status_code == 403
    response = api_as(alice).post(f"/api/lobby/{match.public_id}/fill/")
    assert response.status_code == 200 and response.json()["status"] == "playing"
