"""Two app servers (gunicorn, on two free ports) and a queue worker on one PostgreSQL (`wyrmdex_fleet`) and one
Redis (db 3), as docs/deploy.md runs them behind a load balancer: what one server writes, the other serves.

It skips, saying why, only when PostgreSQL or Redis cannot be reached; CI has both (.ci/run starts them)."""
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

import psycopg
import pytest
import redis
from huey.contrib.djhuey import HUEY
from huey.storage import RedisStorage

from game import tasks

# Its servers share a named database and a Redis db: all its tests on one worker of a parallel run.
pytestmark = pytest.mark.xdist_group("fleet")

ROOT = Path(__file__).resolve().parents[2]
PG_SERVER = os.environ.get("WYRMDEX_FLEET_POSTGRES", "postgres://postgres@127.0.0.1:5432")
DATABASE = f"wyrmdex_fleet_{os.getpid()}"  # a run's own: two runs at once (two checkouts) must not share it
REDIS_URL = "redis://127.0.0.1:6379/4"  # its own db: the queue tests use 3

def _two_free_ports():
    """Two ports nothing listens on now, picked by the system: fixed ones (8301 and 8302, before) were once found
    taken in CI, and the servers' "address in use" became a connection reset far from its cause."""
    with socket.socket() as one, socket.socket() as two:
        one.bind(("127.0.0.1", 0))
        two.bind(("127.0.0.1", 0))
        return one.getsockname()[1], two.getsockname()[1]


PORTS = _two_free_ports()
PASSWORD = "a-long-fleet-password-1"
SETTINGS_VARIABLES = ("DEBUG", "SECRET_KEY", "DATABASE_URL", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT",
                      "SECURE_HSTS_SECONDS", "WYRMDEX_PRODUCTION", "DJANGO_SETTINGS_MODULE", "REDIS_URL",
                      "QUEUE_WORKERS", "STATIC_ROOT")


def reachable_or_skip():
    try:
        psycopg.connect(f"{PG_SERVER}/postgres", connect_timeout=3).close()
    except psycopg.OperationalError as exc:
        pytest.skip(f"PostgreSQL is not reachable at {PG_SERVER} ({exc}); .ci/run starts it")
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.exceptions.ConnectionError as exc:
        pytest.skip(f"Redis is not reachable at {REDIS_URL} ({exc}); .ci/run starts it")


def fresh_database():
    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DATABASE}")


class Person:
    """One person's browser: cookies kept across requests, sent to whichever server the balancer picks."""

    def __init__(self):
        self.cookies = {}

    def request(self, port, method, path, body=None, content_type=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        sent = {"Host": "127.0.0.1", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if content_type:
            sent["Content-Type"] = content_type
        if method != "GET" and "csrftoken" in self.cookies:
            sent["X-CSRFToken"] = self.cookies["csrftoken"]
        conn.request(method, path, body=body, headers=sent)
        response = conn.getresponse()
        content = response.read()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        conn.close()
        return response.status, content

    def json(self, port, method, path, data=None):
        body = None if data is None else json.dumps(data).encode()
        status, content = self.request(port, method, path, body, "application/json" if body else None,
                                       {"Accept": "application/json"})
        return status, (json.loads(content) if content else None)

    def sign_in(self, port, username):
        self.request(port, "GET", "/accounts/login/")
        form = urlencode({"username": username, "password": PASSWORD, "csrfmiddlewaretoken": self.cookies["csrftoken"]})
        status, _ = self.request(port, "POST", "/accounts/login/", form.encode(), "application/x-www-form-urlencoded")
        assert status == 302, f"{username} could not sign in on port {port}"


def upload(person, port, path, name, content):
    person.request(port, "GET", path)
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrfmiddlewaretoken\"\r\n\r\n"
            f"{person.cookies['csrftoken']}\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"{name}\"\r\nContent-Type: application/json\r\n\r\n{content}\r\n--{boundary}--\r\n")
    return person.request(port, "POST", path, body.encode(), f"multipart/form-data; boundary={boundary}")


def manage(env, *args, timeout=180):
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode == 0, f"manage.py {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def wait_until_healthy(port, process, log):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server on {port} stopped:\n{log.read_text()}")
        try:
            status, body = Person().json(port, "GET", "/health/")
            if status == 200:
                return body
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"the server on {port} never became healthy:\n{log.read_text()}")


