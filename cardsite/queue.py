"""The task queue's doors: sending a task (`send`), the workers' heartbeat (`beat`, `heartbeat`), and the in-process
consumer for a site running without Redis.

Without `REDIS_URL` the queue lives in the memory of the process that serves requests, so that process must also
run it: the first request starts a consumer's workers and scheduler as threads here (delayed and periodic tasks
included). Starting on a request, not at import, means only the process that serves starts one: not `migrate`,
not runserver's autoreloading parent. With Redis, `manage.py run_huey` is the consumer and nothing starts here.

When Redis does not answer, a task sent by a request runs in this process instead (`send`): every task of ours is
safe to run late or twice (game/tasks.py), so a Redis outage neither fails the request that sent it nor leaves a
bot's move or a player's email waiting for Redis to come back.
"""
import logging
import threading
import time

import redis
from django.core.signals import request_started
from django.db import connections
from django.utils.module_loading import autodiscover_modules
from huey.contrib.djhuey import HUEY
from huey.storage import MemoryStorage

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_consumer = {"running": None}

HEARTBEAT_KEY = "wyrmdex.worker-heartbeat"
HEARTBEAT_STALE = 180  # seconds: a worker notes one every minute (game/tasks.py) and when it starts


def send(task, *args, delay=None):
    """Enqueue `task(*args)`, after `delay` seconds if given. If the queue's Redis does not answer, the task runs in
    this process instead, in a thread of its own (after the delay), and a warning says so."""
    try:
        if delay is None:
            return task(*args)
        return task.schedule(args, delay=delay)
    except redis.RedisError as exc:
        logger.warning("task queue: Redis does not answer (%s); %s runs in this process instead", exc, _name(task))
        runner = threading.Timer(delay or 0, _run_here, args=(task, args))
        runner.daemon = True
        runner.start()
        return None


def _name(task):
    return getattr(task.func, "__name__", repr(task))


def _run_here(task, args):
    try:
        task.call_local(*args)
    except Exception:
        logger.exception("task %s%r, run in this process while Redis did not answer, failed", _name(task), args)
    finally:
        connections.close_all()  # this thread ends here; its connections would otherwise stay open


def beat():
    """Note in the queue's own store that a worker is running tasks now (read by /health/)."""
    HUEY.put(HEARTBEAT_KEY, time.time())


def heartbeat():
    """(ok, detail, seconds since a worker last noted one or None), as /health/ reports it."""
    if HUEY.immediate:
        return True, "tasks run at once, in the process that sends them", None
    try:
        noted = HUEY.get(HEARTBEAT_KEY, peek=True)
    except redis.RedisError as exc:
        logger.warning("health: the queue's Redis does not answer (%s)", exc)
        return False, "the queue's Redis does not answer; tasks run in the app servers meanwhile", None
    if noted is None:
        return False, "no queue worker has reported yet (manage.py run_huey)", None
    age = max(0, time.time() - noted)
    if age > HEARTBEAT_STALE:
        return False, f"no queue worker has reported for {int(age)} s (manage.py run_huey)", int(age)
    return True, None, int(age)


@HUEY.on_startup()
def note_worker_started():
    """Each worker thread notes a heartbeat when it starts, so a new worker is seen at once, not after a minute."""
    beat()


def runs_in_process():
    """True when the queue is this process's memory and tasks really run (not the tests' immediate mode)."""
    return isinstance(HUEY.storage, MemoryStorage) and not HUEY.immediate


def start_in_process(**options):
    """Start this process's consumer once: its workers and scheduler as daemon threads. Returns the consumer."""
    from django.conf import settings

    with _lock:
        if _consumer["running"] is None:
            autodiscover_modules("tasks")  # periodic tasks must be registered before the scheduler looks
            config = {**settings.HUEY.get("consumer", {}), "worker_type": "thread", **options}
            consumer = HUEY.create_consumer(**config)
            # Not consumer.start(): that installs signal handlers, which belong to the server, not to us.
            consumer.scheduler.start()
            for _, worker in consumer.worker_threads:
                worker.start()
            _consumer["running"] = consumer
            beat()  # before the first request's /health/ can ask, not when a worker thread gets to it
            logger.info("task queue: in-process consumer started with %s worker threads", config["workers"])
        return _consumer["running"]


def stop_in_process():
    """Stop the in-process consumer, waiting for a task in flight to finish."""
    with _lock:
        consumer, _consumer["running"] = _consumer["running"], None
    if consumer is not None:
        consumer.stop(graceful=True)


def _start_on_first_request(**kwargs):
    if _consumer["running"] is None and runs_in_process():
        start_in_process()


@HUEY.on_shutdown()
def close_database_connections():
    """A worker thread that stops closes its database connections, as a finished request does."""
    connections.close_all()


def connect():
    request_started.connect(_start_on_first_request, dispatch_uid="wyrmdex-in-process-queue")
