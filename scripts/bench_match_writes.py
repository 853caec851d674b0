"""Match writes under contention, on a real SQLite file (or the DATABASE_URL given), through the whole Django stack.

Usage: .venv/bin/python scripts/bench_match_writes.py [--matches 4] [--moves 40] [--lobby 8] [--solo 150]
                                                     [--busy] [--db PATH] [--json]

Three runs, each on its own threads with their own database connections, through the test client (URLs, views,
services, the database; no server process):
- lobby: `--lobby` users open a match at the same moment, then as many join those matches at once, then the
  creators start them at once. Every answer should be 201/200; a 500 here is SQLite's "database is locked".
- play: `--matches` matches in play at once, one thread per match taking `--moves` decisions in turn. No two
  threads touch the same match, so every 409 is a false one (nobody else moved) and every 500 a bug.
- solo: one match, `--solo` decisions in a row, nobody else writing: the cost of one decision (milliseconds and
  queries, through the service function).
- busy (with --busy): a second connection holds SQLite's write lock past the timeout (cut to one second for this
  run) while a decision and a join are sent: the answers, and what was stored meanwhile.

Without --db a fresh file in a temporary folder is migrated and loaded first (about half a minute). Prints the
counts of each status and the rates; --json prints them as one JSON object (tests/matches/test_sqlite_concurrency.py
reads it).
"""
import argparse
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(db_path):
    if db_path is not None:
        os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # a throwaway key: DEBUG is off, as on a site
    import django

    django.setup()


def prepare(verbose):
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("load_catalogue", verbosity=1 if verbose else 0)


def _client(user):
    from django.test import Client

    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _together(work, items):
    """Run work(item) for every item on its own thread, all released at the same moment; returns the results."""
    from django.db import connection

    barrier = threading.Barrier(len(items))
    results = [None] * len(items)

    def run(i, item):
        try:
            barrier.wait()
            results[i] = work(item)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, item)) for i, item in enumerate(items)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _users(prefix, count):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return [User.objects.get_or_create(username=f"{prefix}{i}")[0] for i in range(count)]


def lobby(count, tag):
    """Open, join and start `count` matches, each step all at once; the status codes of every answer."""
    creators, joiners = _users(f"{tag}c", count), _users(f"{tag}j", count)
    clients = {u.pk: _client(u) for u in creators + joiners}
    statuses = Counter()

    def post(args):
        user, path, body = args
        response = clients[user.pk].post(path, body, content_type="application/json")
        statuses[response.status_code] += 1
        return response

    created = _together(post, [(u, "/api/matches/", {"players": 3}) for u in creators])
    ids = [r.json()["id"] for r in created if r.status_code == 201]
    _together(post, [(joiners[i], f"/api/matches/{public_id}/join/", {}) for i, public_id in enumerate(ids)])
    _together(post, [(creators[i], f"/api/matches/{public_id}/start/", {}) for i, public_id in enumerate(ids)])
    return statuses


def play(matches, moves, tag):
    """`matches` two-player matches played at once, one thread each; the status codes of the decisions."""
    from game.matches import services

    pairs = list(zip(_users(f"{tag}a", matches), _users(f"{tag}b", matches)))
    games = []
    for first, second in pairs:
        match = services.create_match(first, players=2)
        services.join_match(match.pk, second)
        games.append((match.pk, match.public_id, {0: _client(first), 1: _client(second)}))
    statuses = Counter()
    refusals = []

    def run(game):
        pk, public_id, clients = game
        rng = random.Random(pk)
        for _ in range(moves):
            seat = None
            for s, client in clients.items():
                listing = client.get(f"/api/matches/{public_id}/options/").json()
                if listing["your_turn"]:
                    seat, version, options = s, listing["version"], listing["options"]
                    break
            if seat is None:
                return
            option = rng.choice(options)
            response = clients[seat].post(f"/api/matches/{public_id}/decisions/",
                                          {"version": version, "option": {"kind": option["kind"],
                                                                          "args": option["args"]}},
                                          content_type="application/json")
            statuses[response.status_code] += 1
            if response.status_code != 201:
                refusals.append((response.status_code, response.content[:200].decode(errors="replace")))

    _together(run, games)
    return statuses, refusals, [pk for pk, _, _ in games]


