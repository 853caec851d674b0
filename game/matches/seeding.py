"""Many finished games for measuring the site at scale (`manage.py seed_games`, docs/benchmarks.md): players made
here, each game dealt and played through the engine to its end, and stored as a match played on the site is, with
its seats, every decision (its prompt, label, events and link of the chain), the seal, the places, the ratings
and the game history's rows.

Who plays: made-up people (accounts that cannot sign in, named `seed-...`) and random bots. Every seat is played by
the engine's random player, a person's too; a third of the people play it uniformly (they choose badly), the others
weighted towards acting, so that ratings spread out as they would among real players. Solo games are against the
Automa (levels 1 to 3, some in Ravel mode), who plays by her own procedure. A seeded match is whole: it replays and
verifies (`manage.py verify_matches --replay`) as any match does.

What it costs: the engine plays a game in a few milliseconds; the time goes to the rows (a game of 3 has about 160
decisions). Games are stored in batches, each in one transaction, so a run cut short keeps whole batches only, and
a second run goes on from the count already stored (`--games` is the total wanted), in time order. Ratings are computed in memory
in the order the games ended, by the same Glicko-2 step as the site's (`ratings.service.step`), and written once a
batch; run it on a site where no rated game is ending meanwhile, since the ratings it holds in memory would overwrite
one rated in between.
"""
import random
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone as dt_timezone

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import connection, transaction
from django.db.models import Q

from game import catalogue
from game.engine.agents import RandomAgent
from game.engine.state import GameState
from game.models import (
    FinishedGame,
    FinishedSeat,
    GameOpponent,
    Match,
    MatchDecision,
    MatchSeat,
    PlayerRating,
    RatingChange,
)
from game.ratings import service as ratings

from . import history, integrity
from .services import final_places

HOLDER = "wyrmdex-seed"  # creates every seeded match (and takes no seat): how a later run finds what is stored
PREFIX = "seed-"
# Seeded game i ends at FIRST_END + i * BETWEEN, whatever the run: a run cut short and resumed goes on in time order
# (100,000 games span about two years).
FIRST_END = datetime(2025, 1, 1, tzinfo=dt_timezone.utc)
BETWEEN = timedelta(minutes=10)
SEED_BASE = 7_000_000_000  # engine seed of seeded game i: SEED_BASE + i, so game i is the same in every run
PLAYER_COUNTS = (1, 2, 3, 4, 5)
PLAYER_WEIGHTS = (15, 40, 25, 13, 7)  # solo games and 2-player games are the commonest, as on game sites
BOT_SHARE = 0.2  # of the seats beside the first of a game of 2 to 5
ACADEMY_SHARE = 0.4

_FIRST = ("amber", "ash", "brisk", "cinder", "copper", "dusk", "ember", "fern", "frost", "gale", "glade", "iron",
          "jade", "lark", "moss", "onyx", "pale", "quill", "rowan", "sable", "slate", "storm", "thistle", "wren")
_SECOND = ("claw", "crest", "drake", "egg", "fang", "flame", "hoard", "horn", "keep", "kite", "nest", "scale",
           "shade", "spark", "spire", "tail", "talon", "vale", "wing", "wyrm")


def player_name(i):
    """The i-th seeded player's name, the same in every run: `seed-amberclaw17`."""
    first, rest = divmod(i, len(_FIRST))
    second, number = divmod(rest, len(_SECOND))
    return f"{PREFIX}{_FIRST[first % len(_FIRST)]}{_SECOND[second % len(_SECOND)]}{i}"


def careless(user_id):
    """A third of the seeded people play uniformly at random (worse): the ratings then have something to tell."""
    return user_id % 3 == 0


@dataclass
class Planned:
    """One seeded game's setup, drawn from its own generator: the same in every run."""

    index: int
    players: int
    academy: bool
    people: list  # user ids, one a seat that a person holds, None for a bot's seat (seat order)
    automa_level: int | None
    ravel: bool


def plan(index, people_ids):
    rng = random.Random(SEED_BASE + index)
    players = rng.choices(PLAYER_COUNTS, PLAYER_WEIGHTS)[0]
    academy = rng.random() < ACADEMY_SHARE
    chosen = rng.sample(people_ids, players)
    seats = [chosen[0]] + [None if rng.random() < BOT_SHARE else uid for uid in chosen[1:]]
    solo = players == 1
    return Planned(index, players, academy, seats, rng.randint(1, 3) if solo else None,
                   solo and rng.random() < 0.2)


@contextmanager
def _times_as_given(*models):
    """Let the rows keep the creation and change times given them (seeded games end in the past), instead of now."""
    fields = [f for m in models for f in m._meta.concrete_fields if getattr(f, "auto_now", False)
              or getattr(f, "auto_now_add", False)]
    saved = [(f, f.auto_now, f.auto_now_add) for f in fields]
    for f in fields:
        f.auto_now = f.auto_now_add = False
    try:
        yield
    finally:
        for f, now, add in saved:
            f.auto_now, f.auto_now_add = now, add


