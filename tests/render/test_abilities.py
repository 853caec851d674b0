"""Whole abilities and cards: kind prefixes, opponents' parts, hatchlings, fledglings and cost waivers."""
import pytest

from game.language.render import RenderError, render_abilities, render_ability

HATCHLING = {"feeds_on": "milk"}
HATCHLING_ABILITIES = [
    {"kind": "if_activated", "effect": {"do": "cache", "item": "milk", "from": "supply", "on": {"scope": "here"}}},
    {"kind": "on_feed", "effect": {"do": "gain", "item": "cave"}},
    {"kind": "on_grow_up", "effect": {"do": "gain", "item": "egg", "count": 2}},
]


@pytest.mark.parametrize("kind, prefix", [
    ("when_played", "When played: "),
    ("if_activated", "If activated: "),
    ("once_per_round", "Once per round: "),
    ("end_game", "At game end: "),
])
def test_each_printed_kind_prefixes_its_sentence(kind, prefix):
    assert render_ability({"kind": kind, "effect": {"do": "gain", "item": "gold"}}) == prefix + "Gain 1 gold."


def test_others_part_reads_as_what_each_opponent_may_do():
    ability = {"kind": "when_played", "effect": {"do": "gain", "item": "coin", "count": 2},
               "others": {"do": "gain", "item": "coin"}}
    assert render_ability(ability) == "When played: Gain 2 coins. Each opponent may gain 1 coin."


def test_others_part_speaks_of_their_own_mat():
    ability = {"kind": "when_played", "effect": {"do": "gain", "item": "gold"},
               "others": {"do": "may", "effect": {"do": "lay_egg", "on": {"scope": "mat", "size": "small"}}}}
    assert render_ability(ability) == (
        "When played: Gain 1 gold. Each opponent may lay 1 egg on a small dragon on their mat.")


def test_hatchling_reads_activation_then_feeding_then_growing_up():
    assert render_abilities(HATCHLING_ABILITIES, HATCHLING) == (
        "If activated: Cache 1 milk from your supply here. "
        "Whenever milk is cached here: Gain 1 cave card. "
        "The third time: Also lay 2 eggs.")


def test_card_fed_hatchling_says_tucked():
    abilities = [{"kind": "on_feed", "effect": {"do": "lay_egg"}}]
    assert render_abilities(abilities, {"feeds_on": "card"}) == "Whenever a dragon card is tucked here: Lay 1 egg."


def test_fledgling_lists_its_training_boxes_first():
    card = {"training": ["milk", "dragon", "egg", "any_resource"]}
    abilities = [{"kind": "if_activated", "effect": {"do": "lay_egg", "count": 2, "on": {"scope": "here"}}}]
    assert render_abilities(abilities, card) == (
        "Training: milk, then a dragon card, then an egg, then any resource. If activated: Lay 2 eggs here.")


def test_conditional_cost_dragon_states_its_waiver_first():
    card = {"free_if": {"at_least": [{"what": "dragons", "scope": "cave"}, 3]}}
    abilities = [{"kind": "when_played", "effect": {"do": "gain", "item": "meat"}}]
    assert render_abilities(abilities, card) == (
        "Free to play if, once it is in place, there are at least 3 dragons in this cave. "
        "When played: Gain 1 meat.")


def test_card_without_abilities_reads_as_empty_text():
    assert render_abilities([], {"number": 1}) == ""


def test_unknown_ability_kind_is_a_render_error():
    with pytest.raises(RenderError, match="'sometimes'"):
        render_ability({"kind": "sometimes", "effect": {"do": "lay_egg"}})


def test_ability_without_effect_is_a_render_error():
    with pytest.raises(RenderError, match="needs an effect"):
        render_ability({"kind": "when_played"})


def test_unknown_training_box_is_a_render_error():
    with pytest.raises(RenderError, match="'diamond'"):
        render_abilities([], {"training": ["diamond"]})


def test_grow_up_without_a_feeding_benefit_names_its_trigger():
    abilities = [
        {"kind": "if_activated", "effect": {"do": "cache", "item": "milk", "from": "supply"}},
        {"kind": "on_grow_up", "effect": {"do": "gain", "item": "dragon", "count": 2}},
    ]
    assert render_abilities(abilities, HATCHLING) == (
        "If activated: Cache 1 milk from your supply here. The third time milk is cached here: Gain 2 dragon cards.")


def test_opponents_gain_one_of_the_resource_the_owner_chose():
    ability = {"kind": "when_played",
               "effect": {"do": "gain", "item": "any_resource", "count": 2, "same": True, "as": "chosen"},
               "others": {"do": "gain", "item": {"var": "chosen"}}}
    assert render_ability(ability) == (
        "When played: Gain 2 resources of one kind. Each opponent may gain 1 of that resource.")


def test_steps_that_test_a_condition_read_as_separate_sentences():
    gain_guild = {"do": "gain", "item": "guild"}
    ability = {"kind": "once_per_round", "effect": {"do": "seq", "steps": [
        {"do": "if", "cond": {"at_least": [{"what": "dragons", "scope": "column"}, 3]}, "then": gain_guild},
        {"do": "if", "cond": {"at_least": [{"what": "dragons", "scope": "cave"}, 4]}, "then": gain_guild},
    ]}}
    assert render_ability(ability) == (
        "Once per round: If there are at least 3 dragons in this column, advance once on the Dragon Guild. "
        "Then if there are at least 4 dragons in this cave, advance once on the Dragon Guild.")


def test_opponents_part_that_repeats_or_tests_keeps_its_own_shape():
    ability = {"kind": "when_played", "effect": {"do": "gain", "item": "gold"},
               "others": {"do": "repeat", "times": 2, "up_to": True, "effect": {"do": "lay_egg"}}}
    assert render_ability(ability) == (
        "When played: Gain 1 gold. Each opponent may, up to twice, lay 1 egg.")


def test_opponents_part_with_a_condition_reads_after_may():
    ability = {"kind": "when_played", "effect": {"do": "gain", "item": "gold"},
               "others": {"do": "if", "cond": {"at_least": [{"what": "dragons", "scope": "mat"}, 5]},
                          "then": {"do": "gain", "item": "coin"}}}
    assert render_ability(ability) == (
        "When played: Gain 1 gold. Each opponent may, if there are at least 5 dragons on their mat, gain 1 coin.")
