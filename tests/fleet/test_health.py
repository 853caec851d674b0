"""/health/ answers 503 naming what is not ready when the database or migrations are not; 200 "degraded" naming it
when only Redis or the queue worker fails (the site plays on without them); 200 "ok" when everything is."""
import json

import pytest

from tests.queue.conftest import REDIS_TEST_URL, redis_or_skip
from tests.test_settings import manage

ASK = ("from django.test import Client; r = Client().get('/health/'); "
       "print(r.status_code, r.content.decode())")


def health_in_fresh_process(database, **env):
    """/health/ asked in a new process, on the SQLite file `database`, with the settings given."""
    env = {"DATABASE_URL": f"sqlite:///{database}", "REDIS_URL": "", **env}
    result = manage("shell", "-c", ASK, **env)
    assert result.returncode == 0, result.stderr
    status, _, body = result.stdout.strip().splitlines()[-1].partition(" ")
    return int(status), json.loads(body)


@pytest.fixture(scope="module")
def migrated(tmp_path_factory):
    database = tmp_path_factory.mktemp("health") / "migrated.sqlite3"
    result = manage("migrate", "--noinput", DATABASE_URL=f"sqlite:///{database}", REDIS_URL="")
    assert result.returncode == 0, result.stderr
    return database


def test_a_ready_server_answers_200(client, db):
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert {name: check["ok"] for name, check in body["checks"].items()} == {
        "database": True, "migrations": True, "redis": True, "queue": True}
    assert response["Cache-Control"] == "no-store"


def test_health_takes_no_writes(client, db):
    assert client.post("/health/").status_code == 405


def test_migrations_not_applied_are_a_503_naming_them(tmp_path):
    status, body = health_in_fresh_process(tmp_path / "empty.sqlite3")
    assert status == 503
    assert body["status"] == "failing"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["migrations"]["ok"] is False
    assert "not applied" in body["checks"]["migrations"]["detail"]


def test_redis_in_use_and_answering_is_checked(migrated):
    redis_or_skip()
    status, body = health_in_fresh_process(migrated, REDIS_URL=REDIS_TEST_URL)
    assert status == 200
    assert body["checks"]["redis"] == {"ok": True}


def test_redis_that_does_not_answer_is_degraded_not_a_503(migrated):
    """Without Redis the server still serves (tests/fleet/test_outages.py): a balancer must keep it in rotation."""
    # Nothing listens on this port of our range (8300-8309); the test server never binds 8309.
    status, body = health_in_fresh_process(migrated, REDIS_URL="redis://127.0.0.1:8309/3")
    assert status == 200
    assert body["status"] == "degraded"
    assert body["checks"]["redis"] == {"ok": False, "detail": "Redis does not answer"}
    assert body["checks"]["queue"]["ok"] is False
    assert "Redis does not answer" in body["checks"]["queue"]["detail"]
    assert body["checks"]["database"]["ok"] is True


def test_no_queue_worker_is_reported(migrated):
    """With Redis and no `run_huey`, bots' moves and emails wait: /health/ says so (the site itself still serves)."""
    redis_or_skip()
    status, body = health_in_fresh_process(migrated, REDIS_URL=REDIS_TEST_URL.rsplit("/", 1)[0] + "/5")
    assert status == 200
    assert body["status"] == "degraded"
    assert body["checks"]["redis"] == {"ok": True}
    assert body["checks"]["queue"]["ok"] is False
    assert "no queue worker has reported" in body["checks"]["queue"]["detail"]
