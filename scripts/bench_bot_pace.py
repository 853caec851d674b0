"""How soon a bot's turn comes back after a person's move (issue 33, "Pace"), through the real queue.

Usage: .venv/bin/python scripts/bench_bot_pace.py [--games 3] [--levels random greedy strong] [--first-seed 500]
       (DATABASE_URL as for the site; by default a throwaway SQLite file in the temporary folder)

For each level, `--games` matches of one person against one bot of that level (`services.play_now`, as the home
page starts them), each with its own seed from `--first-seed` on. The queue's consumer runs in this process as
`dev.py serve` runs it (in-memory queue, its worker threads). The person answers at random through
`services.submit_decision`; after each decision that hands the move to the bot, the clock runs until the match
waits for the person again (or is over), read from the database every 5 ms: the bot's turn as the person waits for
it on the server, queue pick-up, thinking and storing each of its decisions included (the page's poll, at most 0.7 s
while a bot is to move, comes on top).

With `--bots 3`, a 4-player game: the person against three bots of the level, answering at once.

Printed per level: turns measured, the bot's decisions per turn, p50 / p95 / max of the wait, what the same
turns would have cost under the old pace (a fixed 2 s before each bot decision, plus the same thinking), side by
side, and the wall time of a whole game from its start to its final score. Nothing is timed in the tests.
"""
import argparse
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OLD_DELAY = 2.0  # seconds: the fixed wait before each bot decision until issue 33


def setup_django():
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(tempfile.gettempdir()) / 'wyrmdex-bench-pace.sqlite3'}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.pop("REDIS_URL", None)  # the in-memory queue, as the README's serve command runs it
    import django

    django.setup()
    import logging

    from django.core.management import call_command

    logging.getLogger("huey").setLevel(logging.WARNING)
    from cardsite.catalogue.models import Dragon

    call_command("migrate", verbosity=0, interactive=False)
    if not Dragon.objects.exists():
        call_command("load_catalogue", verbosity=0)


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def waits_for(user, level, seed, bots=1):
    """One match against `bots` bots of `level`: ([(seconds the person waited, bot decisions in that turn)], the
    whole game's wall time in seconds)."""
    from game.matches import seeds, services
    from game.models import Match

    seeds._source = random.Random(seed)  # the match's seed and the bot's draws, as the test suite seeds them
    began = time.perf_counter()
    match = services.play_now(user, opponent="bots", bot_levels=[level] * bots)
    rng = random.Random(seed)
    turns = []
    while True:
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.PLAYING:
            return turns, time.perf_counter() - began
        if match.to_move != 0:  # the bot's first move, before the person's
            time.sleep(0.005)
            continue
        state = services.load_state(match)
        option = rng.choice(state.legal_options())
        services.submit_decision(match.pk, user, match.version, option.to_dict())
        sent = time.perf_counter()
        after = Match.objects.get(pk=match.pk)
        if after.to_move == 0 or after.status != Match.Status.PLAYING:
            continue
        version = after.version
        while True:
            now = Match.objects.filter(pk=match.pk).values("to_move", "status", "version").get()
            if now["to_move"] == 0 or now["status"] != Match.Status.PLAYING:
                break
            time.sleep(0.005)
        turns.append((time.perf_counter() - sent, now["version"] - version))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--levels", nargs="+", default=["random", "greedy", "strong"])
    parser.add_argument("--first-seed", type=int, default=500)
    parser.add_argument("--bots", type=int, default=1, help="bots at the table (1 to 4): 3 is a 4-player game")
    args = parser.parse_args()
    setup_django()
    from django.contrib.auth import get_user_model

    from cardsite import queue

    queue.start_in_process(periodic=False)
    user = get_user_model().objects.create_user(f"pace-{secrets.token_hex(4)}", password=secrets.token_urlsafe(16))
    print(f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}; database {os.environ['DATABASE_URL'].split(':')[0]}")
    print(f"{args.bots} bot(s) at each table, {args.bots + 1} players")
    print("| bot | games | turns | decisions per turn (mean, max) | wait p50 | p95 | max | old pace p50 | old p95 "
          "| whole game (mean, max) |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for level in args.levels:
        turns, games = [], []
        for game in range(args.games):
            played, wall = waits_for(user, level, args.first_seed + game, args.bots)
            turns += played
            games.append(wall)
        waits = [w for w, _ in turns]
        old = [w + OLD_DELAY * n for w, n in turns]
        counts = [n for _, n in turns]
        print(f"| {level} | {args.games} | {len(turns)} | {statistics.mean(counts):.1f}, {max(counts)} "
              f"| {pct(waits, .5) * 1000:.0f} ms | {pct(waits, .95) * 1000:.0f} ms | {max(waits) * 1000:.0f} ms "
              f"| {pct(old, .5):.1f} s | {pct(old, .95):.1f} s | {statistics.mean(games):.0f} s, {max(games):.0f} s |",
              flush=True)
    queue.stop_in_process()


if __name__ == "__main__":
    main()
