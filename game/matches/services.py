"""Everything that changes a match: create, join, start, decide, resign, abort, rematch, chat, and the deadline
sweep that times seats out and lets bots move.

Each runs in one transaction with the match row locked (`select_for_update`), and a decision is stored with a
conditional update on the version whose row count is checked, so two players acting at once can never both win and
a refused request leaves nothing half-saved. Rules live in the engine; this module only asks it.
"""
import json
import logging
from datetime import datetime, timedelta, timezone as dt_timezone
from functools import partial

from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, connection, transaction
from django.db.models import Aggregate, Case, Exists, F, JSONField, OuterRef, Prefetch, Subquery, When
from django.db.models.functions import JSONObject
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from game import catalogue
from game.engine.catalogue import CatalogueError
from game.engine.decisions import IllegalDecision, MalformedDecision, Option
from game.engine.state import GameState
from game.models import ChatMessage, Match, MatchDecision, MatchProposal, MatchSeat
from game.ratings import service as ratings

from . import bots, clock, guests, ids, integrity, notify, orders, seeds, stops, vacation
from .access import no_such_match
from .errors import (
    CatalogueNotReady,
    InvalidInput,
    MatchClosed,
    MatchDamaged,
    MatchError,
    NotCreator,
    NotSeated,
    NotYourTurn,
    RatingTooLow,
    StaleMatch,
)
from .locking import retry_later_when_busy
from .signals import match_changed

MIN_PLAYERS = 2
MAX_PLAYERS = 5
# A machine's move is made by the queue as soon as the change that gave it the move commits (`machine_move` plays
# its whole run of decisions in one task; pages show them one by one). Its deadline is only the fallback for a lost
# task: the sweep moves a machine seat whose move has waited this long.
MACHINE_GRACE = timedelta(seconds=30)
MACHINE_RUN = 400  # at most this many decisions in one machine task; a longer run goes on in the next task
INVITE_SALT = "wyrmdex.match-invite"
MIN_RATING_RANGE = (100, 3000)  # a seek's minimum rating: Glicko-2 ratings start at 1500 and stay well inside this
# A seek that allows bots (`bot_fill`) and has waited this long is filled with them by the sweep.
BOT_FILL_AFTER = timedelta(minutes=30)

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
                 private=False, timeout_level=bots.DEFAULT_LEVEL, rated=True, min_rating=None, bot_fill=False,
                 time_control=clock.MOVE, bank_days=None, increment_days=None):
    """Open a match for `players` seats; its creator takes the first seat. Listed in the lobby as a seek unless
    `private`; `min_rating` keeps out players rated below it, `bot_fill` lets bots take seats left empty."""
    players = _whole_number("players", players, MIN_PLAYERS, MAX_PLAYERS)
    academy = _flag("academy", academy)
    updated = academy if updated is None else _flag("updated", updated)
    days_per_move = _choice("days_per_move", days_per_move, Match.DAYS_PER_MOVE)
    time_control = time_control_fields(time_control, bank_days, increment_days)
    on_timeout = _choice("on_timeout", on_timeout, Match.OnTimeout.values)
    private = _flag("private", private)
    timeout_level = _choice("timeout_level", timeout_level, tuple(bots.LEVELS))
    rated = _flag("rated", rated)
    if min_rating is not None:
        min_rating = _whole_number("min_rating", min_rating, *MIN_RATING_RANGE)
    bot_fill = _flag("bot_fill", bot_fill)
    guests.refuse_guest(user, "open a match for people")
    with transaction.atomic():
        frozen = _frozen_catalogue(academy, updated)
        match = Match.objects.create(creator=user, players=players, academy=academy, updated=updated,
                                     seed=seeds.new_seed(), catalogue=frozen, days_per_move=days_per_move,
                                     on_timeout=on_timeout, private=private, timeout_level=timeout_level,
                                     rated=rated, min_rating=min_rating, bot_fill=bot_fill, **time_control)
        MatchSeat.objects.create(match=match, seat=0, user=user)
    return match


def time_control_fields(time_control, bank_days, increment_days):
    """The match fields of a time control (game/matches/clock.py), checked: days per move (the bank's fields left
    empty), or a bank of `bank_days` plus `increment_days` a turn."""
    time_control = _choice("time_control", time_control, clock.TIME_CONTROLS)
    if time_control == clock.MOVE:
        return {"time_control": time_control, "bank_days": None, "increment_days": None}
    if bank_days is None:
        raise InvalidInput("bank_days", "required for a time bank")
    return {"time_control": time_control, "bank_days": _whole_number("bank_days", bank_days, *clock.BANK_DAYS),
            "increment_days": _whole_number("increment_days", 0 if increment_days is None else increment_days,
                                            *clock.INCREMENT_DAYS)}


def _frozen_catalogue(academy, updated):
    frozen = catalogue.freeze_current()
    try:
        cards = catalogue.frozen(frozen.pk).engine
    except CatalogueError as exc:
        raise CatalogueNotReady(f"the card catalogue cannot set a game up: {exc}") from exc
    if not cards.dragon_deck(academy, updated) or not cards.cave_deck(academy, updated):
        raise CatalogueNotReady("the card catalogue has no cards to deal; load it with manage.py load_catalogue")
    return frozen


MAX_BOTS = MAX_PLAYERS - 1


