"""The game history API: finished games, newest first, searched by player, date, player count, expansion, opponent
kind, result and score (`GET /api/games/`, docs/matches.md, "Game history")."""
from django.utils.http import urlencode
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from .matches import history
from .matches.errors import InvalidInput

QUERY_FIELDS = history.FIELDS + ("limit", "after")


class GameHistoryView(APIView):
    @extend_schema(parameters=[
        OpenApiParameter("player", str, description="A player's username: their games only."),
        OpenApiParameter("date_from", str, description="Finished on or after this day (YYYY-MM-DD)."),
        OpenApiParameter("date_to", str, description="Finished on or before this day (YYYY-MM-DD)."),
        OpenApiParameter("players", int, description="Player count, 1 (solo against the Automa) to 5."),
        OpenApiParameter("academy", str, enum=["yes", "no"], description="With the Dragon Academy or without."),
        OpenApiParameter("opponent", str, description="An opponent kind: human, bot:<level> or automa:<level> (the "
                                                      "chosen player's opponent, or anyone's)."),
        OpenApiParameter("result", str, enum=list(history.RESULTS), description="The chosen player won or lost."),
        OpenApiParameter("score_min", int, description="The chosen player (or some seat) scored at least this."),
        OpenApiParameter("score_max", int, description="The chosen player (or some seat) scored at most this."),
        OpenApiParameter("limit", int, description=f"Games per page, 1 to {history.MAX_PAGE} "
                                                   f"(default {history.PAGE})."),
        OpenApiParameter("after", str, description="The games after this one (the cursor of the page before)."),
    ], responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
        summary="Finished games, newest first, with each seat's score and place", operation_id="games")
    def get(self, request):
        unknown = set(request.query_params) - set(QUERY_FIELDS)
        if unknown:
            raise InvalidInput(sorted(unknown)[0], f"is not a game history parameter ({', '.join(QUERY_FIELDS)})")
        search = history.read_search(request.query_params, request.user)
        limit = history.page_length(request.query_params.get("limit"))
        found = history.search_page(search, request.user, limit, request.query_params.get("after"))
        following = None
        if found.after is not None:
            query = dict(search.query(), limit=limit, after=found.after)
            following = request.build_absolute_uri(f"{request.path}?{urlencode(query)}")
        return Response({"after": found.after, "next": following,
                         "results": [history.game_json(g) for g in found.games]})
