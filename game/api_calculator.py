"""The score calculator's API: score a sheet, save it, read a saved sheet, and a signed-in player's history.

Every view parses the request, calls one service function and returns its result; a sheet with mistakes is a 400
whose `errors` name each field (e.g. `players[1].dragons[0].cave`), and nothing is saved; errors are answered
by cardsite.api_errors in the one body shape.
"""
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from .calculator import services
from .models import ScoreSheet

EXAMPLE = {
    "mode": "quick",
    "academy": True,  # Ben's fledglings come with Dragon Academy
    "players": [
        {"name": "Ann", "guild_markers": [6], "dragon_vp": 31, "end_game_vp": 9, "eggs": 8, "cached": 5, "tucked": 3,
         "objective_vp": 12, "coins": 2, "items": 7, "fledglings": 0, "visible_dragons": 10},
        {"name": "Ben", "guild_markers": [3, 1], "dragon_vp": 28, "end_game_vp": 4, "eggs": 11, "cached": 2,
         "tucked": 6, "objective_vp": 9, "coins": 1, "items": 4, "fledglings": 2, "visible_dragons": 11},
    ],
}


def sheet_json(sheet, request):
    return {"code": sheet.code, "url": request.build_absolute_uri(sheet.get_absolute_url()), "title": sheet.title,
            "created": sheet.created.isoformat(), "sheet": sheet.data, "result": sheet.result}


class ScoreView(APIView):
    """Score a sheet without saving it."""

    rate_limit = "try"  # works out an answer and stores nothing (cardsite/middleware.py)

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("Two players, quick mode", value=EXAMPLE, request_only=True)],
                   summary="Score a table game (quick totals or card by card)")
    def post(self, request):
        sheet, result = services.score(request.data)
        return Response({"sheet": sheet, "result": result})


class SheetListView(APIView):
    """Save a scored sheet; it gets a permalink, and belongs to the signed-in player if any."""

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("Two players, quick mode", value=EXAMPLE, request_only=True)],
                   summary="Score and save a sheet")
    def post(self, request):
        owner = request.user if request.user.is_authenticated else None
        sheet = services.save(request.data, owner=owner)
        return Response(sheet_json(sheet, request), status=status.HTTP_201_CREATED)


class SheetDetailView(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="A saved sheet, by the code in its permalink")
    def get(self, request, code):
        return Response(sheet_json(get_object_or_404(ScoreSheet, code=code), request))


class HistoryView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="Your saved sheets and statistics")
    def get(self, request):
        sheets = services.history(request.user)
        return Response({
            "statistics": services.statistics(request.user),
            "sheets": [{"code": s.code, "url": request.build_absolute_uri(s.get_absolute_url()), "title": s.title,
                        "created": s.created.isoformat(), "winners": s.result["winners"]} for s in sheets],
        })
