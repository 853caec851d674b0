"""`from` is one vocabulary of places: each word takes the places it declares, and nothing else passes the schema."""
import pytest

from game.language.schema import EffectSchemaError, validate
from game.language.vocabulary import SOURCES
from game.language.words import WORDS, From, sources

TAKERS = {name: word.keys["from"] for name, word in WORDS.items() if isinstance(word.keys.get("from"), From)}
BASE = {"gain": {"item": "dragon"}, "cache": {"item": "meat"}, "tuck": {}, "excavate": {}, "play_dragon": {}}


def test_every_word_that_takes_from_names_places_of_the_one_vocabulary():
    assert set(TAKERS) == set(BASE)
    assert all(set(kind.sources) <= set(SOURCES) for kind in TAKERS.values())


@pytest.mark.parametrize("name", sorted(BASE))
def test_each_declared_place_passes_and_each_other_place_fails_naming_the_key(name):
    for place in SOURCES:
        node = {"do": name, **BASE[name], "from": place}
        if place in TAKERS[name].sources:
            validate(node)
        else:
            with pytest.raises(EffectSchemaError, match=rf"^effect\.from: '{place}' is not a place this word takes"):
                validate(node)


@pytest.mark.parametrize("name", sorted(BASE))
def test_a_list_of_places_passes_only_where_the_word_lets_the_player_pick(name):
    node = {"do": name, **BASE[name], "from": list(TAKERS[name].sources[:2])}
    if TAKERS[name].pick:
        validate(node)
        assert sources(node) == TAKERS[name].sources[:2]
    else:
        with pytest.raises(EffectSchemaError, match=r"^effect\.from: \[.*\] is not a place"):
            validate(node)


def test_a_list_names_two_places_each_once():
    for bad in (["hand"], ["hand", "hand"], []):
        with pytest.raises(EffectSchemaError, match="two or more, each once"):
            validate({"do": "play_dragon", "from": bad})


def old(**node):
    """An effect in an old spelling, built so that scripts/migrate_effects.py (it rewrites dict literals) leaves it."""
    return {"do": node.pop("do_"), **node}


def test_the_old_spellings_are_refused():
    with pytest.raises(EffectSchemaError, match=r"'hand_or_display' is not a place.*known: hand, display, a list"):
        validate(old(do_="play_dragon", **{"from": "hand_or_display"}))
    with pytest.raises(EffectSchemaError, match="'any' is not a place"):
        validate(old(do_="gain", item="dragon", **{"from": "any"}))
    with pytest.raises(EffectSchemaError, match=r"cost\[0\]: a cost item is"):
        validate(old(do_="pay", cost=[dict(item="egg", **{"from": {"scope": "cave"}})],
                     buys=old(do_="gain", item="gold")))


def test_a_var_passes_only_where_the_word_takes_a_bound_card():
    for name, kind in TAKERS.items():
        node = {"do": name, **BASE[name], "from": {"var": "it"}}
        if kind.var:
            validate(node)
        else:
            with pytest.raises(EffectSchemaError):
                validate(node)


def test_left_out_from_is_the_declared_default():
    assert sources({"do": "gain", "item": "dragon"}) == ("display", "deck")
    assert sources({"do": "cache", "item": "meat"}) == ("supply",)
    assert sources({"do": "tuck"}) == ("hand",)
