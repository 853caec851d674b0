"""Chaos: Redis and PostgreSQL stop while a match is being played, and come back (docs/deploy.md, "Outages").

Each test starts its own Redis or PostgreSQL on a free port, so stopping it disturbs nobody, and runs gunicorn (and,
for Redis, a queue worker) against it in subprocesses. A stream of moves goes on through the outage: every answer is
a success or a documented 503 (JSON with Retry-After on the API, a plain page on pages), no acknowledged move is
lost, and everything works again once the service is back.

- Redis: nothing a player does needs it. The cache answers from each process's memory and tasks run in the app
  server, so every move, catalogue read and sign-in succeeds while it is down, and a bot still answers.
- PostgreSQL: after a restart the next request is served on a fresh connection (no 500); while it is down, reads and
  moves answer 503 and nothing is stored.

They skip, saying why, only when redis-server or PostgreSQL's own programs are missing.
"""
import glob
import http.client
import json
import os
import pwd
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid

import psycopg
import pytest

from tests.fleet.test_two_servers import PASSWORD, ROOT, SETTINGS_VARIABLES, Person, manage, stop

MOVE_STATUSES = {201}
OUTAGE_CODES = {"database_unavailable"}  # the 503s docs/deploy.md documents


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(what, predicate, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{what} did not happen within {seconds} s")


def app_env(database_url, redis_url=""):
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    env.update({"DATABASE_URL": database_url, "REDIS_URL": redis_url, "DEBUG": "false",
                "SECRET_KEY": "outage-test-" + uuid.uuid4().hex + uuid.uuid4().hex,
                "ALLOWED_HOSTS": "127.0.0.1,localhost", "QUEUE_WORKERS": "1", "REDIS_RETRY_SECONDS": "1",
                "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"})
    return env


def set_up_site(env):
    manage(env, "shell", "-c", (
        "from django.core.management import call_command; "
        "call_command('migrate', verbosity=0); call_command('load_catalogue', verbosity=0); "
        "from django.contrib.auth.models import User; "
        f"User.objects.create_user('alice', 'alice@example.com', {PASSWORD!r}); "
        f"User.objects.create_user('bob', 'bob@example.com', {PASSWORD!r})"))


def start_app(env, port, logs, workers=2):
    log = logs / f"gunicorn-{port}.log"
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "cardsite.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--timeout", "60"],
        cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True), log


def ask(person, port, method, path, data=None):
    """(status, body): the JSON body, or the text of one that is not JSON (Django's 500 page is HTML)."""
    body = None if data is None else json.dumps(data).encode()
    status, content = person.request(port, method, path, body, "application/json" if body else None,
                                     {"Accept": "application/json"})
    try:
        return status, json.loads(content) if content else None
    except ValueError:
        return status, content.decode(errors="replace")[:300]


def health(port):
    return Person().json(port, "GET", "/health/")


class Table:
    """Alice and Bob playing one match through the API, counting what the server acknowledged."""

    def __init__(self, port, seed):
        self.port, self.rng = port, random.Random(seed)
        self.players = {0: Person(), 1: Person()}
        self.players[0].sign_in(port, "alice")
        self.players[1].sign_in(port, "bob")
        status, match = self.players[0].json(port, "POST", "/api/matches/", {"players": 2, "academy": False})
        assert status == 201, match
        self.match_id = match["id"]
        self.path = f"/api/matches/{match['id']}/"
        self.page = f"/matches/{match['id']}/"
        status, joined = self.players[1].json(port, "POST", self.path + "join/")
        assert status in (200, 201), joined
        self.acknowledged = 0
        self.turns_passed = []  # versions at which the turn passed to the other player
        self.answers = []  # (status, code) of every request of the stream

    def step(self):
        """One move by whoever is to move; returns True if the server stored it."""
        asked = {seat: ask(person, self.port, "GET", self.path + "options/") for seat, person in self.players.items()}
        for status, body in asked.values():
            self.note(status, body)
        ready = [(seat, body) for seat, (status, body) in asked.items() if status == 200 and body["your_turn"]]
        if not ready:
            return False
        seat, options = ready[0]
        playing = [o for o in options["options"] if o["kind"] != "pass"] or options["options"]
        status, body = ask(self.players[seat], self.port, "POST", self.path + "decisions/",
                           {"version": options["version"], "option": self.rng.choice(playing)})
        self.note(status, body)
        if status == 201:
            self.acknowledged += 1
            if not body["your_turn"]:
                self.turns_passed.append(body["version"])  # the other player gained the turn: a notice is due
            return True
        return False

    def note(self, status, body):
        code = body.get("code") if isinstance(body, dict) else None
        self.answers.append((status, code))
        assert status < 500 or (status == 503 and code in OUTAGE_CODES), (status, body)

    def stored(self):
        status, view = self.players[0].json(self.port, "GET", self.path)
        assert status == 200, view
        return view


