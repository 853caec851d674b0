"""Dragons 93-183 (and the Academy's updated 119, 124, 131, 132, 134): their abilities say what the cards say."""
import json
import re
from pathlib import Path

import pytest

from game.language.schema import validate_abilities

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "dragons-093-183.json"
UPDATED_NUMBERS = {119, 124, 131, 132, 134}
ACADEMY_KINDS = {"Adventurer": "if_activated", "WhenPlayed": "when_played", "OncePerRound": "once_per_round",
                 "EndGame": "end_game"}
PRINTED_KINDS = ("when_played", "if_activated", "once_per_round", "end_game")


def _records():
    with open(FIXTURE) as f:
        return json.load(f)["dragons"]


RECORDS = _records()
BY_KEY = {(r["number"], r["printing"]): r for r in RECORDS}


def _id(rec):
    return f"{rec['number']}-{rec['printing']}"


def _nodes(node):
    """Every effect node (a dict with "do") in an ability tree, depth first."""
    if isinstance(node, dict):
        if "do" in node:
            yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value)


def _counters(node):
    """The cave each counter in a tree looks at (None for the dragon's own cave or the mat)."""
    if isinstance(node, dict):
        if "what" in node and isinstance(node["what"], str):
            yield {"cave": node.get("cave")}
        for value in node.values():
            yield from _counters(value)
    elif isinstance(node, list):
        for value in node:
            yield from _counters(value)


def _words(abilities):
    return {node["do"] for ability in abilities for node in _nodes(ability)}


def _effect_nodes(rec, word):
    return [node for ability in rec["abilities"] for node in _nodes(ability["effect"]) if node["do"] == word]


@pytest.fixture(scope="module")
def reference(shared_data):
    """Reference text per (number, printing): originals from base-game, updated printings from with-academy."""
    with open(shared_data / "base-game" / "dragon_cards.json") as f:
        base = {card["number"]: card for card in json.load(f) if card.get("number")}
    with open(shared_data / "with-academy" / "cards.json") as f:
        academy = {card["number"]: card for card in json.load(f) if card["type"] == "Dragon"}
    texts = {}
    for rec in RECORDS:
        n = rec["number"]
        if rec["printing"] == "updated":
            texts[(n, "updated")] = {"text": academy[n]["ability"], "kinds": {ACADEMY_KINDS[academy[n]["abilityType"]]}}
        else:
            kinds = {kind for kind in PRINTED_KINDS if kind in base[n]}
            texts[(n, "original")] = {"text": base[n]["ability_text"], "kinds": kinds,
                                      "academy_kinds": {ACADEMY_KINDS[academy[n]["abilityType"]]}}
    return texts


def test_the_batch_holds_every_dragon_from_93_to_183_and_the_five_updated_printings():
    originals = sorted(r["number"] for r in RECORDS if r["printing"] == "original")
    updated = {r["number"] for r in RECORDS if r["printing"] == "updated"}
    assert originals == list(range(93, 184))
    assert updated == UPDATED_NUMBERS


@pytest.mark.parametrize("rec", RECORDS, ids=_id)
def test_every_card_has_abilities_that_validate(rec):
    assert rec["abilities"], f"dragon {rec['number']} has no ability encoded"
    validate_abilities(rec["abilities"], f"dragon {_id(rec)}")


@pytest.mark.parametrize("rec", RECORDS, ids=_id)
def test_ability_kinds_match_the_reference_transcription(rec, reference):
    ours = {ability["kind"] for ability in rec["abilities"]}
    ref = reference[(rec["number"], rec["printing"])]
    assert ours == ref["kinds"]
    if "academy_kinds" in ref:
        assert ours == ref["academy_kinds"]


@pytest.mark.parametrize("rec", RECORDS, ids=_id)
def test_opponents_get_a_share_exactly_when_the_card_text_names_them(rec, reference):
    text = reference[(rec["number"], rec["printing"])]["text"].lower()
    has_others = any("others" in ability for ability in rec["abilities"])
    assert has_others == ("opponent" in text)