def solo(moves, tag):
    """One match, `moves` decisions through the service with nobody else writing: ms and queries per decision."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from game.matches import services
    from game.models import Match

    first, second = _users(f"{tag}s", 2)
    match = services.create_match(first, players=2)
    services.join_match(match.pk, second)
    users = {0: first, 1: second}
    rng = random.Random(7)
    times, queries = [], []
    for _ in range(moves):
        match = Match.objects.get(pk=match.pk)
        state = services.load_state(match)
        if state.pending is None:
            break
        option = rng.choice(state.legal_options()).to_dict()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            services.submit_decision(match.pk, users[state.pending.player], match.version, option)
            times.append((time.perf_counter() - started) * 1000)
        queries.append(len(captured))
    return {"decisions": len(times), "ms_p50": round(statistics.median(times), 2),
            "ms_p90": round(sorted(times)[int(len(times) * 0.9)], 2), "queries_p50": statistics.median(queries)}


def busy(tag):
    """Another connection holds SQLite's write lock for longer than the timeout: what a decision and a join answer,
    what is stored meanwhile, and whether the same decision goes through once the lock is released."""
    import sqlite3

    from django.db import connection

    from game.matches import services
    from game.models import Match

    first, second, third = _users(f"{tag}h", 3)
    match = services.create_match(first, players=3)
    services.join_match(match.pk, second)
    services.start_match(match.pk, first)
    option = services.load_state(Match.objects.get(pk=match.pk)).legal_options()[0].to_dict()
    open_match = services.create_match(second, players=2)
    decide = {"version": 0, "option": option}
    player, joiner = _client(first), _client(third)
    connection.close()
    waited = connection.settings_dict["OPTIONS"].get("timeout")
    connection.settings_dict["OPTIONS"]["timeout"] = 1  # the next connection waits one second, not the default
    holder = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        api = player.post(f"/api/matches/{match.public_id}/decisions/", decide, content_type="application/json")
        page = joiner.post(f"/matches/{open_match.public_id}/join/")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        connection.close()
        connection.settings_dict["OPTIONS"]["timeout"] = waited
    stored = Match.objects.get(pk=match.pk).version, Match.objects.get(pk=open_match.pk).seats.count()
    again = player.post(f"/api/matches/{match.public_id}/decisions/", decide, content_type="application/json")
    return {"api": {"status": api.status_code, "retry_after": api.get("Retry-After"), "body": api.json()},
            "page": {"status": page.status_code, "text": page.content.decode()},
            "stored_while_locked": {"version": stored[0], "seats": stored[1]}, "again": again.status_code}


def rates(statuses, good):
    total = sum(statuses.values())
    return {"total": total, "statuses": dict(sorted(statuses.items())),
            "bad_rate": round(100 * (total - sum(statuses[g] for g in good)) / total, 2) if total else 0.0}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--lobby", type=int, default=8)
    parser.add_argument("--solo", type=int, default=150)
    parser.add_argument("--busy", action="store_true",
                        help="also hold the write lock past the timeout and record the answers (SQLite only)")
    parser.add_argument("--db", help="an SQLite file already migrated and loaded (default: a fresh one)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = None
    if args.db is None and "DATABASE_URL" not in os.environ:
        folder = tempfile.TemporaryDirectory(prefix="wyrmdex-contention-")
        db_path = Path(folder.name) / "db.sqlite3"
    else:
        db_path = args.db
    setup_django(db_path)
    from django.db import connection

    if folder is not None:
        prepare(verbose=not args.json)
    tag = f"t{int(time.time() * 1000) % 10**8}"
    figures = {"database": connection.vendor, "options": {k: v for k, v in connection.settings_dict["OPTIONS"].items()}}
    if args.lobby:
        figures["lobby"] = rates(lobby(args.lobby, tag), good=(200, 201))
    if args.matches:
        statuses, refusals, ids = play(args.matches, args.moves, tag)
        figures["play"] = dict(rates(statuses, good=(201,)), matches=args.matches, refusals=refusals[:5], ids=ids)
    if args.solo:
        figures["solo"] = solo(args.solo, tag)
    if args.busy:
        figures["busy"] = busy(tag)
    connection.close()
    if args.json:
        print(json.dumps(figures))
    else:
        print(json.dumps(figures, indent=2))
    if folder is not None:
        folder.cleanup()


if __name__ == "__main__":
    main()
