"""/health/ for load balancers: can this app server serve, and is anything it relies on failing?

- 503 "failing" when the database does not answer or a migration is not applied: this server cannot serve.
- 200 "degraded" when only Redis does not answer (the server plays on: caches in its memory, tasks run in the app
  servers) or no queue worker has noted a heartbeat lately (bots' moves, emails and deadline sweeps wait): taking
  every server out of the balancer would not help, so the answer says what is wrong and stays 200.
- 200 "ok" otherwise.

It touches no session, login or cache, so it is cheap to poll every few seconds. Failure details go to the log, not
to the answer, which anyone may read.
"""
import logging

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import JsonResponse
from django.views.decorators.http import require_safe

from cardsite import queue

logger = logging.getLogger(__name__)

_known = {"migrated": False, "redis": None}


def _database():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("health: the database does not answer")
        return {"ok": False, "detail": "the database does not answer"}
    return {"ok": True}


def _redis():
    if not settings.REDIS_URL:
        return {"ok": True, "detail": "not used (REDIS_URL is not set)"}
    if _known["redis"] is None:
        _known["redis"] = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        _known["redis"].ping()
    except redis.RedisError:
        logger.exception("health: Redis does not answer")
        return {"ok": False, "detail": "Redis does not answer"}
    return {"ok": True}


def _migrations():
    # Once applied, they stay applied for this process's life: new migrations come with new code, a new process.
    if not _known["migrated"]:
        try:
            executor = MigrationExecutor(connection)
            waiting = executor.migration_plan(executor.loader.graph.leaf_nodes())
        except DatabaseError:
            return {"ok": False, "detail": "cannot read the applied migrations"}
        if waiting:
            names = ", ".join(f"{migration.app_label}.{migration.name}" for migration, _ in waiting[:5])
            return {"ok": False, "detail": f"{len(waiting)} not applied: {names}"}
        _known["migrated"] = True
    return {"ok": True}


def _queue():
    ok, detail, age = queue.heartbeat()
    found = {"ok": ok}
    if detail:
        found["detail"] = detail
    if age is not None:
        found["last_heartbeat_seconds_ago"] = age
    return found


NEEDED = ("database", "migrations")  # without these nothing can be served; the others only degrade the site


@require_safe
def health(request):
    checks = {"database": _database()}
    checks["migrations"] = _migrations() if checks["database"]["ok"] else {"ok": False, "detail": "no database"}
    checks["redis"] = _redis()
    checks["queue"] = _queue()
    if not all(checks[name]["ok"] for name in NEEDED):
        status, code = "failing", 503
    elif not all(check["ok"] for check in checks.values()):
        status, code = "degraded", 200
    else:
        status, code = "ok", 200
    response = JsonResponse({"status": status, "checks": checks}, status=code)
    response["Cache-Control"] = "no-store"
    return response
