"""The players API: a player's profile and the leaderboards, as JSON (docs/matches.md, "Profiles and
leaderboards")."""
from django.urls import reverse
from django.utils.http import urlencode
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from .players import boards, profiles


def _tally(t):
    return {"key": t.key, "label": t.label, "played": t.played, "won": t.won, "mean_score": t.mean, "best_score": t.best}


def profile_json(data, request):
    return {
        "username": data.user.username, "hidden": data.hidden,
        "url": request.build_absolute_uri(reverse("player", args=[data.user.username])),
        "games": _tally(data.overall),
        "by_players": [_tally(t) for t in data.by_players],
        "by_expansion": [_tally(t) for t in data.by_expansion],
        "ratings": [{"pool": r.pool, "name": r.name, "rating": round(r.rating, 1), "rd": round(r.rd, 1),
                     "games": r.games, "provisional": r.provisional,
                     "history": [{"match": h["match"], "before": round(h["before"], 1), "after": round(h["after"], 1),
                                  "rd": round(h["rd"], 1), "at": h["at"].isoformat()} for h in r.history]}
                    for r in data.ratings],
        "recent": [{"match": g.match.public_id, "url": g.match.get_absolute_url(), "status": g.match.status,
                    "players": g.match.players, "academy": g.match.academy, "opponents": g.opponents,
                    "place": g.place, "won": g.won, "score": g.score} for g in data.recent],
        "favourite_dragons": [dict(_tally(f), number=f.number, name=f.label) for f in data.favourites],
    }


class PlayerView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT},
                   summary="A player's profile: games, scores, ratings and their history, recent matches, "
                           "favourite dragons", operation_id="players_profile")
    def get(self, request, username):
        return Response(profile_json(profiles.profile(username, request.user, request.session), request))


class LeaderboardView(APIView):
    @extend_schema(parameters=[
        OpenApiParameter("pool", str, enum=["all", "1", "2", "3", "4", "5"], description="all games, solo (1), or "
                                                                                          "a player count"),
        OpenApiParameter("who", str, enum=list(boards.WHO), description="people, or the bots and Automa levels"),
        OpenApiParameter("limit", int, description=f"entries per page, 1 to {boards.MAX_LIMIT}"),
        OpenApiParameter("after", str, description="the cursor of the page before (its `next` address has it)")],
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
        summary="A pool's ratings, highest first", operation_id="leaderboards")
    def get(self, request):
        pool, who, limit, after = boards.read_params(request.query_params)
        found = boards.page(pool, who, limit, after)
        following = None
        if found.after is not None:
            query = urlencode({"pool": pool, "who": who, "limit": limit, "after": found.after})
            following = request.build_absolute_uri(f"{request.path}?{query}")
        return Response({
            "pool": found.pool, "pool_name": found.pool_name, "who": found.who, "next": following,
            "results": [{"rank": e.rank, "name": e.name, "username": e.username,
                         "profile": request.build_absolute_uri(e.url) if e.url else None, "engine": e.engine or None,
                         "rating": round(e.rating, 1), "rd": round(e.rd, 1), "games": e.games,
                         "provisional": e.provisional} for e in found.entries],
        })