class Seeder:
    def __init__(self, total, players):
        self.total = total
        self.people = players
        self.frozen = {}
        self.ratings = {}  # (user id, engine key, pool) -> PlayerRating, saved or not yet
        self.first = self.stored = 0  # seeded games stored when the run began, and now

    def holder(self):
        user, made = get_user_model().objects.get_or_create(username=HOLDER)
        if made:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        return user

    def ensure_people(self):
        """The seeded players, made once: their ids in the order of their names."""
        users = get_user_model()
        have = set(users.objects.filter(username__startswith=PREFIX).values_list("username", flat=True))
        wanted = [player_name(i) for i in range(self.people)]
        missing = [users(username=name, password=make_password(None)) for name in wanted if name not in have]
        users.objects.bulk_create(missing, batch_size=2000)
        ids = dict(users.objects.filter(username__startswith=PREFIX).values_list("username", "pk"))
        return [ids[name] for name in wanted]

    def frozen_catalogue(self):
        if not self.frozen:
            row = catalogue.freeze_current()
            self.frozen = {"row": row, "engine": catalogue.frozen(row.pk).engine}
        return self.frozen["row"], self.frozen["engine"]

    def load_ratings(self):
        """The ratings seeded games move: the seeded people's and the engine players' (bots, the Automa)."""
        rows = PlayerRating.objects.filter(Q(user__username__startswith=PREFIX) | Q(user__isnull=True))
        for row in rows:
            self.ratings[(row.user_id, row.engine, row.pool)] = row

    def rating_row(self, user_id, engine, pool):
        key = (user_id, engine, pool)
        row = self.ratings.get(key)
        if row is None:
            start = ratings.glicko2.Rating()
            row = self.ratings[key] = PlayerRating(user_id=user_id, engine=engine, pool=pool, rating=start.rating,
                                                   rd=start.rd, volatility=start.volatility)
        return row

    def seeded_count(self):
        return Match.objects.filter(creator__username=HOLDER).count()

    def ended_at(self, index):
        return FIRST_END + index * BETWEEN

    def play(self, planned, holder, frozen, cards):
        """The match of one planned game, played to its end: (match, seats, decision rows), none saved yet."""
        ended = self.ended_at(planned.index)
        match = Match(creator=holder, players=planned.players, academy=planned.academy, updated=planned.academy,
                      seed=SEED_BASE + planned.index, catalogue=frozen, rated=True,
                      automa_level=planned.automa_level, ravel=planned.ravel,
                      created=ended - timedelta(days=1 + planned.index % 13), changed=ended, rated_at=ended)
        seats = [MatchSeat(match=match, seat=n, user_id=uid, joined=match.created,
                           controller=MatchSeat.Controller.PERSON if uid else MatchSeat.Controller.BOT,
                           level="" if uid else "random") for n, uid in enumerate(planned.people)]
        state = GameState.new(cards, **match.engine_options())
        agents = [RandomAgent(match.seed + n, weighted=not (uid and careless(uid)))
                  for n, uid in enumerate(planned.people)]
        chain = integrity.genesis(match)
        rows, number = [], 0
        while state.pending is not None:
            seat = state.pending.player
            option = agents[seat].choose(state.pending.answers)
            prompt, label = state.pending.prompt, state.label(option)
            events = state.apply(option)
            number += 1
            chain = integrity.link(chain, number, seat, option.kind, option.args)
            rows.append(MatchDecision(match=match, number=number, seat=seat, kind=option.kind, args=list(option.args),
                                      prompt=prompt[:200], label=label[:300], link=chain, events=events,
                                      created=ended))
        match.state = state.to_json()
        match.version = number
        match.status, match.ending = Match.Status.FINISHED, Match.Ending.SCORED
        match.places = final_places(seats, state.result)
        match.chain = chain
        match.seal = integrity.seal(match, chain, number, match.state, integrity.record(match, seats))
        return match, seats, rows

    def rate(self, match, seats, index):
        """The ratings' step for one seeded game (the site's own), in memory: the history rows it adds."""
        places = ratings.outcome_places(match.players, match.ending, match.places)
        who = ratings.holders(match, seats)
        changes = []
        for pool in ("all", str(match.players)):
            rows = [self.rating_row(user_id, engine, pool) for user_id, engine in who]
            changes += [(row, match, old.rating, row.rating, row.rd)
                        for row, old in ratings.step(rows, places, match.changed, f"seeded game {index}")]
        return changes

    def store(self, batch, holder, people_ids):
        """Play and store one batch of games in one transaction; returns how many decisions it stored."""
        frozen, cards = self.frozen_catalogue()
        played, changes = [], []
        for index in batch:
            match, seats, decisions = self.play(plan(index, people_ids), holder, frozen, cards)
            played.append((match, seats, decisions))
            changes += self.rate(match, seats, index)
        with transaction.atomic(), _times_as_given(Match, MatchSeat, MatchDecision, RatingChange):
            Match.objects.bulk_create([match for match, _, _ in played], batch_size=500)
            for match, seats, decisions in played:
                for row in seats + decisions:
                    row.match_id = match.pk
            MatchSeat.objects.bulk_create([s for _, seats, _ in played for s in seats], batch_size=2000)
            self.store_history(played)
            _insert_decisions([d for _, _, decisions in played for d in decisions])
            self.store_ratings(changes)
        return sum(len(decisions) for _, _, decisions in played)

    def store_history(self, played):
        """The game history's rows of the batch (game/matches/history.py), as rating a match writes them."""
        models = (FinishedGame, FinishedSeat, GameOpponent)
        games, lines, versus = [], [], []
        for match, seats, _ in played:
            game, seat_rows, opponents = history.rows(match, seats, match.changed, models)
            games.append(game)
            lines += seat_rows
            versus += opponents
        FinishedGame.objects.bulk_create(games, batch_size=2000)
        FinishedSeat.objects.bulk_create(lines, batch_size=2000)
        GameOpponent.objects.bulk_create(versus, batch_size=2000)

    def rerate(self, batch_size=2000):
        """Rate every seeded game again from the start, in the order they ended, as `run` rates them (after the
        rating method changed): the seeded people's and the engine players' ratings and their history are made
        anew. Yields the games rated so far after each batch."""
        holder = self.holder()
        seeded = Match.objects.filter(creator=holder)
        with transaction.atomic():
            RatingChange.objects.filter(match__creator=holder).delete()
            PlayerRating.objects.filter(Q(user__username__startswith=PREFIX) | Q(user__isnull=True)).delete()
        self.ratings = {}
        done, after = 0, None
        while True:
            page = seeded.order_by("changed", "pk").only("pk", "players", "ending", "places", "automa_level", "ravel",
                                                         "changed").prefetch_related("seats")
            if after is not None:
                page = page.filter(Q(changed__gt=after[0]) | Q(changed=after[0], pk__gt=after[1]))
            page = list(page[:batch_size])
            if not page:
                return
            changes = []
            for match in page:
                changes += self.rate(match, sorted(match.seats.all(), key=lambda s: s.seat), match.pk)
            self.store_ratings(changes)
            done += len(page)
            after = (page[-1].changed, page[-1].pk)
            yield done

    def store_ratings(self, changes):
        """Save the ratings `changes` moved and their lines of history, in one transaction."""
        touched = list({id(row): row for row, *_ in changes}.values())
        with transaction.atomic(), _times_as_given(RatingChange):
            PlayerRating.objects.bulk_update([row for row in touched if row.pk is not None],
                                             ["rating", "rd", "volatility", "games", "last_game"], batch_size=2000)
            PlayerRating.objects.bulk_create([row for row in touched if row.pk is None], batch_size=2000)
            RatingChange.objects.bulk_create([RatingChange(rating=row, match=match, before=before, after=after,
                                                           rd=rd, created=match.changed)
                                              for row, match, before, after, rd in changes], batch_size=2000)

    def run(self, batch_size=200):
        """Add games until `total` seeded games are stored, batch by batch; yields (games stored, decisions of the
        batch) after each."""
        holder = self.holder()
        people_ids = self.ensure_people()
        self.load_ratings()
        self.first = self.stored = Match.objects.filter(creator=holder).count()
        while self.stored < self.total:
            batch = range(self.stored, min(self.stored + batch_size, self.total))
            decisions = self.store(batch, holder, people_ids)
            self.stored = batch.stop
            yield self.stored, decisions


DECISION_COLUMNS = ("match", "number", "seat", "kind", "args", "prompt", "label", "link", "events", "created")


def _insert_decisions(rows):
    """Insert decision rows the quick way: COPY on PostgreSQL, one prepared statement run for all rows on SQLite
    (the ORM's bulk insert spends more time building its statement than the database spends storing 15 million
    rows). The values are those the model would store."""
    fields = [MatchDecision._meta.get_field(name) for name in DECISION_COLUMNS]
    values = [[field.get_db_prep_save(getattr(row, field.attname), connection) for field in fields] for row in rows]
    table = connection.ops.quote_name(MatchDecision._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(field.column) for field in fields)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in values:
                    copy.write_row([v.dumps(v.obj) if hasattr(v, "dumps") else v for v in row])
        else:
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})", values)