def play_now_options(opponent="bots", automa_level=1, ravel=False, bot_levels=("greedy",), academy=False):
    """Play now's options checked, before anything is stored: (academy, automa_level, ravel, bot levels)."""
    opponent = _choice("opponent", opponent, ("automa", "bots"))
    academy = _flag("academy", academy)
    if opponent == "automa":
        automa_level = _choice("automa_level", automa_level, bots.AUTOMA_LEVELS)
        ravel = _flag("ravel", ravel)
        levels = []
    else:
        if not isinstance(bot_levels, (list, tuple)) or not 1 <= len(bot_levels) <= MAX_BOTS:
            raise InvalidInput("bot_levels", f"expected 1 to {MAX_BOTS} bot levels")
        levels = [_choice("bot_levels", level, tuple(bots.LEVELS)) for level in bot_levels]
        automa_level, ravel = None, False
    return academy, automa_level, ravel, levels


@retry_later_when_busy
def play_now(user, opponent="bots", automa_level=1, ravel=False, bot_levels=("greedy",), academy=False):
    """Start a game at once: solo against the Automa (`opponent` "automa", at `automa_level`, optionally in Ravel
    mode), or against 1-4 bots (`opponent` "bots", one level per bot). The person takes the first seat; the
    match is private (nobody else can join it) and a bot plays on for the person if they leave it for a day."""
    academy, automa_level, ravel, levels = play_now_options(opponent, automa_level, ravel, bot_levels, academy)
    with transaction.atomic():
        guests.check_room(user)  # under the guest's lock: two games asked for at once cannot pass the cap together
        frozen = _frozen_catalogue(academy, academy)
        match = Match.objects.create(creator=user, players=1 + len(levels), academy=academy, updated=academy,
                                     seed=seeds.new_seed(), catalogue=frozen, days_per_move=1,
                                     on_timeout=Match.OnTimeout.BOT, private=True,
                                     timeout_level=levels[0] if levels else bots.DEFAULT_LEVEL,
                                     automa_level=automa_level, ravel=ravel)
        MatchSeat.objects.create(match=match, seat=0, user=user)
        for seat, level in enumerate(levels, start=1):
            MatchSeat.objects.create(match=match, seat=seat, controller=MatchSeat.Controller.BOT, level=level)
        _start(match)
    return match


def invite_token(match):
    """The signed token of a match's invite link: whoever holds it may take an open seat, even of a private match
    (and watch it: game/matches/access.py)."""
    return signing.dumps(match.public_id, salt=INVITE_SALT)


def match_of_invite(token):
    """The match an invite token names, as a key the services take (its public id; a link made before public ids
    names the number); a token that was not made here is refused."""
    if not isinstance(token, str) or len(token) > 200:
        raise InvalidInput("token", "expected an invite token")
    try:
        return signing.loads(token, salt=INVITE_SALT)
    except signing.BadSignature:
        raise InvalidInput("token", "this invite link is not valid; ask for a new one") from None


def _locked(match_id):
    """The match row locked for a change; a damaged one (integrity.py) is refused before anything is changed."""
    try:
        match = Match.objects.select_for_update().get(**ids.lookup(match_id))
    except Match.DoesNotExist:
        raise no_such_match(match_id) from None
    if match.state is not None:
        integrity.check_seal(match)
        integrity.check_log_tail(match)
    return match


MATCH_ID = -7_654_321  # stands for the match id in the compiled statement's parameters
PUBLIC_ID = "\x00public id"  # the same for a public id
SEAT_FIELDS = ("id", "match_id", "seat", "user_id", "controller", "level", "out", "out_at", "away_until")  # the model's order


class _JSONRows(Aggregate):
    """A group's rows as one JSON array (PostgreSQL's json_agg, SQLite's json_group_array)."""
    function = "JSON_AGG"
    output_field = JSONField()

    def as_sqlite(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, function="JSON_GROUP_ARRAY", **extra_context)


def _seat_rows():
    """The match's seats with their players' names, as one JSON array read in the match's own query."""
    row = JSONObject(**{name: F(name) for name in SEAT_FIELDS if name != "match_id"}, username=F("user__username"))
    rows = (MatchSeat.objects.filter(match=OuterRef("pk")).order_by().values("match")
            .annotate(rows=_JSONRows(row)).values("rows"))
    return Subquery(rows, output_field=JSONField())


_COMPILED = {}  # (read, database vendor) -> the statement a raw match read runs and its parameters, compiled once


def _raw_match(name, queryset, match_id):
    """One match read by a statement the ORM compiles once per database (compiling the subqueries of these reads
    cost about as much as running them, on every request): `queryset()` builds it, filtered on the match's key (its
    number, or its public id: two statements). The match comes with its catalogue snapshot (read by digest, not
    data); 404 when there is no such match."""
    by = "public_id" if isinstance(match_id, str) else "pk"
    stand_in = PUBLIC_ID if by == "public_id" else MATCH_ID
    key = (name, by, connection.vendor)
    found = _COMPILED.get(key)
    if found is None:
        sql, params = queryset().filter(**{by: stand_in}).order_by().query.sql_with_params()
        if list(params).count(stand_in) != 1:
            raise RuntimeError(f"the {name} read has parameters {params!r}, not the match's key once")
        found = _COMPILED[key] = (sql, tuple(params))
    sql, params = found
    rows = list(Match.objects.raw(sql, [_match_key(match_id) if p == stand_in else p for p in params]))
    if not rows:
        raise no_such_match(match_id)
    match = rows[0]
    match.__dict__["_catalogue_snapshot"] = catalogue.frozen(match.catalogue_id, match.catalogue_digest)
    return match


