"""SQLite, the default database, with real concurrency: many writers on one file through the whole Django stack.

The run is scripts/bench_match_writes.py on a fresh SQLite file in a child process (settings are read at import,
and the test database is in memory): matches opened, joined and started all at once, four matches played at once,
and a write lock held past the timeout. Before transactions began IMMEDIATE, a quarter to most of the lobby answers
were 500 "database is locked" and one decision in ten to forty was refused with a false 409.
"""
import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

# One run of the contention script serves the whole module: keep its tests on one worker of a parallel run.
pytestmark = pytest.mark.xdist_group("sqlite-contention")


@pytest.fixture(scope="module")
def contention():
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_match_writes.py"), "--json", "--busy",
                             "--matches", "4", "--moves", "25", "--lobby", "6", "--solo", "0"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_sqlite_transactions_begin_immediate_and_wait(contention):
    assert contention["database"] == "sqlite"
    assert contention["options"]["transaction_mode"] == "IMMEDIATE"
    assert contention["options"]["timeout"] > 0


def test_opening_joining_and_starting_at_once_never_answers_500(contention):
    lobby = contention["lobby"]
    assert lobby["statuses"] == {"201": 6, "200": 12}  # six opened, six joined, six started


def test_moves_in_separate_matches_are_never_refused_as_stale(contention):
    play = contention["play"]
    assert play["statuses"] == {"201": 100}, play["refusals"]


def test_a_lock_held_past_the_timeout_is_a_retryable_503_that_stores_nothing(contention):
    busy = contention["busy"]
    assert busy["api"]["status"] == 503
    assert busy["api"]["retry_after"] == "1"
    assert "busy" in busy["api"]["body"]["detail"]
    assert busy["page"]["status"] == 503 and "try again in a moment" in busy["page"]["text"]
    assert busy["stored_while_locked"] == {"version": 0, "seats": 1}
    assert busy["again"] == 201
