"""Who may see a private match (game/matches/access.py): its seated players, whoever opened its invite link, and
whoever holds its watch link. Nobody finds a match by counting: URLs name a random public id, an old number is a
404, and a private match answers a stranger exactly as an id that names nothing does, on every page and API read."""
import itertools
import json
import re

import pytest
from django.test import Client

from game.matches import access, ids, services
from game.models import ChatMessage, Match

from .conftest import snapshot

MISSING = "zzzzzzzzzzzz"  # a well-formed public id no match has


@pytest.fixture
def private(catalogue, alice, bob):
    """A private two-player match in play: alice opened it, bob joined by its invite link; a line in its chat."""
    match = services.create_match(alice, players=2, private=True)
    services.join_match(services.match_of_invite(services.invite_token(match)), bob, invited=True)
    services.post_chat(match.pk, alice, "only for us")
    return Match.objects.get(pk=match.pk)


def reads(public_id):
    """Every GET that shows something of a match."""
    return [f"/api/matches/{public_id}/", f"/api/matches/{public_id}/options/",
            f"/api/matches/{public_id}/replay/0/", f"/api/matches/{public_id}/record/",
            f"/api/matches/{public_id}/chat/", f"/api/matches/{public_id}/orders/"]


def writes(public_id):
    """Every POST about a match, with a body a seated player might send."""
    decision = {"version": 0, "option": {"kind": "pass", "args": []}}
    return [(f"/api/matches/{public_id}/join/", {}), (f"/api/matches/{public_id}/start/", {}),
            (f"/api/matches/{public_id}/decisions/", decision),
            (f"/api/matches/{public_id}/turns/", {"decisions": [decision]}),
            (f"/api/matches/{public_id}/preview/", {"version": 0, "options": []}),
            (f"/api/matches/{public_id}/resign/", {}), (f"/api/matches/{public_id}/abort/", {}),
            (f"/api/matches/{public_id}/rematch/", {}), (f"/api/matches/{public_id}/chat/", {"text": "hello"})]


def pages(public_id):
    return [f"/matches/{public_id}/", f"/matches/{public_id}/analyse/"]


