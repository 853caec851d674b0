"""Everything that changes a match: create, join, start, decide, resign, abort, rematch, chat, and the deadline
sweep that times seats out and lets bots move.

Each runs in one transaction with the match row locked (`select_for_update`), and a decision is stored with a
conditional update on the version whose row count is checked, so two players acting at once can never both win and
a refused request leaves nothing half-saved. Rules live in the engine; this module only asks it.
"""
import logging
import secrets
from datetime import timedelta
from functools import partial

from django.core import signing
from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils import timezone

from game import catalogue
from game.engine.catalogue import CatalogueError
from game.engine.decisions import MalformedDecision, Option
from game.engine.state import GameState
from game.models import ChatMessage, Match, MatchDecision, MatchSeat

from . import bots, integrity, notify
from .errors import (CatalogueNotReady, InvalidInput, MatchClosed, MatchError, NotCreator, NotSeated,
                     NotYourTurn, StaleMatch)
from .locking import retry_later_when_busy
from .signals import match_changed

MIN_PLAYERS = 2
MAX_PLAYERS = 5
BOT_DELAY = timedelta(seconds=2)  # a bot waits this long before moving, so people can follow its moves
INVITE_SALT = "wyrmdex.match-invite"

logger = logging.getLogger(__name__)


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


def _choice(field, value, allowed):
    if value not in allowed or isinstance(value, bool):
        raise InvalidInput(field, f"expected one of {', '.join(str(a) for a in allowed)}")
    return value


@retry_later_when_busy
def create_match(user, players=2, academy=False, updated=None, days_per_move=3, on_timeout="forfeit",
                 private=False):
    """Open a match for `players` seats; its creator takes the first seat."""
    players = _whole_number("players", players, MIN_PLAYERS, MAX_PLAYERS)
    academy = _flag("academy", academy)
    updated = academy if updated is None else _flag("updated", updated)
    days_per_move = _choice("days_per_move", days_per_move, Match.DAYS_PER_MOVE)
    on_timeout = _choice("on_timeout", on_timeout, Match.OnTimeout.values)
    private = _flag("private", private)
    with transaction.atomic():
        frozen = catalogue.freeze_current()
        try:
            cards = catalogue.frozen(frozen.pk).engine
        except CatalogueError as exc:
            raise CatalogueNotReady(f"the card catalogue cannot set a game up: {exc}") from exc
        if not cards.dragon_deck(academy, updated) or not cards.cave_deck(academy, updated):
            raise CatalogueNotReady("the card catalogue has no cards to deal; load it with manage.py load_catalogue")
        match = Match.objects.create(creator=user, players=players, academy=academy, updated=updated,
                                     seed=secrets.randbits(62), catalogue=frozen, days_per_move=days_per_move,
                                     on_timeout=on_timeout, private=private)
        MatchSeat.objects.create(match=match, seat=0, user=user)
    return match


def invite_token(match):
    """The signed token of a match's invite link: whoever holds it may take an open seat, even of a private match."""
    return signing.dumps(match.pk, salt=INVITE_SALT)


def match_of_invite(token):
    """The match id an invite token names; a token that was not made here is refused."""
    if not isinstance(token, str) or len(token) > 200:
        raise InvalidInput("token", "expected an invite token")
    try:
        return signing.loads(token, salt=INVITE_SALT)
    except signing.BadSignature:
        raise InvalidInput("token", "this invite link is not valid; ask for a new one") from None


def _locked(match_id):
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise Http404(f"there is no match {match_id}") from None


