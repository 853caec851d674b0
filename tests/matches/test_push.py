"""Changes pushed to open pages over WebSockets (game/matches/push.py): the real ASGI application, consumers and
channel layer (in memory, as the README's serve command runs it, and Redis where it answers), driven by Channels'
communicator; the moves are made through the services in another thread, as a request or the queue makes them."""
import asyncio
import logging

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from cardsite.asgi import application
from game.matches import services
from game.models import Match

from .conftest import pending, user_at

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = (b"origin", b"http://testserver")


def cookie_of(user):
    client = Client()
    client.force_login(user)
    return (b"cookie", f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode())


def socket(path, cookie=None, origin=ORIGIN):
    """A socket as a page opens it; `cookie` the signed-in browser's session cookie (`cookie_of`, read before the
    event loop runs: signing in is database work)."""
    headers = [origin] + ([cookie] if cookie is not None else [])
    return WebsocketCommunicator(application, path, headers=headers)


def two_player(alice, bob, private=False):
    match = services.create_match(alice, players=2, private=private)
    services.join_match(match.pk, bob, invited=private)
    return Match.objects.get(pk=match.pk)


def _move(match):
    match = Match.objects.get(pk=match.pk)
    seat, _, options = pending(match)
    services.submit_decision(match.pk, user_at(match, seat), match.version, options[0])
    return Match.objects.get(pk=match.pk)


# The player to move takes their first option, in a thread of its own (as a request does); the match after it.
move = database_sync_to_async(_move)


def test_a_board_hears_each_new_version_as_it_is_stored(catalogue, alice, bob):
    match = two_player(alice, bob)

    async def scenario():
        watcher = socket(f"/ws/matches/{match.public_id}/")  # a public match: anyone may watch, signed in or not
        connected, _ = await watcher.connect()
        assert connected
        assert await watcher.receive_json_from() == {"kind": "match", "version": 0}
        await move(match)
        assert await watcher.receive_json_from(timeout=3) == {"kind": "match", "version": 1}
        assert await watcher.receive_nothing(0.2)  # one change, one message
        await watcher.disconnect()

    async_to_sync(scenario)()


def test_a_players_pages_hear_their_waiting_count(catalogue, alice, bob):
    match = two_player(alice, bob)
    first = user_at(match, match.to_move)
    other = bob if first == alice else alice

    cookie = cookie_of(other)

    async def scenario():
        pages = socket("/ws/me/", cookie)
        connected, _ = await pages.connect()
        assert connected
        assert await pages.receive_json_from() == {"kind": "turns", "count": 0}
        # The first player's opening decisions: the count follows the turn, whoever holds it after each.
        theirs = await database_sync_to_async(services.seat_of)(match, other)
        current = match
        while current.to_move != theirs:
            current = await move(current)
            message = await pages.receive_json_from(timeout=3)
        assert message == {"kind": "turns", "count": 1}
        await pages.disconnect()

    async_to_sync(scenario)()


def test_a_private_match_is_not_heard_by_a_stranger(catalogue, alice, bob, carol):
    match = two_player(alice, bob, private=True)
    cookies = {user: cookie_of(user) for user in (alice, bob, carol)}

    async def scenario():
        for cookie in (cookies[carol], None):
            stranger = socket(f"/ws/matches/{match.public_id}/", cookie)
            connected, code = await stranger.connect()
            assert (connected, code) == (False, 4404)
        seated = socket(f"/ws/matches/{match.public_id}/", cookies[bob])
        connected, _ = await seated.connect()
        assert connected and await seated.receive_json_from() == {"kind": "match", "version": 0}
        await seated.disconnect()
        for path in ("/ws/matches/12345/", "/ws/matches/not-an-id/"):  # a number or nonsense names no match
            nobody = socket(path, cookies[alice])
            assert await nobody.connect() == (False, 4404)

    async_to_sync(scenario)()


def test_a_page_of_another_site_cannot_open_a_socket(catalogue, alice, bob):
    match = two_player(alice, bob)
    cookie = cookie_of(alice)

    async def scenario():
        for path in (f"/ws/matches/{match.public_id}/", "/ws/me/"):
            foreign = socket(path, cookie, origin=(b"origin", b"https://evil.example"))
            connected, _ = await foreign.connect()
            assert not connected
        anonymous = socket("/ws/me/")
        assert await anonymous.connect() == (False, 4403)  # no player, no count to follow

    async_to_sync(scenario)()


def test_a_move_is_stored_whatever_becomes_of_its_push(catalogue, alice, bob, settings, caplog):
    """A channel layer that does not answer fails no move: the move is stored, a warning says so, and the pages
    see it at their next poll."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}}  # nothing listens
    match = two_player(alice, bob)
    with caplog.at_level(logging.WARNING, logger="game.matches.push"):
        assert _move(match).version == 1
    assert any("could not be sent" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("layer", ["core", "pubsub"])
def test_with_redis_the_change_reaches_a_socket_served_elsewhere(catalogue, alice, bob, settings, layer):
    """With REDIS_URL every process shares the layer (either of the two WYRMDEX_PUSH_LAYER names): the move is
    published from a thread with no event loop of its own (a gunicorn worker's, the queue's), and the socket's
    process hears it."""
    import redis

    try:
        redis.Redis(host="127.0.0.1", port=6379, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        pytest.skip("Redis does not answer on 127.0.0.1:6379")
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": settings.PUSH_LAYERS[layer],
                                           "CONFIG": {"hosts": ["redis://127.0.0.1:6379/3"],
                                                      "prefix": f"wyrmdex-test-{id(settings)}"}}}
    match = two_player(alice, bob)
    cookie = cookie_of(alice)

    async def scenario():
        watcher = socket(f"/ws/matches/{match.public_id}/", cookie)
        assert (await watcher.connect())[0]
        assert await watcher.receive_json_from() == {"kind": "match", "version": 0}
        await move(match)
        assert await watcher.receive_json_from(timeout=3) == {"kind": "match", "version": 1}
        await watcher.disconnect()

    async_to_sync(scenario)()
    asyncio.set_event_loop(None)


def test_a_chat_line_and_a_taken_seat_are_heard_too(catalogue, alice, bob, carol):
    match = services.create_match(alice, players=3)

    async def scenario():
        board = socket(f"/ws/matches/{match.public_id}/")
        assert (await board.connect())[0]
        assert await board.receive_json_from() == {"kind": "match", "version": 0}
        await database_sync_to_async(services.join_match)(match.pk, bob)  # a seat taken, the match still open
        assert await board.receive_json_from(timeout=3) == {"kind": "match", "version": 0}
        await database_sync_to_async(services.post_chat)(match.pk, alice, "Welcome!")
        assert await board.receive_json_from(timeout=3) == {"kind": "match", "version": 0}
        await board.disconnect()

    async_to_sync(scenario)()
