"""The matches API: list and open matches, join (also by invite link) and start them, read your view, list your
options, decide, resign, abort, ask for a rematch, chat, and set how you hear about your turns.

Each view parses the request, calls one service function and returns what a player may see. Errors: a field with
the wrong type or an illegal decision is 400 with a message a player can read, acting out of turn or without a seat
is 403, a stale version or a full or finished match is 409, and nothing is saved.
"""
from django.db.models import Q
from django.http import Http404
from django.utils.cache import patch_vary_headers
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from cardsite.api_errors import answer

from .matches import access, notify, orders, polling, present, proposals, services, table, vacation
from .matches.errors import InvalidInput
from .models import Match, MatchSeat

CREATE_FIELDS = ("players", "academy", "updated", "days_per_move", "on_timeout", "private", "timeout_level", "rated",
                 "min_rating", "bot_fill", "time_control", "bank_days", "increment_days")
PLAY_NOW_FIELDS = ("opponent", "automa_level", "ravel", "bot_levels", "academy")

LIST_LENGTH = 50


def _matches():
    return services.readable()


def _visible(matches, user):
    """Private matches are listed only to their players."""
    if not user.is_authenticated:
        return matches.filter(private=False)
    return matches.filter(Q(private=False) | Q(pk__in=MatchSeat.objects.filter(user=user).values("match")))


def request_body(request):
    """The request's JSON object, or a 400 naming `body`."""
    if not isinstance(request.data, dict):
        raise InvalidInput("body", "expected a JSON object")
    return request.data


def _wants_minimal(request):
    """Whether the request says `Prefer: return=minimal` (RFC 7240), among any other preferences it names."""
    for preference in request.headers.get("Prefer", "").split(","):
        name, _, value = preference.split(";")[0].partition("=")
        if name.strip().lower() == "return" and value.strip().strip('"').lower() == "minimal":
            return True
    return False


def _moved(request, match):
    """The answer to a stored move: the whole match as the player sees it (`present.match_json`), or with
    `Prefer: return=minimal` its summary and `your_turn` only (`present.moved_json`), for a client that reads the
    view next anyway, as the board does."""
    if _wants_minimal(request):
        response = Response(present.moved_json(match, request.user), status=status.HTTP_201_CREATED)
        response["Preference-Applied"] = "return=minimal"
    else:
        response = Response(present.match_json(match, request.user), status=status.HTTP_201_CREATED)
    patch_vary_headers(response, ["Prefer"])
    return response


PREFER = OpenApiParameter(
    "Prefer", str, OpenApiParameter.HEADER, required=False, enum=["return=minimal"],
    description="`return=minimal`: answer the match's summary and `your_turn` only, not the whole view (the board "
                "reads the view with its next poll); the answer then says `Preference-Applied: return=minimal`.")


class MatchAPIView(APIView):
    """Errors (the matches' own, the engine's refusals) are answered by cardsite.api_errors, like every API's.

    A refusal about a private match the asker may not see (not seated, no link: game/matches/access.py) is the 404
    of a match that does not exist, whatever was refused, so no answer tells a stranger that the match is there."""

    def handle_exception(self, exc):
        match_id = self.kwargs.get("match_id")
        if match_id is not None and not isinstance(exc, Http404):
            found = answer(exc)
            if found is not None and 400 <= found[0] < 500 and found[0] != 429 \
                    and not access.may_view_key(self.request, match_id):
                exc = access.no_such_match(match_id)
        return super().handle_exception(exc)


class MatchListView(MatchAPIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(parameters=[
        OpenApiParameter("status", str, enum=[s.value for s in Match.Status],
                         description="Only matches in this state."),
        OpenApiParameter("mine", bool, description="Only matches where you have a seat."),
    ], responses={200: OpenApiTypes.OBJECT}, summary="List matches (newest first)", operation_id="matches_list")
    def get(self, request):
        matches = _visible(_matches(), request.user)
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
                   examples=[OpenApiExample("Three players with Dragon Academy, 1 day per move",
                                            value={"players": 3, "academy": True, "updated": True,
                                                   "days_per_move": 1, "on_timeout": "bot", "private": False},
                                            request_only=True)],
                   summary="Open a match; you take the first seat", operation_id="matches_create")
    def post(self, request):
        body = request_body(request)
        unknown = set(body) - set(CREATE_FIELDS)
        if unknown:
            raise InvalidInput(sorted(unknown)[0], f"is not a match option ({', '.join(CREATE_FIELDS)})")
        match = services.create_match(request.user, **body)
        return Response(present.match_json(match, request.user), status=status.HTTP_201_CREATED)