@retry_later_when_busy
def join_match(match_id, user, invited=False):
    """Take the next free seat; the match starts when the last seat is taken. A private match is joined only
    with its invite link (`invited`)."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.OPEN:
            raise MatchClosed("this match has already started" if match.status != Match.Status.ABORTED
                              else "this match was aborted")
        if match.private and not invited:
            raise NotSeated("this match is private: join it with the invite link its players share")
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
            raise MatchClosed("this match has already started" if match.status != Match.Status.ABORTED
                              else "this match was aborted")
        seated = match.seats.count()
        if seated < MIN_PLAYERS:
            raise MatchClosed(f"a match needs at least {MIN_PLAYERS} players; wait for someone to join")
        match.players = seated
        _start(match)
    return match


def _start(match):
    state = GameState.new(catalogue.frozen(match.catalogue_id).engine, players=match.players, seed=match.seed,
                          academy=match.academy, updated=match.updated)
    match.state = state.to_json()
    match.status = Match.Status.PLAYING
    match.version = 0
    fields = _progress(match, state, list(match.seats.select_related("user")), None)
    for name, value in fields.items():
        setattr(match, name, value)
    integrity.seal_start(match)
    match.save()
    _announce(match, state, list(match.seats.select_related("user")), None)


def load_state(match):
    """The engine state of a started match (None while it waits for players)."""
    if match.state is None:
        return None
    integrity.check_seal(match)
    try:
        return GameState.from_json(catalogue.frozen(match.catalogue_id).engine, match.state)
    except MalformedDecision as exc:
        # A sealed snapshot the engine cannot read is our bug (say, an engine change), never the client's 400.
        raise RuntimeError(f"match {match.pk}: its stored state does not load: {exc}") from exc


def seat_of(match, user):
    if not user.is_authenticated:
        return None
    for seat in match.seats.all():
        if seat.user_id == user.pk:
            return seat.seat
    return None


def _seat_row(match, user):
    seat = seat_of(match, user)
    if seat is None:
        raise NotSeated("you do not have a seat at this match")
    return match.seats.select_related("user").get(seat=seat)


def final_places(seats, result=None):
    """Each seat's place: seats still in by the engine's ranking (or all first when the game was cut short),
    then the seats that left, the last to leave highest."""
    inside = [s for s in seats if not s.out]
    left = sorted((s for s in seats if s.out), key=lambda s: s.out_at, reverse=True)
    places = [0] * len(seats)
    if result:
        # The engine's ranking (VP, then dragons on the mat) among the seats still in.
        key = {s.seat: (result["scores"][s.seat]["total"], result["dragons"][s.seat]) for s in inside}
        for s in inside:
            places[s.seat] = 1 + sum(1 for other in key.values() if other > key[s.seat])
    else:
        for s in inside:
            places[s.seat] = 1
    below = len(inside)
    for i, s in enumerate(left):
        places[s.seat] = below + 1 + i
    return places


def _progress(match, state, seats, before):
    """The match's fields after its state changed: whose move, by when, and how it ended."""
    now = timezone.now()
    if state.finished:
        return {"status": Match.Status.FINISHED, "to_move": None, "deadline": None, "reminded": False,
                "ending": Match.Ending.SCORED, "places": final_places(seats, state.result)}
    to_move = state.pending.player
    # Every decision restarts the clock of the seat to move: time is per move, not per game.
    wait = BOT_DELAY if seats[to_move].by_machine else timedelta(days=match.days_per_move)
    return {"status": Match.Status.PLAYING, "to_move": to_move, "deadline": now + wait, "reminded": False}


def _announce(match, state, seats, before):
    """After the change commits: tell the player who gains the turn, and wake the queue for a bot's move."""
    notices = []
    machine_due = None
    if not state.finished:
        seat = seats[state.pending.player]
        if seat.by_machine:
            machine_due = BOT_DELAY.total_seconds()
        elif state.pending.player != before:
            notices = notify.turn_gained(match, seat.user, match.version)
    transaction.on_commit(partial(match_changed.send, sender=Match, match_id=match.pk, version=match.version,
                                  notices=notices, machine_due=machine_due))


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
        _refuse_unless_playing(match)
        if version != match.version:
            raise StaleMatch(f"the match has moved on to version {match.version} (you chose at version {version}); "
                             f"look again and choose anew")
        state = load_state(match)
        seats = list(match.seats.select_related("user"))
        if state.pending.player != seat:
            raise NotYourTurn(f"it is {seats[state.pending.player].name}'s turn to choose, not yours")
        if seats[seat].out:
            raise NotYourTurn("you have left this match; your seat only passes from now on")
        if seats[seat].by_machine:
            raise NotYourTurn("a bot plays your seat since your time ran out")
        _record(match, state, seats, seat, option)
        match.refresh_from_db()
    return match


def _refuse_unless_playing(match):
    if match.status == Match.Status.OPEN:
        raise MatchClosed("this match has not started yet")
    if match.status == Match.Status.FINISHED:
        raise MatchClosed("this match is over")
    if match.status == Match.Status.ABORTED:
        raise MatchClosed("this match was aborted")


