"""The shared cache (Redis), with this process's memory standing in while Redis does not answer.

Everything kept in the cache is a convenience that can be made again: catalogue API answers, rate-limit counts. So a
Redis outage must not stop the site: a call Redis cannot answer goes to a local-memory cache instead, and for the
next `FALLBACK_SECONDS` (settings CACHES, default 5) every call does, without asking Redis again, so a stopped Redis
costs each request nothing and the log one warning per outage rather than one per request. Then Redis is tried
again, and the first answer it gives ends the outage (logged too).

While it lasts, each process counts rate limits on its own (a client spread over several servers gets more than the
limit, never less) and caches catalogue answers for itself.
"""
import logging
import threading
import time

import redis
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger(__name__)

# One state per process: Django gives each thread its own cache object, and all of them talk to one Redis.
_outage = {"until": 0.0, "down": False}
_lock = threading.Lock()


def redis_answering():
    """False while this process is serving the cache from its own memory because Redis did not answer."""
    return not _outage["down"]


class FallbackRedisCache(RedisCache):
    """Django's Redis cache, answering from local memory while Redis does not answer."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self.fallback_seconds = float(params.get("FALLBACK_SECONDS", 5))
        self.local = LocMemCache(f"redis-fallback:{server}", {"TIMEOUT": params.get("TIMEOUT", 300),
                                                             "OPTIONS": {"MAX_ENTRIES": 5000}})

    def _either(self, name, *args, **kwargs):
        if _outage["down"] and time.monotonic() < _outage["until"]:
            return getattr(self.local, name)(*args, **kwargs)
        try:
            found = getattr(super(), name)(*args, **kwargs)
        except redis.RedisError as exc:
            self._went_down(exc)
            return getattr(self.local, name)(*args, **kwargs)
        if _outage["down"]:
            with _lock:
                if _outage["down"]:
                    _outage["down"] = False
                    logger.warning("cache: Redis answers again; the shared cache is back in use")
        return found

    def _went_down(self, exc):
        with _lock:
            first = not _outage["down"]
            _outage["down"], _outage["until"] = True, time.monotonic() + self.fallback_seconds
        if first:
            logger.warning("cache: Redis does not answer (%s); this process uses its own memory, and tries Redis "
                           "again every %g s", exc, self.fallback_seconds)

    def add(self, *args, **kwargs):
        return self._either("add", *args, **kwargs)

    def get(self, *args, **kwargs):
        return self._either("get", *args, **kwargs)

    def set(self, *args, **kwargs):
        return self._either("set", *args, **kwargs)

    def touch(self, *args, **kwargs):
        return self._either("touch", *args, **kwargs)

    def delete(self, *args, **kwargs):
        return self._either("delete", *args, **kwargs)

    def get_many(self, *args, **kwargs):
        return self._either("get_many", *args, **kwargs)

    def has_key(self, *args, **kwargs):
        return self._either("has_key", *args, **kwargs)

    def incr(self, *args, **kwargs):
        return self._either("incr", *args, **kwargs)

    def set_many(self, *args, **kwargs):
        return self._either("set_many", *args, **kwargs)

    def delete_many(self, *args, **kwargs):
        return self._either("delete_many", *args, **kwargs)

    def clear(self):
        return self._either("clear")
