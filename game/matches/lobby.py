"""The lobby: seeks (open public matches waiting for players), the games being played to watch, and quick pairing.

A seek is nothing but an open match that is not private: its seats, academy, time control, `rated` and
`min_rating` say who it wants. Reading the lobby costs a fixed number of queries however many rows it lists (each
list reads its matches, then their seats with their players, at once). Changes go through game/matches/services.py.
"""
from django.db import connection, transaction
from django.db.models import Count, OuterRef, Q, Subquery

from game.engine.scoring import totals_so_far
from game.models import Match, PlayerRating
from game.ratings import service as ratings

from . import clock, ids, services
from .errors import InvalidInput, MatchClosed, MatchError

PAGE = 20  # rows of each list by default
MAX_PAGE = 50
QUICK_PLAYERS = 2  # quick pairing: "any 2-player game now"
QUICK_TRIES = 5  # seeks quick pairing tries to join before it opens one (others may take them first)
QUICK_LOCK = 0x5759524D  # the advisory lock quick pairings take turns under ("WYRM")


def page_length(value):
    """A list's length as asked (`limit`), checked; None gives the default."""
    if value is None:
        return PAGE
    try:
        length = int(value)
    except (TypeError, ValueError):
        raise InvalidInput("limit", f"expected a whole number from 1 to {MAX_PAGE}") from None
    if not 1 <= length <= MAX_PAGE:
        raise InvalidInput("limit", f"expected a whole number from 1 to {MAX_PAGE}")
    return length


def _creator_rating():
    return Subquery(PlayerRating.objects.filter(user=OuterRef("creator"), pool="all").values("rating")[:1])


def open_seeks():
    """Every seek, oldest first: the order quick pairing and the lobby offer them in."""
    return (services.readable().filter(status=Match.Status.OPEN, private=False)
            .annotate(seated=Count("seats", distinct=True), creator_rating=_creator_rating())
            .order_by("created", "pk"))


def seeks(limit=PAGE, after=None):
    """(seeks, the public id to ask `after` for the next page or None): the oldest seeks after the one named."""
    rows = open_seeks()
    if after is not None:
        if not isinstance(after, str) or not ids.is_public_id(after):
            raise InvalidInput("after", "expected the id of a match the lobby listed")
        mark = Match.objects.filter(public_id=after).values("created", "pk").first()
        if mark is None:
            raise InvalidInput("after", "no match has this id")
        rows = rows.filter(Q(created__gt=mark["created"]) | Q(created=mark["created"], pk__gt=mark["pk"]))
    found = list(rows[:limit + 1])
    more = len(found) > limit
    found = found[:limit]
    return found, (found[-1].public_id if more else None)


def live_games(limit=PAGE):
    """Public matches in play, the most recently moved first, each with `round` and `scores` (VP so far, by seat)
    read from its sealed state; a match whose record fails its check is listed without them."""
    found = list(services.readable().filter(status=Match.Status.PLAYING, private=False).order_by("-changed", "-pk")
                 [:limit])
    for match in found:
        try:
            state = services.load_state(match, list(match.seats.all()))
        except MatchError:
            state = None
        match.round = state.round if state is not None else None
        match.scores = totals_so_far(state) if state is not None else None
    return found


def wanted(match):
    """How many more players a seek waits for."""
    seated = getattr(match, "seated", None)
    return match.players - (len(match.seats.all()) if seated is None else seated)


def quick_pair(user):
    """Any 2-player game now: join the oldest open 2-player seek this player may join, or, when there is none,
    open one (or give back the one they already opened). Returns (match, joined).

    Two players asking at the same moment must find each other, not open a seek each: quick pairings take turns,
    under a lock held to the end of the transaction (PostgreSQL's advisory lock; on SQLite the transaction itself
    begins with the write lock)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [QUICK_LOCK])
        return _quick_pair(user)


def _quick_pair(user):
    rating = ratings.current_rating(user)
    fitting = (open_seeks().filter(players=QUICK_PLAYERS).exclude(seats__user=user)
               .filter(Q(min_rating__isnull=True) | Q(min_rating__lte=round(rating)))
               .values_list("pk", flat=True))
    for match_id in fitting[:QUICK_TRIES]:
        try:
            return services.join_match(match_id, user), True
        except MatchClosed:  # taken or called off a moment ago: try the next one
            continue
    own = open_seeks().filter(players=QUICK_PLAYERS, creator=user, seated=1).first()
    if own is not None:
        return own, False
    return services.create_match(user, players=QUICK_PLAYERS), False


def _rating(value):
    return None if value is None else round(value)


def seek_json(match, user=None):
    """A seek as the lobby lists it, in the API and on the page."""
    seats = list(match.seats.all())
    return {
        "id": match.public_id, "url": match.get_absolute_url(), "created": match.created.isoformat(),
        "creator": {"name": match.creator.username, "rating": _rating(getattr(match, "creator_rating", None))},
        "players": match.players, "seated": len(seats), "wanted": match.players - len(seats),
        "seats": [s.name for s in seats], "academy": match.academy, "days_per_move": match.days_per_move,
        "time_control": match.time_control, "bank_days": match.bank_days, "increment_days": match.increment_days,
        "clock_text": clock.describe(match),
        "rated": match.rated, "min_rating": match.min_rating, "bot_fill": match.bot_fill,
        "yours": user is not None and user.is_authenticated and match.creator_id == user.pk,
        "seated_here": user is not None and user.is_authenticated and any(s.user_id == user.pk for s in seats),
    }


def live_json(match):
    """A game being played as the lobby lists it: who plays, the round, and each seat's VP so far."""
    scores = match.scores or [None] * len(match.seats.all())
    return {
        "id": match.public_id, "url": match.get_absolute_url(), "round": match.round, "to_move": match.to_move,
        "academy": match.academy, "rated": match.rated, "changed": match.changed.isoformat(),
        "players": [{"seat": s.seat, "name": s.name, "score": scores[s.seat] if s.seat < len(scores) else None}
                    for s in match.seats.all()],
    }
