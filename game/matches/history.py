"""Game history: every finished match, newest first, searchable by player, date, player count, expansion, opponent
kind, result and score (docs/matches.md, "Game history").

What the search reads is copied out of the match once, when the ratings take its result in (game/ratings/service.py
calls `record`), into three narrow tables (game/models.py): a row per game (FinishedGame), a line per seat and the
Automa (FinishedSeat: who, kind, score, place, won), and a row per opponent kind someone met (GameOpponent). Each
repeats the game's date, player count, expansion and privacy, so the named indexes serve a filter and the order
together. Pages are keyset pages: `after` names the last game shown, and a page reads the rows it shows plus one.
"""
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Prefetch, Q
from django.utils import timezone

from . import ids
from .errors import InvalidInput

PAGE = 25
MAX_PAGE = 50
MAX_SCORE = 999
HUMAN = "human"
AUTOMA_NAME = "The Automa"
FIELDS = ("player", "date_from", "date_to", "players", "academy", "opponent", "result", "score_min", "score_max")
RESULTS = ("won", "lost")


# -- writing ----------------------------------------------------------------------------------------------------

def _lines(match, seats):
    """(seat, user_id, kind, name, score, place, won, out) of each line of a finished match: its seats, then the
    Automa of a solo game. Works on the app's models and on a migration's (plain field reads only)."""
    result = (match.state or {}).get("result")
    places = list(match.places or [])
    out = []
    for s in seats:
        user_id = s.user_id
        kind = HUMAN if user_id else f"bot:{s.level or 'random'}"
        name = "" if user_id else f"Bot ({s.level or 'random'})"
        out.append([s.seat, user_id, kind, name, None, places[s.seat] if s.seat < len(places) else None, s.out])
    if match.players == 1 and match.automa_level is not None:
        out.append([len(seats), None, f"automa:{match.automa_level}", AUTOMA_NAME, None, None, ""])
        # As the ratings read it (game/ratings/service.py, outcome_places): a solo player who left lost to her.
        if places:
            out[0][5], out[1][5] = [2, 1] if match.ending == "last" or places[0] != 1 else [1, 2]
    if result:
        for line in out:
            if line[0] < len(result["scores"]):
                line[4] = result["scores"][line[0]]["total"]
    return [(seat, user_id, kind, name, score, place, place == 1, left)
            for seat, user_id, kind, name, score, place, left in out]


def listed(match):
    return match.status == "finished" and match.ending != "aborted" and bool(match.places)


def record(match, seats=None, models=None):
    """Write (or write again) the history rows of `match`; a match not to be listed has none. `models` is
    (FinishedGame, FinishedSeat, GameOpponent), a migration's; the app's by default."""
    if models is None:
        from game.models import FinishedGame, FinishedSeat, GameOpponent
        models = FinishedGame, FinishedSeat, GameOpponent
    FinishedGame = models[0]
    old = FinishedGame.objects.filter(match_id=match.pk).values_list("finished", flat=True).first()
    FinishedGame.objects.filter(match_id=match.pk).delete()
    if not listed(match):
        return None
    if seats is None:
        seats = sorted(match.seats.all(), key=lambda s: s.seat)
    game, lines, versus = rows(match, seats, old or match.changed, models)  # a game handed over from a guest later
    game.save()                                                            # keeps the date it ended
    models[1].objects.bulk_create(lines)
    models[2].objects.bulk_create(versus)
    return game


def rows(match, seats, finished, models):
    """The history rows of a listed match that ended at `finished`, not saved: (game, seat lines, opponent rows)."""
    FinishedGame, FinishedSeat, GameOpponent = models
    copies = {"finished": finished, "players": match.players, "academy": match.academy, "private": match.private}
    game = FinishedGame(match_id=match.pk, **copies)
    lines = _lines(match, seats)
    seat_rows = [FinishedSeat(game=game, seat=seat, user_id=user_id, kind=kind, name=name, score=score, place=place,
                              won=won, out=left, **copies)
                 for seat, user_id, kind, name, score, place, won, left in lines]
    versus = set()
    for seat, user_id, *_ in lines:
        if user_id is None:
            continue
        for other in lines:
            if other[0] != seat:
                versus.add((user_id, other[2]))
    kinds = {kind for _, kind in versus}
    opponents = ([GameOpponent(game=game, user_id=user_id, kind=kind, **copies) for user_id, kind in sorted(versus)]
                 + [GameOpponent(game=game, user_id=None, kind=kind, **copies) for kind in sorted(kinds)])
    return game, seat_rows, opponents


# -- reading ----------------------------------------------------------------------------------------------------