# --- Redis ---------------------------------------------------------------------------------------------------------

class RedisServer:
    def __init__(self, folder):
        self.binary = shutil.which("redis-server")
        self.port, self.folder, self.process = free_port(), folder, None

    def start(self):
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)],
            stdout=(self.folder / "redis.log").open("a"), stderr=subprocess.STDOUT, start_new_session=True)
        wait_for("Redis to answer", self.answers, 20)

    def answers(self):
        import redis
        try:
            return redis.Redis(port=self.port, socket_connect_timeout=1).ping()
        except redis.RedisError:
            return False

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)


@pytest.fixture
def redis_site(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed; .ci/run installs it")
    server = RedisServer(tmp_path)
    server.start()
    env = app_env(f"sqlite:///{tmp_path / 'site.sqlite3'}", f"redis://127.0.0.1:{server.port}/0")
    set_up_site(env)
    port = free_port()
    processes = [start_app(env, port, tmp_path)]
    processes.append((subprocess.Popen([sys.executable, "manage.py", "run_huey"], cwd=ROOT, env=env,
                                       stdout=(tmp_path / "worker.log").open("w"), stderr=subprocess.STDOUT,
                                       start_new_session=True), tmp_path / "worker.log"))
    try:
        wait_for("the app server to report everything ok", lambda: health(port)[1]["status"] == "ok")
        yield {"port": port, "redis": server, "env": env, "logs": tmp_path}
    finally:
        for process, _ in processes:
            stop(process)
        if server.process.poll() is None:
            server.stop()


def bot_answers(port, moves):
    """Alice plays `moves` moves against a bot; how many times the bot answered (its move is a queued task)."""
    alice = Person()
    alice.sign_in(port, "alice")
    status, match = alice.json(port, "POST", "/api/matches/play-now/", {"opponent": "bots", "bot_levels": ["greedy"]})
    assert status == 201, match
    path, rng, answered = f"/api/matches/{match['id']}/", random.Random(5), 0
    for _ in range(60):
        if answered == moves:
            break
        status, options = alice.json(port, "GET", path + "options/")
        assert status == 200, options
        if not options["your_turn"]:
            wait_for("the bot to answer", lambda: alice.json(port, "GET", path + "options/")[1]["your_turn"], 60)
            answered += 1
            continue
        playing = [o for o in options["options"] if o["kind"] != "pass"] or options["options"]
        status, body = ask(alice, port, "POST", path + "decisions/",
                           {"version": options["version"], "option": rng.choice(playing)})
        assert status == 201, body
    return answered


def decisions_stored(env, match_id):
    out = manage(env, "shell", "-c", (
        f"from game.models import Match; print(Match.objects.get(public_id={match_id!r}).decisions.count())"))
    return int(out.strip().splitlines()[-1])


def notices_for(env, versions):
    """How many of `versions` of the one match have a turn notice (noted by a task, wherever it ran)."""
    out = manage(env, "shell", "-c", (
        "from game.models import TurnNotice; "
        f"print(TurnNotice.objects.filter(version__in={sorted(versions)!r}).values('version').distinct().count())"))
    return int(out.strip().splitlines()[-1])


def test_play_goes_on_while_redis_is_down_and_the_shared_cache_returns(redis_site):
    port, server = redis_site["port"], redis_site["redis"]
    table = Table(port, seed=31)
    for _ in range(4):
        table.step()
    reader = Person()
    assert reader.json(port, "GET", "/api/dragons/74/")[0] == 200  # now in Redis

    server.stop()
    before = table.acknowledged
    for _ in range(8):
        table.step()
    assert table.acknowledged - before >= 6, table.answers
    assert [version for version in table.turns_passed if version > before], "the turn never passed in the outage"
    # Catalogue reads (cached and not), a page, a new sign-in (rate limited through the cache) and a bot's answer.
    for path in ("/api/dragons/74/", "/api/dragons/?page=2", "/api/caves/"):
        status, body = ask(reader, port, "GET", path)
        assert status == 200, (path, body)
    assert reader.request(port, "GET", table.page)[0] == 200
    Person().sign_in(port, "bob")
    assert bot_answers(port, moves=2) == 2
    status, body = health(port)
    assert status == 200 and body["status"] == "degraded", body
    assert body["checks"]["redis"]["ok"] is False and body["checks"]["database"]["ok"] is True

    server.start()
    wait_for("the server to use Redis again", lambda: health(port)[1]["checks"]["redis"]["ok"])
    for _ in range(4):
        table.step()
    assert all(status == 200 or status in MOVE_STATUSES for status, _ in table.answers), table.answers
    assert table.stored()["version"] == table.acknowledged == decisions_stored(redis_site["env"], table.match_id)
    # Every turn gained has its notice: during the outage noted by tasks run in the app server, before and after it
    # by the worker, which reads the queue again once Redis is back.
    wait_for("every turn notice to be noted", lambda: notices_for(redis_site["env"], table.turns_passed)
             == len(table.turns_passed), 60)


# --- PostgreSQL ----------------------------------------------------------------------------------------------------

class PostgresCluster:
    """A PostgreSQL cluster of the test's own, in a temporary folder on a free port; run as the `postgres` user when
    the test runs as root (PostgreSQL refuses to run as root)."""

    def __init__(self):
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        if not found:
            pytest.skip("PostgreSQL's programs (/usr/lib/postgresql/*/bin) are not installed")
        self.bin = os.path.dirname(found[-1])
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="wyrmdex-outage-pg-")
        self.data = os.path.join(self.folder, "data")
        self.owner = None
        if os.geteuid() == 0:
            try:
                self.owner = pwd.getpwnam("postgres")
            except KeyError:
                shutil.rmtree(self.folder)
                pytest.skip("running as root, with no `postgres` user to run a PostgreSQL cluster as")
            os.chown(self.folder, self.owner.pw_uid, self.owner.pw_gid)

    def run(self, program, *args):
        owner = self.owner

        def as_owner():
            if owner is not None:
                os.setgid(owner.pw_gid)
                os.setuid(owner.pw_uid)

        result = subprocess.run([os.path.join(self.bin, program), *args], check=False, capture_output=True, text=True,
                                timeout=120, preexec_fn=as_owner, cwd=self.folder,
                                env={**os.environ, "HOME": self.folder, "LC_ALL": "C"})
        assert result.returncode == 0, f"{program} failed:\n{result.stdout}\n{result.stderr}"

    def initdb(self):
        self.run("initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C")

    def start(self):
        self.run("pg_ctl", "-D", self.data, "-l", os.path.join(self.folder, "server.log"), "-w", "-t", "60",
                 "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off", "start")

    def stop(self):
        self.run("pg_ctl", "-D", self.data, "-m", "fast", "-w", "-t", "60", "stop")

    def url(self, name):
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def remove(self):
        if os.path.exists(os.path.join(self.data, "postmaster.pid")):
            self.run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def postgres_site(tmp_path):
    cluster = PostgresCluster()
    app = None
    try:
        cluster.initdb()
        cluster.start()
        with psycopg.connect(cluster.url("postgres"), autocommit=True) as conn:
            conn.execute("CREATE DATABASE wyrmdex")
        env = app_env(cluster.url("wyrmdex"))
        set_up_site(env)
        port = free_port()
        # One worker, so the request after a restart meets the very connection the restart cut.
        app = start_app(env, port, tmp_path, workers=1)
        wait_for("the app server to answer", lambda: health(port)[0] == 200)
        yield {"port": port, "cluster": cluster, "env": env}
    finally:
        if app is not None:
            stop(app[0])
        cluster.remove()


