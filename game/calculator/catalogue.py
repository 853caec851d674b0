"""The engine's view of the database catalogue, built once per catalogue version, with lookups for user input."""
import threading

from cardsite.loader import export_catalogue
from cardsite.search import catalogue_state
from game.engine.catalogue import Catalogue

_lock = threading.Lock()
_cached = {}


class CalculatorCatalogue:
    """An engine Catalogue plus the ways a person names a card: number, slug, name or 'number name'."""

    def __init__(self, data):
        self.data = data
        self.form_choices = None  # the calculator page's option lists, filled on first use
        self.engine = Catalogue.from_records(data["dragons"], data["caves"], data["guild_tiles"],
                                             data["objective_tiles"], data["board_facts"])
        self.dragon_names = {}
        self.dragon_slugs = {}
        self.dragon_numbers = {}
        for card in self.engine.dragons:
            slug = data["dragon_slugs"][card.index]
            self.dragon_slugs[slug] = card.index
            self.dragon_numbers[(card.number, card.printing)] = card.index
            self.dragon_names.setdefault((card.name.lower(), card.printing), card.index)
        self.cave_numbers = {(c.number, c.printing): c.index for c in self.engine.caves}
        self.guild_numbers = {t["number"]: i for i, t in enumerate(self.engine.guild_tiles)}
        self.objective_numbers = {t["number"]: i for i, t in enumerate(self.engine.objective_tiles)}

    @property
    def guild_end_vp(self):
        return list(self.engine.guild_end_vp)

    def dragon_label(self, index):
        card = self.engine.dragons[index]
        suffix = " (updated)" if card.printing == "updated" else ""
        return f"{card.number} {card.name}{suffix}"

    def find_dragon(self, ref, academy):
        """The dragon a person means, or None: updated printings stand in for originals when the expansion is on."""
        printing = "updated" if academy else "original"
        if isinstance(ref, int) and not isinstance(ref, bool):
            return self.dragon_numbers.get((ref, printing), self.dragon_numbers.get((ref, "original")))
        if not isinstance(ref, str) or not ref.strip():
            return None
        text = ref.strip()
        if text.lower() in self.dragon_slugs:
            return self.dragon_slugs[text.lower()]
        head, _, rest = text.partition(" ")
        if head.isdigit():
            index = self.find_dragon(int(head), academy or rest.lower().endswith("(updated)"))
            if index is None or not rest:
                return index
            name = rest.lower().removesuffix("(updated)").strip()
            return index if self.engine.dragons[index].name.lower() == name else None
        name = text.lower()
        return self.dragon_names.get((name, printing), self.dragon_names.get((name, "original")))

    def find_cave(self, ref, academy):
        printing = "updated" if academy else "original"
        if isinstance(ref, str):
            text = ref.strip().lower().removeprefix("cave card").removeprefix("cave-").removeprefix("cave").strip()
            if text.endswith("(updated)") or text.endswith("-updated"):
                text, printing = text.removesuffix("(updated)").removesuffix("-updated").strip(), "updated"
            if not text.isdigit():
                return None
            ref = int(text)
        if not isinstance(ref, int) or isinstance(ref, bool):
            return None
        return self.cave_numbers.get((ref, printing), self.cave_numbers.get((ref, "original")))


def _read():
    data = export_catalogue()
    from cardsite.models import Dragon
    slugs = dict(((d.number, d.printing), d.slug) for d in Dragon.objects.only("number", "printing", "slug"))
    data["dragon_slugs"] = [slugs[(r["number"], r["printing"])] for r in data["dragons"]]
    return data


def current():
    """The catalogue as the calculator uses it, rebuilt only when the database catalogue changes."""
    version, _ = catalogue_state()
    found = _cached.get(version)
    if found is None:
        with _lock:
            found = _cached.get(version)
            if found is None:
                found = CalculatorCatalogue(_read())
                _cached.clear()
                _cached[version] = found
    return found