def _readable_row(**extra):
    """The match with its catalogue digest, its creator's name and its seats (one JSON array), and `extra`."""
    return Match.objects.annotate(catalogue_digest=F("catalogue__digest"), creator_name=F("creator__username"),
                                  rematch_of_public=F("rematch_of__public_id"), seat_rows=_seat_rows(), **extra)


def _json(value):
    return json.loads(value) if isinstance(value, str) else value  # a raw query's annotation may come as JSON text


def _moment(value):
    if value is None or isinstance(value, datetime):
        return value
    moment = parse_datetime(value)
    return moment.replace(tzinfo=dt_timezone.utc) if timezone.is_naive(moment) else moment


def _seats_read_with(match):
    """The seats read in the match's locking query, as the models `match.seats.select_related("user")` gives (the
    fields not read are deferred: read on first use). None when they may be out of date: on PostgreSQL a request
    that waited for the row's lock gets the row as the other request left it, but the rest of the statement as it
    was before; every change of a seat moves the row's `changed`, so a `changed` that differs from the one the
    statement saw means the seats are read again."""
    if _moment(match.seen_changed) != match.changed:
        return None
    return _seats_from_rows(match)


def _seats_from_rows(match):
    """The seats a match's own query read as one JSON array (`_seat_rows`), as model objects."""
    db = match._state.db
    User = get_user_model()
    seats = []
    for row in sorted(_json(match.seat_rows) or [], key=lambda r: r["seat"]):
        values = dict(row, match_id=match.pk, out_at=_moment(row["out_at"]), away_until=_moment(row["away_until"]))
        seat = MatchSeat.from_db(db, SEAT_FIELDS, [values[name] for name in SEAT_FIELDS])
        seat.user = None if row["user_id"] is None else User.from_db(db, ("id", "username"),
                                                                       (row["user_id"], row["username"]))
        seat.match = match
        seats.append(seat)
    return seats


def _match_key(match_id):
    """The key a raw read may send to the database: a public id, or a whole number a primary key can hold (the ORM
    turns an id out of range into "no such match"; a raw query would fail on it), else 404."""
    if isinstance(match_id, str):
        if not ids.is_public_id(match_id):
            raise no_such_match(match_id)
        return match_id
    try:
        key = int(match_id)
    except (TypeError, ValueError):
        raise no_such_match(match_id) from None
    if isinstance(match_id, bool) or not 1 <= key < 2 ** 63:
        raise no_such_match(match_id)
    return key


def _locked_to_decide(match_id):
    """The match row locked (its catalogue's row is not), read in one query with its catalogue's digest, its
    creator's name, its seats with their players' names and its newest decision rows, which the integrity check
    before the write reads. Called inside the transaction (the ORM refuses FOR UPDATE outside one)."""
    match = _raw_match("locked decision", lambda: _readable_row(
        seen_changed=Subquery(Match.objects.filter(pk=OuterRef("pk")).order_by().values("changed")[:1]),
        **integrity.log_tail()).select_for_update(of=("self",)), match_id)
    match.tail_args = _json(match.tail_args)
    return match


def readable():
    """Matches as an answer reads them: creator, catalogue digest (not its data) and seats with their users in two
    queries, so building a match's view reads nothing more of them."""
    return (Match.objects.select_related("creator", "catalogue").defer("catalogue__data")
            .annotate(rematch_of_public=F("rematch_of__public_id"))
            .prefetch_related(Prefetch("seats", queryset=MatchSeat.objects.select_related("user"))))


LOG_FIELDS = ("number", "seat", "label", "link", "by_order")  # what the log reads of a decision besides its events
# The log page carries the events of its newest decisions too: those are the ones a serving process has usually not
# told yet (another worker took the move), and reading them here saves the view a round trip of its own.
EVENTS_WITH_PAGE = 8


def _log_rows(length):
    """The match's newest `length` decisions (number, seat, label, link, and for the newest EVENTS_WITH_PAGE their
    events) as one JSON array: decisions are numbered 1 to the match's version without gaps, so the newest are
    those above version - length."""
    row = JSONObject(**{name: F(name) for name in LOG_FIELDS},
                     events=Case(When(number__gt=OuterRef("version") - EVENTS_WITH_PAGE, then=F("events")),
                                 default=None, output_field=JSONField()))
    rows = (MatchDecision.objects.filter(match=OuterRef("pk"), number__gt=OuterRef("version") - length)
            .order_by().values("match").annotate(rows=_JSONRows(row)).values("rows"))
    return Subquery(rows, output_field=JSONField())


PROPOSAL_FIELDS = ("id", "kind", "seat", "version", "back_to", "answers", "status")  # what a page shows of one


def _proposal_rows():
    """The match's open proposals and accepted take-backs (game/matches/proposals.py) as one JSON array."""
    row = JSONObject(**{name: F(name) for name in PROPOSAL_FIELDS})
    rows = (MatchProposal.objects.filter(match=OuterRef("pk"), status__in=("open", "accepted"))
            .order_by().values("match").annotate(rows=_JSONRows(row)).values("rows"))
    return Subquery(rows, output_field=JSONField())


