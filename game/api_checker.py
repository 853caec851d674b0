"""The ability checker's API: run one card's ability in a small situation, step by step.

POST runs a check ({card, ability, situation, decisions, auto}); GET ?card=... lists a card's abilities. Bad input
is a 400 whose `field` names the JSON path to blame (e.g. `situation.dragons[1].cave`, `decisions[2]` with the
engine's own refusal); nothing is ever saved.
"""
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from .checker import services
from .checker.errors import CheckerInputError

EXAMPLE = {
    "card": "Smirking Ridgeback",
    "ability": 0,
    "situation": {
        "players": 2, "seed": 7, "at": {"cave": "crimson_cavern", "column": 2},
        "dragons": [{"card": "Genial Mothdragon", "cave": "crimson_cavern", "column": 1, "eggs": 1}],
        "hand": 2, "resources": {"meat": 1, "milk": 2}, "coins": 4,
    },
    "decisions": [{"kind": "yes", "args": []}],
}


class CheckerView(APIView):
    rate_limit = "try"  # works out an answer and stores nothing (cardsite/middleware.py)
    authentication_classes = []  # nothing is saved, so no session (and no CSRF token) is needed
    permission_classes = []

    @extend_schema(parameters=[OpenApiParameter("card", str, required=True,
                                                description="A dragon's name or number, 'cave 12' or 'guild 2'.")],
                   responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
                   summary="A card and the abilities the checker can run for it")
    def get(self, request):
        card = request.query_params.get("card")
        if not card:
            raise CheckerInputError("card", "required: a dragon's name or number, 'cave 12' or 'guild 2'")
        return Response(services.card_info(card))

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("A once-per-round tuck, after saying yes", value=EXAMPLE,
                                            request_only=True)],
                   summary="Run a card's ability in a small situation, replaying the decisions given")
    def post(self, request):
        return Response(services.check(request.data))
