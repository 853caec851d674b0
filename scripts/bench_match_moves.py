"""What a match move and a poll cost on the server, alone and under load, on PostgreSQL (issue 11, "Speed").

Usage: DATABASE_URL=postgres://... .venv/bin/python scripts/bench_match_moves.py [--solo 150] [--polls 300]
           [--matches 100] [--clients 16] [--moves 1500] [--port 8340] [--workers 4] [--threads 1]
           [--worker-class sync] [--no-load]

In this process, through the whole Django stack (no server):
- move (service): one 2-player match, `--solo` random decisions through `services.submit_decision`: ms and SQL
  queries per decision (BEGIN and COMMIT count as queries).
- move (API): the same through `POST /api/matches/<id>/decisions/` with a signed-in session (the test client),
  answer (the whole new view) included, each after the mover's untimed poll (as the board polls before its player
  moves).
- move (API, minimal): the same with `Prefer: return=minimal`, as the board sends a move: the answer is the match's
  summary, and the board reads the view with its next poll.
- poll: `GET /api/matches/<id>/` with the ETag of the last answer (If-None-Match), the match unchanged: a 304.
- Each in-process figure also gives the CPU time of this thread (`time.thread_time`) per request: the server's own
  Python work, less shaken than the wall clock by other work on the machine (the database's work is not in it).
- saved bytes: the JSON of the match's saved state after each decision of the service run: after the first, after
  the last, and summed over the match (what the moves wrote). Run the script from an older checkout to compare.

Under load (unless --no-load): gunicorn (`--worker-class`, `--workers` x `--threads`; the defaults are the
Procfile's) on 127.0.0.1:`--port`, `--matches` live 2-player matches and `--clients` client threads, each playing its own share of the matches (both
seats, its own two signed-in users) until `--moves` decisions were taken in all: each step reads the options
(`GET .../options/`) as the player the last answer said moves next (as each player's page knows whose turn it is;
in a match not yet moved in, as the first player, then the other if it is not theirs) and sends one
(`POST .../decisions/` with `Prefer: return=minimal`, as the board), then reads the view (`GET .../`) as the
board does after a move; the POST's time is the move. (Until 2026-12-02 10:15 UTC every step read the options as
the first player, and again as the second when it was not the first's turn: half the steps made an extra read.)
Then `--racers` threads send the same decision at the same version to one match at once: exactly one must be 201,
the rest 409. At the end every match's hash chain and seal are verified, and a sample is replayed.

The slowest request of any kind (options, move, view) and the three slowest are printed too. With BENCH_TRACE=FILE
every request under load is written to FILE (time, ms, method, path, status); gunicorn's own access log with each
request's server time and worker (GUNICORN_CMD_ARGS="--access-logfile F --access-logformat '%(t)s %(r)s %(s)s %(D)s
%(p)s'") then tells a stall of the server from one of the client or the network.

Nothing is timed in the tests; this prints figures for docs/benchmarks.md with the machine's load average.
"""
import argparse
import http.client
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRACE = open(os.environ["BENCH_TRACE"], "w", buffering=1) if os.environ.get("BENCH_TRACE") else None
sys.path.insert(0, str(ROOT))


def setup_django():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # a throwaway key: DEBUG is off, as on a site
    import django

    django.setup()
    import logging

    from django.core.management import call_command

    logging.getLogger("huey").setLevel(logging.WARNING)  # the in-process queue's line per task would drown the figures

    from cardsite.catalogue.models import Dragon

    call_command("migrate", verbosity=0, interactive=False)
    if not Dragon.objects.exists():
        call_command("load_catalogue", verbosity=0)


def load():
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def users(prefix, count):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return [User.objects.create_user(f"{prefix}{i}", password="a-long-bench-password") for i in range(count)]


def new_match(first, second):
    from game.matches import services
    from game.models import Match

    match = services.create_match(first, players=2)
    services.join_match(match.pk, second)
    return Match.objects.get(pk=match.pk)