class MatchPlayNowView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("Against two bots", value={"opponent": "bots",
                                                                       "bot_levels": ["strong", "greedy"]},
                                            request_only=True),
                             OpenApiExample("Solo against the Automa", value={"opponent": "automa",
                                                                              "automa_level": 2, "ravel": False},
                                            request_only=True)],
                   summary="Start a game at once against the Automa or 1-4 bots; you take the first seat",
                   operation_id="matches_play_now")
    def post(self, request):
        body = request_body(request)
        unknown = set(body) - set(PLAY_NOW_FIELDS)
        if unknown:
            raise InvalidInput(sorted(unknown)[0], f"is not a play-now option ({', '.join(PLAY_NOW_FIELDS)})")
        match = services.play_now(request.user, **body)
        return Response(present.match_json(_matches().get(pk=match.pk), request.user),
                        status=status.HTTP_201_CREATED)


class MatchDetailView(MatchAPIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="A match as you may see it",
                   operation_id="matches_retrieve")
    def get(self, request, match_id):
        # Polling pages ask every few seconds: an unchanged match for the same viewer is a 304 from one small query
        # (game/matches/polling.py; its middleware usually answers before the session is read).
        who = polling.asker(request)
        unchanged = polling.unchanged(request, match_id, who)
        if unchanged is not None:
            return unchanged
        match = access.check(request, services.read_match(match_id, log_length=present.LOG_LENGTH))
        seated = request.user.pk if services.seat_of(match, request.user) is not None else None
        if seated is not None:
            notify.at_table(match.pk, seated)  # no turn emails while the page is open (game/matches/notify.py)
        response = Response(present.match_json(match, request.user))
        response["ETag"] = polling.etag(match.public_id, match.version, match.status, match.changed, who, seated)
        response["Cache-Control"] = "private, no-cache"
        return response


class MatchJoinView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
                   summary="Take the next free seat", operation_id="matches_join")
    def post(self, request, match_id):
        match = services.join_match(match_id, request.user)
        return Response(present.match_json(_matches().get(pk=match.pk), request.user))


class MatchStartView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT},
                   summary="Start with the players seated so far (the creator only)",
                   operation_id="matches_start")
    def post(self, request, match_id):
        match = services.start_match(match_id, request.user)
        return Response(present.match_json(_matches().get(pk=match.pk), request.user))


class MatchOptionsView(MatchAPIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="Your legal options, when it is your turn",
                   description="The question (`kind` and `data`, see docs/engine.md, and its `prompt` in words) and "
                               "each legal option with its `label` and `info`: the card, space or cave it concerns "
                               "and what it costs and gives (`cost`, `gain`: item -> count).",
                   operation_id="matches_options")
    def get(self, request, match_id):
        match = access.check(request, services.read_match(match_id))
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
                   parameters=[PREFER],
                   summary="Take a decision; `version` is the match version you chose at",
                   operation_id="matches_decide")
    def post(self, request, match_id):
        body = request_body(request)
        unknown = set(body) - {"version", "option"}
        if unknown:
            raise InvalidInput(sorted(unknown)[0], "is not part of a decision (version, option)")
        if "version" not in body:
            raise InvalidInput("version", "required: the match version you chose at")
        if "option" not in body:
            raise InvalidInput("option", 'required: an option such as {"kind": "pass", "args": []}')
        match = services.submit_decision(match_id, request.user, body["version"], body["option"])
        # The match as the service left it (row, seats, state): the whole answer reads only the log and the chat,
        # the minimal one nothing.
        return _moved(request, match)


class MatchTurnView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=OpenApiTypes.OBJECT,
                   responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT,
                              409: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("Explore, then cache on the dragon it lets you use",
                                            value={"decisions": [
                                                {"version": 12, "option": {"kind": "explore", "args": [0]}},
                                                {"version": 13, "option": {"kind": "cache", "args": ["meat", 1]}}]},
                                            request_only=True)],
                   parameters=[PREFER],
                   summary="Send a confirmed turn: several decisions, stored all together or not at all",
                   description="Each decision names the version it expects: the first the match's current version "
                               "(else 409, someone moved first), each next one the version after the choices before "
                               "it. A malformed or illegal choice anywhere is a 400 whose `field` names it "
                               "(`decisions[2].option`), and nothing is stored.",
                   operation_id="matches_turn")
    def post(self, request, match_id):
        body = request_body(request)
        unknown = set(body) - {"decisions"}
        if unknown:
            raise InvalidInput(sorted(unknown)[0], "is not part of a turn (decisions)")
        if "decisions" not in body:
            raise InvalidInput("decisions", 'required: the turn\'s decisions, each {"version": ..., "option": ...}')
        match = services.submit_turn(match_id, request.user, body["decisions"])
        return _moved(request, match)


