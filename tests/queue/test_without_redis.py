"""When Redis does not answer: the cache answers from this process's memory, a task runs in this process, and
/health/ says what is missing (the chaos test, tests/fleet/test_outages.py, stops a real Redis under a live server).

"A Redis that does not answer" here is a URL on which nothing listens: a port of the range tests bind (8300-8309)
that none binds."""
import datetime
import logging

import pytest
import redis
from django.core.cache import caches
from django.utils import timezone
from huey.contrib.djhuey import HUEY
from huey.storage import RedisStorage

from cardsite import cache as fallback, queue
from cardsite.accounts.models import Session
from cardsite.accounts.sessions import SessionStore
from cardsite.errors import TooManyRequests
from cardsite.middleware import hit
from game import tasks
from tests.queue.conftest import wait_for

DEAD_REDIS = "redis://127.0.0.1:8308/0"


@pytest.fixture
def dead_redis_cache(settings):
    settings.CACHES = {**settings.CACHES, "default": {
        "BACKEND": "cardsite.cache.FallbackRedisCache", "LOCATION": DEAD_REDIS, "KEY_PREFIX": "dead",
        "OPTIONS": dict(settings.REDIS_TIMEOUTS), "FALLBACK_SECONDS": 60}}
    yield caches["default"]
    caches["default"].local.clear()
    fallback._outage.update(until=0.0, down=False)


def test_the_cache_answers_from_memory_when_redis_does_not(dead_redis_cache, caplog):
    with caplog.at_level(logging.WARNING, logger="cardsite.cache"):
        dead_redis_cache.set("card", {"number": 74}, 30)
        assert dead_redis_cache.get("card") == {"number": 74}
        assert dead_redis_cache.add("count", 0, 30) is True
        assert dead_redis_cache.incr("count") == 1
    assert not fallback.redis_answering()
    warnings = [r for r in caplog.records if r.name == "cardsite.cache"]
    assert len(warnings) == 1 and "Redis does not answer" in warnings[0].getMessage()


def test_the_rate_limit_still_counts_when_redis_does_not_answer(dead_redis_cache, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "write": (2, 60)}
    hit("write", "addr:outage", now=600.0)
    hit("write", "addr:outage", now=601.0)
    with pytest.raises(TooManyRequests):
        hit("write", "addr:outage", now=602.0)


@pytest.fixture
def dead_redis_queue():
    HUEY.immediate = False
    pool = redis.ConnectionPool.from_url(DEAD_REDIS, socket_connect_timeout=0.5)
    storage, HUEY.storage = HUEY.storage, RedisStorage("wyrmdex-dead", connection_pool=pool)
    yield
    HUEY.storage = storage
    HUEY.immediate = True


@pytest.mark.django_db(transaction=True)
def test_a_task_is_run_in_this_process_when_the_queue_does_not_answer(dead_redis_queue, caplog):
    store = SessionStore()
    store.create()
    Session.objects.update(expire_date=timezone.now() - datetime.timedelta(days=1))
    with caplog.at_level(logging.WARNING, logger="cardsite.queue"):
        assert queue.send(tasks.clear_expired_sessions) is None  # no error for the caller: nothing to wait on
    assert wait_for(lambda: not Session.objects.exists())
    assert any("clear_expired_sessions runs in this process" in r.getMessage() for r in caplog.records)


@pytest.mark.django_db(transaction=True)
def test_a_delayed_task_still_waits_its_delay_in_this_process(dead_redis_queue):
    store = SessionStore()
    store.create()
    Session.objects.update(expire_date=timezone.now() - datetime.timedelta(days=1))
    queue.send(tasks.clear_expired_sessions, delay=0.5)
    assert wait_for(lambda: not Session.objects.exists())


def test_health_reports_the_queue_unreachable(dead_redis_queue):
    ok, detail, age = queue.heartbeat()
    assert (ok, age) == (False, None)
    assert "Redis does not answer" in detail
