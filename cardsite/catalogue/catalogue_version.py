"""The catalogue version: a token that changes with every catalogue write, the same on every server.

Anything cached from the catalogue (the engine's catalogue in game/catalogue.py, the catalogue API's answers, the
search index) keys its cache on `current()`, so an admin's edit through one app server is seen by every server on
its next request, and no cache is ever invalidated by hand.

- `current()` is the token, a short string. It is one primary-key read of the CatalogueVersion row, read once per
  request (later calls in the same request reuse it, so one request sees one catalogue) and afresh on every call
  outside a request (commands, queue tasks) or inside a transaction. A server's requests also reuse the row they
  last read for `CATALOGUE_VERSION_REUSE_MS` (1 s by default; 0 reads it on every request): that read was a fifth of
  a live-search keystroke's cost, in the app server and in PostgreSQL (docs/benchmarks.md), so an edit made
  through another server is seen within that time, and at once by the process that made it (`bump()` forgets).
- `changed_at()` is when the catalogue last changed (the catalogue API's Last-Modified).
- `bump()` makes a new token. Saving or deleting a row of any of `cardsite.catalogue.models.CATALOGUE_MODELS` bumps it
  (signals, below: the admin, the shell), and the loader's bulk writes (load_catalogue, imports) call it inside
  their transaction. The bump commits with the write, so no server sees the new token with the old cards.

The token is random rather than a counter, so a database that was emptied and loaded again (as tests do) never
repeats a token some process still has a cache for.
"""
import datetime
import threading
import time
import uuid

import psycopg
from django.conf import settings
from django.core.signals import request_finished, request_started
from django.db import IntegrityError, connection, transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from psycopg import pq

from .models import CATALOGUE_MODELS, CatalogueVersion

ROW = 1
_request = threading.local()  # .active: inside a request; .row: (token, changed_at) read in this request
_kept = None  # (row, time.monotonic() when read): the row this process's requests reuse for a short while


def current():
    """The catalogue version every server agrees on: changes whenever any catalogue row does."""
    return _row()[0]


def changed_at():
    """When the catalogue last changed (an aware datetime)."""
    return _row()[1]


def state():
    """(current(), changed_at()) from one read."""
    return _row()


def bump():
    """A new version, as part of the caller's transaction: call it from any catalogue write signals miss."""
    token, now = uuid.uuid4().hex, timezone.now()
    if not CatalogueVersion.objects.filter(pk=ROW).update(token=token, changed_at=now):
        CatalogueVersion.objects.update_or_create(pk=ROW, defaults={"token": token, "changed_at": now})
    _request.row = None
    _forget()
    transaction.on_commit(_forget)  # a request of another thread may have kept the old row before the commit


def _row():
    memo = getattr(_request, "active", False) and not connection.in_atomic_block
    if memo and getattr(_request, "row", None) is not None:
        return _request.row
    found = _reused() if memo else None
    if found is None:
        found = _read() or _create()
        if memo:
            _keep(found)
    if memo:
        _request.row = found
    return found


def _reused():
    """The row a recent request of this process read, while it is younger than CATALOGUE_VERSION_REUSE_MS."""
    kept = _kept
    if kept is None or time.monotonic() - kept[1] >= settings.CATALOGUE_VERSION_REUSE_MS / 1000:
        return None
    return kept[0]


def _keep(row):
    global _kept
    _kept = (row, time.monotonic()) if settings.CATALOGUE_VERSION_REUSE_MS > 0 else None


def _forget():
    global _kept
    _kept = None


def _read():
    """The row as (token, changed_at), or None. Plain SQL rather than a queryset: it is read on every catalogue API
    request, and building and compiling the ORM's query cost several times the database's own answer."""
    if connection.vendor == "postgresql":
        found = _read_from_libpq()
        if found is not False:
            return found
    meta, quote = CatalogueVersion._meta, connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT token, changed_at FROM {quote(meta.db_table)} WHERE {quote(meta.pk.column)} = {ROW:d}")
        found = cursor.fetchone()
    if found is None:
        return None
    token, changed_at = found
    if isinstance(changed_at, str):  # SQLite without its datetime converter
        changed_at = parse_datetime(changed_at)
    if timezone.is_naive(changed_at):  # SQLite stores UTC without a zone (USE_TZ)
        changed_at = changed_at.replace(tzinfo=datetime.timezone.utc)
    return token, changed_at


def _read_from_libpq():
    """`_read()` on PostgreSQL through psycopg's libpq door (`Connection.pgconn`): a third of the CPU of a cursor,
    whose Python layers dominate a one-row read (180 -> 60 us within a request). The time is written as text in UTC
    so no session setting can change how it reads. False when that door is missing or the query fails, so the
    cursor answers (or raises)."""
    connection.ensure_connection()
    pgconn = getattr(connection.connection, "pgconn", None)  # psycopg 3's; psycopg2 has none
    if pgconn is None:
        return False
    meta, quote = CatalogueVersion._meta, connection.ops.quote_name
    try:
        result = pgconn.exec_(
            f"SELECT token, to_char(changed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US') "
            f"FROM {quote(meta.db_table)} WHERE {quote(meta.pk.column)} = {ROW:d}".encode())
    except psycopg.Error:
        # A connection the server dropped (a restart): the cursor checks the connection, connects afresh, or raises
        # Django's own error for a database that is down (a 503, cardsite/api_errors.py).
        return False
    if result.status != pq.ExecStatus.TUPLES_OK:
        return False
    if result.ntuples == 0:
        return None
    changed_at = datetime.datetime.fromisoformat(result.get_value(0, 1).decode())
    return result.get_value(0, 0).decode(), changed_at.replace(tzinfo=datetime.timezone.utc)


def _create():
    """The row, made on first use (a fresh or emptied database); two servers racing to make it agree on one."""
    try:
        with transaction.atomic():
            row, _ = CatalogueVersion.objects.get_or_create(
                pk=ROW, defaults={"token": uuid.uuid4().hex, "changed_at": timezone.now()})
    except IntegrityError:
        row = CatalogueVersion.objects.get(pk=ROW)
    return row.token, row.changed_at


def _request_started(**kwargs):
    _request.active, _request.row = True, None


def _request_finished(**kwargs):
    _request.active, _request.row = False, None


def _catalogue_written(**kwargs):
    bump()


def connect():
    request_started.connect(_request_started, dispatch_uid="catalogue-version-request-started")
    request_finished.connect(_request_finished, dispatch_uid="catalogue-version-request-finished")
    for model in CATALOGUE_MODELS:
        post_save.connect(_catalogue_written, sender=model, dispatch_uid=f"catalogue-version-save-{model.__name__}")
        post_delete.connect(_catalogue_written, sender=model,
                            dispatch_uid=f"catalogue-version-delete-{model.__name__}")