class MatchPreviewView(MatchAPIView):
    rate_limit = "try"  # works out an answer and stores nothing (cardsite/middleware.py)
    permission_classes = [IsAuthenticated]

    @extend_schema(request=OpenApiTypes.OBJECT,
                   responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT,
                              409: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("Try enticing a dragon before sending the turn",
                                            value={"version": 7, "options": [{"kind": "entice", "args": [12, 0]}]},
                                            request_only=True)],
                   summary="Try the choices of your turn without sending them",
                   description="Nothing is stored. `open` true: the table as it would be and the next question. "
                               "`open` false with a `reason` (reveal, turn_over, other_player, game_over): send the "
                               "choices as they are, one decision each.",
                   operation_id="matches_preview")
    def post(self, request, match_id):
        body = request_body(request)
        unknown = set(body) - {"version", "options"}
        if unknown:
            raise InvalidInput(sorted(unknown)[0], "is not part of a preview (version, options)")
        if "version" not in body:
            raise InvalidInput("version", "required: the match version you chose at")
        match = access.check(request, services.read_match(match_id))
        return Response(table.preview(match, request.user, body["version"], body.get("options")))


class MatchOrdersView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT},
                   summary="Your standing orders for offers at this match", operation_id="matches_orders_read")
    def get(self, request, match_id):
        match = access.check(request, services.read_match(match_id))
        return Response(orders.orders_json(match, request.user))

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT,
                                                           403: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("Always take a free offer, never pay to join",
                                            value={"free_offer": "yes", "paid_offer": "no"}, request_only=True)],
                   summary="Set your standing orders (ask, yes or no) for free and paid offers",
                   operation_id="matches_orders_set")
    def put(self, request, match_id):
        return Response(orders.set_orders(match_id, request.user, request.data))


class MatchReplayView(MatchAPIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT},
                   summary="The table after the first `number` decisions, as you may see it (replay viewer)",
                   operation_id="matches_replay_step")
    def get(self, request, match_id, number):
        match = access.check(request, services.read_match(match_id))
        return Response(present.replay_json(match, request.user, number))


def _action_view(service, summary, operation_id, description):
    class ActionView(MatchAPIView):
        permission_classes = [IsAuthenticated]

        @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 403: OpenApiTypes.OBJECT,
                                                409: OpenApiTypes.OBJECT},
                       summary=summary, description=description, operation_id=operation_id)
        def post(self, request, match_id):
            match = service(match_id, request.user)
            return Response(present.match_json(_matches().get(pk=match.pk), request.user))

    ActionView.__name__ = ActionView.__qualname__ = f"Match{operation_id.split('_')[1].title()}View"
    return ActionView


MatchResignView = _action_view(
    services.resign, "Resign: leave the match, placed last", "matches_resign",
    "With fewer than two players left in, the match ends; otherwise your seat passes from now on.")
MatchAbortView = _action_view(
    services.abort_match, "Abort the match before its first move", "matches_abort",
    "Any seated player or the creator; refused (409) once a decision was taken.")
MatchRematchView = _action_view(
    services.rematch, "Rematch: same players and options, new seed, seats rotated", "matches_rematch",
    "Answers the new match (already started). Asking again, or another player asking, answers the same one.")


class MatchInviteView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT,
                                                           409: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("The token of an invite link", value={"token": "Mw:1t8...:abc..."},
                                            request_only=True)],
                   summary="Take an open seat with an invite link's token (private matches too)",
                   operation_id="matches_join_by_invite")
    def post(self, request):
        body = request_body(request)
        unknown = set(body) - {"token"}
        if unknown:
            raise InvalidInput(sorted(unknown)[0], "is not part of an invite (token)")
        if "token" not in body:
            raise InvalidInput("token", "required: the token at the end of the invite link")
        match = services.join_match(services.match_of_invite(body["token"]), request.user, invited=True)
        return Response(present.match_json(_matches().get(pk=match.pk), request.user))


class MatchChatView(MatchAPIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="The match's chat (the last 100 lines)",
                   operation_id="matches_chat_list")
    def get(self, request, match_id):
        match = access.check(request, access.find(match_id))
        return Response({"results": present.chat_json(match, request.user)})

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT,
                                                           403: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("A line", value={"text": "Good luck, all!"}, request_only=True)],
                   summary="Write a line in the match's chat (seated players; at most 500 characters)",
                   operation_id="matches_chat_create")
    def post(self, request, match_id):
        body = request_body(request)
        unknown = set(body) - {"text"}
        if unknown:
            raise InvalidInput(sorted(unknown)[0], "is not part of a chat line (text)")
        if "text" not in body:
            raise InvalidInput("text", "required")
        message = services.post_chat(match_id, request.user, body["text"])
        return Response({"id": message.pk, "user": request.user.username, "text": message.text,
                         "created": message.created.isoformat()}, status=status.HTTP_201_CREATED)


