"""The official rulings as an API: GET /api/rulings/, optionally narrowed to a card or a rules topic."""
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.catalogue.serializers import RulingSerializer
from cardsite.errors import InvalidField

from .rules import anchor_ids, rulings

FILTERS = {"dragon": "dragons", "cave": "caves", "guild": "guilds", "objective": "objectives"}


class RulingListView(APIView):
    authentication_classes = []  # public reference text
    permission_classes = []

    @extend_schema(parameters=[
        *[OpenApiParameter(name, int, description=f"Only rulings about {kind[:-1]} number N.")
          for name, kind in FILTERS.items()],
        OpenApiParameter("topic", str, description="Only rulings about this rules anchor (e.g. `excavate`)."),
    ], responses={200: RulingSerializer(many=True)}, summary="Official rulings, in our own words, with sources")
    def get(self, request):
        found = rulings.all_rulings()
        known = set(FILTERS) | {"topic", "format"}
        for name in request.query_params:
            if name not in known:
                raise InvalidField(name, f"unknown parameter; known: {', '.join(sorted(known))}")
        for name, kind in FILTERS.items():
            raw = request.query_params.get(name)
            if raw is None:
                continue
            if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 1000:
                raise InvalidField(name, "expected a card number")
            found = [ruling for ruling in found if int(raw) in ruling.cards(kind)]
        topic = request.query_params.get("topic")
        if topic is not None:
            if topic not in anchor_ids():
                raise InvalidField("topic", "not a rules topic; use an anchor of /rules/ such as 'excavate'")
            found = [ruling for ruling in found if topic in ruling.topics]
        return Response([ruling.to_dict() for ruling in found])
