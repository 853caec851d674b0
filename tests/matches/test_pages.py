"""The lobby and board pages: open, join and start matches with plain forms; errors shown, nothing saved."""
import pytest

from game.models import Match


@pytest.fixture
def signed_in(client):
    def sign_in(user):
        client.force_login(user)
        return client
    return sign_in


def test_lobby_invites_visitors_to_sign_in(client, catalogue):
    page = client.get("/matches/").content.decode()
    assert "/accounts/signup/?next=/matches/" in page
    assert "Open the match" not in page


def test_open_a_match_from_the_lobby_form(signed_in, catalogue, alice):
    response = signed_in(alice).post("/matches/", {"players": "3", "academy": "on", "printing": "original"})
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.public_id}/"
    assert (match.players, match.academy, match.updated) == (3, True, False)


@pytest.mark.parametrize("form, field", [({"players": "seven"}, "players"), ({"players": "9"}, "players"),
                                         ({"players": "2", "printing": "newest"}, "updated")])
def test_a_bad_lobby_form_shows_the_field_and_saves_nothing(signed_in, catalogue, alice, form, field):
    response = signed_in(alice).post("/matches/", form)
    assert response.status_code == 400
    assert f"{field}:" in response.content.decode()
    assert not Match.objects.exists()


def test_lobby_lists_open_matches_with_a_join_button_for_others(signed_in, catalogue, alice, bob):
    signed_in(alice).post("/matches/", {"players": "2"})
    match = Match.objects.get()
    mine = signed_in(alice).get("/matches/").content.decode()
    assert f'data-join="{match.public_id}"' not in mine
    theirs = signed_in(bob).get("/matches/").content.decode()
    assert f'data-join="{match.public_id}"' in theirs


def test_joining_from_the_board_starts_a_full_match(signed_in, catalogue, alice, bob):
    signed_in(alice).post("/matches/", {"players": "2"})
    match = Match.objects.get()
    page = signed_in(bob).get(f"/matches/{match.public_id}/").content.decode()
    assert 'id="join-button"' in page
    response = signed_in(bob).post(f"/matches/{match.public_id}/join/")
    assert response.status_code == 302
    assert Match.objects.get().status == "playing"


def test_joining_a_full_match_from_a_stale_page_explains_why(signed_in, started, carol):
    response = signed_in(carol).post(f"/matches/{started.public_id}/join/")
    assert response.status_code == 409
    assert "already started" in response.content.decode()
    assert started.seats.count() == 2


def test_creator_starts_early_from_the_board(signed_in, catalogue, alice, bob):
    signed_in(alice).post("/matches/", {"players": "4"})
    match = Match.objects.get()
    signed_in(bob).post(f"/matches/{match.public_id}/join/")
    page = signed_in(alice).get(f"/matches/{match.public_id}/").content.decode()
    assert 'id="start-button"' in page
    signed_in(alice).post(f"/matches/{match.public_id}/start/")
    assert Match.objects.get().players == 2


def test_board_page_loads_the_script_for_anyone(client, started):
    page = client.get(f"/matches/{started.public_id}/").content.decode()
    assert f'data-api="/api/matches/{started.public_id}/"' in page and "match.js" in page


def test_unknown_board_is_404(client, catalogue):
    assert client.get("/matches/12345/").status_code == 404


def test_lobby_marks_the_matches_waiting_for_you(signed_in, started, alice, bob):
    assert "your turn" in signed_in(alice).get("/matches/").content.decode()
    assert "your turn" not in signed_in(bob).get("/matches/").content.decode()


def test_a_board_opened_from_a_link_carries_a_token_the_api_accepts(started, alice):
    import json
    import re

    from django.test import Client

    from .conftest import pending, snapshot

    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get(f"/matches/{started.public_id}/").content.decode()
    token = re.search(r'data-csrf="([^"]+)"', page).group(1)
    body = json.dumps({"version": 0, "option": pending(started)[2][0]})
    before = snapshot(started.pk)
    refused = client.post(f"/api/matches/{started.public_id}/decisions/", body, content_type="application/json")
    assert refused.status_code == 403 and snapshot(started.pk) == before
    taken = client.post(f"/api/matches/{started.public_id}/decisions/", body, content_type="application/json",
                        HTTP_X_CSRFTOKEN=token)
    assert taken.status_code == 201
