"""Frozen catalogues for matches: the database catalogue is exported once per catalogue version, stored by its
digest, and turned into an engine Catalogue once per process per digest."""
import hashlib
import json
import threading

from cardsite.loader import export_catalogue
from cardsite.search import catalogue_state
from game.engine.catalogue import CAVES, Catalogue
from game.engine.effects.render import render_abilities, render_counter, render_effect
from game.models import MatchCatalogue

_lock = threading.Lock()
_exports = {}  # catalogue version -> (digest, data)
_engines = {}  # digest -> engine Catalogue
_cards = {}  # digest -> what the board shows about each card


def _export():
    version, _ = catalogue_state()
    found = _exports.get(version)
    if found is None:
        data = export_catalogue()
        text = json.dumps(data, sort_keys=True, separators=(",", ":"))
        found = (hashlib.sha256(text.encode()).hexdigest(), data)
        with _lock:
            _exports.clear()
            _exports[version] = found
    return found


def freeze_current():
    """The MatchCatalogue holding the database catalogue as it is now (one row per distinct catalogue)."""
    digest, data = _export()
    frozen = MatchCatalogue.objects.filter(digest=digest).only("pk", "digest").first()
    if frozen is None:
        frozen, _ = MatchCatalogue.objects.get_or_create(digest=digest, defaults={"data": data})
    return frozen


def _digest(catalogue_id):
    """Only the digest is read on each request: the catalogue's JSON is large and decoded once per process."""
    return MatchCatalogue.objects.filter(pk=catalogue_id).values_list("digest", flat=True).get()


def _data(digest):
    return MatchCatalogue.objects.filter(digest=digest).values_list("data", flat=True).get()


def engine(catalogue_id):
    """The engine Catalogue of a frozen catalogue, built once per process."""
    digest = _digest(catalogue_id)
    found = _engines.get(digest)
    if found is None:
        data = _data(digest)
        found = Catalogue.from_records(data["dragons"], data["caves"], data["guild_tiles"], data["objective_tiles"],
                                       data["board_facts"])
        with _lock:
            _engines[digest] = found
    return found


def _dragon_card(record):
    cost = {k: v for k, v in (record.get("cost") or {}).items() if v}
    return {"number": record["number"], "name": record.get("name", ""), "printing": record.get("printing", "original"),
            "vp": record.get("vp", 0), "size": record.get("size", ""), "trait": record.get("trait", ""),
            "capacity": record.get("capacity", 0), "cost": cost,
            "habitats": [CAVES.index(h) for h in record.get("habitats", ())],
            "text": render_abilities(record.get("abilities") or [], card=record),
            "url": f"/cards/dragons/{record['number']}/"}


def _cave_card(record):
    return {"number": record["number"], "printing": record.get("printing", "original"),
            "text": render_abilities(record.get("abilities") or [], card=record),
            "url": f"/cards/caves/{record['number']}/"}


def cards(catalogue_id):
    """Per card index: what the board page shows (names, costs, ability text in our words), and the tiles."""
    digest = _digest(catalogue_id)
    found = _cards.get(digest)
    if found is None:
        data = _data(digest)
        found = {
            "dragons": [_dragon_card(r) for r in data["dragons"]],
            "caves": [_cave_card(r) for r in data["caves"]],
            "guild_rows": {t["number"]: [{"squares": row["squares"], "end_game": row["end_game"],
                                          "text": render_effect(row["effect"])} for row in t["rows"]]
                           for t in data["guild_tiles"]},
            "guild_complete": {t["number"]: t.get("complete", True) for t in data["guild_tiles"]},
            "objectives": {t["number"]: {side: render_counter(s["counts"]) for side, s in t["sides"].items()}
                           for t in data["objective_tiles"]},
        }
        with _lock:
            _cards[digest] = found
    return found