@dataclass
class Search:
    player: object = None  # a user
    date_from: object = None  # a date
    date_to: object = None
    players: int | None = None
    academy: bool | None = None
    opponent: str = ""
    result: str = ""
    score_min: int | None = None
    score_max: int | None = None

    def query(self):
        """The filters as they were given (for the next page's address)."""
        out = {}
        for name in FIELDS:
            value = getattr(self, name)
            if name == "player" and value is not None:
                out[name] = value.username
            elif name == "academy" and value is not None:
                out[name] = "yes" if value else "no"
            elif value not in (None, ""):
                out[name] = str(value)
        return out


def opponent_kinds():
    """(value, label) of every opponent kind the search knows."""
    from . import bots
    return ([(HUMAN, "Another person")] + [(f"bot:{level}", f"Bot ({level})") for level in bots.LEVELS]
            + [(f"automa:{level}", f"Automa level {level}") for level in bots.AUTOMA_LEVELS])


def _number(field, value, low, high):
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise InvalidInput(field, f"expected a whole number from {low} to {high}") from None
    if not low <= number <= high:
        raise InvalidInput(field, f"expected a whole number from {low} to {high}")
    return number


def _date(field, value):
    try:
        return datetime.strptime(str(value).strip(), "%Y-%m-%d").date()
    except ValueError:
        raise InvalidInput(field, "expected a date as YYYY-MM-DD") from None


def _player(value, viewer):
    """The user named `value` whose games anyone may search: not a guest, and not one whose profile is hidden
    (unless it is the viewer's own); others are refused in the words of a name nobody has."""
    user = get_user_model().objects.select_related("guest", "profile").filter(username=value.strip()).first()
    own = user is not None and viewer is not None and viewer.is_authenticated and viewer.pk == user.pk
    if user is None or (not own and (hasattr(user, "guest") or (hasattr(user, "profile") and user.profile.hidden))):
        raise InvalidInput("player", f"there is no player {value.strip()}")
    return user


def read_search(params, viewer):
    """The search that `params` (a query dict) asks for; a bad value raises InvalidInput naming its field.
    Empty values are no filter."""
    search = Search()
    given = {name: params.get(name, "") for name in FIELDS}
    given = {k: v.strip() if isinstance(v, str) else v for k, v in given.items()}
    if given["player"]:
        search.player = _player(given["player"], viewer)
    if given["date_from"]:
        search.date_from = _date("date_from", given["date_from"])
    if given["date_to"]:
        search.date_to = _date("date_to", given["date_to"])
    if search.date_from and search.date_to and search.date_to < search.date_from:
        raise InvalidInput("date_to", "is before date_from")
    if given["players"]:
        search.players = _number("players", given["players"], 1, 5)
    if given["academy"]:
        if given["academy"] not in ("yes", "no"):
            raise InvalidInput("academy", "expected yes or no (or nothing, for any)")
        search.academy = given["academy"] == "yes"
    if given["opponent"]:
        if given["opponent"] not in dict(opponent_kinds()):
            raise InvalidInput("opponent", "expected one of " + ", ".join(k for k, _ in opponent_kinds()))
        search.opponent = given["opponent"]
    if given["result"]:
        if given["result"] not in RESULTS:
            raise InvalidInput("result", "expected won or lost")
        if search.player is None:
            raise InvalidInput("result", "needs a player: whose result?")
        search.result = given["result"]
    if given["score_min"]:
        search.score_min = _number("score_min", given["score_min"], 0, MAX_SCORE)
    if given["score_max"]:
        search.score_max = _number("score_max", given["score_max"], 0, MAX_SCORE)
    if search.score_min is not None and search.score_max is not None and search.score_max < search.score_min:
        raise InvalidInput("score_max", "is below score_min")
    return search


def page_length(value):
    if value in (None, ""):
        return PAGE
    return _number("limit", value, 1, MAX_PAGE)


def _day_start(day):
    return timezone.make_aware(datetime.combine(day, time.min), timezone.get_current_timezone())


def _common(rows, search):
    """The filters every table copies (date, player count, expansion) on `rows`."""
    if search.date_from:
        rows = rows.filter(finished__gte=_day_start(search.date_from))
    if search.date_to:
        rows = rows.filter(finished__lt=_day_start(search.date_to + timedelta(days=1)))
    if search.players is not None:
        rows = rows.filter(players=search.players)
    if search.academy is not None:
        rows = rows.filter(academy=search.academy)
    return rows


def _score(rows, search, game_field):
    """Some line of the game scored in the range (no player chosen)."""
    from game.models import FinishedSeat
    if search.score_min is None and search.score_max is None:
        return rows
    lines = FinishedSeat.objects.filter(game=OuterRef(game_field))
    if search.score_min is not None:
        lines = lines.filter(score__gte=search.score_min)
    if search.score_max is not None:
        lines = lines.filter(score__lte=search.score_max)
    return rows.filter(Exists(lines))


