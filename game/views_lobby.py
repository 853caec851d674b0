"""The lobby at /play/: seeks to join with one click, quick pairing, a form to open a seek, the games being played
to watch, and the forms to play the computer (whose posts /play/ has always taken)."""
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from . import views_matches
from .matches import bots, lobby as lobby_reads, services
from .matches.errors import MatchError
from .models import Match


def _page(request, error=None, status=200, form=None):
    seeks, more = lobby_reads.seeks()
    context = views_matches.play_now_context(form=form)
    context.update({
        "seeks": [lobby_reads.seek_json(m, request.user) for m in seeks], "more_seeks": more,
        "live": [lobby_reads.live_json(m) for m in lobby_reads.live_games()],
        "lobby_error": error, "player_counts": range(services.MIN_PLAYERS, services.MAX_PLAYERS + 1),
        "days_choices": Match.DAYS_PER_MOVE, "seek_form": form or {},
    })
    return render(request, "game/lobby.html", context, status=status)


def play(request):
    """GET: the lobby. POST: play the computer now (the home page's and the lobby's forms)."""
    if request.method == "POST":
        return views_matches.play_now(request)
    return _page(request)


def _signed_in_first(request):
    if request.user.is_authenticated:
        return None
    return redirect(f"{reverse('login')}?{urlencode({'next': reverse('play-now')})}")


def _seek_values(data):
    number = views_matches.number_or_text
    min_rating = data.get("min_rating", "").strip()
    return {"players": number(data.get("players", "2")), "academy": data.get("academy") == "on",
            "days_per_move": number(data.get("days_per_move", "3")), "rated": data.get("rated", "rated") == "rated",
            "min_rating": number(min_rating) if min_rating else None, "bot_fill": data.get("bot_fill") == "on",
            "on_timeout": data.get("on_timeout", "forfeit"), "timeout_level": data.get("bot_level", bots.DEFAULT_LEVEL),
            **views_matches.time_control_values(data)}


@require_POST
def seek(request):
    """Open a seek from the lobby's form; the creator lands on its page to wait."""
    refused = _signed_in_first(request)
    if refused:
        return refused
    try:
        match = services.create_match(request.user, **_seek_values(request.POST))
    except MatchError as exc:
        return _page(request, error=str(exc), status=exc.status, form=request.POST)
    return redirect(match)


@require_POST
def join(request, match_id):
    """Join a seek with one click; a refusal (a rating below the seek's minimum, a seat taken first) is told on
    the lobby."""
    refused = _signed_in_first(request)
    if refused:
        return refused
    try:
        match = services.join_match(match_id, request.user)
    except MatchError as exc:
        return _page(request, error=str(exc), status=exc.status)
    return redirect(match)


@require_POST
def quick(request):
    """Any 2-player game now: the player lands on the seek they joined or the one opened for them."""
    refused = _signed_in_first(request)
    if refused:
        return refused
    try:
        match, _ = lobby_reads.quick_pair(request.user)
    except MatchError as exc:
        return _page(request, error=str(exc), status=exc.status)
    return redirect(match)
