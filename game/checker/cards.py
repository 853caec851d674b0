"""Finding a card by what a person types ("130", "Smirking Ridgeback", "cave 12", "guild 2"), and listing the
abilities the checker can run for it. Pure Python over an engine Catalogue."""
import re

from game.engine.catalogue import CAVE_NAMES
from game.language.render import RenderError, render_ability, render_effect

from .errors import CheckerInputError

KIND_NAMES = {
    "when_played": "When played", "if_activated": "If activated", "once_per_round": "Once per round",
    "end_game": "At game end", "on_feed": "When fed", "on_grow_up": "When grown up", "guild_row": "Guild row",
}
_DRAGON_NUMBER = re.compile(r"^(?:dragon\s+)?#?(\d+)\b\s*(.*)$", re.I)
_CAVE_NUMBER = re.compile(r"^cave(?:\s+card)?\s+#?(\d+)\b\s*(.*)$", re.I)
_GUILD_NUMBER = re.compile(r"^guild(?:\s+tile)?\s+#?(\d+)\b\s*(.*)$", re.I)


class Subject:
    """The card whose ability is checked: a dragon, a cave card or a Dragon Guild tile (its rows)."""

    __slots__ = ("kind", "index", "number", "printing", "name", "record")

    def __init__(self, kind, index, number, printing, name, record):
        self.kind, self.index, self.number, self.printing, self.name, self.record = (
            kind, index, number, printing, name, record)

    def ref(self):
        """The text that finds this card again (and that the page's autocomplete offers)."""
        if self.kind == "dragon":
            return f"{self.number} {self.name}" + (" (updated)" if self.printing == "updated" else "")
        if self.kind == "cave":
            return f"Cave card {self.number}" + (" (updated)" if self.printing == "updated" else "")
        return f"Guild {self.number} {self.name}"


def _updated(rest):
    return "updated" in rest.lower()


