"""The card catalogue as the engine sees it: plain records read from our fixtures (or built from the database).

Cards are identified in a game by their index in `Catalogue.dragons` / `Catalogue.caves`. Board facts (guild track,
objective VP, player-mat icons, Academy income) come from `board.json` and are read once into plain attributes.
"""
import json
from pathlib import Path

from ..language.vocabulary import CAVE_INDEX, CAVE_NAMES, CAVES, RES_INDEX, RESOURCES  # noqa: F401 (re-exported)

UPDATED_DRAGONS = (119, 124, 131, 132, 134)
UPDATED_CAVES = (50, 51)


class DragonCard:
    __slots__ = ("index", "number", "printing", "name", "expansion", "vp", "size", "trait", "capacity", "cost",
                 "res_cost", "coin_cost", "egg_cost", "cost_total", "habitats", "abilities", "feeds_on", "training",
                 "free_if", "kinds", "resource_icons")

    def __init__(self, index, record):
        self.index = index
        self.number = record["number"]
        self.printing = record.get("printing", "original")
        self.name = record.get("name", f"Dragon {self.number}")
        self.expansion = record.get("expansion", "base")
        self.vp = record.get("vp", 0)
        self.size = record.get("size", "small")
        self.trait = record.get("trait", "shy")
        self.capacity = record.get("capacity", 0)
        self.cost = dict(record.get("cost") or {})
        self.res_cost = tuple(self.cost.get(r, 0) for r in RESOURCES)
        self.coin_cost = self.cost.get("coin", 0)
        self.egg_cost = self.cost.get("egg", 0)
        self.cost_total = sum(self.cost.values())
        self.resource_icons = sum(self.res_cost)
        self.habitats = tuple(CAVE_INDEX[h] for h in record.get("habitats", ()))
        self.abilities = list(record.get("abilities") or [])
        self.feeds_on = record.get("feeds_on") or None
        self.training = list(record.get("training") or [])
        self.free_if = record.get("free_if")
        self.kinds = frozenset(a["kind"] for a in self.abilities)

    def label(self):
        return f"{self.name} ({self.number})"


class CaveCard:
    __slots__ = ("index", "number", "printing", "expansion", "abilities")

    def __init__(self, index, record):
        self.index = index
        self.number = record["number"]
        self.printing = record.get("printing", "original")
        self.expansion = record.get("expansion", "base")
        self.abilities = list(record.get("abilities") or [])

    def label(self):
        return f"cave card {self.number}"


class CatalogueError(ValueError):
    """The catalogue lacks a fact the engine needs; the message names the key."""


