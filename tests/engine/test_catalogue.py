"""Reading the catalogue: fixtures and plain records give the same thing; a missing board fact is named."""
import json

import pytest

from game.engine.catalogue import Catalogue, CatalogueError

from .helpers import FIXTURES, board_facts, real_catalogue


def records(name, key):
    return json.loads((FIXTURES / name).read_text())[key]


def test_from_records_equals_load_fixtures():
    dragons = []
    for path in sorted(FIXTURES.glob("dragons-*.json")):
        dragons += json.loads(path.read_text())["dragons"]
    cat = Catalogue.from_records(dragons, records("caves.json", "caves"), records("guild-tiles.json", "guild_tiles"),
                                 records("objective-tiles.json", "objective_tiles"), board_facts())
    fixture = real_catalogue()
    assert [(d.number, d.printing, d.cost, d.habitats) for d in cat.dragons] == \
           [(d.number, d.printing, d.cost, d.habitats) for d in fixture.dragons]
    assert cat.dragon_deck(True, True) == fixture.dragon_deck(True, True)


def test_decks_by_expansion_and_printing():
    cat = real_catalogue()
    for academy, updated, dragons, caves in ((False, False, 183, 75), (True, True, 263, 100), (True, False, 263, 100)):
        deck = cat.dragon_deck(academy, updated)
        assert len(deck) == dragons and len(cat.cave_deck(academy, updated)) == caves
        assert len({cat.dragons[d].number for d in deck}) == dragons  # one printing of each number


def test_board_facts_become_plain_attributes():
    cat = real_catalogue()
    assert cat.explore_costs == [(1, 0), (1, 1), (1, 2)]
    assert cat.excavate_eggs == [0, 0, 1, 2]
    assert cat.guild_spaces[0] is None and cat.guild_spaces[6] is None and len(cat.guild_spaces) == 12
    assert cat.objective_vp[4] == [7, 4, 3]
    assert (cat.cap_cards, cat.cap_coins, cat.cap_resources) == (9, 9, 9)


def test_missing_board_fact_is_named():
    facts = [f for f in board_facts() if f["key"] != "player_mat"]
    with pytest.raises(CatalogueError, match="player_mat"):
        Catalogue.from_records([], [], [], [], facts)
