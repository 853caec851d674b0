"""A write that waited too long for the database's lock becomes `DatabaseBusy` (503, retry soon), never a 500 and
never a false "someone moved first".

SQLite begins every transaction IMMEDIATE (cardsite/settings.py), so writers queue for its one lock at the start
and wait up to the configured timeout; only a wait longer than that reaches here. PostgreSQL's equivalents are a
deadlock, a serialisation failure or a lock timeout: the transaction was rolled back and may simply be tried again.
"""
import functools

from django.db import OperationalError

from .errors import DatabaseBusy

SQLITE_LOCKED = ("database is locked", "database table is locked", "database is busy")
POSTGRES_RETRYABLE = {"40001", "40P01", "55P03"}  # serialization_failure, deadlock_detected, lock_not_available


def is_busy(exc):
    """Whether a database error means "locked by someone else for too long" rather than a broken database."""
    if any(text in str(exc) for text in SQLITE_LOCKED):
        return True
    return getattr(exc.__cause__, "sqlstate", None) in POSTGRES_RETRYABLE


def retry_later_when_busy(write):
    """Decorate a service that writes: a lock timeout is answered as `DatabaseBusy`, and nothing was stored."""
    @functools.wraps(write)
    def wrapper(*args, **kwargs):
        try:
            return write(*args, **kwargs)
        except OperationalError as exc:
            if is_busy(exc):
                raise DatabaseBusy("the game database is busy with other players' moves; nothing was saved, "
                                   "try again in a moment") from exc
            raise
    return wrapper
