"""A board's poll of an unchanged match: a 304 answered from one small row before the session store and DRF, with a
tag that is never shared between two signed-in browsers, and that moves with every change a board shows."""
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from game.matches import services
from game.models import Match

from .conftest import pending


def browser(user):
    """A client signed in the way a browser is: by its session cookie."""
    client = Client()
    client.force_login(user)
    return client


def url(match):
    return f"/api/matches/{match.public_id}/"


def test_an_unchanged_poll_is_answered_from_one_row_without_the_session_or_user(started, alice):
    client = browser(alice)
    first = client.get(url(started))
    assert first.status_code == 200 and first.json()["your_seat"] == 0
    with CaptureQueriesContext(connection) as captured:
        again = client.get(url(started), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"] and again.content == b""
    assert again["Cache-Control"] == "private, no-cache"
    sql = [q["sql"] for q in captured]
    assert len(sql) == 1 and '"game_match"' in sql[0], sql
    assert '"state"' not in sql[0] and "django_session" not in sql[0] and "auth_user" not in sql[0]


def test_two_browsers_never_share_a_tag(started, alice, bob):
    alices, bobs = browser(alice), browser(bob)
    tag = alices.get(url(started))["ETag"]
    # bob's browser holding alice's tag gets his own view (his hand), not a 304
    answer = bobs.get(url(started), HTTP_IF_NONE_MATCH=tag)
    assert answer.status_code == 200 and answer.json()["your_seat"] == 1 and answer["ETag"] != tag
    # nor does a browser that is not signed in
    stranger = Client().get(url(started), HTTP_IF_NONE_MATCH=tag)
    assert stranger.status_code == 200 and stranger.json()["your_seat"] is None


def test_signing_out_and_in_again_changes_the_tag(started, alice):
    client = browser(alice)
    tag = client.get(url(started))["ETag"]
    client.logout()
    assert client.get(url(started), HTTP_IF_NONE_MATCH=tag).status_code == 200
    client.force_login(alice)
    assert client.get(url(started), HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_a_move_moves_the_tag(started, alice, bob):
    client = browser(bob)
    tag = client.get(url(started))["ETag"]
    _, _, options = pending(started)
    services.submit_decision(started.pk, alice, 0, options[0])
    moved = client.get(url(started), HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved.json()["version"] == 1 and moved["ETag"] != tag


def test_a_seat_taken_moves_the_tag_of_an_open_match(catalogue, alice, bob):
    match = services.create_match(alice, players=3)
    client = browser(alice)
    tag = client.get(url(match))["ETag"]
    services.join_match(match.pk, bob)
    moved = client.get(url(match), HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and len(moved.json()["seats"]) == 2


def test_a_rematch_moves_the_tag_of_the_finished_match(started, alice, bob):
    services.resign(started.pk, bob)
    client = browser(alice)
    tag = client.get(url(started))["ETag"]
    new = services.rematch(started.pk, alice)
    moved = client.get(url(started), HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved.json()["rematch"] == new.public_id


def test_polling_a_match_that_does_not_exist_is_the_apis_404(alice):
    answer = browser(alice).get("/api/matches/999999/", HTTP_IF_NONE_MATCH='"m999999-v0"')
    assert answer.status_code == 404 and "999999" in answer.json()["detail"]


def test_a_changed_tag_format_is_not_mistaken_for_the_current_one(started, alice):
    client = browser(alice)
    first = client.get(url(started))
    stale = first["ETag"].replace("-v0-", "-v1-")
    assert client.get(url(started), HTTP_IF_NONE_MATCH=stale).status_code == 200
    assert Match.objects.get(pk=started.pk).version == 0