def stop(process):
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    reachable_or_skip()
    fresh_database()
    flush_queue = redis.Redis.from_url(REDIS_URL)
    for key in flush_queue.scan_iter("huey.*wyrmdex*"):
        flush_queue.delete(key)
    logs = tmp_path_factory.mktemp("fleet")
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    env.update({"DATABASE_URL": f"{PG_SERVER}/{DATABASE}", "REDIS_URL": REDIS_URL, "DEBUG": "false",
                "SECRET_KEY": "fleet-test-" + uuid.uuid4().hex + uuid.uuid4().hex, "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "QUEUE_WORKERS": "1", "STATIC_ROOT": str(logs / "static")})
    manage(env, "shell", "-c", (  # one interpreter for the whole set-up: starting Django is the slow part
        "import datetime; from django.core.management import call_command; "
        "call_command('migrate', verbosity=0); call_command('load_catalogue', verbosity=0); "
        "call_command('collectstatic', interactive=False, verbosity=0); "  # production links hashed static names
        "from django.contrib.auth.models import User; "
        "from cardsite.accounts.models import Session; from django.utils import timezone; "
        f"User.objects.create_superuser('alice', 'alice@example.com', {PASSWORD!r}); "
        f"User.objects.create_user('bob', 'bob@example.com', {PASSWORD!r}); "
        "[Session.objects.create(session_key=f'expired{i:032d}', session_data='', "
        "expire_date=timezone.now() - datetime.timedelta(days=2)) for i in range(3)]"))
    processes = []
    try:
        for port in PORTS:
            log = logs / f"gunicorn-{port}.log"
            processes.append((subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "cardsite.wsgi:application", "--bind", f"127.0.0.1:{port}",
                 "--workers", "1", "--threads", "2", "--timeout", "60"],
                cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True), log))
        worker_log = logs / "worker.log"
        processes.append((subprocess.Popen([sys.executable, "manage.py", "run_huey"], cwd=ROOT, env=env,
                                           stdout=worker_log.open("w"), stderr=subprocess.STDOUT,
                                           start_new_session=True), worker_log))
        for port, (process, log) in zip(PORTS, processes):
            wait_until_healthy(port, process, log)
        yield {"logs": logs, "worker": processes[-1][0]}
    finally:
        for process, _ in processes:
            stop(process)
        with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


def test_both_servers_report_healthy_with_redis(fleet):
    for port in PORTS:
        status, body = Person().json(port, "GET", "/health/")
        assert status == 200
        assert body["checks"]["redis"] == {"ok": True}


def test_a_card_edited_through_one_server_is_served_new_by_the_other(fleet):
    a, b = PORTS
    editor, reader = Person(), Person()
    sheet = {"mode": "card", "academy": False, "players": [
        {"name": "Ann", "dragons": [{"card": 74, "cave": "crimson_cavern", "column": 1}]}]}

    # The reading server has the card in its caches (Redis for API answers, memory for the engine).
    status, before = reader.json(b, "GET", "/api/dragons/74/")
    assert status == 200
    status, scored = reader.json(b, "POST", "/api/calculator/score/", sheet)
    assert status == 200, scored
    total_before = scored["result"]["lines"][0]["total"]

    editor.sign_in(a, "alice")
    record = json.loads((ROOT / "fixtures").joinpath("dragons-001-092.json").read_text())
    card = next(d for d in record["dragons"] if d["number"] == 74 and d["printing"] == "original")
    card["vp"] = before["vp"] + 10
    status, _ = upload(editor, a, "/admin/cardsite/dragon/import/", "erratum.json", json.dumps({"dragons": [card]}))
    assert status == 302

    # Each server reuses the catalogue version it read for CATALOGUE_VERSION_REUSE_MS (1 s by default): the other
    # server serves the edit once that window has passed, never later.
    deadline = time.monotonic() + 3
    while True:
        status, after = reader.json(b, "GET", "/api/dragons/74/")
        assert status == 200
        if after["vp"] == before["vp"] + 10 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert after["vp"] == before["vp"] + 10
    status, scored = reader.json(b, "POST", "/api/calculator/score/", sheet)
    assert status == 200
    assert scored["result"]["lines"][0]["total"] == total_before + 10


def test_a_match_played_alternating_between_the_servers(fleet):
    alice, bob = Person(), Person()
    alice.sign_in(PORTS[0], "alice")
    bob.sign_in(PORTS[1], "bob")
    status, match = alice.json(PORTS[0], "POST", "/api/matches/", {"players": 2, "academy": False})
    assert status == 201, match
    path = f"/api/matches/{match['id']}/"
    status, joined = bob.json(PORTS[1], "POST", path + "join/")
    assert status in (200, 201), joined
    players = {0: alice, 1: bob}
    rng = random.Random(16)
    version = 0
    for step in range(30):
        port = PORTS[step % 2]
        asked = {seat: person.json(port, "GET", path + "options/") for seat, person in players.items()}
        assert all(status == 200 and options["version"] == version for status, options in asked.values()), (
            "each server sees every decision the other stored", asked)
        turns = [seat for seat, (_, options) in asked.items() if options["your_turn"]]
        if not turns:
            break
        seat, options = turns[0], asked[turns[0]][1]
        playing = [o for o in options["options"] if o["kind"] != "pass"] or options["options"]
        status, taken = players[seat].json(PORTS[(step + 1) % 2], "POST", path + "decisions/",
                                           {"version": version, "option": rng.choice(playing)})
        assert status == 201, taken
        version += 1
    assert version >= 20
    views = [alice.json(port, "GET", path)[1] for port in PORTS]
    assert views[0]["version"] == views[1]["version"] == version
    assert views[0]["log"] == views[1]["log"]


def test_the_worker_runs_a_task_a_server_could_send(fleet):
    HUEY.immediate = False
    HUEY.storage = RedisStorage("wyrmdex", url=REDIS_URL)
    try:
        result = tasks.clear_expired_sessions()
        assert result.get(blocking=True, timeout=30) == 3
    finally:
        HUEY.immediate = True
    assert fleet["worker"].poll() is None
