"""`does:WORD` finds the cards and tiles whose effects use the word, checked word by word against the fixture files
themselves, not against either search path (the in-memory index and the SQL `Q` could agree on a wrong answer, as
they did when neither looked at a guild tile's rows)."""
import json
from pathlib import Path

import pytest

from cardsite.catalogue import card_index, query, search
from cardsite.catalogue.models import CaveCard, Dragon, GuildTile, ObjectiveTile
from game.language.walk import search_name

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MODELS = {"dragons": Dragon, "caves": CaveCard, "guild tiles": GuildTile, "objective tiles": ObjectiveTile}


def _records(pattern, key):
    found = []
    for path in sorted(FIXTURES.glob(pattern)):
        data = json.loads(path.read_text())
        found += data[key] if isinstance(data, dict) else data
    return found


def _words(node, found):
    """Every effect word anywhere in a fixture's JSON: each object with a `do` is an effect (a family word by its
    kind, as the language names it)."""
    if isinstance(node, dict):
        if isinstance(node.get("do"), str):
            found.add(search_name(node))
        for value in node.values():
            _words(value, found)
    elif isinstance(node, list):
        for value in node:
            _words(value, found)
    return found


def expected_by_word():
    """{model: {word: {card key}}} from the fixture files: dragons and cave cards by (number, printing), from their
    abilities; guild tiles by (expansion, number), from their rows; objective tiles count, they have no effects."""
    cards = {
        Dragon: [((r["number"], r["printing"]), r["abilities"]) for r in _records("dragons-*.json", "dragons")],
        CaveCard: [((r["number"], r["printing"]), r["abilities"]) for r in _records("caves.json", "caves")],
        GuildTile: [((r["expansion"], r["number"]), r["rows"]) for r in _records("guild-tiles.json", "guild_tiles")],
        ObjectiveTile: [((r["expansion"], r["number"]), [side.get("effect") for side in r["sides"].values()])
                        for r in _records("objective-tiles.json", "objective_tiles")],
    }
    answer = {}
    for model, entries in cards.items():
        by_word = answer[model] = {word: set() for word in query.EFFECT_WORDS}
        for key, effects in entries:
            for word in _words(effects, set()):
                by_word[word].add(key)
    return answer


def _key(model, card):
    if model in (Dragon, CaveCard):
        return card.number, card.printing
    return card.expansion.slug, card.number


def index_answer(model, word):
    pks = card_index.search_pks(model, f"does:{word}")
    return {_key(model, card) for card in model.objects.select_related("expansion").filter(pk__in=pks)}


def sql_answer(model, word):
    q = query.compile_query(query.parse(f"does:{word}"), model, search.text_match)
    return {_key(model, card) for card in model.objects.select_related("expansion").filter(q)}


@pytest.mark.parametrize("model", MODELS.values(), ids=MODELS.keys())
def test_does_finds_what_the_fixtures_use_word_by_word_on_both_paths(catalogue, model):
    expected = expected_by_word()[model]
    wrong = [(word, path, sorted(expected[word] ^ answer(model, word)))
             for word in query.EFFECT_WORDS for path, answer in (("index", index_answer), ("sql", sql_answer))
             if answer(model, word) != expected[word]]
    assert not wrong, wrong[:5]


def test_the_fixtures_give_guild_tiles_words_to_find(catalogue):
    """The comparison above is not empty-handed: the Veterinary Guild's rows cache, tuck and lay eggs."""
    expected = expected_by_word()[GuildTile]
    assert {word for word, tiles in expected.items() if ("academy", 6) in tiles} >= {"cache", "tuck", "lay_egg"}
    assert sum(len(tiles) for tiles in expected.values()) > 20


def test_the_guild_tile_api_finds_the_tiles_that_tuck(api):
    body = api("/api/guild-tiles/?q=does:tuck")
    assert [tile["name"] for tile in body["results"]] == ["Veterinary Guild"]