def _visible(rows, viewer, game_field):
    """Private games only for those who played in them."""
    from game.models import FinishedSeat
    if viewer is None or not viewer.is_authenticated:
        return rows.filter(private=False)
    return rows.filter(Q(private=False) | Exists(FinishedSeat.objects.filter(game=OuterRef(game_field),
                                                                            user=viewer)))


def _driving_rows(search, viewer):
    """(rows, the name of their game column): the table whose index serves the search's main filter, with every
    filter applied. A player's search reads their lines; an opponent kind without a player, the "versus" rows;
    anything else, the games."""
    from game.models import FinishedGame, FinishedSeat, GameOpponent
    if search.player is not None:
        rows = FinishedSeat.objects.filter(user=search.player)
        if search.result:
            rows = rows.filter(won=search.result == "won")
        if search.score_min is not None:
            rows = rows.filter(score__gte=search.score_min)
        if search.score_max is not None:
            rows = rows.filter(score__lte=search.score_max)
        if search.opponent:
            rows = rows.filter(Exists(GameOpponent.objects.filter(game=OuterRef("game"), user=search.player,
                                                                  kind=search.opponent)))
        if not (viewer is not None and viewer.is_authenticated and viewer.pk == search.player.pk):
            rows = _visible(rows, viewer, "game")
        return _common(rows, search), "game_id"
    if search.opponent:
        rows = GameOpponent.objects.filter(user__isnull=True, kind=search.opponent)
        return _visible(_score(_common(rows, search), search, "game"), viewer, "game"), "game_id"
    rows = FinishedGame.objects.all()
    return _visible(_score(_common(rows, search), search, "pk"), viewer, "pk"), "match_id"


@dataclass
class Page:
    games: list  # FinishedGame rows, each with its match and lines (users, profiles, guests) read
    after: str | None  # the public id to ask `after` for the next page, None on the last


def search_page(search, viewer, limit=PAGE, after=None):
    """The newest finished games the search finds after the one named by `after` (a match's public id)."""
    from game.models import FinishedGame, FinishedSeat
    rows, game = _driving_rows(search, viewer)
    if after not in (None, ""):
        if not isinstance(after, str) or not ids.is_public_id(after):
            raise InvalidInput("after", "expected the id of a game the history listed")
        mark = FinishedGame.objects.filter(match__public_id=after).values("finished", "pk").first()
        if mark is None:
            raise InvalidInput("after", "no finished game has this id")
        rows = rows.filter(Q(finished__lt=mark["finished"]) | Q(finished=mark["finished"], **{f"{game}__lt": mark["pk"]}))
    found = list(rows.order_by("-finished", f"-{game}").values_list(game, flat=True)[:limit + 1])
    more = len(found) > limit
    found = found[:limit]
    lines = FinishedSeat.objects.select_related("user__profile", "user__guest").order_by("seat")
    by_id = FinishedGame.objects.select_related("match").only("match__public_id", "finished", "players",
                                                              "academy", "private").prefetch_related(
        Prefetch("lines", queryset=lines)).in_bulk(found)
    games = [by_id[pk] for pk in found if pk in by_id]
    return Page(games, games[-1].match.public_id if more and games else None)


def linkable(user):
    """A profile page to link a person's name to: none for a guest or a hidden profile."""
    if user is None or hasattr(user, "guest"):
        return False
    return not (hasattr(user, "profile") and user.profile.hidden)


def profile_links(seats):
    """{seat: profile address} of the seats whose players have a profile page to link to (not bots, guests or
    hidden profiles): one query for a match's page."""
    from django.urls import reverse
    users = {s.seat: s.user_id for s in seats if s.user_id}
    if not users:
        return {}
    shown = set(get_user_model().objects.filter(pk__in=users.values(), guest__isnull=True)
                .exclude(profile__hidden=True).values_list("pk", "username"))
    names = dict(shown)
    return {seat: reverse("player", args=[names[uid]]) for seat, uid in users.items() if uid in names}


def line_json(line):
    user = line.user
    return {"seat": line.seat, "name": user.username if user else line.name, "kind": line.kind,
            "score": line.score, "place": line.place, "won": line.won, "out": line.out or None,
            "profile": f"/players/{user.username}/" if linkable(user) else None}


def game_json(game):
    return {"id": game.match.public_id, "url": game.match.get_absolute_url(), "finished": game.finished.isoformat(),
            "players": game.players, "academy": game.academy, "private": game.private,
            "lines": [line_json(line) for line in game.lines.all()]}
