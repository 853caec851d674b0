"""The game history page at /games/: finished games, newest first, with a search form (game/matches/history.py)."""
from django.shortcuts import render
from django.utils.http import urlencode

from .matches import history, services
from .matches.errors import InvalidInput


def games(request):
    errors = {}
    search = history.Search()
    try:
        search = history.read_search(request.GET, request.user)
    except InvalidInput as exc:
        errors[exc.field] = str(exc)
    found, older = None, None
    if not errors:
        try:
            found = history.search_page(search, request.user, history.PAGE, request.GET.get("after"))
        except InvalidInput as exc:
            errors[exc.field] = str(exc)
        else:
            if found.after:
                older = "?" + urlencode(dict(search.query(), after=found.after))
    return render(request, "game/games.html", {
        "games": found.games if found else [], "older": older, "errors": errors, "form": request.GET,
        "player_counts": range(1, services.MAX_PLAYERS + 1), "opponents": history.opponent_kinds(),
        "searching": any(request.GET.get(name) for name in history.FIELDS),
    }, status=400 if errors else 200)