class Cards:
    """Lookups over one engine catalogue."""

    def __init__(self, catalogue):
        self.cat = catalogue
        self._abilities = {}  # (kind, index) -> rendered abilities: the catalogue never changes under a Cards
        self._by_name = {}
        for card in catalogue.dragons:
            self._by_name.setdefault(card.name.lower(), []).append(card)

    # -- dragons ----------------------------------------------------------------------------------------------

    def dragon(self, ref, field, updated=False):
        """A dragon's catalogue index from a number ("130", "119 updated"), a name, or "130 Smirking Ridgeback".

        A card printed twice is the printing the game uses (`updated`) unless the text names one."""
        if isinstance(ref, bool) or not isinstance(ref, (int, str)):
            raise CheckerInputError(field, "expected a dragon's number or name")
        text = str(ref).strip()
        if not text:
            raise CheckerInputError(field, "expected a dragon's number or name, got nothing")
        m = _DRAGON_NUMBER.match(text)
        if m:
            number, rest = int(m.group(1)), m.group(2)
            printing = "updated" if _updated(rest) else "original" if "original" in rest.lower() else \
                "updated" if updated else "original"
            found = [c for c in self.cat.dragons if c.number == number]
            exact = [c for c in found if c.printing == printing] or found
            if exact:
                return exact[0].index
            raise CheckerInputError(field, f"there is no dragon number {number}")
        name = text.lower()
        printing = "updated" if name.endswith("(updated)") or updated else "original"
        name = name.removesuffix("(updated)").strip()
        found = self._by_name.get(name)
        if not found:
            found = [c for c in self.cat.dragons if name in c.name.lower()]
            names = sorted({c.name for c in found})
            if len(names) > 1:
                shown = ", ".join(names[:5]) + (" …" if len(names) > 5 else "")
                raise CheckerInputError(field, f"{text!r} matches several dragons ({shown}); type more of the name")
        if not found:
            raise CheckerInputError(field, f"no dragon is called {text!r}")
        exact = [c for c in found if c.printing == printing] or found
        return exact[0].index

    # -- the card under test ----------------------------------------------------------------------------------

    def subject(self, ref, field="card"):
        """The card under test from text or {"kind": "dragon"|"cave"|"guild", "number": n, "printing": ...}."""
        if isinstance(ref, dict):
            return self._subject_from_dict(ref, field)
        if isinstance(ref, str):
            text = ref.strip()
            m = _CAVE_NUMBER.match(text)
            if m:
                return self._cave(int(m.group(1)), "updated" if _updated(m.group(2)) else "original", field)
            m = _GUILD_NUMBER.match(text)
            if m:
                return self._guild(int(m.group(1)), field)
            for i, tile in enumerate(self.cat.guild_tiles):
                if tile["name"].lower() == text.lower():
                    return self._guild(tile["number"], field)
        index = self.dragon(ref, field)
        card = self.cat.dragons[index]
        return Subject("dragon", index, card.number, card.printing, card.name, card)

    def _subject_from_dict(self, ref, field):
        unknown = set(ref) - {"kind", "number", "printing"}
        if unknown:
            raise CheckerInputError(f"{field}.{sorted(unknown)[0]}", "is not part of a card (kind, number, printing)")
        kind = ref.get("kind", "dragon")
        number = ref.get("number")
        if isinstance(number, bool) or not isinstance(number, int):
            raise CheckerInputError(f"{field}.number", "expected the card's number")
        printing = ref.get("printing", "original")
        if printing not in ("original", "updated"):
            raise CheckerInputError(f"{field}.printing", "expected original or updated")
        if kind == "dragon":
            found = [c for c in self.cat.dragons if c.number == number]
            exact = [c for c in found if c.printing == printing] or found
            if not exact:
                raise CheckerInputError(f"{field}.number", f"there is no dragon number {number}")
            card = exact[0]
            return Subject("dragon", card.index, card.number, card.printing, card.name, card)
        if kind == "cave":
            return self._cave(number, printing, f"{field}.number")
        if kind == "guild":
            return self._guild(number, f"{field}.number")
        raise CheckerInputError(f"{field}.kind", "expected dragon, cave or guild")

    def _cave(self, number, printing, field):
        found = [c for c in self.cat.caves if c.number == number]
        exact = [c for c in found if c.printing == printing] or found
        if not exact:
            raise CheckerInputError(field, f"there is no cave card number {number}")
        card = exact[0]
        return Subject("cave", card.index, card.number, card.printing, f"Cave card {card.number}", card)

    def _guild(self, number, field):
        for i, tile in enumerate(self.cat.guild_tiles):
            if tile["number"] == number:
                return Subject("guild", i, number, "original", tile["name"], tile)
        raise CheckerInputError(field, f"there is no Dragon Guild tile number {number}")

    # -- abilities --------------------------------------------------------------------------------------------

    def abilities(self, subject):
        """[{index, kind, kind_name, text, label, effect, others}] of what the checker can run for the card."""
        key = (subject.kind, subject.index)
        if key not in self._abilities:
            self._abilities[key] = self._render_abilities(subject)
        return [dict(a) for a in self._abilities[key]]

    def _render_abilities(self, subject):
        out = []
        if subject.kind == "guild":
            for i, row in enumerate(subject.record["rows"]):
                kind = "end_game" if row.get("end_game") else "guild_row"
                name = f"Row {i + 1}" + (" (at game end)" if row.get("end_game") else "")
                text = _text(render_effect, row["effect"])
                out.append({"index": i, "kind": kind, "kind_name": name, "text": text, "label": f"{name}: {text}",
                            "effect": row["effect"], "others": None})
            return out
        card = card_dict(subject.record) if subject.kind == "dragon" else None
        for i, ability in enumerate(subject.record.abilities):
            text = _text(render_ability, ability, card)  # the sentence names its kind ("If activated: ...")
            out.append({"index": i, "kind": ability["kind"], "kind_name": KIND_NAMES.get(ability["kind"], ""),
                        "text": text, "label": text, "effect": ability["effect"], "others": ability.get("others")})
        return out

    def summary(self, subject):
        """What the page and the API show about the card under test."""
        out = {"kind": subject.kind, "number": subject.number, "printing": subject.printing, "name": subject.name,
               "ref": subject.ref()}
        if subject.kind == "dragon":
            card = subject.record
            out.update({"size": card.size, "trait": card.trait, "capacity": card.capacity,
                        "habitats": [CAVE_NAMES[h] for h in card.habitats], "feeds_on": card.feeds_on,
                        "training": list(card.training), "url": f"/cards/dragons/{card.number}/"})
        elif subject.kind == "cave":
            out["url"] = f"/cards/caves/{subject.number}/"
        out["abilities"] = [{k: v for k, v in a.items() if k not in ("effect", "others")}
                            for a in self.abilities(subject)]
        return out

    def choices(self):
        """Every card the checker can run, as the text the autocomplete offers."""
        out = [Subject("dragon", c.index, c.number, c.printing, c.name, c).ref() for c in self.cat.dragons
               if c.abilities]
        out += [Subject("cave", c.index, c.number, c.printing, "", c).ref() for c in self.cat.caves if c.abilities]
        out += [Subject("guild", i, t["number"], "original", t["name"], t).ref()
                for i, t in enumerate(self.cat.guild_tiles) if t.get("rows")]
        return out

    def dragon_names(self):
        return [f"{c.number} {c.name}" + (" (updated)" if c.printing == "updated" else "") for c in self.cat.dragons]


def card_dict(card):
    """The fields of an engine dragon record that the renderer reads."""
    return {"feeds_on": card.feeds_on, "training": list(card.training), "free_if": card.free_if}


def _text(render, *args):
    try:
        return render(*args)
    except RenderError as error:  # a renderer gap must not hide the card from the checker
        return f"(cannot be put into words: {error})"
