"""Tasks run by a real consumer: on the local Redis as production runs them, and in memory as `dev.py serve` does."""
import datetime
import time

import pytest
from django.utils import timezone
from huey.contrib.djhuey import HUEY
from huey.signals import SIGNAL_COMPLETE
from huey.storage import MemoryStorage

from cardsite import queue
from cardsite.accounts.models import Session
from cardsite.accounts.sessions import SessionStore
from game import tasks


def make_sessions(expired, live):
    now = timezone.now()
    for _ in range(expired):
        store = SessionStore()
        store["who"] = "gone"
        store.create()
        Session.objects.filter(session_key=store.session_key).update(expire_date=now - datetime.timedelta(days=1))
    for _ in range(live):
        store = SessionStore()
        store["who"] = "here"
        store.create()


@pytest.fixture
def completed():
    """Wall-clock times at which the consumer finished each task, by task id."""
    times = {}

    def record(signal, task, *args, **kwargs):
        times[task.id] = time.time()

    HUEY.signal(SIGNAL_COMPLETE)(record)
    yield times
    HUEY.disconnect_signal(record, SIGNAL_COMPLETE)


@pytest.mark.django_db(transaction=True)
def test_a_task_sent_through_redis_is_run_by_the_consumer_and_its_result_read(redis_queue):
    make_sessions(expired=2, live=1)
    result = tasks.clear_expired_sessions()
    assert result.get(blocking=True, timeout=10) == 2
    assert Session.objects.count() == 1
    assert Session.objects.get().expire_date > timezone.now()


@pytest.mark.django_db(transaction=True)
def test_a_delayed_task_runs_after_its_delay_and_not_before(redis_queue, completed):
    make_sessions(expired=1, live=0)
    sent_at = time.time()
    result = tasks.clear_expired_sessions.schedule(delay=2)
    # Huey puts the task on the queue with its time; a worker that takes it early parks it in Redis's schedule, so
    # where it waits depends on how fast a worker looks. What must hold: not run before its delay, run after it.
    time.sleep(1)
    assert result.get() is None and Session.objects.count() == 1
    assert result.get(blocking=True, timeout=10) == 1
    assert completed[result.id] >= sent_at + 2
    assert Session.objects.count() == 0


def test_the_nightly_housekeeping_is_due_at_its_hour_only():
    due = {task.name for task in HUEY.read_periodic(datetime.datetime(2026, 1, 5, 4, 17))}
    not_due = {task.name for task in HUEY.read_periodic(datetime.datetime(2026, 1, 5, 4, 18))}
    assert "nightly_housekeeping" in due
    assert "nightly_housekeeping" not in not_due


@pytest.mark.django_db(transaction=True)
def test_without_redis_the_process_runs_its_own_queue_delays_included(memory_queue, completed):
    assert queue.runs_in_process()
    make_sessions(expired=1, live=1)
    sent_at = time.time()
    result = tasks.clear_expired_sessions.schedule(delay=1)
    assert result.get(blocking=True, timeout=10) == 1
    assert completed[result.id] >= sent_at + 1
    assert Session.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_first_request_starts_the_in_process_consumer(client):
    HUEY.immediate = False
    HUEY.storage = MemoryStorage("wyrmdex-test")
    try:
        make_sessions(expired=1, live=0)
        pending = tasks.clear_expired_sessions()
        time.sleep(0.3)
        assert pending.get() is None, "no consumer yet, so nothing ran"
        client.get("/")
        assert pending.get(blocking=True, timeout=10) == 1
        assert Session.objects.count() == 0
    finally:
        queue.stop_in_process()
        HUEY.immediate = True


def test_the_tests_run_tasks_at_once_without_a_consumer(db):
    assert HUEY.immediate
    make_sessions(expired=3, live=0)
    assert tasks.clear_expired_sessions().get() == 3
    assert tasks.nightly_housekeeping().get() is None and Session.objects.count() == 0
