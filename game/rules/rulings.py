"""The official rulings, in our own words, as data (game/rules/rulings.json), and the lookups that pages use.

Each ruling links the cards it concerns by number (dragons, cave cards, guild tiles, objective tiles: each kind is
numbered on its own) and the rules topics by their /rules/ anchor. A ruling about a card number applies to every
printing of that number. The file is read and checked once per process; a bad entry fails loudly at first use
(and in tests/rules/test_rulings.py), never half-shown.
"""
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PATH = Path(__file__).with_name("rulings.json")

KINDS = {
    "faq": "Official FAQ",
    "designer": "Designer's ruling",
    "rules-app": "Official rules app",
    "rulebook": "Rulebook",
    "open": "No official answer",
}
CARD_KINDS = ("dragons", "caves", "guilds", "objectives")
FIELDS = {"id", "kind", "question", "answer", "sources", "engine", "topics", *CARD_KINDS}


class RulingsError(ValueError):
    """rulings.json is malformed: the message names the entry and the field."""


@dataclass(frozen=True)
class Source:
    label: str
    url: str | None


@dataclass(frozen=True)
class Ruling:
    id: str
    kind: str
    question: str
    answer: str
    sources: tuple
    engine: str | None
    topics: tuple
    dragons: tuple
    caves: tuple
    guilds: tuple
    objectives: tuple

    @property
    def kind_label(self):
        return KINDS[self.kind]

    @property
    def official(self):
        return self.kind != "open"

    def cards(self, kind):
        return getattr(self, kind)

    def to_dict(self):
        """The API's representation (and what analysis answers carry)."""
        return {
            "id": self.id, "kind": self.kind, "kind_label": self.kind_label, "question": self.question,
            "answer": self.answer, "engine": self.engine,
            "sources": [{"label": source.label, "url": source.url} for source in self.sources],
            "topics": list(self.topics), **{kind: list(self.cards(kind)) for kind in CARD_KINDS},
        }


def _read(data):
    if not isinstance(data, dict) or not isinstance(data.get("rulings"), list):
        raise RulingsError("rulings.json: expected an object with a list under 'rulings'")
    rulings, seen = [], set()
    for at, entry in enumerate(data["rulings"]):
        where = f"rulings[{at}]"
        if not isinstance(entry, dict):
            raise RulingsError(f"{where}: expected an object")
        unknown = sorted(set(entry) - FIELDS)
        if unknown:
            raise RulingsError(f"{where}.{unknown[0]}: unknown field")
        for name in ("id", "kind", "question", "answer"):
            if not isinstance(entry.get(name), str) or not entry[name].strip():
                raise RulingsError(f"{where}.{name}: expected some text")
        if entry["id"] in seen:
            raise RulingsError(f"{where}.id: {entry['id']!r} is used twice")
        seen.add(entry["id"])
        if entry["kind"] not in KINDS:
            raise RulingsError(f"{where}.kind: {entry['kind']!r} is not one of {', '.join(KINDS)}")
        sources = entry.get("sources", [])
        if not isinstance(sources, list) or (entry["kind"] != "open" and not sources):
            raise RulingsError(f"{where}.sources: an official ruling names at least one source")
        for s, source in enumerate(sources):
            if not isinstance(source, dict) or not isinstance(source.get("label"), str) or not (
                    source.get("url") is None or str(source["url"]).startswith("https://")):
                raise RulingsError(f"{where}.sources[{s}]: expected a label and an https url (or null)")
        numbers = {}
        for kind in CARD_KINDS:
            value = entry.get(kind, [])
            if not isinstance(value, list) or not all(isinstance(n, int) and n > 0 for n in value):
                raise RulingsError(f"{where}.{kind}: expected a list of card numbers")
            numbers[kind] = tuple(value)
        topics = entry.get("topics", [])
        if not isinstance(topics, list) or not all(isinstance(t, str) for t in topics):
            raise RulingsError(f"{where}.topics: expected a list of rules anchors")
        engine = entry.get("engine")
        if engine is not None and not isinstance(engine, str):
            raise RulingsError(f"{where}.engine: expected text")
        rulings.append(Ruling(
            id=entry["id"], kind=entry["kind"], question=entry["question"], answer=entry["answer"],
            sources=tuple(Source(source["label"], source.get("url")) for source in sources), engine=engine,
            topics=tuple(topics), **numbers,
        ))
    return tuple(rulings)


@lru_cache(maxsize=1)
def all_rulings():
    """Every ruling, in the file's order."""
    return _read(json.loads(PATH.read_text(encoding="utf-8")))


def get(ruling_id):
    return next((ruling for ruling in all_rulings() if ruling.id == ruling_id), None)


@lru_cache(maxsize=None)
def for_card(kind, number):
    """The rulings about card `number` of `kind` ('dragons', 'caves', 'guilds', 'objectives')."""
    if kind not in CARD_KINDS:
        raise ValueError(f"unknown card kind {kind!r}")
    return tuple(ruling for ruling in all_rulings() if number in ruling.cards(kind))


def for_topic(anchor):
    return tuple(ruling for ruling in all_rulings() if anchor in ruling.topics)


def touching(dragons=(), caves=(), guilds=(), objectives=(), topics=()):
    """The rulings about any of the given cards or topics, in the file's order (for a position on the board)."""
    wanted = {"dragons": set(dragons), "caves": set(caves), "guilds": set(guilds), "objectives": set(objectives)}
    topics = set(topics)
    return tuple(ruling for ruling in all_rulings()
                 if topics & set(ruling.topics) or any(wanted[kind] & set(ruling.cards(kind)) for kind in CARD_KINDS))
