"""The records API: a finished match's game record as text, and any record replayed through the engine.

The record format is documented in game/engine/record.py and docs/matches.md ("Game records")."""
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from game.analysis.service import final_score

from .matches import access, records, services


class MatchRecordView(APIView):
    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR, 404: OpenApiTypes.OBJECT,
                              409: OpenApiTypes.OBJECT},
                   summary="A finished match's game record (text)", operation_id="matches_record")
    def get(self, request, match_id):
        match = access.check(request, services.read_match(match_id))
        text = records.export(match)
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        if request.GET.get("download"):
            response["Content-Disposition"] = f'attachment; filename="wyrmdex-match-{match.public_id}.txt"'
        return response


class RecordReplayView(APIView):
    rate_limit = "try"  # works out an answer and stores nothing (cardsite/middleware.py)

    @extend_schema(
        request={"application/json": {"type": "object", "properties": {"record": {"type": "string"}},
                                      "required": ["record"]}},
        responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
        summary="Replay a game record through the engine: its setup, moves and final breakdown",
        operation_id="records_replay",
        examples=[OpenApiExample("A record", value={"record": '[Format "wyrmdex-record 1"]\n[Players "2"]\n'
                                                              '[Seed "5"]\n\n1. s1 discard_cards dragon 13 cave 34\n'})])
    def post(self, request):
        body = request.data if isinstance(request.data, dict) else {}
        parsed, st, snapshot = records.replay(body.get("record"))
        final = final_score(st)
        if final is not None:
            final["names"] = records.names(parsed) + final["names"][parsed.options["players"]:]
        return Response({"format": parsed.tags["Format"], "tags": parsed.tags, "options": parsed.options,
                         "moves": len(parsed.decisions), "finished": st.result is not None,
                         "final": final, "cards": snapshot.digest})
