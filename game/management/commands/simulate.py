"""Play seeded random games with the rules engine and report speed and scores."""
import statistics
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from game.engine.agents import play_out
from game.engine.catalogue import load_fixtures
from game.engine.scoring import CATEGORIES
from game.engine.state import GameState
from game.management.progress import bar


def catalogue_from_db():
    """The catalogue as loaded into the database, as the site's catalogue service exports it for new matches."""
    from game import catalogue
    return catalogue.current().engine


class Command(BaseCommand):
    help = "Play random games with the rules engine; print games/s, decisions/s and score statistics."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=20)
        parser.add_argument("--players", type=int, default=2)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--academy", action="store_true", help="play with the Dragon Academy expansion")
        parser.add_argument("--uniform", action="store_true", help="uniform random choices (default: weighted)")
        parser.add_argument("--automa", type=int, default=None, metavar="LEVEL",
                            help="solo (--players 1) against the Automa at this level")
        parser.add_argument("--ravel", action="store_true", help="the Automa in Ravel Mode")
        parser.add_argument("--source", choices=("fixtures", "db"), default="fixtures",
                            help="read the catalogue from fixtures/ (default) or from the database")

    def handle(self, *args, games, players, seed, academy, uniform, source, automa=None, ravel=False, **options):
        if games < 1:
            raise CommandError("--games must be at least 1")
        if not 1 <= players <= 5:
            raise CommandError("--players must be 1 to 5")
        if (players == 1) != (automa is not None):
            raise CommandError("a solo game (--players 1) is played against the Automa: give --automa LEVEL, and "
                               "only with --players 1")
        solo = {"level": automa, "ravel": ravel} if automa is not None else None
        cat = catalogue_from_db() if source == "db" else load_fixtures(settings.BASE_DIR / "fixtures")
        err = self.stderr
        totals, winners, decisions, turns = [], [], 0, 0
        categories = {c: [] for c in CATEGORIES}
        started = time.perf_counter()
        for g in range(games):
            try:
                st = GameState.new(cat, players=players, seed=seed + g, academy=academy, automa=solo)
            except ValueError as error:
                raise CommandError(str(error)) from None
            decisions += play_out(st, seed=seed + g, weighted=not uniform)
            turns += st.turns
            for score in st.result["scores"]:
                totals.append(score["total"])
                for c in CATEGORIES:
                    categories[c].append(score[c])
            winners.append(max(score["total"] for score in st.result["scores"]))
            bar(g + 1, games, started, err)
        err.write("")
        elapsed = time.perf_counter() - started
        w = self.stdout.write
        w(f"{games} games, {players} players{' with Dragon Academy' if academy else ''}, seeds {seed}..{seed + games - 1}")
        w(f"time: {elapsed:.2f} s  |  {games / elapsed:.1f} games/s  |  {decisions / elapsed:,.0f} decisions/s  |  "
          f"{decisions / games:.0f} decisions and {turns / games:.0f} turns per game")
        w(f"score per player: mean {statistics.mean(totals):.1f}, median {statistics.median(totals)}, "
          f"min {min(totals)}, max {max(totals)}")
        w(f"winning score: mean {statistics.mean(winners):.1f}, min {min(winners)}, max {max(winners)}")
        w("mean VP by category: " + ", ".join(f"{c} {statistics.mean(v):.1f}" for c, v in categories.items()))