def _record(match, state, seats, seat, option):
    """Apply `option` for `seat` and store it, if the match is still at the version `state` was read at."""
    version = match.version
    prompt = state.pending.prompt
    label = state.label(option)
    state.apply(option)
    fields = _progress(match, state, seats, seat)
    snapshot = state.to_json()
    sealed = integrity.next_link(match, version + 1, seat, option, snapshot)
    changed = Match.objects.filter(pk=match.pk, version=version).update(
        version=version + 1, state=snapshot, changed=timezone.now(), **fields, **sealed)
    if changed != 1:
        raise StaleMatch("another decision was stored at the same moment; look again and choose anew")
    MatchDecision.objects.create(match=match, number=version + 1, seat=seat, kind=option.kind,
                                 args=list(option.args), prompt=prompt[:200], label=label[:300],
                                 link=sealed["chain"])
    match.version = version + 1
    _announce(match, state, seats, seat)


def machine_move(match_id, version):
    """The bot's (or a departed seat's) decision at `version`, if the match still waits for it there; a late or
    repeated call does nothing. Returns whether a decision was stored."""
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.PLAYING or match.version != version:
            return False
        state = load_state(match)
        seats = list(match.seats.select_related("user"))
        seat = seats[state.pending.player]
        if not seat.by_machine:
            return False
        _record(match, state, seats, seat.seat, bots.choose(seat, state))
    return True


def _leave(match, seat, why, now):
    """Take `seat` out of the game. With fewer than two seats left in, the match ends; otherwise the seat passes
    from now on and the game goes on."""
    seat.out = why
    seat.out_at = now
    seat.save(update_fields=["out", "out_at"])
    seats = list(match.seats.select_related("user"))
    inside = [s for s in seats if not s.out]
    if len(inside) < MIN_PLAYERS:
        match.status = Match.Status.FINISHED
        match.ending = Match.Ending.LAST_STANDING
        match.places = final_places(seats)
        match.to_move = None
        match.deadline = None
        match.save()
        transaction.on_commit(partial(match_changed.send, sender=Match, match_id=match.pk, version=match.version,
                                      notices=[], machine_due=None))
        return
    state = load_state(match)
    if state.pending.player == seat.seat:
        match.deadline = now + BOT_DELAY
        match.reminded = False
    match.save()
    _announce(match, state, seats, before=state.pending.player)


@retry_later_when_busy
def resign(match_id, user):
    """Leave a match in play: your seat is out and placed last (see docs/matches.md)."""
    with transaction.atomic():
        match = _locked(match_id)
        seat = _seat_row(match, user)
        _refuse_unless_playing(match)
        if seat.out:
            raise MatchClosed("you have already left this match")
        _leave(match, seat, MatchSeat.Out.RESIGNED, timezone.now())
    return match


@retry_later_when_busy
def abort_match(match_id, user):
    """Call a match off before its first decision: any seated player or its creator may."""
    with transaction.atomic():
        match = _locked(match_id)
        if seat_of(match, user) is None and match.creator_id != user.pk:
            raise NotSeated("only the match's players may abort it")
        if match.status in (Match.Status.FINISHED, Match.Status.ABORTED) or match.version > 0:
            raise MatchClosed("a match can be aborted only before its first move")
        match.status = Match.Status.ABORTED
        match.ending = Match.Ending.ABORTED
        match.to_move = None
        match.deadline = None
        match.save()
    return match


@retry_later_when_busy
def rematch(match_id, user):
    """A new match with the same players and options, a new seed and the seats rotated by one; it starts at once.
    Asking again (or the other players asking too) gives the same rematch."""
    with transaction.atomic():
        match = _locked(match_id)
        _seat_row(match, user)
        if match.status != Match.Status.FINISHED:
            raise MatchClosed("a rematch can be asked for once the match is over")
        existing = Match.objects.filter(rematch_of=match).first()
        if existing is not None:
            return existing
        seats = list(match.seats.select_related("user"))
        frozen = catalogue.freeze_current()
        try:
            with transaction.atomic():
                new = Match.objects.create(
                    creator=user, players=len(seats), academy=match.academy, updated=match.updated,
                    seed=secrets.randbits(62), catalogue=frozen, days_per_move=match.days_per_move,
                    on_timeout=match.on_timeout, private=match.private, rematch_of=match)
        except IntegrityError:
            return Match.objects.get(rematch_of=match)
        n = len(seats)
        for old in seats:
            person = old.user is not None
            MatchSeat.objects.create(match=new, seat=(old.seat - 1) % n, user=old.user,
                                     controller=MatchSeat.Controller.PERSON if person else MatchSeat.Controller.BOT,
                                     level="" if person else old.level)
        _start(new)
    return new


