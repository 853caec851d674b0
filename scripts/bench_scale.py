"""The site at scale: how fast the lobby, a profile, a leaderboard, the history search and a game page answer on a
database seeded with many games (`manage.py seed_games`), and which queries each one runs.

Usage (a PostgreSQL database seeded first, docs/benchmarks.md "The site at scale"):

    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/wyrmdex_seed \
        .venv/bin/python scripts/bench_scale.py [--requests 60] [--explain]

Each page is asked `--requests` times after three warm-up requests, through Django's test client in this process
(the server's whole work: middleware, queries, template; no network), each time for a different target where the
page has one (a different player, game, page of results), signed in as a seeded player. Prints per page the p50
and p95 wall time, the queries it ran and the rows they returned, then each page's queries (with `--explain`, the
plan PostgreSQL chose for each, with the rows it read).
"""
import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from game.matches import seeding  # noqa: E402
from game.models import Match, PlayerRating  # noqa: E402


def targets(rng, n):
    """What each page is asked for: seeded players, seeded games, leaderboard cursors."""
    users = list(Match.objects.filter(creator__username=seeding.HOLDER).values_list("seats__user__username",
                                                                                      flat=True)[:20000])
    names = rng.sample(sorted({u for u in users if u}), n)
    games = rng.sample(list(Match.objects.filter(creator__username=seeding.HOLDER)
                            .values_list("public_id", flat=True)[:50000]), n)
    return names, games


def pages(names, games):
    """(page, [url, ...]) for each page measured: one url per request."""
    out = [
        ("lobby /play/", ["/play/"] * len(names)),
        ("lobby API /api/lobby/", ["/api/lobby/"] * len(names)),
        ("profile /players/<name>/", [f"/players/{n}/" for n in names]),
        ("profile API /api/players/<name>/", [f"/api/players/{n}/" for n in names]),
        ("leaderboard /leaderboards/?pool=<n>", [f"/leaderboards/?pool={['all', '2', '3', '4', '5', '1'][i % 6]}"
                                                 for i in range(len(names))]),
        ("leaderboard API, page 20 deep", leaderboard_deep(len(names))),
        ("game page /matches/<id>/", [f"/matches/{g}/" for g in games]),
        ("game API /api/matches/<id>/", [f"/api/matches/{g}/" for g in games]),
    ]
    if _has_url("games"):  # the history search
        out += [
            ("history /games/ (newest)", ["/games/"] * len(names)),
            ("history /games/?player=<name>", [f"/games/?player={n}" for n in names]),
            ("history API /api/games/?player=<name>&result=won", [f"/api/games/?player={n}&result=won"
                                                                   for n in names]),
            ("history API /api/games/?players=4&academy=yes", ["/api/games/?players=4&academy=yes"] * len(names)),
        ]
    return out


def _has_url(name):
    from django.urls import NoReverseMatch, reverse
    try:
        reverse(name)
        return True
    except NoReverseMatch:
        return False


def leaderboard_deep(n):
    """Leaderboard API urls whose cursor sits 20 pages (of 50) down the `all` pool."""
    from game.ratings.service import cursor
    rows = list(PlayerRating.objects.filter(pool="all", user__isnull=False).order_by("-rating", "pk")[:1000 + n])
    return [f"/api/leaderboards/?pool=all&after={cursor(rows[999 + i])}" for i in range(n)]


def measure(client, urls, warm=3):
    for url in urls[:warm]:
        client.get(url)
    times, queries, sqls, statuses = [], [], {}, set()
    for url in urls:
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - start) * 1000)
        statuses.add(response.status_code)
        queries.append(len(ctx.captured_queries))
        for q in ctx.captured_queries:
            sqls.setdefault(q["sql"][:160], q["sql"])
    return times, queries, statuses, list(sqls.values())


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--explain", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    settings.ALLOWED_HOSTS = ["*"]
    rng = random.Random(args.seed)
    names, games = targets(rng, args.requests)
    client = Client()
    from django.contrib.auth import get_user_model
    client.force_login(get_user_model().objects.get(username=names[0]))
    seeded = Match.objects.filter(creator__username=seeding.HOLDER).count()
    print(f"database: {connection.vendor}, {Match.objects.count():,} matches ({seeded:,} seeded), "
          f"{get_user_model().objects.count():,} accounts; load average {os.getloadavg()[0]:.1f}")
    print()
    print("| page | p50 ms | p95 ms | queries | status |")
    print("| --- | --- | --- | --- | --- |")
    details = []
    for name, urls in pages(names, games):
        times, queries, statuses, sqls = measure(client, urls)
        print(f"| {name} | {statistics.median(times):.1f} | {pct(times, 95):.1f} | "
              f"{min(queries)}–{max(queries)} | {', '.join(map(str, sorted(statuses)))} |")
        details.append((name, sqls))
    for name, sqls in details:
        print(f"\n### {name}\n")
        for sql in sqls:
            print(f"- `{sql[:400]}`")
            if args.explain and connection.vendor == "postgresql" and sql.lstrip().upper().startswith("SELECT"):
                with connection.cursor() as cursor:
                    try:
                        cursor.execute("EXPLAIN (ANALYZE, FORMAT TEXT) " + sql)
                        plan = [row[0] for row in cursor.fetchall()]
                        print("  ```\n  " + "\n  ".join(plan[:12]) + "\n  ```")
                    except Exception as exc:  # a query with parameters bound by the driver: no plan printed
                        connection.rollback() if not connection.in_atomic_block else None
                        print(f"  (no plan: {type(exc).__name__})")


if __name__ == "__main__":
    main()
