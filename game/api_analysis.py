"""The analysis board's API: a position in, what the engine asks (options with cost and gain, refusals with their
rule), the steps taken (events narrated, changes) and the rulings the position touches out. Nothing is saved.

Bad input is a 400 in the one error shape whose `field` is the JSON path to blame: `position.edits[2].cave`,
`try.card`, `decisions[3]` (with the engine's own refusal).
"""
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.catalogue.serializers import RulingSerializer

from .analysis import service

EXAMPLE = {
    "position": {"setup": {"players": 2, "seed": 1},
                 "edits": [{"do": "excavate", "seat": 0, "cave": "crimson_cavern", "column": 3},
                           {"do": "nest", "seat": 0, "eggs": 2}, {"do": "coins", "seat": 0, "coins": 3}],
                 "seat": 0},
    "try": {"seat": 0},
    "decisions": [],
}


class OptionSerializer(serializers.Serializer):
    kind = serializers.CharField()
    args = serializers.ListField(child=serializers.JSONField())
    label = serializers.CharField()
    detail = serializers.CharField(allow_null=True)
    cost = serializers.DictField(child=serializers.IntegerField(), help_text="Items this option costs (the engine's "
                                                                             "state.option_info).")
    gain = serializers.DictField(child=serializers.IntegerField(), help_text="Items this option gives.")
    card = serializers.JSONField(required=False, help_text="The card it concerns: {type, index, number, name}.")
    cave = serializers.CharField(required=False, help_text="The cave it concerns.")
    space = serializers.JSONField(required=False, help_text="The mat space it concerns: {cave, column}.")
    result = serializers.ListField(child=serializers.CharField(), required=False,
                                   help_text="What taking it changes, in words, up to the next question.")
    rules = serializers.CharField(allow_null=True, help_text="The rule behind this kind of option, on /rules/.")


class RefusedSerializer(OptionSerializer):
    reason = serializers.CharField(help_text="The engine's own words for why this is not allowed now.")
    hint = serializers.CharField(required=False, allow_null=True, help_text="A closer reason, where one is known.")


class BrokenRuleSerializer(serializers.Serializer):
    rule = serializers.ChoiceField(["habitat", "from_left", "expansion"], help_text="Which rule the position breaks.")
    seat = serializers.IntegerField()
    cave = serializers.CharField()
    column = serializers.IntegerField()
    text = serializers.CharField(help_text="What is wrong, in words.")
    rules = serializers.CharField(allow_null=True, help_text="The rule, on /rules/.")


class PendingSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    who = serializers.CharField()
    prompt = serializers.CharField()
    kind = serializers.CharField(help_text="The question's kind (game/language/questions.py).")
    data = serializers.JSONField(help_text="The question's data, as its kind declares.")
    options = OptionSerializer(many=True)
    not_allowed = RefusedSerializer(many=True)


class StepSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    label = serializers.CharField()
    events = serializers.ListField(child=serializers.JSONField(), help_text="[{event, text}] in order.")
    changes = serializers.ListField(child=serializers.JSONField(), required=False)


class AnalysisSerializer(serializers.Serializer):
    notes = serializers.ListField(child=serializers.CharField())
    steps = StepSerializer(many=True)
    decisions = serializers.ListField(child=serializers.JSONField(), help_text="The branch, to replay or extend.")
    turn_start = serializers.BooleanField(help_text="The decisions led to a new turn's main action.")
    finished = serializers.BooleanField(help_text="The game is over.")
    final = serializers.JSONField(allow_null=True, help_text="Once the game is over, the final count by category: "
                                                             "`names` (a column per player, the Automa last in a solo "
                                                             "game), `rows` [{key, label, automa, values}] (null where "
                                                             "a category is not that column's), `totals`, `places`.")
    broken_rules = BrokenRuleSerializer(many=True, help_text="Rules of the game the position breaks (allowed, for "
                                                              "what-if questions, but said): game/analysis/checks.py.")
    pending = PendingSerializer(allow_null=True)
    rulings = RulingSerializer(many=True)
    table = serializers.JSONField(help_text="Everything on the table, for drawing it.")
    drawing = serializers.JSONField(help_text="The shared table as the match page draws it: `view` (the engine's "
                                              "view_for a spectator), `board` (printed facts), `cards`, `guild_rows`, "
                                              "`objective_texts`.")
    position = serializers.JSONField(help_text="The position it ends in (docs/positions.md): send it back to go on.")