def read_match(match_id, log_length=0):
    """A match as a page or a poll reads it, in one query: the row, its catalogue's digest, its creator's name and
    its seats with their players' names (what `readable()` reads in two queries, and the same objects: building
    the match's view reads nothing more of them). With `log_length`, also the log's newest decisions (`log_page`),
    the events of the newest few (kept as events in hand) and whether anyone has written in its chat (`has_chat`):
    the whole view then reads only older events it has not told and, when there is one, the chat. 404 when there
    is no such match."""
    def page():  # built only when first compiled
        return _readable_row(**({"log_rows": _log_rows(log_length),
                                 "has_chat": Exists(ChatMessage.objects.filter(match=OuterRef("pk"))),
                                 "proposal_rows": _proposal_rows()}
                                if log_length else {}))
    match = _raw_match(f"page {log_length}", page, match_id)
    _keep_seats(match, _seats_from_rows(match))
    if log_length:
        # The decisions as `match.decisions.only(*LOG_FIELDS)` gives them, oldest first (events deferred).
        db = match._state.db
        fields = ("match_id",) + LOG_FIELDS
        page = []
        in_hand = match.__dict__.setdefault("_events_in_hand", {})
        for row in sorted(_json(match.log_rows) or [], key=lambda r: r["number"]):
            decision = MatchDecision.from_db(db, fields, [match.pk] + [row[name] for name in LOG_FIELDS])
            decision.match = match
            page.append(decision)
            if row.get("events") is not None:
                in_hand[decision.number] = _json(row["events"])
        match.__dict__["log_page"] = page
    return match


def snapshot_of(match):
    """The catalogue snapshot a match plays on. Its digest is read at most once per match object (not at all when
    the catalogue row was read with the match): a page's view asks for it several times."""
    found = match.__dict__.get("_catalogue_snapshot")
    if found is None:
        digest = match.catalogue.digest if Match.catalogue.is_cached(match) else None
        found = match.__dict__["_catalogue_snapshot"] = catalogue.frozen(match.catalogue_id, digest)
    return found


def _cards(match):
    """The engine catalogue a match plays on (no query when its catalogue row was read with it)."""
    return snapshot_of(match).engine


def _keep_seats(match, seats):
    """The seats as read under the lock, kept on the match for the answer (Django's prefetch cache, which
    `match.seats.all()` reads), so the answer to a decision reads them no second time."""
    match._prefetched_objects_cache = {**getattr(match, "_prefetched_objects_cache", {}), "seats": seats}


@retry_later_when_busy
def join_match(match_id, user, invited=False):
    """Take the next free seat; the match starts when the last seat is taken. A private match is joined only
    with its invite link (`invited`), which also passes a minimum rating: whoever was invited is wanted."""
    guests.refuse_guest(user, "play with other people")
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
        if match.min_rating is not None and not invited:
            rating = round(ratings.current_rating(user))
            if rating < match.min_rating:
                raise RatingTooLow(f"this match asks for a rating of at least {match.min_rating}; yours is {rating}")
        MatchSeat.objects.create(match=match, seat=len(taken), user=user)
        if len(taken) + 1 == match.players:
            _start(match)
        else:  # the seats shown changed: a poll's tag moves with `changed`
            match.save(update_fields=["changed"])
            _shown_changed(match)
    return match


def _shown_changed(match):
    """After commit: something the match's pages show changed (a seat taken, a chat line) and nothing is to be
    done about it but telling them (game/matches/push.py)."""
    transaction.on_commit(partial(match_changed.send, sender=Match, match_id=match.pk, version=match.version,
                                  notices=[], machine_to_move=False))


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


