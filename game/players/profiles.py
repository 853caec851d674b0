"""A player's profile: their finished games summed up (by player count and by expansion), their ratings with each
one's history, their recent matches and the dragons they play most. Read in a fixed number of queries, however many
games the player has: one pass over their finished seats reads each game's result and mats (not whole states).

Who has one: every account but a guest's. A player may hide theirs; then it is theirs alone, and anyone else is told
there is no such player, in the same words as for a name nobody has.
"""
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.http import Http404

from game import catalogue
from game.engine.model import Player
from game.matches import access
from game.models import Match, MatchSeat, PlayerRating, Profile, RatingChange
from game.ratings.glicko2 import START_RD
from game.ratings.service import outcome_places, pool_name, provisional

from .chart import history_chart

RECENT = 10  # matches listed
FAVOURITES = 5  # dragons listed
EXPANSIONS = {False: ("Base game", "base"), True: ("Dragon Academy", "academy")}


def no_such_player(username):
    return Http404(f"there is no player {username}")


def find_player(username, viewer):
    """The user named `username` when `viewer` may see their profile, else the 404 of a name nobody has."""
    user = get_user_model().objects.select_related("guest", "profile").filter(username=username).first()
    if user is None or hasattr(user, "guest"):
        raise no_such_player(username)
    if is_hidden(user) and not (viewer.is_authenticated and viewer.pk == user.pk):
        raise no_such_player(username)
    return user


def is_hidden(user):
    return hasattr(user, "profile") and user.profile.hidden


def set_hidden(user, hidden):
    Profile.objects.update_or_create(user=user, defaults={"hidden": bool(hidden)})


@dataclass
class Tally:
    """Games played and won, and the scores of those that were scored (a game every other player left has none)."""

    label: str
    key: str = ""  # what it counts, for machines: a pool ("2"), an expansion ("academy")
    played: int = 0
    won: int = 0
    scored: int = 0
    points: int = 0
    best: int | None = None

    def add(self, won, score):
        self.played += 1
        self.won += won
        if score is not None:
            self.scored += 1
            self.points += score
            self.best = score if self.best is None else max(self.best, score)

    @property
    def mean(self):
        return round(self.points / self.scored, 1) if self.scored else None


@dataclass
class Favourite(Tally):
    number: int | None = None


@dataclass
class PoolRating:
    pool: str
    name: str
    rating: float
    rd: float
    games: int
    provisional: bool
    history: list  # [{"match", "before", "after", "rd", "at"}], oldest first
    chart: object  # chart.Chart, or None with fewer than one game


@dataclass
class Game:
    match: Match
    opponents: list
    finished: bool
    won: bool | None = None
    place: int | None = None
    score: int | None = None


@dataclass
class ProfileData:
    user: object
    hidden: bool
    own: bool
    overall: Tally
    by_players: list
    by_expansion: list
    ratings: list
    recent: list
    favourites: list = field(default_factory=list)


def _finished_seats(user):
    """The player's seats at finished matches, each with what the profile reads of its match: two keys of its
    state (the result and the players' mats), not the whole state."""
    return (MatchSeat.objects.filter(user=user, match__status=Match.Status.FINISHED)
            .exclude(match__ending__in=(Match.Ending.ABORTED, Match.Ending.ABANDONED))  # no game: nobody won
            .values("seat", "match_id", "match__players", "match__academy", "match__ending", "match__places",
                    "match__catalogue_id", "match__catalogue__digest", "match__state__result",
                    "match__state__players"))


def _outcome(row):
    """(won, place, score) of one finished seat."""
    seat = row["seat"]
    places = outcome_places(row["match__players"], row["match__ending"], row["match__places"])
    place = places[seat] if seat < len(places) else None
    result = row["match__state__result"]
    score = result["scores"][seat]["total"] if result else None
    return place == 1, place, score


def _tallies(rows):
    overall = Tally("All games", "all")
    by_players, by_expansion = {}, {}
    dragons, outcomes = {}, {}
    for row in rows:
        won, place, score = _outcome(row)
        outcomes[row["match_id"]] = (won, place, score)
        overall.add(won, score)
        n = row["match__players"]
        by_players.setdefault(n, Tally(pool_name(str(n)), str(n))).add(won, score)
        academy = row["match__academy"]
        by_expansion.setdefault(academy, Tally(*EXPANSIONS[academy])).add(won, score)
        mats = row["match__state__players"] or []
        if row["seat"] < len(mats):
            cards = catalogue.frozen(row["match__catalogue_id"], row["match__catalogue__digest"]).engine.dragons
            for index in set(Player.saved_dragons(mats[row["seat"]])):
                card = cards[index]
                key = (card.number, card.name)
                if key not in dragons:
                    dragons[key] = Favourite(card.name, number=card.number)
                dragons[key].add(won, score)
    favourites = sorted(dragons.values(), key=lambda f: (-f.played, -f.won, f.label))[:FAVOURITES]
    return (overall, [by_players[n] for n in sorted(by_players)],
            [by_expansion[a] for a in sorted(by_expansion)], favourites, outcomes)


def _ratings(user):
    rows = sorted(user.ratings.all(), key=lambda r: PlayerRating.POOLS.index(r.pool))
    changes = {}
    for change in (RatingChange.objects.filter(rating__user=user).order_by("created", "pk")
                   .values("rating_id", "before", "after", "rd", "created", "match__public_id")):
        changes.setdefault(change["rating_id"], []).append(change)
    out = []
    for row in rows:
        history = [{"match": c["match__public_id"], "before": c["before"], "after": c["after"], "rd": c["rd"],
                    "at": c["created"]} for c in changes.get(row.pk, [])]
        # The first change of a rating is its first game: it started at a newcomer's deviation.
        points = [(history[0]["before"], START_RD)] + [(h["after"], h["rd"]) for h in history] if history else []
        out.append(PoolRating(row.pool, pool_name(row.pool), row.rating, row.rd, row.games, provisional(row),
                              history, history_chart(points)))
    return out


def _recent(user, viewer, session, outcomes):
    """The player's newest matches begun or finished that `viewer` may see (a private one only if they may)."""
    matches = (Match.objects.filter(seats__user=user).exclude(status__in=[Match.Status.OPEN, Match.Status.ABORTED])
               .defer("state").prefetch_related("seats__user").order_by("-changed", "-pk")[:RECENT * 2])
    games = []
    for match in matches:
        if not access.can_view(viewer, match, session):
            continue
        opponents = [s.name for s in match.seats.all() if s.user_id != user.pk]
        if match.players == 1:
            opponents.append(f"Automa level {match.automa_level}" if match.automa_level is not None else "Automa")
        won, place, score = outcomes.get(match.pk, (None, None, None))
        games.append(Game(match, opponents, match.status == Match.Status.FINISHED, won, place, score))
        if len(games) == RECENT:
            break
    return games


def profile(username, viewer, session=None):
    """The profile of the player named `username` as `viewer` may see it (the 404 when they may not)."""
    user = find_player(username, viewer)
    overall, by_players, by_expansion, favourites, outcomes = _tallies(_finished_seats(user))
    return ProfileData(user=user, hidden=is_hidden(user), own=viewer.is_authenticated and viewer.pk == user.pk,
                       overall=overall, by_players=by_players, by_expansion=by_expansion, ratings=_ratings(user),
                       recent=_recent(user, viewer, session, outcomes), favourites=favourites)