@pytest.mark.parametrize("rec", [r for r in RECORDS if any(a["kind"] == "end_game" for a in r["abilities"])],
                         ids=_id)
def test_end_game_vp_and_caps_are_the_numbers_printed_on_the_card(rec, reference):
    text = reference[(rec["number"], rec["printing"])]["text"]
    printed = {int(n) for n in re.findall(r"\[VP-(\d+)\]", text)}
    ours = set()
    for node in _effect_nodes(rec, "score"):
        ours.add(abs(node["vp"]))
        if "max" in node:
            ours.add(node["max"])
    assert ours == printed
    losing = any(node["vp"] < 0 for node in _effect_nodes(rec, "score"))
    assert losing == text.lower().startswith("lose")


@pytest.mark.parametrize("rec", [r for r in RECORDS if _effect_nodes(r, "reveal")], ids=_id)
def test_revealed_card_is_tucked_for_the_sizes_the_card_names(rec, reference):
    text = reference[(rec["number"], rec["printing"])]["text"].lower()
    named = set(re.findall(r"hatchling|small|medium|large", text.split("tuck it here")[0]))
    (reveal,) = _effect_nodes(rec, "reveal")
    sizes = reveal["cond"]["card"]["size"]
    assert set([sizes] if isinstance(sizes, str) else sizes) == named
    assert reveal["then"] == {"do": "tuck", "from": {"var": "it"}, "on": {"scope": "here"}}


@pytest.mark.parametrize("number", [93, 103, 114, 145, 167, 168, 170])
def test_cards_naming_a_cave_count_the_cave_they_live_in(number):
    rec = BY_KEY[(number, "original")]
    caves = {node["cave"] for ability in rec["abilities"] for node in _counters(ability)} - {None}
    assert caves == set(rec["habitats"])


@pytest.mark.parametrize("number", [103, 114, 168, 170])
def test_left_neighbour_cards_compare_the_same_cave_on_both_mats(number):
    rec = BY_KEY[(number, "original")]
    (check,) = _effect_nodes(rec, "if")
    mine, theirs = check["cond"]["at_least"]
    assert theirs.pop("of") == "left_neighbour"
    assert mine == theirs


@pytest.mark.parametrize("number", sorted(UPDATED_NUMBERS))
def test_updated_printing_changes_only_the_numbers_it_prints(number):
    def shape(node):
        if isinstance(node, dict):
            return {k: shape(v) for k, v in node.items() if k not in ("vp", "max")}
        if isinstance(node, list):
            return [shape(v) for v in node]
        return node

    original = BY_KEY[(number, "original")]["abilities"]
    updated = BY_KEY[(number, "updated")]["abilities"]
    assert shape(original) == shape(updated)
    assert _effect_nodes(BY_KEY[(number, "updated")], "score")[0]["vp"] > _effect_nodes(
        BY_KEY[(number, "original")], "score")[0]["vp"]


# number -> the words its abilities use (a spot check of the meaning, by hand from the card text)
WORDS = {
    94: {"pay", "gain"},
    99: {"seq", "gain"},
    104: {"repeat", "tuck", "gain"},
    105: {"repeat", "pay", "lay_egg"},
    108: {"pay", "seq", "gain"},
    109: {"pay", "gain", "distribute"},
    111: {"gain", "may", "cache"},
    115: {"gain", "cache"},
    116: {"gain", "distribute"},
    117: {"tuck"},
    135: {"if", "gain", "distribute"},
    144: {"choose", "pay", "score"},
    146: {"pay", "play_dragon"},
    147: {"pay", "play_dragon"},
    149: {"pay", "score"},
    157: {"swap"},
    162: {"excavate"},
    172: {"activate"},
    174: {"pay", "seq", "gain", "choose"},
    175: {"if", "lay_egg"},
    180: {"gain", "may", "tuck"},
}


@pytest.mark.parametrize("number,words", sorted(WORDS.items()))
def test_card_uses_the_words_its_text_needs(number, words):
    assert _words(BY_KEY[(number, "original")]["abilities"]) == words