@retry_later_when_busy
def fill_with_bots(match_id, user=None, now=None):
    """Bots take the empty seats of an open match, which then starts. Asked by its creator (`user`) at any time;
    by the sweep (`user` None) only for a match that allows it (`bot_fill`) and has waited BOT_FILL_AFTER, and
    then nothing happens to one that no longer qualifies. Each bot plays at the match's timeout level."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked(match_id)
        if user is not None and match.creator_id != user.pk:
            raise NotCreator("only the player who opened the match may fill it with bots")
        if match.status != Match.Status.OPEN:
            if user is None:
                return match
            raise MatchClosed("this match has already started" if match.status != Match.Status.ABORTED
                              else "this match was aborted")
        if user is None and (not match.bot_fill or match.created > now - BOT_FILL_AFTER):
            return match
        seated = match.seats.count()
        for seat in range(seated, match.players):
            MatchSeat.objects.create(match=match, seat=seat, controller=MatchSeat.Controller.BOT,
                                     level=match.timeout_level)
        _start(match)
    return match


def _new_state(match):
    try:
        return GameState.new(catalogue.frozen(match.catalogue_id).engine, **match.engine_options())
    except MalformedDecision as exc:  # e.g. a solo game on an engine without the Automa
        raise InvalidInput("players", str(exc)) from None


def _start(match):
    state = _new_state(match)
    match.state = state.to_json()
    match.status = Match.Status.PLAYING
    match.version = 0
    seats = list(match.seats.select_related("user"))
    vacation.mark_seats(seats)  # a player on vacation starts with their clock paused
    fields = _progress(match, state, seats, None)
    for name, value in fields.items():
        setattr(match, name, value)
    integrity.seal_start(match, seats)
    match.save()
    _announce(match, state, seats, None)


def load_state(match, seats=None):
    """The engine state of a started match (None while it waits for players), refused (`MatchDamaged`) when the
    match's state or record no longer match its seal (`seats`: as read with the match, else `match.seats.all()`).
    After a decision, the state the service applied it to is answered as it is (its snapshot was sealed from it a
    moment ago); callers only read it."""
    if match.state is None:
        return None
    kept = match.__dict__.get("_engine_state")
    if kept is not None and kept[0] is match.state:
        return kept[1]
    integrity.check_seal(match, seats)
    try:
        return GameState.from_json(_cards(match), match.state)
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
    if result and result.get("automa") and inside:  # solo: the player's place against the Automa
        places[0] = result["places"][0]
    elif result:
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
    # Days per move: every decision restarts the clock of the seat to move; a bank runs on (game/matches/clock.py).
    return {"status": Match.Status.PLAYING, "to_move": to_move,
            **clock.person_deadline(match, seats, to_move, now, MACHINE_GRACE)}


def _announce(match, state, seats, before, machine_playing=False):
    """After the change commits: tell the player who gains the turn, and wake the queue for a bot's move (unless
    the machine task that made this change plays on: `machine_playing`)."""
    turn_to = None
    machine_to_move = False
    if not state.finished:
        seat = seats[state.pending.player]
        if seat.by_machine:
            machine_to_move = not machine_playing
        elif state.pending.player != before:
            turn_to = seat.user_id  # noted and emailed by the queue, after the commit, not inside the decision
    transaction.on_commit(partial(match_changed.send, sender=Match, match_id=match.pk, version=match.version,
                                  notices=[], machine_to_move=machine_to_move, turn_to=turn_to,
                                  ended=state.finished))


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
    if connection.vendor == "postgresql":
        match = _submit_at_once(match_id, user, version, option)
        if match is not None:
            return match
    with transaction.atomic():
        match, state, seats, seat = _to_decide(match_id, user, version)
        _record(match, state, seats, seat, option)
    _keep_seats(match, seats)
    return match


def _read_to_decide(match_id):
    """The decision's read without the lock: the row, its catalogue digest, creator, seats and newest decision rows
    in one statement (one snapshot, so they agree with each other)."""
    match = _raw_match("decision", lambda: _readable_row(**integrity.log_tail()), match_id)
    match.tail_args = _json(match.tail_args)
    return match


def _submit_at_once(match_id, user, version, option):
    """PostgreSQL: one decision in two statements, no transaction of its own. The match is read unlocked, the
    decision checked and applied as the locked path does, and then one statement stores it: the row's update, only
    if its version and `changed` are still those read (every decision, seat change and ending moves them), and the
    decision's insert, only if the update happened. Returns the match, or None when the locked path must decide:
    something changed the match between the read and the write (the locked path then sees what it was and refuses
    or stores as it always did), or a standing order answers the offer this decision makes (several rows).

    Three round trips fewer than the locked path (BEGIN, a second write, COMMIT): about a third of a move's
    time on the server (docs/benchmarks.md)."""
    return _decide_at_once(match_id, user, [(version, option)], in_turn=False)


def _decide_at_once(match_id, user, choices, in_turn):
    """The choices (version, option) of one decision or of a confirmed turn (`in_turn`), stored as
    `_submit_at_once` says: every choice checked and applied in memory, then one statement for the row and all the
    decisions. A rule-breaking choice is refused before anything is written: as the engine said it for a single
    decision, naming the choice (`decisions[i].option`) in a turn; so is a choice after a stop (`_apply_turn`)."""
    match, state, seats, seat = _may_decide(*_with_seats(_read_to_decide(match_id)), user, choices[0][0])
    version, chain, now = match.version, match.chain, timezone.now()
    rows, events_of = [], {}
    for i, (option, prompt, label, events) in enumerate(_apply_turn(state, seat, choices, version, in_turn)):
        version += 1
        chain = integrity.link(chain, version, seat, option.kind, option.args)
        events_of[version] = events
        rows.append({"match_id": match.pk, "number": version, "seat": seat, "kind": option.kind,
                     "args": list(option.args), "prompt": prompt[:200], "label": label[:300], "link": chain,
                     "events": events, "created": now})
    if orders.standing_answer(match, state) is not None:
        return None  # an order answers the offer the last choice made: more rows, the locked path stores them
    fields = _progress(match, state, seats, seat)
    snapshot = state.to_json()
    fields.update(version=version, state=snapshot, changed=now, chain=chain,
                  seal=integrity.seal(match, chain, version, snapshot, integrity.record(match, seats, **fields)))
    if not _store_at_once(match, fields, rows):
        return None
    _as_stored(match, fields, state, snapshot, events_of)
    _announce(match, state, seats, seat)  # outside a transaction its notice goes at once: the row is stored
    _keep_seats(match, seats)
    return match


def _apply_turn(state, seat, choices, version, in_turn=True):
    """Apply the choices (version, option) of `seat`'s turn to `state` in memory, from the match's `version`;
    answers (option, prompt, label, events) per choice. Refused, before anything of it is stored: a rule-breaking
    choice (`decisions[i].option`), a version that does not follow on (`decisions[i].version`), and any choice
    after a stop (`decisions[i]`): a draw or reveal, another player's question, the turn's or the game's end
    (game/matches/stops.py). The refusal of a choice after a stop does not look at it, so no answer depends on
    what the stop brought to light."""
    steps = stops.TurnSteps(state, seat)
    done, stop = [], None
    for i, (expected, option) in enumerate(choices):
        if stop is not None:
            raise InvalidInput(f"decisions[{i}]", f"choice {i + 1}: choice {i} {stops.WHY[stop]}, so the turn is "
                                                  f"sent up to it and the rest after; nothing was stored")
        if i and expected != version + i:
            raise InvalidInput(f"decisions[{i}].version", f"expected {version + i}, the version the choices "
                                                          f"before it lead to; nothing was stored")
        try:
            prompt, label = state.pending.prompt, state.label(option)
            events, stop = steps.apply(option)
        except (IllegalDecision, MalformedDecision) as exc:
            if not in_turn:
                raise
            raise _refused_in_turn(i, exc) from None
        done.append((option, prompt, label, events))
    return done


def _as_stored(match, fields, state, snapshot, events_of):
    """The match as its row and decisions were just stored, without reading them back: its new fields, the engine
    state they hold, the stored decisions' events in hand (the answer's story tells them unread), and the log tail
    read with the row dropped (out of date now)."""
    for name, value in fields.items():
        setattr(match, name, value)
    match.__dict__["_engine_state"] = (snapshot, state)
    match.__dict__.setdefault("_events_in_hand", {}).update(events_of)
    integrity.forget_log_tail(match)


def _with_seats(match):
    return match, _seats_from_rows(match)


def _store_at_once(match, fields, rows):
    """The match row's update and the decisions' inserts as one statement; False when the row is no longer as
    read (its version or `changed` moved), and then nothing is stored."""
    qn = connection.ops.quote_name
    sets, params = [], []
    for name, value in fields.items():
        field = Match._meta.get_field(name)
        sets.append(f"{qn(field.column)} = %s")
        params.append(field.get_db_prep_save(value, connection))
    changed = Match._meta.get_field("changed")
    params += [match.pk, match.version, changed.get_db_prep_value(match.changed, connection)]
    fields_of_row = [MatchDecision._meta.get_field(name.removesuffix("_id")) for name in rows[0]]
    columns = [qn(field.column) for field in fields_of_row]
    tuples = []
    for row in rows:
        tuples.append("(" + ", ".join(f"CAST(%s AS {field.db_type(connection)})" for field in fields_of_row) + ")")
        params += [field.get_db_prep_save(value, connection) for field, value in zip(fields_of_row, row.values())]
    sql = (f"WITH moved AS (UPDATE {qn(Match._meta.db_table)} SET {', '.join(sets)} "
           f"WHERE {qn('id')} = %s AND {qn('version')} = %s AND {qn(changed.column)} = %s RETURNING {qn('id')}) "
           f"INSERT INTO {qn(MatchDecision._meta.db_table)} ({', '.join(columns)}) "
           f"SELECT added.* FROM moved, (VALUES {', '.join(tuples)}) AS added ({', '.join(columns)}) "
           f"RETURNING {qn('id')}")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return len(cursor.fetchall()) == len(rows)


MAX_TURN = 60  # choices in one confirmed turn (a turn of Wyrmspan has a handful; the preview allows as many)


@retry_later_when_busy
def submit_turn(match_id, user, decisions):
    """Take the choices of one confirmed turn at once, each at the version it expects: all are stored or none.

    The first decision's version must be the match's (else 409, as for one decision); each next one's must be the
    version the choices before it lead to. A malformed or rule-breaking choice anywhere is a 400 naming it
    (`decisions[i]...`), and so is any choice after a stop (a draw or reveal, another player's question, the end of
    the turn or game: game/matches/stops.py), refused without being tried; either way nothing is stored."""
    if not isinstance(decisions, list) or not decisions:
        raise InvalidInput("decisions", 'expected a list of one or more decisions such as '
                                        '[{"version": 3, "option": {"kind": "pass", "args": []}}]')
    if len(decisions) > MAX_TURN:
        raise InvalidInput("decisions", f"at most {MAX_TURN} choices in one turn")
    parsed = []
    for i, decision in enumerate(decisions):
        field = f"decisions[{i}]"
        if not isinstance(decision, dict):
            raise InvalidInput(field, "expected an object with version and option")
        unknown = set(decision) - {"version", "option"}
        if unknown:
            raise InvalidInput(f"{field}.{sorted(unknown)[0]}", "is not part of a decision (version, option)")
        for name in ("version", "option"):
            if name not in decision:
                raise InvalidInput(f"{field}.{name}", "required")
        version = _whole_number(f"{field}.version", decision["version"], 0)
        try:
            option = Option.from_dict(decision["option"])
        except MalformedDecision as exc:
            raise InvalidInput(f"{field}.option", str(exc)) from None
        parsed.append((version, option))
    if connection.vendor == "postgresql":
        match = _decide_at_once(match_id, user, parsed, in_turn=True)
        if match is not None:
            return match
    with transaction.atomic():
        match, state, seats, seat = _to_decide(match_id, user, parsed[0][0])
        trial = state.clone()
        trial.events = None
        _apply_turn(trial, seat, parsed, match.version)  # every refusal, before any choice is applied to the match
        for version, option in parsed:
            _record(match, state, seats, seat, option)
    _keep_seats(match, seats)
    return match


def _refused_in_turn(i, exc):
    return InvalidInput(f"decisions[{i}].option", f"choice {i + 1}: {exc}; nothing was stored")


def _to_decide(match_id, user, version):
    """The match locked for `user`'s decision at `version`, with its state, seats and the user's seat; refused
    before anything is written when the user may not decide there now."""
    match = _locked_to_decide(match_id)
    seats = _seats_read_with(match)
    if seats is None:
        seats = list(match.seats.select_related("user"))
    return _may_decide(match, seats, user, version)


def _may_decide(match, seats, user, version):
    """(match, state, seats, seat) when `user` may decide at `version` now; else the refusal, nothing written."""
    # The seal first: a damaged record (a seat handed to another account, a status set by hand) is refused as such,
    # whoever asks, before any of it is believed.
    state = load_state(match, seats)
    seat = next((s.seat for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise NotSeated("you do not have a seat at this match")
    _refuse_unless_playing(match)
    if version != match.version:
        raise StaleMatch(f"the match has moved on to version {match.version} (you chose at version {version}); "
                         f"look again and choose anew")
    # After the version check: a request that waited for the lock while another decision was stored sees the
    # new row but (on PostgreSQL) the decision rows read in the same statement as they were before; it is stale.
    integrity.check_log_tail(match)
    if state.pending.player != seat:
        raise NotYourTurn(f"it is {seats[state.pending.player].name}'s turn to choose, not yours")
    if seats[seat].out:
        raise NotYourTurn("you have left this match; your seat only passes from now on")
    if seats[seat].by_machine:
        raise NotYourTurn("a bot plays your seat since your time ran out")
    return match, state, seats, seat


def _refuse_unless_playing(match):
    if match.status == Match.Status.OPEN:
        raise MatchClosed("this match has not started yet")
    if match.status == Match.Status.FINISHED:
        raise MatchClosed("this match is over")
    if match.status == Match.Status.ABORTED:
        raise MatchClosed("this match was aborted")


def _record(match, state, seats, seat, option, by_order=False, before=None, machine_playing=False):
    """Apply `option` for `seat` and store it, if the match is still at the version `state` was read at; then let
    a standing order answer an offer the decision made (game/matches/orders.py). `before` is the seat that chose
    the decision an order's answer follows: the match never waited for the order, so the turn changed only if it
    is no longer that seat's. `machine_playing`: a machine task made this decision and makes the next machine
    decision itself."""
    version = match.version
    prompt = state.pending.prompt
    label = state.label(option) + (f" ({orders.NOTE})" if by_order else "")
    events = state.apply(option)
    fields = _progress(match, state, seats, seat)
    snapshot = state.to_json()  # the state alone: the log is the decision rows, so a save does not grow with it
    sealed = integrity.next_link(match, version + 1, seat, option, snapshot, integrity.record(match, seats, **fields))
    fields.update(version=version + 1, state=snapshot, changed=timezone.now(), **sealed)
    changed = Match.objects.filter(pk=match.pk, version=version).update(**fields)
    if changed != 1:
        raise StaleMatch("another decision was stored at the same moment; look again and choose anew")
    MatchDecision.objects.create(match=match, number=version + 1, seat=seat, kind=option.kind, by_order=by_order,
                                 args=list(option.args), prompt=prompt[:200], label=label[:300],
                                 link=sealed["chain"], events=events)
    _as_stored(match, fields, state, snapshot, {version + 1: events})
    answer = orders.standing_answer(match, state)
    if answer is not None:  # the next link chains on from this one (match.chain and seal are set above)
        _record(match, state, seats, state.pending.player, answer, by_order=True,
                before=seat if before is None else before, machine_playing=machine_playing)
        return
    _announce(match, state, seats, seat if before is None else before, machine_playing)


def machine_move(match_id, version):
    """The machine's run of decisions from `version`: while the match waits for a bot (or a departed seat), it
    decides, each decision stored on its own as a person's is, so pages see them one by one. A late or repeated call
    does nothing. Returns how many decisions were stored (0 when the match no longer waits for the machine there).

    Each bot thinks before the match is locked (a strong bot takes up to a second or so); its decision is stored
    only if the match is still at the version it thought about and the same seat is still played by the machine. A
    damaged match is not played (its check logged why)."""
    stored = 0
    try:
        while stored < MACHINE_RUN:
            version = _machine_move(match_id, version)  # a standing order's answer may follow: then several more
            if version is None:
                break
            stored += 1
    except MatchDamaged:
        pass
    if stored == MACHINE_RUN:  # a very long run: the next task goes on, so one task never holds a worker for long
        match_changed.send(sender=Match, match_id=match_id, version=version, notices=[], machine_to_move=True)
    return stored


def _machine_move(match_id, version):
    """One machine decision at `version`; returns the match's version after it, or None if none was made."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.PLAYING or match.version != version:
        return None
    state = load_state(match)
    seat = match.seats.get(seat=state.pending.player)
    if not seat.by_machine:
        return None
    option = bots.choose(seat, state)
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.PLAYING or match.version != version:
            return None
        state = load_state(match)
        seats = list(match.seats.select_related("user"))
        now = seats[state.pending.player]
        if not now.by_machine or (now.level, bool(now.out)) != (seat.level, bool(seat.out)):
            return None
        _record(match, state, seats, now.seat, option, machine_playing=True)
    return match.version