class AnalysisView(APIView):
    rate_limit = "try"  # works out an answer and stores nothing (cardsite/middleware.py)
    authentication_classes = []  # nothing is saved, so no session (and no CSRF token) is needed
    permission_classes = []

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: AnalysisSerializer, 400: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("What excavating the 3rd Crimson space costs", value=EXAMPLE,
                                            request_only=True)],
                   summary="Analyse a position: try a main action, a card's ability or the end of the turn, round or game for a seat")
    def post(self, request):
        return Response(service.analyse(request.data))


class ConsideredSerializer(serializers.Serializer):
    kind = serializers.CharField()
    args = serializers.ListField(child=serializers.JSONField())
    label = serializers.CharField()
    playouts = serializers.IntegerField(help_text="Playouts the search gave this option.")
    win = serializers.FloatField(allow_null=True, help_text="Estimated chance to win after it, 0 to 1 (null in a "
                                                            "solo game).")
    margin = serializers.FloatField(help_text="Mean VP ahead of the strongest opponent at the playouts' end (in a "
                                              "solo game: the player's own expected VP).")
    interval = serializers.ListField(child=serializers.FloatField(), allow_null=True,
                                     help_text="The 95 % interval of `margin` from the playouts' spread, [low, high] "
                                               "(null below 2 playouts).")
    lead = serializers.ListField(child=serializers.FloatField(), allow_null=True,
                                 help_text="The 95 % interval of the preferred option's lead over this one in the same "
                                           "playouts (paired: the k-th playouts share samples and dice); null for the "
                                           "preferred option and below 2 playouts.")
    greedy = serializers.FloatField(help_text="The same measure one move ahead (how the options were shortlisted).")


class EngineSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    who = serializers.CharField()
    prompt = serializers.CharField()
    budget = serializers.FloatField(help_text="Seconds of search (CPU) asked for.")
    max_budget = serializers.FloatField(help_text="The most seconds a request may ask for (thinking longer stops "
                                                  "there).")
    measure = serializers.ChoiceField(["margin", "score"], help_text="What `margin` means: VP ahead of the "
                                                                     "strongest opponent, or (solo) expected VP.")
    preferred = serializers.JSONField(help_text="The option the strong bot prefers: {kind, args, label}.")
    win = serializers.FloatField(allow_null=True)
    margin = serializers.FloatField()
    interval = serializers.ListField(child=serializers.FloatField(), allow_null=True,
                                     help_text="The preferred option's 95 % interval of `margin`.")
    settled = serializers.BooleanField(help_text="The preferred option's lead over every other option has an interval "
                                                 "above 0: more thinking is unlikely to change the choice.")
    closest = serializers.JSONField(allow_null=True, help_text="The option whose lead interval reaches lowest, "
                                                               "{label, lead}: the preferred option's nearest rival.")
    playouts = serializers.IntegerField()
    considered = ConsideredSerializer(many=True, help_text="The options the search tried, best estimate first.")
    offered = serializers.IntegerField(help_text="How many options the question offers.")


class EngineView(APIView):
    """The strong bot's opinion of the branch's pending decision (game/analysis/service.py `engine`)."""

    rate_limit = "try"  # works out an answer and stores nothing (cardsite/middleware.py)

    authentication_classes = []
    permission_classes = []

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: EngineSerializer, 400: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("The strong bot's choice of a first main action",
                                            value=dict(EXAMPLE, budget=0.5), request_only=True)],
                   summary="Ask the strong bot which option it prefers at the pending decision, and its estimates")
    def post(self, request):
        return Response(service.engine(request.data))