def test_draw_three_cards_keep_one_discard_one_tuck_one_here():
    for number in (109, 142):
        (draw,) = _effect_nodes(BY_KEY[(number, "original")], "gain")
        assert (draw["item"], draw["from"], draw["count"]) == ("dragon", "deck", 3)
        places = {place["place"]: place for place in draw["if_done"]["to"]}
        assert places["tuck"]["count"] == 1 and places["tuck"]["on"] == {"scope": "here"}
        assert places["discard"]["count"] == 1
        assert draw["if_done"]["rest"] == "keep"
    assert _effect_nodes(BY_KEY[(109, "original")], "pay")[0]["cost"] == [{"item": "any_resource"}]
    assert _effect_nodes(BY_KEY[(142, "original")], "pay")[0]["cost"] == [{"item": "cave"}]


def test_penurious_red_wyrm_gains_one_per_aggressive_dragon_here_and_caches_at_most_two():
    (gain,) = _effect_nodes(BY_KEY[(111, "original")], "gain")
    assert gain["count"] == {"what": "dragons", "scope": "cave", "trait": "aggressive"}
    (cache,) = _effect_nodes(BY_KEY[(111, "original")], "cache")
    assert (cache["count"], cache["up_to"], cache["on"]) == (2, True, {"scope": "here"})


def test_antediluvian_basilisk_tucks_one_card_per_guild_marker():
    (tuck,) = _effect_nodes(BY_KEY[(117, "original")], "tuck")
    assert tuck["count"] == {"what": "guild_markers"}
    assert (tuck["from"], tuck["on"]) == ("deck", {"scope": "here"})


def test_steadfast_southern_drake_gives_its_owner_all_three_and_each_opponent_one_for_an_egg():
    (ability,) = BY_KEY[(174, "original")]["abilities"]
    assert ability["effect"]["cost"] == ability["others"]["cost"] == [{"item": "egg"}]
    owner_items = {step["item"] for step in ability["effect"]["buys"]["steps"]}
    opponent_items = {option["item"] for option in ability["others"]["buys"]["options"]}
    assert owner_items == opponent_items == {"any_resource", "cave", "dragon"}
    assert ability["others"]["buys"].get("pick", 1) == 1


def test_brindled_frogmouth_opponents_gain_the_resource_the_owner_chose():
    (ability,) = BY_KEY[(156, "original")]["abilities"]
    assert ability["effect"]["same"] is True and ability["effect"]["count"] == 2
    assert ability["others"]["item"] == {"var": ability["effect"]["as"]}


@pytest.mark.parametrize("number,counter", [
    (97, {"what": "dragons", "kind": "if_activated"}),
    (101, {"what": "dragons", "kind": "end_game"}),
    (106, {"what": "dragons", "scope": "cave", "trait": "aggressive", "other": True}),
    (112, {"what": "dragons", "scope": "adjacent"}),
    (129, {"what": "dragons", "scope": "adjacent", "trait": "playful"}),
    (131, {"what": "size_sets"}),
    (179, {"what": "eggs", "include_mat_nests": True, "div": 2}),
    (183, {"what": "dragons", "trait": "helpful"}),
])
def test_end_game_counts_what_the_card_counts(number, counter):
    (score,) = _effect_nodes(BY_KEY[(number, "original")], "score")
    assert score["per"] == counter


@pytest.mark.parametrize("number,full", [
    (98, {"at_least": [{"what": "dragons", "scope": "cave"}, 4]}),
    (135, {"at_least": [{"what": "dragons", "scope": "column"}, 3]}),
    (107, {"at_least": [{"what": "dragons", "scope": "cave"}, 3]}),
    (164, {"at_least": [{"what": "dragons", "scope": "cave"}, 3]}),
    (175, {"at_least": [{"what": "guild_markers"}, 1]}),
])
def test_conditions_test_the_threshold_the_card_prints(number, full):
    rec = BY_KEY[(number, "original")]
    conds = [node.get("if") or node.get("cond") for word in ("score", "if") for node in _effect_nodes(rec, word)]
    assert full in conds