def _leave(match, seat, why, now):
    """Take `seat` out of the game. With fewer than two seats left in, the match ends; otherwise the seat passes
    from now on and the game goes on. The seal then covers the seat's leaving and the ending."""
    state = load_state(match)  # read (and checked) before the seat changes: the seal covers the seats as they were
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
        integrity.reseal(match, seats)
        match.save()
        transaction.on_commit(partial(match_changed.send, sender=Match, match_id=match.pk, version=match.version,
                                      notices=[], machine_to_move=False, ended=True))
        return
    if state.pending.player == seat.seat:
        match.deadline = now + MACHINE_GRACE
        match.reminded = False
    integrity.reseal(match, seats)
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
        if match.state is not None:
            integrity.reseal(match, list(match.seats.all()))
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
        guests.check_room(user)
        seats = list(match.seats.select_related("user"))
        frozen = catalogue.freeze_current()
        try:
            with transaction.atomic():
                new = Match.objects.create(
                    creator=user, players=len(seats), academy=match.academy, updated=match.updated,
                    seed=seeds.new_seed(), catalogue=frozen, days_per_move=match.days_per_move,
                    on_timeout=match.on_timeout, private=match.private, rematch_of=match, rated=match.rated,
                    time_control=match.time_control, bank_days=match.bank_days,
                    increment_days=match.increment_days,
                    timeout_level=match.timeout_level, automa_level=match.automa_level, ravel=match.ravel)
        except IntegrityError:
            return Match.objects.get(rematch_of=match)
        match.save(update_fields=["changed"])  # its players' boards now link to the rematch
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
    guests.refuse_guest(user, "write in a match's chat")
    with transaction.atomic():
        match = _locked(match_id)
        _seat_row(match, user)
        message = ChatMessage.objects.create(match=match, user=user, text=text)
        Match.objects.filter(pk=match.pk).update(changed=timezone.now())
        _shown_changed(match)
    return message


