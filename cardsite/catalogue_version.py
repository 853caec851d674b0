"""The catalogue version: a token that changes with every catalogue write, the same on every server.

Anything cached from the catalogue (the engine's catalogue in game/catalogue.py, the catalogue API's answers, the
search index) keys its cache on `current()`, so an admin's edit through one app server is seen by every server on
its next request, and no cache is ever invalidated by hand.

- `current()` is the token, a short string. It is one primary-key read of the CatalogueVersion row, read once per
  request (later calls in the same request reuse it, so one request sees one catalogue) and afresh on every call
  outside a request (commands, queue tasks) or inside a transaction.
- `changed_at()` is when the catalogue last changed (the catalogue API's Last-Modified).
- `bump()` makes a new token. Saving or deleting a row of any of `cardsite.models.CATALOGUE_MODELS` bumps it
  (signals, below: the admin, the shell), and the loader's bulk writes (load_catalogue, imports) call it inside
  their transaction. The bump commits with the write, so no server sees the new token with the old cards.

The token is random rather than a counter, so a database that was emptied and loaded again (as tests do) never
repeats a token some process still has a cache for.
"""
import threading
import uuid

from django.core.signals import request_finished, request_started
from django.db import IntegrityError, connection, transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from .models import CATALOGUE_MODELS, CatalogueVersion

ROW = 1
_request = threading.local()  # .active: inside a request; .row: (token, changed_at) read in this request


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


def _row():
    memo = getattr(_request, "active", False) and not connection.in_atomic_block
    if memo and getattr(_request, "row", None) is not None:
        return _request.row
    found = CatalogueVersion.objects.filter(pk=ROW).values_list("token", "changed_at").first()
    if found is None:
        found = _create()
    if memo:
        _request.row = found
    return found


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
