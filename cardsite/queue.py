"""The task queue's in-process consumer, for a site running without Redis.

Without `REDIS_URL` the queue lives in the memory of the process that serves requests, so that process must also
run it: the first request starts a consumer's workers and scheduler as threads here (delayed and periodic tasks
included). Starting on a request, not at import, means only the process that serves starts one: not `migrate`,
not runserver's autoreloading parent. With Redis, `manage.py run_huey` is the consumer and nothing starts here.
"""
import logging
import threading

from django.core.signals import request_started
from django.db import connections
from django.utils.module_loading import autodiscover_modules
from huey.contrib.djhuey import HUEY
from huey.storage import MemoryStorage

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_consumer = {"running": None}


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
