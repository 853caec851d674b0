"""Changes pushed to open pages over WebSockets (Django Channels), with the page's polling as the fallback.

Two kinds of socket:
- `ws/matches/<public id>/`: a match's board, for whoever may see the match (`access.can_view`). It is told
  "the match changed, at version N"; the page then reads the match through the API as it always did, so what a
  viewer sees still passes the engine's player view, and a socket carries no card, hand or choice.
- `ws/me/`: every page of a signed-in player, told "the matches waiting for you changed, N now" for the badge
  beside Play and the page's title.

What is sent, and when: after a change commits, the `match_changed` signal reaches `_changed` (below), which tells
the match's group and the group of each person seated at it. Publishing never fails a move: if the channel layer
does not answer, a warning is logged and the pages see the change at their next poll.

The channel layer is Redis when REDIS_URL is set (every app server, the push process and the queue worker share
it) and Channels' in-memory layer otherwise, which lives in the one process that serves the sockets: the README's
serve command. That layer's queues belong to the event loop serving the sockets, so a change made in another thread
(a request's, the in-process queue's) is handed to that loop (`_publish`), never sent from a loop of its own.
"""
import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.dispatch import receiver
from django.http import Http404
from django.urls import path

from game.models import MatchSeat

from . import access
from .ids import is_public_id
from .notify import your_turn_count
from .signals import match_changed

logger = logging.getLogger(__name__)

_serving = {"loop": None}  # the event loop of this process's sockets (the in-memory layer's home)


def match_group(match_id):
    return f"match.{match_id}"


def player_group(user_id):
    return f"player.{user_id}"


class _GroupSocket(AsyncJsonWebsocketConsumer):
    """A socket that listens to one group; the page says nothing over it (its moves go through the API)."""

    group = None

    async def listen_to(self, group):
        _serving["loop"] = asyncio.get_running_loop()
        self.group = group
        await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        pass


class MatchSocket(_GroupSocket):
    """A match board's socket: told each new version of the match it may see."""

    async def connect(self):
        match = await self._visible_match(self.scope["url_route"]["kwargs"]["match_id"])
        if match is None:
            await self.close(code=4404)  # as the API's 404: no such match, or not one this viewer may see
            return
        await self.listen_to(match_group(match.pk))
        # The version now: a change between the page's last read and this socket's opening is not missed.
        await self.send_json({"kind": "match", "version": match.version})

    async def match_changed(self, event):
        await self.send_json({"kind": "match", "version": event["version"]})

    @database_sync_to_async
    def _visible_match(self, key):
        if not is_public_id(key):  # a socket names its match by public id only, never by number
            return None
        try:
            match = access.find(key)
        except Http404:
            return None
        return match if access.can_view(self.scope.get("user"), match, self.scope.get("session")) else None


class PlayerSocket(_GroupSocket):
    """A signed-in player's socket on every page: told how many matches wait for their move."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4403)
            return
        await self.listen_to(player_group(user.pk))
        await self.send_json({"kind": "turns", "count": await database_sync_to_async(your_turn_count)(user)})

    async def turns_changed(self, event):
        await self.send_json({"kind": "turns", "count": event["count"]})


routes = [
    path("ws/matches/<str:match_id>/", MatchSocket.as_asgi()),
    path("ws/me/", PlayerSocket.as_asgi()),
]


def _listening(layer):
    """Whether anyone may hear: with the in-memory layer, only once a socket opened in this process."""
    if layer is None:
        return False
    if isinstance(layer, InMemoryChannelLayer):
        loop = _serving["loop"]
        return loop is not None and not loop.is_closed()
    return True


def _publish(layer, messages):
    """Send [(group, message)] on the channel layer, from whatever thread changed the match."""

    async def send_all():
        for group, message in messages:
            await layer.group_send(group, message)

    try:
        if isinstance(layer, InMemoryChannelLayer):
            done = asyncio.run_coroutine_threadsafe(send_all(), _serving["loop"])
            done.add_done_callback(_log_failure)
        else:
            async_to_sync(send_all)()
    except Exception as exc:  # a move is stored whatever happens here; the pages' polls see it
        logger.warning("push: the change could not be sent (%s); pages see it at their next poll", exc)


def _log_failure(done):
    if not done.cancelled() and done.exception() is not None:
        logger.warning("push: the change could not be sent (%s); pages see it at their next poll", done.exception())


@receiver(match_changed)
def _changed(sender, match_id, version, **kwargs):
    layer = get_channel_layer()
    if not _listening(layer):
        return
    messages = [(match_group(match_id), {"type": "match.changed", "version": version})]
    people = MatchSeat.objects.filter(match_id=match_id, user__isnull=False)  # a seat a bot took over too: its badge
    for user in {seat.user for seat in people.select_related("user")}:
        messages.append((player_group(user.pk), {"type": "turns.changed", "count": your_turn_count(user)}))
    _publish(layer, messages)
