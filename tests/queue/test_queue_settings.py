"""REDIS_URL decides where the cache and the queue live (sessions are in the database either way); a bad value stops the start naming it."""
import json

from tests.test_settings import manage

SHOW = ("import json; from django.conf import settings; from huey.contrib.djhuey import HUEY; "
        "print(json.dumps([settings.CACHES['default']['BACKEND'], settings.SESSION_ENGINE, type(HUEY).__name__, "
        "type(HUEY.storage).__name__, HUEY.immediate]))")


def shown(**env):
    result = manage("shell", "-c", SHOW, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_without_redis_everything_stays_in_the_process():
    assert shown(REDIS_URL="") == ["django.core.cache.backends.locmem.LocMemCache", "cardsite.accounts.sessions",
                       "MemoryHuey", "MemoryStorage", False]


def test_with_redis_the_cache_and_queue_use_it_and_sessions_stay_in_the_database():
    assert shown(REDIS_URL="redis://127.0.0.1:6379/3") == [
        "cardsite.cache.FallbackRedisCache", "cardsite.accounts.sessions",
        "RedisHuey", "RedisStorage", False]


def test_a_redis_url_that_is_not_one_stops_the_start_naming_it():
    result = manage("check", REDIS_URL="localhost:6379")
    assert result.returncode != 0
    assert "REDIS_URL must be a redis://" in result.stderr


def test_queue_workers_must_be_a_positive_whole_number():
    for value, message in (("two", "QUEUE_WORKERS must be a whole number"), ("0", "QUEUE_WORKERS must be at least 1")):
        result = manage("check", QUEUE_WORKERS=value)
        assert result.returncode != 0
        assert message in result.stderr


def test_the_redis_retry_interval_must_be_a_positive_whole_number():
    for value, message in (("soon", "REDIS_RETRY_SECONDS must be a whole number"),
                           ("0", "REDIS_RETRY_SECONDS must be at least 1")):
        result = manage("check", REDIS_RETRY_SECONDS=value)
        assert result.returncode != 0
        assert message in result.stderr
