"""The queue with a real consumer: on the local Redis (db 3, a queue name of its own per test) or in memory."""
import os
import time
import uuid

import pytest
import redis
from huey.contrib.djhuey import HUEY
from huey.storage import MemoryStorage, RedisStorage

from cardsite import queue

REDIS_TEST_URL = os.environ.get("WYRMDEX_TEST_REDIS_URL", "redis://127.0.0.1:6379/3")


def redis_or_skip():
    try:
        redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=2).ping()
    except redis.exceptions.ConnectionError as exc:
        pytest.skip(f"Redis is not reachable at {REDIS_TEST_URL} ({exc}); .ci/run starts it")


def _consumer_on(storage):
    HUEY.immediate = False
    HUEY.storage = storage
    # Short polling so a test waits for the task, not for the worker's back-off.
    return queue.start_in_process(workers=2, periodic=False, initial_delay=0.05, max_delay=0.2)


@pytest.fixture
def redis_queue():
    """Huey on the local Redis with a consumer running in this process's threads; everything removed after."""
    redis_or_skip()
    storage = RedisStorage(f"wyrmdex-test-{uuid.uuid4().hex[:12]}", url=REDIS_TEST_URL)
    yield _consumer_on(storage)
    queue.stop_in_process()
    storage.flush_all()
    HUEY.immediate = True


@pytest.fixture
def memory_queue():
    """The queue as `dev.py serve` runs it without Redis: in this process's memory, consumed by its threads."""
    yield _consumer_on(MemoryStorage("wyrmdex-test"))
    queue.stop_in_process()
    HUEY.immediate = True


def wait_for(predicate, seconds=10.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()
