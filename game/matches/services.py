"""Everything that changes a match: create, join, start and submit a decision.

Each runs in one transaction with the match row locked (`select_for_update`), and a decision is stored with a
conditional update on the version whose row count is checked, so two players acting at once can never both win and
a refused request leaves nothing half-saved. Rules live in the engine; this module only asks it.
"""
import secrets

from django.db import transaction
from django.http import Http404
from django.utils import timezone

from game.engine.catalogue import CatalogueError
from game.engine.decisions import MalformedDecision, Option
from game.engine.state import GameState
from game.models import Match, MatchDecision, MatchSeat

from . import catalogue, integrity
from .errors import CatalogueNotReady, InvalidInput, MatchClosed, NotCreator, NotSeated, NotYourTurn, StaleMatch
from .locking import retry_later_when_busy

MIN_PLAYERS = 2
MAX_PLAYERS = 5


def _whole_number(field, value, low=None, high=None):
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInput(field, "expected a whole number")
    if (low is not None and value < low) or (high is not None and value > high):
        raise InvalidInput(field, f"expected a number from {low} to {high}")
    return value


def _flag(field, value):
    if not isinstance(value, bool):
        raise InvalidInput(field, "expected true or false")
    return value


@retry_later_when_busy
def create_match(user, players=2, academy=False, updated=None):
    """Open a match for `players` seats; its creator takes the first seat."""
    players = _whole_number("players", players, MIN_PLAYERS, MAX_PLAYERS)
    academy = _flag("academy", academy)
    updated = academy if updated is None else _flag("updated", updated)
    with transaction.atomic():
        frozen = catalogue.freeze_current()
        try:
            cards = catalogue.engine(frozen.pk)
        except CatalogueError as exc:
            raise CatalogueNotReady(f"the card catalogue cannot set a game up: {exc}") from exc
        if not cards.dragon_deck(academy, updated) or not cards.cave_deck(academy, updated):
            raise CatalogueNotReady("the card catalogue has no cards to deal; load it with manage.py load_catalogue")
        match = Match.objects.create(creator=user, players=players, academy=academy, updated=updated,
                                     seed=secrets.randbits(62), catalogue=frozen)
        MatchSeat.objects.create(match=match, seat=0, user=user)
    return match


def _locked(match_id):
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise Http404(f"there is no match {match_id}") from None


@retry_later_when_busy
def join_match(match_id, user):
    """Take the next free seat; the match starts when the last seat is taken."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.OPEN:
            raise MatchClosed("this match has already started")
        taken = list(match.seats.all())
        if any(s.user_id == user.pk for s in taken):
            raise MatchClosed("you already have a seat at this match")
        if len(taken) >= match.players:
            raise MatchClosed("every seat of this match is taken")
        MatchSeat.objects.create(match=match, seat=len(taken), user=user)
        if len(taken) + 1 == match.players:
            _start(match)
    return match


@retry_later_when_busy
def start_match(match_id, user):
    """The creator starts before every seat is taken: the match is played by those seated (at least 2)."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.creator_id != user.pk:
            raise NotCreator("only the player who opened the match may start it")
        if match.status != Match.Status.OPEN:
            raise MatchClosed("this match has already started")
        seated = match.seats.count()
        if seated < MIN_PLAYERS:
            raise MatchClosed(f"a match needs at least {MIN_PLAYERS} players; wait for someone to join")
        match.players = seated
        _start(match)
    return match


def _start(match):
    state = GameState.new(catalogue.engine(match.catalogue_id), players=match.players, seed=match.seed,
                          academy=match.academy, updated=match.updated)
    match.state = state.to_json()
    match.status = Match.Status.PLAYING
    match.version = 0
    integrity.seal_start(match)
    match.save()


def load_state(match):
    """The engine state of a started match (None while it waits for players)."""
    if match.state is None:
        return None
    integrity.check_seal(match)
    return GameState.from_json(catalogue.engine(match.catalogue_id), match.state)


def seat_of(match, user):
    if not user.is_authenticated:
        return None
    for seat in match.seats.all():
        if seat.user_id == user.pk:
            return seat.seat
    return None


@retry_later_when_busy
def submit_decision(match_id, user, version, option):
    """Take one decision for `user` at `version`; see `_submit` for what is refused."""
    return _submit(match_id, user, version, option)


def _submit(match_id, user, version, option):
    """Take one decision for `user` at `version`; returns the match at its new version.

    Refusals, all before anything is written: malformed input or a rule-breaking option (the engine's ValueErrors:
    400), not seated or not your turn (403), a version that is not the current one or a finished match (409).
    """
    version = _whole_number("version", version, 0)
    try:
        option = Option.from_dict(option)
    except MalformedDecision as exc:
        raise InvalidInput("option", str(exc)) from None
    with transaction.atomic():
        match = _locked(match_id)
        integrity.check_log_tail(match)
        seat = seat_of(match, user)
        if seat is None:
            raise NotSeated("you do not have a seat at this match")
        if match.status == Match.Status.OPEN:
            raise MatchClosed("this match has not started yet")
        if match.status == Match.Status.FINISHED:
            raise MatchClosed("this match is over")
        if version != match.version:
            raise StaleMatch(f"the match has moved on to version {match.version} (you chose at version {version}); "
                             f"look again and choose anew")
        state = load_state(match)
        if state.pending.player != seat:
            waiting_on = match.seats.select_related("user").get(seat=state.pending.player).user.username
            raise NotYourTurn(f"it is {waiting_on}'s turn to choose, not yours")
        prompt = state.pending.prompt
        label = state.label(option)
        state.apply(option)
        status = Match.Status.FINISHED if state.finished else Match.Status.PLAYING
        snapshot = state.to_json()
        sealed = integrity.next_link(match, version + 1, seat, option, snapshot)
        changed = Match.objects.filter(pk=match.pk, version=version).update(
            version=version + 1, state=snapshot, status=status, changed=timezone.now(), **sealed)
        if changed != 1:
            raise StaleMatch("another decision was stored at the same moment; look again and choose anew")
        MatchDecision.objects.create(match=match, number=version + 1, seat=seat, kind=option.kind,
                                     args=list(option.args), prompt=prompt[:200], label=label[:300],
                                     link=sealed["chain"])
        match.refresh_from_db()
    return match


def replay(match):
    """Rebuild the state from setup options, seed and the decision log alone (the snapshot must equal it)."""
    options = {"players": match.players, "seed": match.seed, "academy": match.academy, "updated": match.updated}
    decisions = [{"kind": d.kind, "args": d.args} for d in match.decisions.order_by("number")]
    return GameState.replay(catalogue.engine(match.catalogue_id), options, decisions)
