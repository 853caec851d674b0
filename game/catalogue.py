"""The engine's catalogue: one service for the checker, the calculator and matches.

- `current()` is the database catalogue as it is now. It is exported again only when the catalogue version
  (`cardsite.catalogue.catalogue_version.current()`, changed by every load, import and admin edit on any server) moves.
- `frozen(catalogue_id)` is a catalogue a match plays on: stored by digest in MatchCatalogue and never changed.
  `freeze_current()` stores the current one (one row per distinct catalogue, shared by every match started on it).

Both are a `Snapshot`: the exported data, its digest, the engine Catalogue, and `view(name, build)` for what an
app derives from a catalogue (the checker's card lookups, the calculator's names, the board's card texts), built
once per digest per process. Equal catalogues share one snapshot, so a match started on today's catalogue and the
checker share one engine Catalogue. One lock and one small cache for all.
"""
import hashlib
import json
import threading
from collections import OrderedDict

from cardsite.catalogue import catalogue_version
from cardsite.catalogue.loader import export_catalogue
from game.engine.catalogue import Catalogue
from game.models import MatchCatalogue

KEEP = 8  # snapshots kept per process: the current catalogue and the older ones that live matches still play on

_lock = threading.RLock()
_snapshots = OrderedDict()  # digest -> Snapshot, least recently used first
_current = {"version": None, "digest": None}


class Snapshot:
    """One catalogue, unchanging: its data in the fixture schema, its digest, and what is built from it."""

    def __init__(self, digest, data):
        self.digest = digest
        self.data = data
        self._views = {}

    @property
    def engine(self):
        """The engine Catalogue."""
        return self.view("engine", _engine)

    def view(self, name, build):
        """`build(snapshot)`, made once for this catalogue under `name` and kept as long as the snapshot is."""
        found = self._views.get(name)
        if found is None:
            with _lock:
                found = self._views.get(name)
                if found is None:
                    found = self._views[name] = build(self)
        return found


def _engine(snapshot):
    data = snapshot.data
    return Catalogue.from_records(data["dragons"], data["caves"], data["guild_tiles"], data["objective_tiles"],
                                  data["board_facts"])


def digest_of(data):
    """The digest a catalogue is stored and shared under: equal data, equal digest."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _keep(digest, data):
    """The snapshot of this digest, made from `data` if it is not held yet (callers hold the lock)."""
    found = _snapshots.get(digest)
    if found is None:
        found = _snapshots[digest] = Snapshot(digest, data)
        while len(_snapshots) > KEEP:
            _snapshots.popitem(last=False)
    _snapshots.move_to_end(digest)
    return found


def current():
    """The database catalogue as it is now, exported once per catalogue version."""
    version = catalogue_version.current()
    with _lock:
        if _current["version"] == version and _current["digest"] in _snapshots:
            return _snapshots[_current["digest"]]
        data = export_catalogue()
        snapshot = _keep(digest_of(data), data)
        _current["version"], _current["digest"] = version, snapshot.digest
        return snapshot


def freeze_current():
    """The MatchCatalogue row holding the database catalogue as it is now (one row per distinct catalogue)."""
    snapshot = current()
    stored = MatchCatalogue.objects.filter(digest=snapshot.digest).only("pk", "digest").first()
    if stored is None:
        stored, _ = MatchCatalogue.objects.get_or_create(digest=snapshot.digest, defaults={"data": snapshot.data})
    return stored


def frozen(catalogue_id, digest=None):
    """The snapshot of a stored catalogue. Only its digest is read on each call (no query when the caller read it
    already, say with the match row): the data is large and read once."""
    if digest is None:
        digest = MatchCatalogue.objects.filter(pk=catalogue_id).values_list("digest", flat=True).get()
    with _lock:
        found = _snapshots.get(digest)
        if found is not None:
            _snapshots.move_to_end(digest)
            return found
    data = MatchCatalogue.objects.filter(digest=digest).values_list("data", flat=True).get()
    with _lock:
        return _keep(digest, data)