def sweep(now=None):
    """Act on every deadline that has passed and send due reminders. Safe to run at any time and any number of
    times: each match is looked at again under its lock, and acted on only if its deadline is still due."""
    now = now or timezone.now()
    waited = Match.objects.filter(status=Match.Status.OPEN, bot_fill=True, created__lte=now - BOT_FILL_AFTER)
    for match_id in waited.values_list("pk", flat=True):
        _sweep_one(fill_with_bots, match_id, None, now)
    due = Match.objects.filter(status=Match.Status.PLAYING, deadline__lte=now)
    for match_id, version in due.values_list("pk", "version"):
        _sweep_one(on_deadline, match_id, version, now)
    soon = Match.objects.filter(status=Match.Status.PLAYING, reminded=False, time_control=clock.MOVE,
                                deadline__lte=now + timedelta(days=max(Match.DAYS_PER_MOVE)) * notify.REMIND_AT)
    for match_id in [*soon.values_list("pk", flat=True), *clock.bank_reminders_due(now)]:
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
            state = load_state(match)  # before the seat changes: the seal covers the seats as they were
            seat.controller = MatchSeat.Controller.BOT
            seat.level = match.timeout_level
            seat.save(update_fields=["controller", "level"])
            seats = list(match.seats.select_related("user"))
            match.deadline = now + MACHINE_GRACE
            match.reminded = False
            integrity.reseal(match, seats)
            match.save(update_fields=["deadline", "reminded", "changed", "seal"])
            _announce(match, state, seats, seat.seat)
        else:
            _leave(match, seat, MatchSeat.Out.TIMEOUT, now)


