"""The matches API: list and open matches, join and start them, read your view, list your options, decide.

Each view parses the request, calls one service function and returns what a player may see. Errors: a field with
the wrong type or an illegal decision is 400 with a message a player can read, acting out of turn or without a seat
is 403, a stale version or a full or finished match is 409, and nothing is saved.
"""
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from .matches import present, services
from .matches.errors import InvalidInput
from .models import Match

LIST_LENGTH = 50


def _matches():
    return Match.objects.select_related("creator").prefetch_related("seats__user")


def _body(request):
    if not isinstance(request.data, dict):
        raise InvalidInput("body", "expected a JSON object")
    return request.data


class MatchAPIView(APIView):
    """Errors (the matches' own, the engine's refusals) are answered by cardsite.api_errors, like every API's."""


class MatchListView(MatchAPIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(parameters=[
        OpenApiParameter("status", str, enum=[s.value for s in Match.Status],
                         description="Only matches in this state."),
        OpenApiParameter("mine", bool, description="Only matches where you have a seat."),
    ], responses={200: OpenApiTypes.OBJECT}, summary="List matches (newest first)", operation_id="matches_list")
    def get(self, request):
        matches = _matches()
        wanted = request.query_params.get("status")
        if wanted is not None:
            if wanted not in Match.Status.values:
                raise InvalidInput("status", f"expected one of {', '.join(Match.Status.values)}")
            matches = matches.filter(status=wanted)
        mine = request.query_params.get("mine")
        if mine is not None:
            if mine not in ("true", "false"):
                raise InvalidInput("mine", "expected true or false")
            if mine == "true":
                if not request.user.is_authenticated:
                    raise InvalidInput("mine", "sign in to list your own matches")
                matches = matches.filter(seats__user=request.user)
        return Response({"results": [present.summary(m, request.user) for m in matches[:LIST_LENGTH]]})

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("Three players with Dragon Academy",
                                            value={"players": 3, "academy": True, "updated": True},
                                            request_only=True)],
                   summary="Open a match; you take the first seat", operation_id="matches_create")
    def post(self, request):
        body = _body(request)
        unknown = set(body) - {"players", "academy", "updated"}
        if unknown:
            raise InvalidInput(sorted(unknown)[0], "is not a match option (players, academy, updated)")
        match = services.create_match(request.user, body.get("players", 2), body.get("academy", False),
                                      body.get("updated"))
        return Response(present.match_json(match, request.user), status=status.HTTP_201_CREATED)


class MatchDetailView(MatchAPIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="A match as you may see it",
                   operation_id="matches_retrieve")
    def get(self, request, pk):
        match = get_object_or_404(_matches(), pk=pk)
        # Polling pages ask every few seconds: an unchanged match for the same viewer is a 304, not a new view.
        etag = f'"m{match.pk}-v{match.version}-{match.status}-s{len(match.seats.all())}-u{request.user.pk or 0}"'
        if etag in request.headers.get("If-None-Match", ""):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            response = Response(present.match_json(match, request.user))
        response["ETag"] = etag
        response["Cache-Control"] = "private, no-cache"
        return response


class MatchJoinView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
                   summary="Take the next free seat", operation_id="matches_join")
    def post(self, request, pk):
        match = services.join_match(pk, request.user)
        return Response(present.match_json(_matches().get(pk=match.pk), request.user))


class MatchStartView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT},
                   summary="Start with the players seated so far (the creator only)",
                   operation_id="matches_start")
    def post(self, request, pk):
        match = services.start_match(pk, request.user)
        return Response(present.match_json(_matches().get(pk=match.pk), request.user))


class MatchOptionsView(MatchAPIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="Your legal options, when it is your turn",
                   operation_id="matches_options")
    def get(self, request, pk):
        match = get_object_or_404(_matches(), pk=pk)
        return Response(present.options_json(match, request.user))


class MatchDecisionView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=OpenApiTypes.OBJECT,
                   responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT,
                              409: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("Choose starting resources",
                                            value={"version": 1, "option": {"kind": "resources",
                                                                            "args": ["meat", "gold", "milk"]}},
                                            request_only=True)],
                   summary="Take a decision; `version` is the match version you chose at",
                   operation_id="matches_decide")
    def post(self, request, pk):
        body = _body(request)
        unknown = set(body) - {"version", "option"}
        if unknown:
            raise InvalidInput(sorted(unknown)[0], "is not part of a decision (version, option)")
        if "version" not in body:
            raise InvalidInput("version", "required: the match version you chose at")
        if "option" not in body:
            raise InvalidInput("option", 'required: an option such as {"kind": "pass", "args": []}')
        match = services.submit_decision(pk, request.user, body["version"], body["option"])
        return Response(present.match_json(_matches().get(pk=match.pk), request.user),
                        status=status.HTTP_201_CREATED)
