"""/health/ for load balancers: can this app server serve?

200 when the database answers, Redis answers (when `REDIS_URL` is set) and every migration is applied; 503
otherwise, naming the part that failed. It touches no session, login or cache, so it is cheap to poll every few
seconds. Failure details go to the log, not to the answer, which anyone may read.
"""
import logging

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import JsonResponse
from django.views.decorators.http import require_safe

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


@require_safe
def health(request):
    checks = {"database": _database()}
    checks["migrations"] = _migrations() if checks["database"]["ok"] else {"ok": False, "detail": "no database"}
    checks["redis"] = _redis()
    ok = all(check["ok"] for check in checks.values())
    response = JsonResponse({"status": "ok" if ok else "failing", "checks": checks}, status=200 if ok else 503)
    response["Cache-Control"] = "no-store"
    return response