@retry_later_when_busy
def post_chat(match_id, user, text):
    """Add a line to the match's chat; only seated players write, anyone who may watch reads."""
    if not isinstance(text, str):
        raise InvalidInput("text", "expected text")
    text = "".join(ch for ch in text if ch.isprintable() or ch == "\n").strip()
    if not text:
        raise InvalidInput("text", "write something first")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise InvalidInput("text", f"at most {ChatMessage.MAX_LENGTH} characters")
    with transaction.atomic():
        match = _locked(match_id)
        _seat_row(match, user)
        message = ChatMessage.objects.create(match=match, user=user, text=text)
        Match.objects.filter(pk=match.pk).update(changed=timezone.now())
    return message


def sweep(now=None):
    """Act on every deadline that has passed and send due reminders. Safe to run at any time and any number of
    times: each match is looked at again under its lock, and acted on only if its deadline is still due."""
    now = now or timezone.now()
    due = Match.objects.filter(status=Match.Status.PLAYING, deadline__lte=now)
    for match_id, version in due.values_list("pk", "version"):
        _sweep_one(on_deadline, match_id, version, now)
    soon = Match.objects.filter(status=Match.Status.PLAYING, reminded=False,
                                deadline__lte=now + timedelta(days=max(Match.DAYS_PER_MOVE)) * notify.REMIND_AT)
    for match_id in soon.values_list("pk", flat=True):
        _sweep_one(remind, match_id, now)


def _sweep_one(work, *args):
    # One match that cannot be acted on (a damaged record, a lock held too long) must not stop the others'.
    try:
        work(*args)
    except MatchError as exc:
        logger.warning("deadline sweep skipped match %s: %s", args[0], exc)


def on_deadline(match_id, version, now=None):
    """The deadline of `match_id` at `version` has passed: a bot (or a departed seat) moves; a person's seat is
    handed to a bot or forfeited, as the match was set up."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.PLAYING or match.version != version or match.deadline is None \
                or match.deadline > now:
            return
        seat = match.seats.select_related("user").get(seat=match.to_move)
        if seat.by_machine:
            state = load_state(match)
            seats = list(match.seats.select_related("user"))
            _record(match, state, seats, seat.seat, bots.choose(seat, state))
        elif match.on_timeout == Match.OnTimeout.BOT:
            seat.controller = MatchSeat.Controller.BOT
            seat.level = bots.DEFAULT_LEVEL
            seat.save(update_fields=["controller", "level"])
            match.deadline = now + BOT_DELAY
            match.reminded = False
            match.save(update_fields=["deadline", "reminded", "changed"])
            _announce(match, load_state(match), list(match.seats.select_related("user")), seat.seat)
        else:
            _leave(match, seat, MatchSeat.Out.TIMEOUT, now)


def remind(match_id, now=None):
    """Remind the player to move of their deadline once, when the reminder time has come."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.PLAYING or match.reminded or match.deadline is None:
            return
        if match.deadline - now > timedelta(days=match.days_per_move) * notify.REMIND_AT or match.deadline <= now:
            return
        seat = match.seats.select_related("user").get(seat=match.to_move)
        if seat.by_machine:
            return
        match.reminded = True
        match.save(update_fields=["reminded", "changed"])
        notices = notify.reminder(match, seat.user, match.version)
        transaction.on_commit(partial(match_changed.send, sender=Match, match_id=match.pk, version=match.version,
                                      notices=notices, machine_due=None))


def replay(match):
    """Rebuild the state from setup options, seed and the decision log alone (the snapshot must equal it)."""
    options = {"players": match.players, "seed": match.seed, "academy": match.academy, "updated": match.updated}
    decisions = [{"kind": d.kind, "args": d.args} for d in match.decisions.order_by("number")]
    return GameState.replay(catalogue.frozen(match.catalogue_id).engine, options, decisions)


def state_at(match, version):
    """The state after the first `version` decisions of the log (version 0: as the game began)."""
    options = {"players": match.players, "seed": match.seed, "academy": match.academy, "updated": match.updated}
    decisions = [{"kind": d.kind, "args": d.args} for d in match.decisions.filter(number__lte=version)
                 .order_by("number")]
    return GameState.replay(catalogue.frozen(match.catalogue_id).engine, options, decisions)
