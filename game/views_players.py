"""Player pages: a player's profile (where its owner may hide it) and the leaderboards."""
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from .players import boards, profiles


def profile(request, username):
    data = profiles.profile(username, request.user, request.session)
    return render(request, "game/player_profile.html", {"profile": data})


@login_required
@require_POST
def visibility(request, username):
    """The owner hides their profile or shows it again; anyone else is told there is no such player."""
    user = profiles.find_player(username, request.user)
    if user.pk != request.user.pk:
        raise profiles.no_such_player(username)
    profiles.set_hidden(user, request.POST.get("hidden") == "on")
    return redirect("player", username=username)


def leaderboards(request):
    pool, _, limit, after = boards.read_params(request.GET)
    return render(request, "game/leaderboards.html", {
        "people": boards.page(pool, "people", limit, after),
        "engines": boards.page(pool, "engines", boards.MAX_LIMIT) if after is None else None,
        "pools": boards.pools(), "pool": pool,
    })
