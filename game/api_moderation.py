"""Chat moderation over the API: report a chat line to staff, mute or unmute a player (game/matches/moderation.py)."""
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from .api_matches import MatchAPIView, request_body
from .matches import access, moderation
from .matches.errors import InvalidInput
from .models import ChatMute


def _only(body, allowed, what):
    unknown = set(body) - set(allowed)
    if unknown:
        raise InvalidInput(sorted(unknown)[0], f"is not part of {what} ({', '.join(allowed)})")


class ChatReportView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT,
                                                           400: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("A report", value={"reason": "abuse", "note": "insults"},
                                            request_only=True)],
                   summary="Report a chat line to staff (reason: abuse, spam, cheating or other; a note of at most "
                           "300 characters); reporting it again is the same report",
                   operation_id="matches_chat_report")
    def post(self, request, match_id, message_id):
        match = access.check(request, access.find(match_id))
        body = request_body(request)
        _only(body, ("reason", "note"), "a report")
        if "reason" not in body:
            raise InvalidInput("reason", "required")
        report, made = moderation.report(request.user, match, message_id, body["reason"], body.get("note", ""))
        return Response({"report": report.pk, "message": report.message_id, "reason": report.reason,
                         "open": report.outcome == "", "new": made},
                        status=status.HTTP_201_CREATED if made else status.HTTP_200_OK)


class MuteView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="Whether you mute this player",
                   operation_id="players_mute_read")
    def get(self, request, username):
        other = moderation.player(username)
        return Response({"player": other.username,
                         "muted": ChatMute.objects.filter(user=request.user, muted=other).exists()})

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
                   summary="Mute a player: their chat lines are no longer shown to you, in any match",
                   operation_id="players_mute")
    def put(self, request, username):
        other = moderation.mute(request.user, username)
        return Response({"player": other.username, "muted": True})

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
                   summary="Unmute a player", operation_id="players_unmute")
    def delete(self, request, username):
        other = moderation.unmute(request.user, username)
        return Response({"player": other.username, "muted": False})
