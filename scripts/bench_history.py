"""The game history's search at scale, each search timed on a database seeded with `manage.py seed_games`
(100,000 finished games of 10,000 players: docs/benchmarks.md, "The site at scale").

Usage: DATABASE_URL=postgres://... DEBUG=true .venv/bin/python scripts/bench_history.py [--runs 30]

Times each kind of search as the API runs it (read the filters, read a page of 25, serialise it) and prints the
median and 90th percentile in milliseconds, with the rows PostgreSQL's plan read for it (EXPLAIN ANALYZE of the
page's first query). The searched player is the seeded player with the most games.
"""
import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.http import QueryDict  # noqa: E402

from game.matches import history, seeding  # noqa: E402
from game.models import FinishedGame, FinishedSeat  # noqa: E402


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
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    if not FinishedGame.objects.filter(match__creator__username=seeding.HOLDER).exists():
        sys.exit("no seeded games here: run manage.py seed_games first (docs/benchmarks.md)")
    player = (FinishedSeat.objects.filter(user__username__startswith=seeding.PREFIX).values("user__username")
              .annotate(n=Count("game")).order_by("-n").first()["user__username"])
    deep = FinishedGame.objects.order_by("-finished", "-match_id").values_list("match__public_id", flat=True)[5000]
    searches = {
        "newest": "", "player": f"player={player}", "player, won": f"player={player}&result=won",
        "player, 3 players": f"player={player}&players=3", "player, academy": f"player={player}&academy=yes",
        "player, against a bot": f"player={player}&opponent=bot:random",
        "player, score 50+": f"player={player}&score_min=50",
        "3 players": "players=3", "academy": "academy=yes", "solo, Automa 2": "opponent=automa:2",
        "against a bot": "opponent=bot:random", "humans only": "opponent=human",
        "score 70+ (any seat)": "score_min=70", "a month": "date_from=2026-06-01&date_to=2026-06-30",
        "page 200 (after)": f"after={deep}",
    }
    print(f"{'search':28} {'p50 ms':>8} {'p90 ms':>8} {'rows read':>10}")
    for name, params in searches.items():
        p50, p90 = timed(params, args.runs)
        print(f"{name:28} {p50:8.1f} {p90:8.1f} {plan_rows(params):10.0f}")


if __name__ == "__main__":
    main()
