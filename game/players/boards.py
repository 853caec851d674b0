"""The leaderboards: a pool's ratings, highest first, as pages and the API show them. People have their list, the
bots and the Automa levels theirs; a rating still provisional is listed and marked."""
from dataclasses import dataclass

from django.db.models import Q
from django.urls import reverse

from cardsite.errors import InvalidField
from game.models import PlayerRating
from game.ratings.service import engine_name, leaderboard, parse_cursor, pool_name, provisional

from .profiles import is_hidden

WHO = ("people", "engines")
DEFAULT_LIMIT = 50
MAX_LIMIT = 200


@dataclass
class Entry:
    rank: int
    name: str
    username: str | None  # a person's (None for an engine player)
    url: str | None  # their profile's, when it is public
    engine: str
    rating: float
    rd: float
    games: int
    provisional: bool


@dataclass
class Page:
    pool: str
    pool_name: str
    who: str
    entries: list
    after: str | None  # the cursor of the next page


def pools():
    """(pool, name) of every pool, in the order a choice lists them."""
    return [(pool, pool_name(pool)) for pool in PlayerRating.POOLS]


def read_params(params):
    """(pool, who, limit, after) from a request's query, each refused by name when it is not one we take."""
    pool = params.get("pool", "all")
    if pool not in PlayerRating.POOLS:
        raise InvalidField("pool", f"choose one of {', '.join(PlayerRating.POOLS)} (all games, solo, or a number "
                                   "of players)")
    who = params.get("who", "people")
    if who not in WHO:
        raise InvalidField("who", "choose people or engines (the bots and the Automa)")
    limit = params.get("limit", str(DEFAULT_LIMIT))
    if not limit.isdigit() or not 1 <= int(limit) <= MAX_LIMIT:
        raise InvalidField("limit", f"a whole number from 1 to {MAX_LIMIT}")
    after = params.get("after")
    if after is not None:
        try:
            after = parse_cursor(after)
        except ValueError:
            raise InvalidField("after", "not a page cursor; use the `next` address of the page before") from None
    return pool, who, int(limit), after


def _rank_of_first(pool, who, after):
    if after is None:
        return 1
    rating, pk = after
    ahead = PlayerRating.objects.filter(Q(rating__gt=rating) | Q(rating=rating, pk__lte=pk), pool=pool,
                                        user__isnull=who != "people")
    return ahead.count() + 1


def page(pool="all", who="people", limit=DEFAULT_LIMIT, after=None):
    board = leaderboard(pool, people=who == "people", limit=limit, after=after)
    first = _rank_of_first(pool, who, after)
    entries = []
    for i, row in enumerate(board.rows):
        user = row.user
        public = user is not None and not is_hidden(user)
        entries.append(Entry(first + i, user.username if user else engine_name(row.engine),
                             user.username if user else None,
                             reverse("player", args=[user.username]) if public else None, row.engine, row.rating,
                             row.rd, row.games, provisional(row)))
    return Page(pool, pool_name(pool), who, entries, board.after)