def in_process(moves, polls, tag):
    """Service and API moves, polls and saved bytes, in this process."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from game.matches import services
    from game.models import Match

    first, second = users(f"{tag}p", 2)
    who = {0: first, 1: second}
    figures = {}

    # the service alone
    match = new_match(first, second)
    rng = random.Random(7)
    times, cpus, queries, saved = [], [], [], []
    for _ in range(moves):
        match = Match.objects.get(pk=match.pk)
        if match.version:
            saved.append(len(json.dumps(match.state)))  # the snapshot stored by the move before
        state = services.load_state(match)
        if state.pending is None:
            break
        option = rng.choice(state.legal_options()).to_dict()
        with CaptureQueriesContext(connection) as captured:
            started, cpu = time.perf_counter(), time.thread_time()
            services.submit_decision(match.pk, who[state.pending.player], match.version, option)
            times.append((time.perf_counter() - started) * 1000)
            cpus.append((time.thread_time() - cpu) * 1000)
        queries.append(len(captured))
    figures["service"] = {"n": len(times), "p50": statistics.median(times), "p90": pct(times, 0.9),
                          "cpu_p50": statistics.median(cpus), "queries_p50": statistics.median(queries),
                          "queries_max": max(queries)}
    figures["saved"] = {"decisions": len(saved), "first": saved[0], "last": saved[-1], "total": sum(saved)}

    # through the API with a session: the whole answer (the default), then the minimal one the board asks for
    for name, headers in (("api", {}), ("api_minimal", {"HTTP_PREFER": "return=minimal"})):
        first, second = users(f"{tag}{name}", 2)  # players of their own: the write rate limit counts per player
        who = {0: first, 1: second}
        match = new_match(first, second)
        clients = {}
        for seat, user in who.items():
            clients[seat] = Client(enforce_csrf_checks=False)
            clients[seat].force_login(user)
        times, cpus, queries = [], [], []
        for _ in range(moves):
            match = Match.objects.get(pk=match.pk)
            state = services.load_state(match)
            if state.pending is None:
                break
            option = rng.choice(state.legal_options()).to_dict()
            body = json.dumps({"version": match.version, "option": option})
            # the board's poll before the move (untimed): it told the mover the opponent's last decision
            clients[state.pending.player].get(f"/api/matches/{match.public_id}/")
            with CaptureQueriesContext(connection) as captured:
                started, cpu = time.perf_counter(), time.thread_time()
                answer = clients[state.pending.player].post(f"/api/matches/{match.public_id}/decisions/", body,
                                                            content_type="application/json", **headers)
                times.append((time.perf_counter() - started) * 1000)
                cpus.append((time.thread_time() - cpu) * 1000)
            assert answer.status_code == 201, answer.content[:300]
            queries.append(len(captured))
        figures[name] = {"n": len(times), "p50": statistics.median(times), "p90": pct(times, 0.9),
                         "cpu_p50": statistics.median(cpus), "queries_p50": statistics.median(queries),
                         "queries_max": max(queries)}

    # an unchanged poll: the ETag of the last answer
    client = clients[0]
    etag = client.get(f"/api/matches/{match.public_id}/")["ETag"]
    times, cpus, queries = [], [], []
    for _ in range(polls):
        with CaptureQueriesContext(connection) as captured:
            started, cpu = time.perf_counter(), time.thread_time()
            answer = client.get(f"/api/matches/{match.public_id}/", HTTP_IF_NONE_MATCH=etag)
            times.append((time.perf_counter() - started) * 1000)
            cpus.append((time.thread_time() - cpu) * 1000)
        assert answer.status_code == 304
        queries.append(len(captured))
    figures["poll"] = {"n": len(times), "p50": statistics.median(times), "p90": pct(times, 0.9),
                       "cpu_p50": statistics.median(cpus), "queries_p50": statistics.median(queries),
                       "queries_max": max(queries)}
    return figures


class Browser:
    """One signed-in user over HTTP: the session cookie and a CSRF token of our own (the cookie and the header
    must agree)."""

    def __init__(self, port, user):
        from django.test import Client

        client = Client()
        client.force_login(user)
        self.port = port
        self.csrf = secrets.token_hex(16)
        self.cookie = f"sessionid={client.cookies['sessionid'].value}; csrftoken={self.csrf}"
        self.conn = None

    def request(self, method, path, body=None, minimal=False):
        headers = {"Cookie": self.cookie, "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
            headers["X-CSRFToken"] = self.csrf
        if minimal:
            headers["Prefer"] = "return=minimal"
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                started = time.perf_counter()
                self.conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                ms = (time.perf_counter() - started) * 1000
                if TRACE is not None:
                    TRACE.write(f"{time.time():.3f} {ms:.1f} {method} {path} {response.status}\n")
                return response.status, data, ms
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")


def start_server(port, workers, threads, worker_class="sync"):
    env = dict(os.environ)
    log = open(f"/tmp/bench_match_moves_gunicorn_{port}.log", "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "cardsite.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--threads", str(threads), "--worker-class", worker_class, "--timeout", "60"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/health/")
            if conn.getresponse().status == 200:
                return process
        except OSError:
            time.sleep(0.5)
    process.terminate()
    raise SystemExit(f"gunicorn did not answer on port {port}; see /tmp/bench_match_moves_gunicorn_{port}.log")


def under_load(args, tag):
    from game.models import Match

    pairs = [users(f"{tag}c{k}_", 2) for k in range(args.clients)]
    matches = {k: [] for k in range(args.clients)}
    for i in range(args.matches):
        k = i % args.clients
        matches[k].append(new_match(*pairs[k]).public_id)
    process = start_server(args.port, args.workers, args.threads, args.worker_class)
    try:
        browsers = {k: [Browser(args.port, u) for u in pairs[k]] for k in range(args.clients)}
        # warm every worker up (the first request of a worker builds the catalogue's views)
        for k in range(args.clients):
            browsers[k][0].request("GET", f"/api/matches/{matches[k][0]}/")
        moves, reads, views, statuses = [], [], [], Counter()
        budget = {"left": args.moves}
        lock = threading.Lock()
        barrier = threading.Barrier(args.clients)

        def play(k):
            rng = random.Random(k)
            mine = list(matches[k])
            to_move = {}  # match -> the seat the last answer said moves next, as each player's page knows
            barrier.wait()
            while True:
                with lock:
                    if budget["left"] <= 0:
                        return
                    budget["left"] -= 1
                pk = rng.choice(mine)
                seat = to_move.get(pk, 0)
                status, data, ms = browsers[k][seat].request("GET", f"/api/matches/{pk}/options/")
                listing = json.loads(data)
                if not listing["your_turn"]:  # a match this client has not moved in yet: ask the other player
                    seat = 1 - seat
                    status, data, ms = browsers[k][seat].request("GET", f"/api/matches/{pk}/options/")
                    listing = json.loads(data)
                with lock:
                    reads.append(ms)
                if not listing["options"]:
                    mine.remove(pk)  # finished
                    if not mine:
                        return
                    continue
                option = rng.choice(listing["options"])
                status, data, ms = browsers[k][seat].request(
                    "POST", f"/api/matches/{pk}/decisions/",
                    {"version": listing["version"], "option": {"kind": option["kind"], "args": option["args"]}},
                    minimal=True)
                if status == 201:
                    to_move[pk] = seat if json.loads(data).get("your_turn") else 1 - seat
                # then the whole view, as the board reads it after the minimal answer (not part of the move's time)
                _, _, view_ms = browsers[k][seat].request("GET", f"/api/matches/{pk}/")
                with lock:
                    moves.append(ms)
                    views.append(view_ms)
                    statuses[status] += 1

        threads = [threading.Thread(target=play, args=(k,)) for k in range(args.clients)]
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started

        race = racing(args, tag)
    finally:
        process.terminate()
        process.wait(timeout=30)
    live = Match.objects.filter(pk__in=[pk for ids in matches.values() for pk in ids])
    return {"moves": len(moves), "seconds": elapsed, "statuses": dict(statuses), "p50": statistics.median(moves),
            "p90": pct(moves, 0.9), "p99": pct(moves, 0.99), "max": max(moves),
            "read_p50": statistics.median(reads), "read_p99": pct(reads, 0.99), "view_p50": statistics.median(views),
            "view_p99": pct(views, 0.99), "slowest": max(max(moves), max(reads), max(views)),
            "slowest_three": sorted(moves + reads + views)[-3:], "race": race,
            "damaged": verify(live)}


def racing(args, tag):
    """`--racers` requests send the same decision at the same version at once: one applies, the rest are 409."""
    from game.matches import services
    from game.models import Match

    first, second = users(f"{tag}r", 2)
    match = new_match(first, second)
    state = services.load_state(match)
    user = first if state.pending.player == 0 else second
    option = state.legal_options()[0].to_dict()
    racers = [Browser(args.port, user) for _ in range(args.racers)]
    barrier = threading.Barrier(len(racers))
    answers = []

    def send(browser):
        barrier.wait()
        status, _, _ = browser.request("POST", f"/api/matches/{match.public_id}/decisions/",
                                       {"version": 0, "option": option})
        answers.append(status)

    threads = [threading.Thread(target=send, args=(b,)) for b in racers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    match = Match.objects.get(pk=match.pk)
    return {"answers": dict(Counter(answers)), "version": match.version, "rows": match.decisions.count()}


def verify(matches):
    from game.matches import integrity

    damaged = 0
    for i, match in enumerate(matches):
        if integrity.verify(match, replay=i % 10 == 0):
            damaged += 1
    return damaged


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solo", type=int, default=150)
    parser.add_argument("--polls", type=int, default=300)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--moves", type=int, default=1500)
    parser.add_argument("--racers", type=int, default=8)
    parser.add_argument("--port", type=int, default=8340)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--worker-class", default="sync")
    parser.add_argument("--no-load", action="store_true")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("note: DATABASE_URL is not PostgreSQL; the figures are for", os.environ.get("DATABASE_URL", "SQLite"))
    setup_django()
    from django.db import connection

    tag = f"bm{secrets.token_hex(3)}"
    from django.conf import settings

    print(f"database {connection.vendor}; sessions {settings.SESSION_ENGINE.rsplit('.', 1)[-1]}, cache "
          f"{settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}; load average at the start {load()}")
    figures = in_process(args.solo, args.polls, tag)
    for name in ("service", "api", "api_minimal", "poll"):
        f = figures[name]
        print(f"{name}: {f['n']} requests, p50 {f['p50']:.2f} ms, p90 {f['p90']:.2f} ms, this thread's CPU p50 "
              f"{f['cpu_p50']:.2f} ms, queries p50 {f['queries_p50']:.0f} max {f['queries_max']}")
    s = figures["saved"]
    print(f"saved state (JSON) over {s['decisions']} decisions: {s['first']:,} B after the first, {s['last']:,} B "
          f"after the last, {s['total']:,} B written in all")
    print(f"load average after the in-process runs {load()}")
    if not args.no_load:
        f = under_load(args, tag)
        print(f"under load: {args.matches} matches, {args.clients} clients, "
              f"gunicorn {args.worker_class} {args.workers}x{args.threads}: "
              f"{f['moves']} moves in {f['seconds']:.1f} s ({f['moves'] / f['seconds']:.0f}/s), statuses "
              f"{f['statuses']}; move p50 {f['p50']:.1f} ms, p90 {f['p90']:.1f} ms, p99 {f['p99']:.1f} ms, max "
              f"{f['max']:.1f} ms; options read p50 {f['read_p50']:.1f} ms, p99 {f['read_p99']:.1f} ms; the view read "
              f"after each move p50 {f['view_p50']:.1f} ms, p99 {f['view_p99']:.1f} ms")
        print(f"slowest request of any kind {f['slowest']:.1f} ms; the three slowest "
              f"{', '.join(f'{ms:.1f}' for ms in f['slowest_three'])} ms")
        r = f["race"]
        print(f"race: {args.racers} identical moves at once answered {r['answers']}; the match is at version "
              f"{r['version']} with {r['rows']} decision row(s)")
        print(f"damaged matches after the run: {f['damaged']}")
        print(f"load average at the end {load()}")


if __name__ == "__main__":
    main()
