"""How soon a stored move reaches the open boards of a match (issue 33, "Push"), through a real server.

Usage: .venv/bin/python scripts/bench_push.py [--sockets 100 1000] [--moves 20] [--redis]

Serves the site as the README does (`manage.py runserver`, Daphne's, with the in-memory channel layer and queue) on
a throwaway SQLite database with one 2-player match; with `--redis`, as deployed instead: gunicorn (2 sync
workers) for the pages and the API, Daphne for the sockets, the Redis channel layer between them (REDIS_URL,
default redis://127.0.0.1:6379/5). For each count of sockets, that many clients (threads of websocket-client)
hold a socket on the match's board; the players then send `--moves` decisions over HTTP (whoever is to move, its first option), one after the
other, each as soon as every socket heard the one before. A socket's latency is from the moment the move's POST was sent to
the moment it heard the new version: the move's own server time included. Printed: p50 / p99 / max over every
socket and move, and the move's POST alone for comparison.
"""
import argparse
import json
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.servers import PASSWORD, TWO_PLAYERS, free_port, wait_until_up  # noqa: E402


def servers(work, redis_url):
    """Start the site; returns (pages base URL, sockets base URL, processes, environment)."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    env.update({"DEBUG": "true", "SECRET_KEY": secrets.token_urlsafe(50), "DATABASE_URL": f"sqlite:///{work}/db.sqlite3",
                "MATCH_POLL_MS": "60000", "RATE_LIMIT_WRITE": "100000/60"})
    if redis_url:
        env["REDIS_URL"] = redis_url
    set_up = subprocess.run([sys.executable, "manage.py", "shell", "-c", TWO_PLAYERS], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    if set_up.returncode:
        sys.exit(set_up.stdout + set_up.stderr)
    public_id, to_move = re.search(r"MATCH (\S+) (\d)", set_up.stdout).groups()
    procs = []

    def start(args, name):
        log = f"{work}/{name}.log"
        procs.append(subprocess.Popen(args, cwd=ROOT, env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT,
                                      start_new_session=True))
        return log

    if redis_url:
        web, push = free_port(), free_port()
        log = start([sys.executable, "-m", "gunicorn", "cardsite.wsgi:application", "--bind", f"127.0.0.1:{web}",
                     "--workers", "2"], "gunicorn")
        wait_until_up(f"http://127.0.0.1:{web}/health/", procs[-1], log)
        log = start([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(push), "cardsite.asgi:application"],
                    "daphne")
        wait_until_up(f"http://127.0.0.1:{push}/health/", procs[-1], log)
        return f"http://127.0.0.1:{web}", f"ws://127.0.0.1:{push}", procs, public_id, int(to_move)
    port = free_port()
    log = start([sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"], "runserver")
    wait_until_up(f"http://127.0.0.1:{port}/health/", procs[-1], log)
    return f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", procs, public_id, int(to_move)


class Mover:
    def __init__(self, base, name):
        import requests

        self.base, self.http = base, requests.Session()
        self.http.get(f"{base}/accounts/login/")
        self.http.post(f"{base}/accounts/login/", data={"username": name, "password": PASSWORD,
                                                        "csrfmiddlewaretoken": self.http.cookies["csrftoken"]},
                       headers={"Referer": f"{base}/accounts/login/"})

    def next_move(self, public_id):
        api = f"{self.base}/api/matches/{public_id}/"
        match = self.http.get(api).json()
        option = self.http.get(api + "options/").json()["options"][0]
        return api, {"version": match["version"], "option": option}

    def send(self, api, body):
        answer = self.http.post(api + "decisions/", json=body,
                                headers={"X-CSRFToken": self.http.cookies["csrftoken"], "Referer": api})
        assert answer.status_code == 201, answer.text
        return answer.json()["version"]


def measure(pages, sockets_base, public_id, to_move, count, moves):
    import websocket

    heard = {}  # version -> [perf_counter of each socket's hearing]
    lock = threading.Lock()
    ready = threading.Barrier(count + 1)
    stop = threading.Event()
    origin = pages

    failed = []

    def listen():
        for attempt in range(30):  # a thousand at once overflow the server's accept queue: as a page, try again
            try:
                ws = websocket.create_connection(f"{sockets_base}/ws/matches/{public_id}/", origin=origin, timeout=60)
                ws.recv()  # the version at opening
                break
            except (OSError, websocket.WebSocketException) as exc:
                time.sleep(0.2 * (attempt + 1))
                error = exc
        else:
            failed.append(repr(error))
            ready.abort()
            return
        ready.wait()
        while not stop.is_set():
            try:
                message = ws.recv()
            except Exception:
                break
            at = time.perf_counter()
            if not message:  # the server closed the socket
                failed.append("closed")
                break
            version = json.loads(message)["version"]
            with lock:
                heard.setdefault(version, []).append(at)
        ws.close()

    threads = [threading.Thread(target=listen, daemon=True) for _ in range(count)]
    for t in threads:
        t.start()
    try:
        ready.wait(timeout=300)
    except threading.BrokenBarrierError:
        sys.exit(f"{len(failed)} of {count} sockets could not open: {failed[:3]}")
    players = {seat: Mover(pages, name) for seat, name in enumerate(("ann", "ben"))}
    latencies, posts = [], []
    for _ in range(moves):
        mover = players[to_move]
        api, body = mover.next_move(public_id)
        if body["option"] is None:
            break
        sent = time.perf_counter()
        version = mover.send(api, body)
        posts.append(time.perf_counter() - sent)
        deadline = time.monotonic() + 30
        while len(heard.get(version, [])) < count and time.monotonic() < deadline:
            time.sleep(0.002)
        got = heard.get(version, [])
        latencies += [at - sent for at in got]
        if len(got) < count:
            print(f"  version {version}: only {len(got)} of {count} sockets heard it within 30 s")
        to_move = mover.http.get(api).json()["to_move"]  # whoever is to move next sends the next one
        if to_move is None:
            break
    stop.set()
    return latencies, posts


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--redis", nargs="?", const="redis://127.0.0.1:6379/5", default=None)
    args = parser.parse_args()
    print(f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
          f"{'gunicorn + daphne, Redis channel layer' if args.redis else 'runserver (daphne), in-memory layer'}")
    print("| sockets | moves heard | socket heard it p50 | p99 | max | the move's POST p50 |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for count in args.sockets:
        with tempfile.TemporaryDirectory() as work:
            pages, sockets_base, procs, public_id, to_move = servers(work, args.redis)
            try:
                latencies, posts = measure(pages, sockets_base, public_id, to_move, count, args.moves)
            finally:
                for proc in procs:
                    os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(timeout=30)
        print(f"| {count} | {len(posts)} | {pct(latencies, .5):.0f} ms | {pct(latencies, .99):.0f} ms "
              f"| {max(latencies) * 1000:.0f} ms | {statistics.median(posts) * 1000:.0f} ms |", flush=True)


if __name__ == "__main__":
    main()