def remind(match_id, now=None):
    """Remind the player to move of their deadline once, when the reminder time has come."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked(match_id)
        if match.status != Match.Status.PLAYING or match.reminded or match.deadline is None:
            return
        if match.deadline - now > clock.remind_window(match) or match.deadline <= now:
            return
        seat = match.seats.select_related("user").get(seat=match.to_move)
        if seat.by_machine:
            return
        match.reminded = True
        match.save(update_fields=["reminded", "changed"])
        notices = notify.reminder(match, seat.user, match.version)
        transaction.on_commit(partial(match_changed.send, sender=Match, match_id=match.pk, version=match.version,
                                      notices=notices, machine_to_move=False))


def replay(match):
    """Rebuild the state from setup options, seed and the decision log alone (the snapshot must equal it)."""
    options = match.engine_options()
    decisions = [{"kind": d.kind, "args": d.args} for d in match.decisions.order_by("number")]
    return GameState.replay(_cards(match), options, decisions)


def state_at(match, version):
    """The state after the first `version` decisions of the log (version 0: as the game began)."""
    options = match.engine_options()
    decisions = [{"kind": d.kind, "args": d.args} for d in match.decisions.filter(number__lte=version)
                 .order_by("number")]
    return GameState.replay(_cards(match), options, decisions)
