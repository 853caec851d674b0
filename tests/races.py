"""Requests sent at the same moment, each from a thread of its own with its own database connection, as two
browsers (or a double-click) send them."""
import threading
import time
from contextlib import contextmanager

from django.db import connection, transaction


def at_once(calls, hold=None):
    """Run each callable in a thread of its own, all released together; their results, in the calls' order.

    With `hold` (a model), its table takes no write until every call waits to write to it: each call has read what it
    reads first, so a race between reading and writing is met on every run, not by chance."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            results[i] = call()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    with _writes_held(hold, len(calls)) if hold is not None else _nothing():
        for thread in threads:
            thread.start()
    for thread in threads:
        thread.join()
    return results


@contextmanager
def _nothing():
    yield


@contextmanager
def _writes_held(model, writers, patience=30):
    """Writes to `model`'s table wait (reads go on) until `writers` of them wait; on SQLite, which cannot say who
    waits, for two seconds (well inside the writers' own five of patience)."""
    table = model._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:  # SQLite begins it IMMEDIATE: the write lock is ours
        if connection.vendor == "postgresql":
            cursor.execute(f'LOCK TABLE "{table}" IN SHARE MODE')
        yield
        if connection.vendor != "postgresql":
            time.sleep(2)
            return
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = %s::regclass", [table])
            if cursor.fetchone()[0] >= writers:
                return
            time.sleep(0.05)
