"""Match pages: the lobby (open matches, yours, and a form to open one) and the board, which the script in
static/match.js keeps up to date from the matches API."""
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from .matches import services
from .matches.errors import MatchError
from .models import Match

LOBBY_LENGTH = 30


def _matches():
    return Match.objects.select_related("creator").prefetch_related("seats__user")


def _form_values(data):
    """The create form's fields as the service takes them; a value that is not a number is passed on as text,
    so the service names the field in its error."""
    players = data.get("players", "2")
    try:
        players = int(players)
    except (TypeError, ValueError):
        pass
    academy = data.get("academy") == "on"
    printing = data.get("printing", "auto")
    updated = {"updated": True, "original": False}.get(printing)
    if printing not in ("auto", "updated", "original"):
        updated = printing
    return players, academy, updated


def _lobby(request, error=None, status=200):
    user = request.user
    open_matches = _matches().filter(status=Match.Status.OPEN)[:LOBBY_LENGTH]
    mine = list(_matches().filter(seats__user=user)[:LOBBY_LENGTH]) if user.is_authenticated else []
    for match in mine:
        pending = (match.state or {}).get("pending")
        match.your_turn = pending is not None and pending["player"] == services.seat_of(match, user)
    my_ids = set(Match.objects.filter(seats__user=user).values_list("pk", flat=True)) if user.is_authenticated else ()
    return render(request, "game/match_lobby.html", {
        "open_matches": open_matches, "my_matches": mine, "my_ids": my_ids, "error": error,
        "player_counts": range(services.MIN_PLAYERS, services.MAX_PLAYERS + 1),
    }, status=status)


def lobby(request):
    if request.method != "POST":
        return _lobby(request)
    if not request.user.is_authenticated:
        return redirect(f"/accounts/login/?next={request.path}")
    try:
        match = services.create_match(request.user, *_form_values(request.POST))
    except MatchError as exc:
        return _lobby(request, error=str(exc), status=400)
    return redirect(match)


def board(request, pk):
    match = get_object_or_404(_matches(), pk=pk)
    try:
        services.load_state(match)  # a damaged match is refused here with its reason, not left "loading" for ever
    except MatchError as exc:
        return _lobby(request, error=str(exc), status=exc.status)
    return render(request, "game/match_board.html", {"match": match,
                                                     "your_seat": services.seat_of(match, request.user)})


def _act(request, pk, action):
    get_object_or_404(Match, pk=pk)
    try:
        action(pk, request.user)
    except MatchError as exc:
        return _lobby(request, error=str(exc), status=exc.status)
    return redirect("match", pk=pk)


@require_POST
@login_required
def join(request, pk):
    return _act(request, pk, services.join_match)


@require_POST
@login_required
def start(request, pk):
    return _act(request, pk, services.start_match)
