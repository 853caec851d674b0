"""The game history's search at scale: 100,000 finished games of 10,000 players, each search timed.

Usage: DATABASE_URL=postgres://... DEBUG=true .venv/bin/python scripts/bench_history.py [--games 100000]
    [--players 10000] [--runs 30]

Fills an empty database (migrated here) with finished games written straight into the history's tables (and the
match rows they hang on: no states, which the search never reads), then times each kind of search as the API runs it
(read the filters, read a page of 25, serialise it) and prints the median and 90th percentile in milliseconds, with
the rows PostgreSQL's plan read for it (EXPLAIN ANALYZE of the page's first query).
"""
import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.http import QueryDict  # noqa: E402
from django.utils import timezone  # noqa: E402

from game.matches import history  # noqa: E402
from game.models import FinishedGame, FinishedSeat, GameOpponent, Match, MatchCatalogue  # noqa: E402

BATCH = 5000
LEVELS = ("random", "greedy", "strong")


def fill(games, players, seed=0):
    rng = random.Random(seed)
    User = get_user_model()
    User.objects.bulk_create([User(username=f"p{i}", password="!") for i in range(players)], batch_size=BATCH)
    users = list(User.objects.order_by("pk").values_list("pk", flat=True))
    cat = MatchCatalogue.objects.create(digest="bench", data={})
    start = timezone.now() - timedelta(days=365)
    for first in range(0, games, BATCH):
        rows = []
        for g in range(first, min(games, first + BATCH)):
            n = rng.choice((1, 2, 2, 2, 3, 3, 4, 5))
            seated = rng.sample(users, 1 if n == 1 else rng.randint(1, n))
            rows.append((n, seated, rng.random() < 0.4, rng.random() < 0.05, start + timedelta(minutes=5 * g)))
        matches = Match.objects.bulk_create([
            Match(creator_id=seated[0], players=n, academy=academy, seed=1, catalogue=cat, status="finished",
                  private=private, ending="scored", places=list(range(1, n + 1)),
                  automa_level=rng.choice((1, 2, 3)) if n == 1 else None)
            for n, seated, academy, private, _ in rows])
        finished, lines, versus = [], [], []
        for match, (n, seated, academy, private, when) in zip(matches, rows):
            copies = {"finished": when, "players": n, "academy": academy, "private": private}
            finished.append(FinishedGame(match_id=match.pk, **copies))
            kinds = []
            for seat in range(n):
                user = seated[seat] if seat < len(seated) else None
                kinds.append((seat, user, "human" if user else f"bot:{rng.choice(LEVELS)}"))
            if n == 1:
                kinds.append((1, None, f"automa:{match.automa_level}"))
            places = list(range(1, len(kinds) + 1))
            rng.shuffle(places)
            for (seat, user, kind), place in zip(kinds, places):
                lines.append(FinishedSeat(game_id=match.pk, seat=seat, user_id=user, kind=kind, name="",
                                          score=rng.randint(20, 110), place=place, won=place == 1, **copies))
            met = {(u, k) for s, u, _ in kinds if u for s2, _, k in kinds if s2 != s}
            versus += [GameOpponent(game_id=match.pk, user_id=u, kind=k, **copies) for u, k in met]
            versus += [GameOpponent(game_id=match.pk, user_id=None, kind=k, **copies) for k in {k for _, k in met}]
        FinishedGame.objects.bulk_create(finished)
        FinishedSeat.objects.bulk_create(lines, batch_size=BATCH)
        GameOpponent.objects.bulk_create(versus, batch_size=BATCH)
        print(f"  {min(games, first + BATCH)} games", file=sys.stderr)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def plan_rows(params):
    """Rows read by the plan of the page's id query (the sum of 'actual rows' of its scans)."""
    search = history.read_search(QueryDict(params), None)
    rows, game = history._driving_rows(search, None)
    query = rows.order_by("-finished", f"-{game}").values_list(game, flat=True)[:history.PAGE + 1]
    sql, args = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, args)
        plan = cursor.fetchone()[0]
        plan = plan[0] if isinstance(plan, list) else plan

    def scans(node):
        own = node.get("Actual Rows", 0) * node.get("Actual Loops", 1) if "Scan" in node["Node Type"] else 0
        return own + sum(scans(child) for child in node.get("Plans", []))
    return scans(plan["Plan"])


def timed(params, runs):
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        search = history.read_search(QueryDict(params), None)
        page = history.search_page(search, None, history.PAGE, QueryDict(params).get("after"))
        [history.game_json(g) for g in page.games]
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), sorted(times)[int(len(times) * 0.9) - 1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    if not FinishedGame.objects.exists():
        fill(args.games, args.players)
    player = get_user_model().objects.get(username="p17").username
    deep = FinishedGame.objects.order_by("-finished", "-match_id").values_list("match__public_id", flat=True)[5000]
    searches = {
        "newest": "", "player": f"player={player}", "player, won": f"player={player}&result=won",
        "player, 3 players": f"player={player}&players=3", "player, academy": f"player={player}&academy=yes",
        "player, against a bot": f"player={player}&opponent=bot:greedy",
        "player, score 80+": f"player={player}&score_min=80",
        "3 players": "players=3", "academy": "academy=yes", "solo, Automa 2": "opponent=automa:2",
        "against a strong bot": "opponent=bot:strong", "humans only": "opponent=human",
        "score 105+ (any seat)": "score_min=105", "a month": "date_from=2026-06-01&date_to=2026-06-30",
        "page 200 (after)": f"after={deep}",
    }
    print(f"{'search':28} {'p50 ms':>8} {'p90 ms':>8} {'rows read':>10}")
    for name, params in searches.items():
        p50, p90 = timed(params, args.runs)
        print(f"{name:28} {p50:8.1f} {p90:8.1f} {plan_rows(params):10.0f}")


if __name__ == "__main__":
    main()
