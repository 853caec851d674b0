"""The calculator's view of the catalogue: the engine Catalogue with the ways a person names a card, built once per
catalogue by the one catalogue service (game/catalogue.py)."""
import re

from cardsite.catalogue.loader import dragon_slug
from game import catalogue

WHOLE = re.compile(r"-?\d+")  # \d is a decimal digit in any script; "²" is not one, so int() never fails


def whole_number(text):
    """The int a person typed as a whole number ("12", "-3", " 7 "), or None when the text is not one ("1-2",
    "1e", "1O", "--3"): the one reading of a typed number for the page and the API alike."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    return int(text) if WHOLE.fullmatch(text) else None


class CalculatorCatalogue:
    """An engine Catalogue plus the ways a person names a card: number, slug, name or 'number name'."""

    def __init__(self, snapshot):
        self.data = snapshot.data
        self.form_choices = None  # the calculator page's option lists, filled on first use
        self.engine = snapshot.engine
        self.slugs = [dragon_slug(record) for record in self.data["dragons"]]  # by card index
        self.dragon_names = {}
        self.dragon_slugs = {}
        self.dragon_numbers = {}
        for card in self.engine.dragons:
            self.dragon_slugs[self.slugs[card.index]] = card.index
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
        if whole_number(head) is not None and not head.startswith("-"):
            index = self.find_dragon(whole_number(head), academy or rest.lower().endswith("(updated)"))
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
            if whole_number(text) is None:
                return None
            ref = whole_number(text)
        if not isinstance(ref, int) or isinstance(ref, bool):
            return None
        return self.cave_numbers.get((ref, printing), self.cave_numbers.get((ref, "original")))


def current():
    """The catalogue as the calculator uses it, as it is now."""
    return catalogue.current().view("calculator", CalculatorCatalogue)
