"""When ratings change: each finished match is rated once, in the order matches ended, in two pools (every game, and
games of its player count), by Glicko-2 with each pair of seats scored by their places (docs/matches.md, "Ratings").

Who is rated: the person at each seat (also when a bot played on for them after their time ran out: the result is
theirs), a bot seat as its level (`bot:greedy`), and in a solo game the Automa as her level and mode
(`automa:2`, `automa:ravel:2`), so that solo results sit on the same scale as games between people. A match that
was aborted is not rated, nor a casual one (`Match.rated` off), nor a guest's until they sign up and the game becomes their account's. Rating a game reads and writes a fixed number of rows: constant time per game.
"""
import math
from datetime import timedelta
from typing import NamedTuple

from django.db import IntegrityError, transaction
from django.utils import timezone

from game.matches import history
from game.models import Guest, Match, PlayerRating, RatingChange

from . import glicko2

PERIOD = timedelta(days=7)  # a rating period: a rating unused for one widens its deviation as Glicko-2 says
PROVISIONAL_RD = 110.0  # a deviation wider than this marks the rating provisional (as lichess does)
BATCH = 200  # matches rated per call at most; the sweep calls again


def engine_key(seat, match):
    """The engine player of a seat with no person: a bot's level."""
    return f"bot:{seat.level or 'random'}"


def automa_key(match):
    return f"automa:ravel:{match.automa_level}" if match.ravel else f"automa:{match.automa_level}"


def engine_name(key):
    """An engine player's name for people, from its key (`bot:greedy`, `automa:2`, `automa:ravel:2`)."""
    kind, _, rest = key.partition(":")
    if kind == "bot":
        return f"Bot ({rest})"
    if kind == "automa":
        mode, _, level = rest.rpartition(":")
        return f"Automa level {level}{' (Ravel)' if mode == 'ravel' else ''}"
    return key


def pool_name(pool):
    """A pool's name for people: `all`, `1` (solo) to `5`."""
    return {"all": "All games", "1": "Solo"}.get(pool, f"{pool} players")


def outcome_places(players, ending, places):
    """The places the ratings score a finished match by (its `players`, `ending` and `places`), in seat order: in a
    solo game the player's and then the Automa's (a solo player who left lost to her, though the seats place them
    first)."""
    places = list(places or [])
    if players == 1 and len(places) == 1:
        places = [2, 1] if ending == Match.Ending.LAST_STANDING or places[0] != 1 else [1, 2]
    return places


def holders(match, seats):
    """(user id or None, engine key or "") for each rated place of the match, in seat order (the Automa last)."""
    out = [(seat.user_id, "") if seat.user_id else (None, engine_key(seat, match)) for seat in seats]
    if match.players == 1:
        out.append((None, automa_key(match)))
    return out


def _rating_row(user_id, engine, pool):
    found = PlayerRating.objects.select_for_update().filter(user_id=user_id, engine=engine, pool=pool).first()
    if found is None:
        start = glicko2.Rating()
        try:
            with transaction.atomic():
                found = PlayerRating.objects.create(user_id=user_id, engine=engine, pool=pool, rating=start.rating,
                                                    rd=start.rd, volatility=start.volatility)
        except IntegrityError:  # made by a rater at the same moment
            found = PlayerRating.objects.select_for_update().get(user_id=user_id, engine=engine, pool=pool)
    return found


def _as_of(row, when):
    """The row's rating at `when`: its deviation widened for the rating periods it sat unused."""
    rating = glicko2.Rating(row.rating, row.rd, row.volatility)
    if row.last_game is not None and when > row.last_game:
        periods = (when - row.last_game) / PERIOD
        if periods > 0:
            rating = glicko2.idle(rating, periods)
    return rating


