"""The catalogue the checker runs on: the database's cards as an engine Catalogue, rebuilt only when the catalogue
version changes (a load or an admin edit), and read-only: checking a card never writes to the database."""
import threading

from cardsite.loader import export_catalogue
from cardsite.search import catalogue_state
from game.engine.catalogue import Catalogue

from .cards import Cards

_lock = threading.Lock()
_current = {"version": None, "cards": None}


def current_cards():
    """Cards (lookups over the engine Catalogue) for the catalogue as it is now."""
    version, _ = catalogue_state()
    with _lock:
        if _current["version"] == version and _current["cards"] is not None:
            return _current["cards"]
    data = export_catalogue()
    cards = Cards(Catalogue.from_records(data["dragons"], data["caves"], data["guild_tiles"], data["objective_tiles"],
                                         data["board_facts"]))
    with _lock:
        _current["version"], _current["cards"] = version, cards
    return cards