class Catalogue:
    """Every card, guild tile, objective tile and board fact the engine may use."""

    def __init__(self, dragons, caves, guild_tiles=(), objective_tiles=(), board=None):
        self.dragons = [DragonCard(i, r) for i, r in enumerate(dragons)]
        self.caves = [CaveCard(i, r) for i, r in enumerate(caves)]
        self.guild_tiles = list(guild_tiles)
        self.objective_tiles = list(objective_tiles)
        self.board = dict(board or {})
        self._read_board()
        self._decks = {}  # (kind, academy, updated) -> the card indices of that deck, in catalogue order

    def _fact(self, key):
        if key not in self.board:
            raise CatalogueError(f"board fact {key!r} is missing from the catalogue (fixtures/board.json)")
        return self.board[key]

    def _read_board(self):
        track = self._fact("guild_track")
        effects = track.get("space_effects", {})
        brown = set(track.get("brown_spaces", ()))
        self.guild_spaces = [None if i in brown else effects.get(str(i)) for i in range(track["spaces"])]
        self.guild_start = track.get("start", 0)
        self.markers_per_player = track.get("markers_per_player", 4)
        self.guild_end_vp = list(self.board.get("guild_end_game_vp", ()))
        self.objective_vp = {}
        for rnd, places in self._fact("round_objective_vp").items():
            if isinstance(places, dict):
                places = [places.get("1st", 0), places.get("2nd", 0), places.get("3rd", 0)]
            self.objective_vp[int(rnd)] = list(places)
        mat = self._fact("player_mat")
        path = ("icon_a", "guild", "icon_b", "lay_egg", "end")
        self.mat_icons = [[mat["mat_icons"][cave][key] for key in path] for cave in CAVES]
        by_col = mat.get("excavate_egg_cost_by_column", {})
        self.excavate_eggs = [by_col.get(str(col), 0) for col in range(1, 5)]
        self.excavate_coins = mat.get("excavate_coin_cost", 1)
        self.entice_coins = mat.get("entice_coin_cost", 1)
        visits = mat.get("explore_cost_by_visit", {})
        self.explore_costs = [(visits[k]["coin"], visits[k]["egg"]) for k in sorted(visits, key=int)]
        self.column_4_effect = mat.get("column_4_when_covered")
        self.mat_nests = mat.get("mat_nests", 2)
        self.exchange_give, self.exchange_get = mat["exchange"]["give"], mat["exchange"]["get"]  # the board's rate
        caps = self.board.get("capacity_at_end_of_turn", {"cards": 9, "coins": 9, "resources": 9})
        self.cap_cards, self.cap_coins, self.cap_resources = caps["cards"], caps["coins"], caps["resources"]
        setup = self._fact("setup")
        self.setup = setup
        self.rounds = setup.get("rounds", 4)
        self.max_dragons = setup.get("max_dragons_on_mat", 12)
        income = self._fact("income_each_round")
        self.income_effect = income.get("effect") or {"do": "seq", "steps": [
            {"do": "gain", "item": "coin", "count": income.get("coins", 6)}, {"do": "lay_egg"}]}
        self.academy_income = {}
        tracker = self.board.get("round_tracker_income") or {}
        for section in tracker.get("sections", ()):
            for rnd in section["rounds"]:
                self.academy_income[rnd] = [space["income"] for space in section["spaces"]]

    @classmethod
    def from_records(cls, dragons, caves, guild_tiles=(), objective_tiles=(), board_facts=()):
        """Build from plain dicts in the fixture schema; board_facts is a list of {"key", "value"} records."""
        board = {fact["key"]: fact["value"] for fact in board_facts}
        return cls(dragons, caves, guild_tiles, objective_tiles, board)

    def _pick(self, cards, academy, updated):
        has_update = {c.number for c in cards if c.printing == "updated"}
        chosen = []
        for card in cards:
            if card.number in has_update:
                if (card.printing == "updated") != updated:
                    continue
            elif card.expansion == "academy" and not academy:
                continue
            chosen.append(card.index)
        return chosen

    def _deck(self, kind, academy, updated):
        """A new list of the cards of a deck (picked once per catalogue: the cards never change)."""
        key = (kind, bool(academy), bool(updated))
        cards = self._decks.get(key)
        if cards is None:
            cards = self._decks[key] = self._pick(self.dragons if kind == "dragon" else self.caves, *key[1:])
        return list(cards)

    def dragon_deck(self, academy, updated):
        return self._deck("dragon", academy, updated)

    def cave_deck(self, academy, updated):
        return self._deck("cave", academy, updated)

    def card(self, kind, index):
        """A card as plain data for questions and options: {"type", "index", "number", "name"} (a cave card's name
        is its number in words; a card that does not exist has number and name None)."""
        cards = self.dragons if kind == "dragon" else self.caves
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(cards):
            card = cards[index]
            name = card.name if kind == "dragon" else f"cave card {card.number}"
            return {"type": kind, "index": index, "number": card.number, "name": name}
        return {"type": kind, "index": index, "number": None, "name": None}

    def guild_tiles_for(self, academy):
        """Tiles a game may deal: a tile with no known rows (King's Guild) is left in the box until it has some."""
        return [i for i, t in enumerate(self.guild_tiles)
                if (academy or t.get("expansion", "base") == "base") and t.get("rows")]

    def objectives_for(self, academy):
        return [i for i, t in enumerate(self.objective_tiles) if academy or t.get("expansion", "base") == "base"]


def _read(path, key):
    if not path.exists():
        return []
    return json.loads(path.read_text())[key]


def load_fixtures(directory):
    """Read our fixture files (pure JSON) into a Catalogue."""
    directory = Path(directory)
    dragons = []
    for path in sorted(directory.glob("dragons-*.json")):
        dragons += _read(path, "dragons")
    caves = _read(directory / "caves.json", "caves")
    guild_tiles = _read(directory / "guild-tiles.json", "guild_tiles")
    objective_tiles = _read(directory / "objective-tiles.json", "objective_tiles")
    board_facts = _read(directory / "board.json", "board_facts") + _read(directory / "automa.json", "board_facts")
    return Catalogue.from_records(dragons, caves, guild_tiles, objective_tiles, board_facts)