def signed_in(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def same_as_missing(answer, missing, public_id):
    """The answer a stranger gets says no more than the one for an id that names nothing."""
    assert answer.status_code == missing.status_code == 404, (answer.status_code, answer.content[:300])
    if missing["Content-Type"].startswith("application/json"):
        assert answer.json() == json.loads(missing.content.decode().replace(MISSING, public_id))


@pytest.mark.parametrize("who", ["signed out", "another player"])
def test_a_stranger_cannot_read_a_private_match_by_its_public_id(private, make_user, who):
    client = signed_in(None if who == "signed out" else make_user("mallory"))
    for url in reads(private.public_id):
        same_as_missing(client.get(url), client.get(url.replace(private.public_id, MISSING)), private.public_id)
    for url in pages(private.public_id):
        answer = client.get(url)
        assert answer.status_code == 404 and b"only for us" not in answer.content, url


@pytest.mark.parametrize("who", ["signed out", "another player"])
def test_a_stranger_is_told_nothing_by_any_write_and_changes_nothing(private, make_user, who):
    client = signed_in(None if who == "signed out" else make_user("mallory"))
    before, lines = snapshot(private.pk), ChatMessage.objects.count()
    for url, body in writes(private.public_id):
        answer = client.post(url, body, content_type="application/json")
        missing = client.post(url.replace(private.public_id, MISSING), body, content_type="application/json")
        same_as_missing(answer, missing, private.public_id)
    for action in ("join", "start", "resign", "abort", "rematch", "chat", "orders"):
        assert client.post(f"/matches/{private.public_id}/{action}/", {"text": "hi"}).status_code in (302, 404)
    assert snapshot(private.pk) == before and ChatMessage.objects.count() == lines


def test_a_private_match_is_not_read_by_its_number_either(private, make_user):
    for client in (signed_in(None), signed_in(make_user("mallory")), signed_in(private.creator)):
        for url in reads(private.pk) + pages(private.pk):
            assert client.get(url).status_code == 404, url


def test_an_old_numeric_url_is_a_404_in_the_api_s_one_error_shape(catalogue, alice, bob):
    match = services.create_match(alice, players=2)
    services.join_match(match.pk, bob)
    client = signed_in(alice)
    assert client.get(f"/api/matches/{match.public_id}/").status_code == 200
    for url in reads(match.pk):
        answer = client.get(url)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", url
        assert set(answer.json()) == {"detail", "code", "field", "errors"}
    assert client.get(f"/matches/{match.pk}/").status_code == 404
    assert client.post(f"/api/matches/{match.pk}/decisions/", {"version": 0}, content_type="application/json") \
        .status_code == 404


def test_the_seated_players_see_their_private_match_everywhere(private, alice, bob):
    for user in (alice, bob):
        client = signed_in(user)
        for url in reads(private.public_id):
            # the record is for a finished match: 409 names that, to a player
            assert client.get(url).status_code == (409 if url.endswith("record/") else 200), url
        assert b"only for us" in client.get(f"/matches/{private.public_id}/").content
        assert client.get(f"/matches/{private.public_id}/analyse/").status_code == 302


def test_a_watch_link_lets_its_holder_watch_and_nothing_more(private, alice, make_user):
    link = signed_in(alice).get(f"/api/matches/{private.public_id}/").json()["watch_url"]
    board = signed_in(alice).get(f"/matches/{private.public_id}/").content.decode()
    assert link in board  # shown to the players, to share
    for watcher in (signed_in(None), signed_in(make_user("dave"))):
        assert watcher.get(f"/api/matches/{private.public_id}/").status_code == 404
        opened = watcher.get(link)
        assert opened.status_code == 302 and opened["Location"] == f"/matches/{private.public_id}/"
        body = watcher.get(f"/api/matches/{private.public_id}/").json()
        assert body["your_seat"] is None and all(p["hand"] is None for p in body["view"]["players"])
        assert "watch_url" not in body and "invite_url" not in body
        assert watcher.get(f"/api/matches/{private.public_id}/chat/").json()["results"][0]["text"] == "only for us"
        assert watcher.get(f"/matches/{private.public_id}/").status_code == 200
        # watching seats no one and decides nothing
        before = snapshot(private.pk)
        assert watcher.post(f"/api/matches/{private.public_id}/decisions/",
                            {"version": 0, "option": {"kind": "pass", "args": []}},
                            content_type="application/json").status_code in (403, 401)
        assert snapshot(private.pk) == before
    # a watcher sees the match, but it is not listed to them
    dave = signed_in(make_user("erin"))
    dave.get(link)
    assert private.public_id not in [m["id"] for m in dave.get("/api/matches/").json()["results"]]


def test_a_watch_link_of_one_match_does_not_open_another(private, alice, bob):
    other = services.create_match(bob, players=2, private=True)
    watcher = signed_in(None)
    watcher.get(access.watch_url(private))
    assert watcher.get(f"/api/matches/{private.public_id}/").status_code == 200
    assert watcher.get(f"/api/matches/{other.public_id}/").status_code == 404


@pytest.mark.parametrize("token", ["forged", "x" * 300, "", "Mw:1t8abc:abc"])
def test_a_bad_watch_link_is_a_404_and_grants_nothing(private, token):
    watcher = signed_in(None)
    assert watcher.get(f"/matches/watch/{token}/").status_code == 404
    assert watcher.get(f"/api/matches/{private.public_id}/").status_code == 404


def test_an_invite_token_is_no_watch_link(private):
    watcher = signed_in(None)
    assert watcher.get(f"/matches/watch/{services.invite_token(private)}/").status_code == 404
    assert watcher.get(f"/api/matches/{private.public_id}/").status_code == 404


def test_opening_the_invite_link_lets_the_invited_watch_before_they_sit(catalogue, alice, carol):
    match = services.create_match(alice, players=3, private=True)
    invited = signed_in(carol)
    assert invited.get(f"/matches/{match.public_id}/").status_code == 404
    assert invited.get(f"/matches/invite/{services.invite_token(match)}/").status_code == 200
    assert invited.get(f"/matches/{match.public_id}/").status_code == 200
    assert invited.get(f"/api/matches/{match.public_id}/").json()["your_seat"] is None


def test_an_unchanged_poll_of_a_private_match_is_no_304_for_someone_without_a_cookie(private, alice):
    seated = signed_in(alice)
    tag = seated.get(f"/api/matches/{private.public_id}/")["ETag"]
    assert seated.get(f"/api/matches/{private.public_id}/", HTTP_IF_NONE_MATCH=tag).status_code == 304
    stranger = signed_in(None)
    for guess in (tag, tag.replace(tag.rsplit("-", 1)[1], 'anon"')):
        assert stranger.get(f"/api/matches/{private.public_id}/", HTTP_IF_NONE_MATCH=guess).status_code == 404


def test_public_matches_stay_open_to_all_and_list_by_public_id(catalogue, alice, bob):
    match = services.create_match(alice, players=2)
    visitor = signed_in(None)
    assert visitor.get(f"/matches/{match.public_id}/").status_code == 200
    assert visitor.get(f"/api/matches/{match.public_id}/").json()["id"] == match.public_id
    listed = visitor.get("/api/matches/").json()["results"]
    assert [(m["id"], m["url"]) for m in listed] == [(match.public_id, f"/matches/{match.public_id}/")]


def test_public_ids_are_unique_random_and_not_sequential(catalogue, alice):
    made = [services.create_match(alice, players=2).public_id for _ in range(40)]
    assert len(set(made)) == len(made)
    assert all(re.fullmatch(ids.PATTERN, public_id) for public_id in made)
    assert made != sorted(made) and not any(public_id.isdigit() for public_id in made)
    # no two ids made one after the other share their beginning, as counted ones would
    assert sum(a[:3] == b[:3] for a, b in itertools.pairwise(made)) < 3
    assert Match._meta.get_field("public_id").unique


def test_the_lobby_lists_a_private_match_only_to_its_players(private, alice, make_user):
    assert f"/matches/{private.public_id}/" in signed_in(alice).get("/matches/").content.decode()
    for client in (signed_in(None), signed_in(make_user("mallory"))):
        assert private.public_id not in client.get("/matches/").content.decode()
        assert private.public_id not in json.dumps(client.get("/api/matches/").json())


def test_an_invite_link_made_before_public_ids_still_seats_and_lets_watch(catalogue, alice, bob):
    from django.core import signing

    match = services.create_match(alice, players=2, private=True)
    old_token = signing.dumps(match.pk, salt=services.INVITE_SALT)  # as links named the number before
    invited = signed_in(bob)
    assert invited.get(f"/matches/invite/{old_token}/").status_code == 200
    assert invited.get(f"/matches/{match.public_id}/").status_code == 200
    assert invited.post(f"/matches/invite/{old_token}/")["Location"] == f"/matches/{match.public_id}/"
    assert services.seat_of(Match.objects.get(pk=match.pk), bob) == 1
