"""The language's one walk over nested effects, as the card search reads it."""
from game.language.walk import ability_words, words_in


def test_words_in_follows_only_effect_keys_in_declared_order():
    effect = {"do": "seq", "steps": [{"do": "pay", "what": ["meat"]},
                                      {"do": "choose", "options": [{"do": "gain", "what": ["gold"]},
                                                                   {"do": "lay_egg"}]}]}
    assert words_in(effect) == ["seq", "pay", "choose", "gain", "lay_egg"]


def test_ability_words_read_the_opponents_share_too():
    # Cave 91's opponents choose between two gains: "choose" lives only in the `others` part.
    abilities = [{"kind": "when_played", "effect": {"do": "gain", "what": ["meat"]},
                  "others": {"do": "choose", "options": [{"do": "gain", "what": ["gold"]},
                                                         {"do": "lay_egg"}]}}]
    assert ability_words(abilities) == ["gain", "choose", "lay_egg"]


def test_ability_words_of_nothing_is_empty():
    assert ability_words(None) == [] and ability_words([]) == []


def test_counters_finds_counters_under_counter_amount_and_cond_keys_only():
    from game.language.walk import counters
    cached = {"what": "cached", "scope": "here", "item": "milk"}
    eggs = {"what": "eggs", "scope": "cave"}
    tucked = {"what": "tucked", "scope": "here"}
    effect = {"do": "seq", "steps": [
        {"do": "lay_egg", "count": eggs, "on": {"scope": "here"}},
        {"do": "if", "cond": {"all": [{"at_least": [tucked, 2]}, {"not": {"card": {"size": ["large"]}}}]},
         "then": {"do": "score", "vp": 1, "per": cached}},
        {"do": "gain", "item": "meat", "count": 2}]}
    assert list(counters(effect)) == [eggs, tucked, cached]
