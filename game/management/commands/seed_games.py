"""Seed the database with many finished games and the players who played them, to measure the site at scale."""
import time

from django.core.management.base import BaseCommand, CommandError

from game.management.progress import bar
from game.matches.seeding import Seeder


class Command(BaseCommand):
    help = ("Add finished games (played through the engine to the end, stored whole, rated) until GAMES seeded games "
            "are stored, among PLAYERS made-up players; a progress bar shows the way. Run it again to go on where a "
            "run stopped. For benchmarks: docs/benchmarks.md, 'The site at scale'.")

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100_000, help="seeded games wanted in all (default 100000)")
        parser.add_argument("--players", type=int, default=10_000, help="made-up players (default 10000)")
        parser.add_argument("--batch", type=int, default=200, help="games stored per transaction (default 200)")
        parser.add_argument("--rerate", action="store_true",
                            help="first rate every seeded game again from the start (after the rating method changed)")

    def handle(self, *args, games, players, batch, rerate=False, **options):
        if games < 0:
            raise CommandError("--games must be 0 or more")
        if players < 5:
            raise CommandError("--players must be at least 5: a game seats up to 5 different people")
        if batch < 1:
            raise CommandError("--batch must be at least 1")
        seeder = Seeder(games, players)
        if rerate:
            began, total = time.perf_counter(), seeder.seeded_count()
            for done in seeder.rerate():
                bar(done, total, began, self.stderr, note="rated again")
            self.stderr.write("")
        started, decisions = time.perf_counter(), 0
        for done, stored in seeder.run(batch):
            decisions += stored
            bar(done, games, started, self.stderr, note=f"{decisions:,} decisions", since=seeder.first)
        self.stderr.write("")
        added = seeder.stored - seeder.first
        self.stdout.write(f"{seeder.stored} seeded games stored: {added} added now, with {decisions:,} decisions, "
                          f"in {time.perf_counter() - started:.0f} s")