def _proposal_answer(request, match_id, proposal=None):
    """A proposal's answer: the open proposal as the asker's page shows it (None once carried out or closed), the
    one just acted on, and the match's summary (its version and status after a take-back or an abandon)."""
    match = services.read_match(match_id)
    shown, _, key = proposals.shown(match, request.user)
    body = {"proposal": shown, "proposal_key": key, "match": present.summary(match, request.user)}
    if proposal is not None:
        body["acted_on"] = {"id": proposal.pk, "kind": proposal.kind, "status": proposal.status}
    return body


class MatchProposalsView(MatchAPIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="The match's open take-back or abandon proposal",
                   operation_id="matches_proposals_read")
    def get(self, request, match_id):
        access.check(request, services.read_match(match_id))
        return Response(_proposal_answer(request, match_id))

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT,
                                                           403: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("Ask to take back your last move", value={"kind": "takeback"},
                                            request_only=True),
                             OpenApiExample("Offer to abandon the match", value={"kind": "abandon"},
                                            request_only=True)],
                   summary="Ask the other players to take back your last move, or offer to abandon the match",
                   description="Every other person still playing must agree (bots never do). A take-back undoes "
                               "your last turn if nobody else has decided since; an abandoned match ends with no "
                               "winner and no rating change. Any decision made meanwhile lapses the proposal.",
                   operation_id="matches_proposals_create")
    def post(self, request, match_id):
        body = request_body(request)
        unknown = set(body) - {"kind"}
        if unknown:
            raise InvalidInput(sorted(unknown)[0], "is not part of a proposal (kind)")
        if "kind" not in body:
            raise InvalidInput("kind", "required: takeback or abandon")
        proposal = proposals.propose(match_id, request.user, body["kind"])
        return Response(_proposal_answer(request, match_id, proposal), status=status.HTTP_201_CREATED)


class MatchProposalAnswerView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT,
                                                           403: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("Accept, as seen at version 14", value={"version": 14},
                                            request_only=True)],
                   summary="Accept, decline or cancel (the asker) a proposal",
                   description="`action` is accept, decline or cancel. `version` (optional): the match version "
                               "you answer at; a version the match has left is refused (409 stale_version), and so "
                               "is a proposal the match moved on from (it lapses).",
                   operation_id="matches_proposals_answer")
    def post(self, request, match_id, proposal_id, action):
        body = request_body(request)
        unknown = set(body) - {"version"}
        if unknown:
            raise InvalidInput(sorted(unknown)[0], "is not part of an answer (version)")
        if action not in ("accept", "decline", "cancel"):
            raise InvalidInput("action", "expected accept, decline or cancel")
        if action == "cancel":
            _, proposal = proposals.cancel(match_id, request.user, proposal_id)
        else:
            _, proposal = proposals.answer(match_id, request.user, proposal_id, action == "accept",
                                           body.get("version"))
        return Response(_proposal_answer(request, match_id, proposal))


class NotificationView(MatchAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="How you hear that a match waits for you",
                   operation_id="notifications_retrieve")
    def get(self, request):
        return Response(notify.preferences_json(notify.preferences(request.user)))

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("A daily digest, no reminders",
                                            value={"turn_email": "digest", "reminders": False},
                                            request_only=True)],
                   summary="Change your preferences: turn_email each|digest|off, reminders true|false",
                   operation_id="notifications_update")
    def put(self, request):
        return Response(notify.preferences_json(notify.update_preferences(request.user, request.data)))


def _vacation_json(user):
    found = vacation.summary(user)
    found.pop("vacation")
    return found


class VacationView(MatchAPIView):
    """Vacation days (docs/matches.md, "Vacation"): the clocks of your matches stop while you are away."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="Your vacation days: allowance, used, left, and "
                                                                 "the vacation going on", operation_id="vacation_retrieve")
    def get(self, request):
        return Response(_vacation_json(request.user))

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT,
                                                           409: OpenApiTypes.OBJECT},
                   examples=[OpenApiExample("A week away", value={"days": 7}, request_only=True)],
                   summary="Go on vacation from now for `days` whole days", operation_id="vacation_start")
    def post(self, request):
        body = request_body(request)
        unknown = set(body) - {"days"}
        if unknown:
            raise InvalidInput(sorted(unknown)[0], "is not a vacation option (days)")
        if "days" not in body:
            raise InvalidInput("days", "required")
        vacation.start(request.user, body["days"])
        return Response(_vacation_json(request.user), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT},
                   summary="Come back from vacation now; the days not begun are given back",
                   operation_id="vacation_end")
    def delete(self, request):
        vacation.end(request.user)
        return Response(_vacation_json(request.user))