def answer(person, port, method, path, accept="application/json", data=None):
    """(status, headers, text) of one request."""
    body = None if data is None else json.dumps(data).encode()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Host": "127.0.0.1", "Accept": accept,
               "Cookie": "; ".join(f"{k}={v}" for k, v in person.cookies.items())}
    if body is not None:
        headers.update({"Content-Type": "application/json", "X-CSRFToken": person.cookies["csrftoken"]})
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    found = response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode()
    conn.close()
    return found


def test_a_database_restart_costs_no_request_and_an_outage_answers_503(postgres_site):
    port, cluster = postgres_site["port"], postgres_site["cluster"]
    table = Table(port, seed=5)
    for _ in range(4):
        table.step()
    reader = Person()
    assert reader.json(port, "GET", "/api/dragons/74/")[0] == 200

    # A restart: the server's kept connection is dead, and the next requests must not notice.
    cluster.stop()
    cluster.start()
    seen = len(table.answers)
    for _ in range(3):
        table.step()
    assert all(status < 500 for status, _ in table.answers[seen:]), table.answers[seen:]
    assert ask(reader, port, "GET", "/api/dragons/74/")[0] == 200

    # Down: API answers are the one JSON shape with Retry-After, pages a plain page, and nothing is stored.
    cluster.stop()
    acknowledged = table.acknowledged
    status, headers, text = answer(table.players[0], port, "GET", table.path)
    assert status == 503 and int(headers["retry-after"]) > 0, text
    assert json.loads(text)["code"] == "database_unavailable"
    status, headers, text = answer(table.players[0], port, "POST", table.path + "decisions/",
                                   data={"version": acknowledged, "option": {"kind": "pass", "args": {}}})
    assert status == 503 and json.loads(text)["code"] == "database_unavailable", text
    status, headers, text = answer(table.players[0], port, "GET", table.page, accept="text/html")
    assert status == 503 and headers["content-type"].startswith("text/html") and "Back in a moment" in text, text
    assert "retry-after" in headers
    status, headers, text = answer(reader, port, "GET", "/api/matches/")
    assert status == 503 and json.loads(text)["code"] == "database_unavailable", text
    for path in ("/api/dragons/?page=3", "/api/caves/", "/api/dragons/74/"):
        # The catalogue may still be served from this process's memory (its index, a version read a moment ago).
        status, headers, text = answer(reader, port, "GET", path)
        assert status == 200 or (status == 503 and json.loads(text)["code"] == "database_unavailable"), (path, text)
    for _ in range(2):
        table.step()  # every answer a 503 in the documented shape (Table.note checks), no move stored
    status, body = health(port)
    assert status == 503 and body["status"] == "failing" and body["checks"]["database"]["ok"] is False

    cluster.start()
    wait_for("the server to report the database again", lambda: health(port)[0] == 200)
    seen = len(table.answers)
    for _ in range(4):
        table.step()
    assert all(status < 500 for status, _ in table.answers[seen:]), table.answers[seen:]
    assert table.acknowledged > acknowledged
    assert table.stored()["version"] == table.acknowledged == decisions_stored(postgres_site["env"], table.match_id)