def rate(match):
    """Rate one finished match (inside the caller's transaction, with the match row locked): False when it is not
    a rated game (aborted, no places) and is only marked as looked at."""
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    places = outcome_places(match.players, match.ending, match.places)
    who = holders(match, seats)
    Match.objects.filter(pk=match.pk).update(rated_at=timezone.now())
    history.record(match, seats)  # the game history's rows, written with the rating (game/matches/history.py)
    if match.status != Match.Status.FINISHED or match.ending in (Match.Ending.ABORTED, Match.Ending.ABANDONED) \
            or len(places) != len(who) or len(who) < 2 or not match.rated:
        return False
    if Guest.objects.filter(user_id__in=[user_id for user_id, _ in who if user_id]).exists():
        return False  # a guest's games are casual; claimed at sign-up, they are rated then (game/matches/guests.py)
    when = match.changed
    for pool in ("all", str(match.players)):
        held = {holder: _rating_row(*holder, pool) for holder in dict.fromkeys(who)}  # an engine's seats: one row
        rows = [held[holder] for holder in who]
        for row, old in step(rows, places, when, match.pk):
            RatingChange.objects.create(rating=row, match=match, before=old.rating, after=row.rating, rd=row.rd)
            row.save(update_fields=["rating", "rd", "volatility", "games", "last_game"])
    return True


def step(rows, places, when, match_id):
    """One game's Glicko-2 step in one pool: `rows` (PlayerRating rows, in the match's seat order, the Automa last)
    are moved by the game's `places` as of `when`, in memory; the caller saves them. Returns each row once, with its
    rating as it was just before (its deviation widened for the time it sat unused), for the history.

    One engine player may hold several seats (two greedy bots in one game): each of its seats is scored against the
    other holders' seats only (never against itself), and its rating moves once, to the mean of what its seats'
    results would make it."""
    before = [_as_of(row, when) for row in rows]
    after = glicko2.rate_game(before, places, holders=[id(row) for row in rows])
    moved = {}
    for row, old, new in zip(rows, before, after):
        if not all(math.isfinite(x) for x in new):  # never store a broken number; the method should not give one
            raise ArithmeticError(f"rating of {row} after match {match_id} is not finite: {new}")
        moved.setdefault(id(row), (row, old, []))[2].append(new)
    for row, _, news in moved.values():
        row.rating, row.rd, row.volatility = (sum(values) / len(news) for values in zip(*news))
        row.games += 1
        row.last_game = when
    return [(row, old) for row, old, _ in moved.values()]


def rate_finished(limit=BATCH):
    """Rate finished matches not rated yet, oldest ending first; returns how many were looked at. Safe to run at
    once in several processes: each match is taken under its row lock and rated once."""
    done = 0
    while done < limit:
        with transaction.atomic():
            match = (Match.objects.select_for_update().filter(status__in=[Match.Status.FINISHED,
                                                                         Match.Status.ABORTED],
                                                              rated_at__isnull=True)
                     .order_by("changed", "pk").first())
            if match is None:
                return done
            rate(match)
        done += 1
    return done


def current_rating(user, pool="all"):
    """A person's rating in a pool as it stands (a newcomer's is where Glicko-2 starts everyone)."""
    found = PlayerRating.objects.filter(user=user, pool=pool).values_list("rating", flat=True).first()
    return glicko2.Rating().rating if found is None else found


def provisional(row):
    return row.rd > PROVISIONAL_RD


class Board(NamedTuple):
    rows: list  # PlayerRating rows, highest first, each with its user read
    after: str | None  # the cursor of the next page, None on the last


def cursor(row):
    return f"{row.rating!r}_{row.pk}"


def parse_cursor(text):
    """(rating, pk) from a page's cursor; ValueError when it is not one."""
    rating, _, pk = text.partition("_")
    rating, pk = float(rating), int(pk)
    if not math.isfinite(rating):
        raise ValueError("not a finite rating")
    return rating, pk


def leaderboard(pool="all", people=True, limit=50, after=None):
    """One page of a pool's ratings, highest first (provisional ones too: `provisional` marks them): the people's,
    or (people=False) the bots' and the Automa's. `after` is the previous page's cursor: pages are read by key
    (rating, then row), so a page costs the same however deep it is."""
    rows = PlayerRating.objects.filter(pool=pool, user__isnull=not people).select_related("user__profile")
    if after is not None:
        rating, pk = after
        # "below the cursor" as a range of the index (rating at most the cursor's) less the cursor's own rating's
        # rows up to it: the scan starts at the cursor, where "rating below, or equal and later" would read the
        # whole rest of the pool and sort it
        rows = rows.filter(rating__lte=rating).exclude(rating=rating, pk__lte=pk)
    rows = list(rows.order_by("-rating", "pk")[:limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    return Board(rows, cursor(rows[-1]) if more else None)
