"""The lobby API: the seeks waiting for players and the games being played (`GET /api/lobby/`), quick pairing
(`POST /api/lobby/quick/`) and filling your own seek with bots (`POST /api/lobby/<id>/fill/`). Joining a seek is
the matches API's join; opening one is its create, with `rated`, `min_rating` and `bot_fill`."""
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from .api_matches import MatchAPIView
from .matches import lobby, present, services
from .matches.errors import InvalidInput

QUERY_FIELDS = ("limit", "after")


class LobbyView(APIView):
    @extend_schema(parameters=[
        OpenApiParameter("limit", int, description=f"Rows of each list, 1 to {lobby.MAX_PAGE} "
                                                   f"(default {lobby.PAGE})."),
        OpenApiParameter("after", str, description="The seeks after this one (the `next` of the page before)."),
    ], responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
        summary="Seeks waiting for players (oldest first) and public games being played (last moved first)",
        operation_id="lobby")
    def get(self, request):
        unknown = set(request.query_params) - set(QUERY_FIELDS)
        if unknown:
            raise InvalidInput(sorted(unknown)[0], f"is not a lobby parameter ({', '.join(QUERY_FIELDS)})")
        limit = lobby.page_length(request.query_params.get("limit"))
        seeks, after = lobby.seeks(limit, request.query_params.get("after"))
        return Response({
            "seeks": [lobby.seek_json(m, request.user) for m in seeks], "next": after,
            "live": [lobby.live_json(m) for m in lobby.live_games(limit)],
        })


class LobbyQuickView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 201: OpenApiTypes.OBJECT},
                   summary="Any 2-player game now: join the oldest fitting seek (200) or open one (201)",
                   operation_id="lobby_quick")
    def post(self, request):
        match, joined = lobby.quick_pair(request.user)
        body = present.match_json(services.readable().get(pk=match.pk), request.user)
        return Response(body, status=status.HTTP_200_OK if joined else status.HTTP_201_CREATED)


class LobbyFillView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT},
                   summary="Bots take the empty seats of your seek, which starts (its creator only)",
                   operation_id="lobby_fill")
    def post(self, request, match_id):
        match = services.fill_with_bots(match_id, request.user)
        return Response(present.match_json(services.readable().get(pk=match.pk), request.user))
