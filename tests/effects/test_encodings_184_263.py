"""The Dragon Academy dragons (184-263) are encoded in full, with the kinds and meanings their cards print."""
import json
from pathlib import Path

import pytest

from game.language.schema import check_cond, validate_abilities

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "dragons-184-263.json"

REFERENCE_KINDS = {
    "Adventurer": "if_activated",
    "WhenPlayed": "when_played",
    "OncePerRound": "once_per_round",
    "EndGame": "end_game",
}
# The transcription prints these fledglings' purple abilities as when-played; the rulebook says a fledgling's
# purple ability is if-activated, once-per-round or end-game, and both sit in the if-activated run (184-195).
KIND_CORRECTIONS = {186: "if_activated", 187: "if_activated"}
PRINTED_KINDS = {"when_played", "if_activated", "once_per_round", "end_game"}


def load_cards():
    with open(FIXTURE, encoding="utf-8") as f:
        return {card["number"]: card for card in json.load(f)["dragons"]}


CARDS = load_cards()


def walk(node):
    """Every dict inside an effect tree, depth first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def words(card):
    return {node["do"] for node in walk(card["abilities"]) if "do" in node}


def nodes(card, word):
    return [node for node in walk(card["abilities"]) if node.get("do") == word]


def ability(card, kind):
    (found,) = [a for a in card["abilities"] if a["kind"] == kind]
    return found


@pytest.fixture(scope="module")
def reference(shared_data):
    with open(shared_data / "with-academy" / "cards.json", encoding="utf-8") as f:
        return {c["number"]: c for c in json.load(f) if c["type"] == "Dragon" and c["expansion"] == "academy"}


def test_fixture_holds_the_80_academy_dragons_once_each():
    with open(FIXTURE, encoding="utf-8") as f:
        numbers = [card["number"] for card in json.load(f)["dragons"]]
    assert numbers == list(range(184, 264))


@pytest.mark.parametrize("number", sorted(CARDS))
def test_every_card_has_abilities_that_validate(number):
    abilities = CARDS[number]["abilities"]
    assert abilities, f"dragon {number} has no abilities"
    validate_abilities(abilities, f"dragon {number}")


@pytest.mark.parametrize("number", sorted(CARDS))
def test_printed_kind_matches_the_reference(reference, number):
    expected = KIND_CORRECTIONS.get(number, REFERENCE_KINDS[reference[number]["abilityType"]])
    printed = {a["kind"] for a in CARDS[number]["abilities"] if a["kind"] in PRINTED_KINDS}
    assert printed == {expected}


def test_conditional_cost_dragons_are_exactly_the_reference_starred_ones(reference):
    starred = {n for n, c in reference.items() if c["ignoreCost"]}
    assert {n for n, card in CARDS.items() if "free_if" in card} == starred
    for number in starred:
        check_cond(CARDS[number]["free_if"], f"dragon {number}.free_if")


def test_fledgling_purple_abilities_use_only_the_rulebook_kinds():
    fledglings = [card for card in CARDS.values() if card["size"] == "fledgling"]
    assert len(fledglings) == 40
    for card in fledglings:
        assert card["training"], card["number"]
        assert [a["kind"] for a in card["abilities"]] in (["if_activated"], ["once_per_round"], ["end_game"])


@pytest.mark.parametrize("number", range(224, 229))
def test_hatchlings_feed_on_their_food_and_grow_up_once(number):
    card = CARDS[number]
    assert [a["kind"] for a in card["abilities"]] == ["if_activated", "on_feed", "on_grow_up"]
    assert card["capacity"] == 0  # the transcription's nest of 1 is a slip: hatchlings have no nest
    feed = ability(card, "if_activated")["effect"]
    if card["feeds_on"] == "card":
        assert feed == {"do": "tuck", "from": "hand", "on": {"scope": "here"}}
    else:
        assert feed == {"do": "cache", "item": card["feeds_on"], "from": "supply", "on": {"scope": "here"}}


# number -> every word the card's abilities use
WORDS = {
    186: {"gain", "may", "choose", "tuck"},
    193: {"choose", "tuck", "gain"},
    195: {"gain", "distribute"},
    197: {"choose", "lay_egg", "excavate"},
    204: {"seq", "gain", "may", "cache", "tuck"},
    207: {"choose", "lay_egg"},
    226: {"tuck", "choose", "gain"},
    230: {"pay", "activate"},
    237: {"choose", "train", "lay_egg"},
    242: {"pay", "train", "gain"},
    245: {"reveal", "tuck", "lay_egg"},
    246: {"pay", "gain", "distribute"},
    247: {"gain", "distribute"},
    248: {"pay", "gain", "distribute"},
    254: {"train", "lay_egg"},
    257: {"reveal", "seq", "gain", "lay_egg", "tuck"},
    258: {"train", "choose", "gain", "lay_egg"},
    260: {"seq", "if", "gain"},
}


@pytest.mark.parametrize("number, expected", sorted(WORDS.items()))
def test_card_uses_the_words_its_text_needs(number, expected):
    assert words(CARDS[number]) == expected


# number -> (VP per unit, what is counted, cap): the end-game dragons' scoring
END_GAME = {
    209: (2, {"what": "cached", "scope": "here"}, 12),
    210: (2, {"what": "tucked", "scope": "here"}, 12),
    211: (1, {"what": "eggs", "scope": "column"}, None),
    212: (1, {"what": "eggs", "scope": "row"}, None),
    213: (3, {"what": "dragons", "cost_has": "meat"}, 15),
    214: (2, {"what": "dragons", "trait": "aggressive"}, None),
    217: (2, {"what": "dragons", "trait": "shy"}, None),
    218: (3, {"what": "dragons", "cost_has": "egg"}, 15),
    219: (4, {"what": "dragons", "cost_has": "milk"}, 16),
    220: (3, {"what": "dragons", "size": "fledgling"}, None),
    221: (3, {"what": "dragons", "scope": "adjacent", "size": ["small", "medium", "large"]}, None),
    250: (1, {"what": "training_tokens"}, None),
    263: (3, {"what": "dragons", "cost_has": "coin"}, 15),
}


@pytest.mark.parametrize("number, expected", sorted(END_GAME.items()))
def test_end_game_dragon_scores_per_the_right_thing(number, expected):
    vp, per, cap = expected
    (scoring,) = nodes(CARDS[number], "score")
    assert (scoring["vp"], scoring["per"], scoring.get("max")) == (vp, per, cap)


def test_pegasus_scores_8_only_with_two_hatchlings():
    (scoring,) = nodes(CARDS[235], "score")
    assert scoring == {"do": "score", "vp": 8,
                       "cond": {"at_least": [{"what": "dragons", "size": "hatchling"}, 2]}}


# number -> (eggs per step, where): egg-laying counts
EGGS = {
    189: (2, {"scope": "here"}),
    190: (2, {"scope": "cave"}),
    205: (3, {"scope": "here"}),
    206: (2, None),
    255: (1, {"scope": "mat", "size": "fledgling", "each": True}),
    261: (2, {"scope": "cave", "trait": "playful", "each": True}),
}


@pytest.mark.parametrize("number, expected", sorted(EGGS.items()))
def test_eggs_are_laid_in_the_right_number_and_place(number, expected):
    (lay,) = nodes(CARDS[number], "lay_egg")
    assert (lay.get("count", 1), lay.get("on")) == expected


@pytest.mark.parametrize("number, times, full", [
    (191, 2, False), (225, 1, False), (227, 1, False), (228, 1, False), (231, 1, True), (233, 2, False),
    (240, 1, False), (253, 2, False), (254, 1, True), (259, 2, False),
])
def test_training_abilities_are_free_and_train_the_printed_number_of_times(number, times, full):
    (train,) = nodes(CARDS[number], "train")
    assert train["free"] is True
    assert (train.get("count", 1), train.get("full", False)) == (times, full)
    assert train.get("up_to", False) == (times > 1)


@pytest.mark.parametrize("number, cond", [
    (229, {"at_least": [{"what": "dragons", "scope": "cave"}, 3]}),
    (233, {"at_least": [{"what": "dragons", "scope": "adjacent", "size": "fledgling"}, 1]}),
    (236, {"at_least": [{"what": "dragons", "size": "hatchling"}, 2]}),
    (240, {"at_least": [{"what": "dragons", "size": "fledgling"}, 2]}),
    (249, {"at_least": [{"what": "dragons", "trait": "aggressive", "other": True}, 2]}),
    (252, {"at_least": [{"what": "dragons", "trait": "helpful", "other": True}, 2]}),
    (260, {"any": [{"at_least": [{"what": "dragons", "scope": "column"}, 3]},
                   {"at_least": [{"what": "dragons", "scope": "cave"}, 4]}]}),
])
def test_conditional_cost_reads_as_printed(number, cond):
    assert CARDS[number]["free_if"] == cond


def test_euphonious_fae_grows_up_by_tucking_two_dragon_cards_from_the_deck():
    # the transcription says "2 coins from the deck"; coins have no deck, so the bonus is two dragon cards
    grow_up = ability(CARDS[226], "on_grow_up")["effect"]
    assert grow_up == {"do": "tuck", "count": 2, "from": "deck", "on": {"scope": "mat"}}


def test_only_charitable_licheneater_and_plumed_coatl_share_with_opponents():
    sharing = {n for n, card in CARDS.items() if any("others" in a for a in card["abilities"])}
    assert sharing == {229, 236}
    assert ability(CARDS[236], "when_played")["others"] == {"do": "gain", "item": "milk"}


@pytest.mark.parametrize("number, tucked, drawn, rest", [
    (195, 2, 2, "keep"), (244, 3, 3, "keep"), (246, 4, 5, "keep"),
])
def test_draw_then_tuck_keeps_the_cards_not_tucked(number, tucked, drawn, rest):
    (gain,) = [n for n in nodes(CARDS[number], "gain") if n["item"] == "dragon"]
    (dist,) = nodes(CARDS[number], "distribute")
    assert (gain["count"], gain["from"]) == (drawn, "deck")
    assert dist["to"][0]["place"] == "tuck" and dist["to"][0]["count"] == tucked
    assert dist["rest"] == rest


def test_lively_lung_dragon_plays_one_drawn_card_free_and_discards_the_rest():
    (dist,) = nodes(CARDS[247], "distribute")
    assert dist["to"] == [{"place": "play", "count": 1, "free": True}] and dist["rest"] == "discard"


# --- the engine runs these encodings as the cards read ---------------------------------------------------------

def _engine():
    from tests.engine.helpers import real_catalogue

    cat = real_catalogue()
    return cat, {d.number: i for i, d in enumerate(cat.dragons)}


def _mat(cat, index, placed):
    """A mat dict for score_mat: {space: (number, extra fields)}, fledglings fully trained unless told otherwise."""
    spaces = [[None if i % 4 == 0 else 0, None, 0, [0, 0, 0, 0], [], 0, 0, False] for i in range(12)]
    for space, (number, extra) in placed.items():
        dragon = index[number]
        spaces[space][1] = dragon
        spaces[space][2] = extra.get("eggs", 0)
        spaces[space][3] = list(extra.get("cached", (0, 0, 0, 0)))
        spaces[space][5] = extra.get("tokens", len(cat.dragons[dragon].training))
    return {"spaces": spaces}


# number -> (what else is on the mat, the VP its end-game ability scores); the dragon itself sits on space 0
END_GAME_SCORES = {
    "three meat-cost dragons": (213, {1: 229, 2: 230, 4: 231}, 9),
    "meat-cost dragons past the cap": (213, {1: 229, 2: 230, 4: 231, 5: 239, 6: 241, 8: 242}, 15),
    "one adult and one hatchling adjacent": (221, {1: 229, 4: 224, 8: 231}, 3),
    "two hatchlings": (235, {1: 224, 4: 225}, 8),
    "one hatchling only": (235, {1: 224}, 0),
    "coin-cost dragons, itself included": (263, {1: 235, 2: 240, 4: 229}, 9),
}


@pytest.mark.parametrize("case", sorted(END_GAME_SCORES))
def test_end_game_ability_scores_on_a_real_mat(case):
    from game.engine.scorepad import score_mat

    cat, index = _engine()
    number, others, vp = END_GAME_SCORES[case]
    placed = {0: (number, {})} | {space: (n, {}) for space, n in others.items()}
    assert score_mat(cat, _mat(cat, index, placed))["abilities"] == vp


def test_egg_counting_fledgling_counts_only_its_own_column():
    from game.engine.scorepad import score_mat

    cat, index = _engine()
    placed = {1: (211, {}), 5: (229, {"eggs": 1}), 9: (231, {"eggs": 1}), 0: (230, {"eggs": 1})}
    assert score_mat(cat, _mat(cat, index, placed))["abilities"] == 2


def test_untrained_fledgling_scores_no_end_game_bonus():
    from game.engine.scorepad import score_mat

    cat, index = _engine()
    placed = {0: (213, {"tokens": 3}), 1: (229, {}), 2: (230, {}), 4: (231, {})}
    assert score_mat(cat, _mat(cat, index, placed))["abilities"] == 0


def _explore(st, cave, tuck_on=None):
    """Explore a cave, saying yes to every ability; tucks go to `tuck_on` when given; stop when the turn ends."""
    from tests.engine.helpers import choose

    choose(st, "explore", cave)
    while st.pending is not None and st.pending.kind != "main_action":
        options = st.legal_options()
        picks = [o for o in options if o.kind == "yes"]
        if tuck_on is not None:
            picks += [o for o in options if o.kind == "tuck" and o.args[1] == tuck_on]
        st.apply(picks[0] if picks else options[0])


def test_machiavelli_tucks_up_to_two_hand_cards_under_each_shy_dragon_in_its_cave():
    from tests.engine.helpers import position, seat

    cat, index = _engine()
    # in the Golden Grotto: a shy dragon, a shy fledgling and a helpful one (which gets nothing)
    st = position(cat, [seat(cat, coins=5, hand=[index[n] for n in (184, 185, 186, 187)],
                             mat={4: index[262], 5: index[217], 6: index[229]}), seat(cat, coins=5)], academy=True)
    pl = st.players[0]
    _explore(st, 1)
    assert [len(pl.spaces[i].tucked) for i in (4, 5, 6)] == [2, 2, 0]


def test_euphonious_fae_grows_up_by_tucking_two_cards_from_the_deck_on_the_third_tuck():
    from tests.engine.helpers import position, seat

    cat, index = _engine()
    st = position(cat, [seat(cat, coins=5, hand=[index[184]],
                             mat={0: {"dragon": index[226], "fed": 2, "tucked": [index[100], index[101]]},
                                  1: index[229]}),
                        seat(cat, coins=5)], academy=True)
    pl = st.players[0]
    deck_before = len(st.dragon_deck)
    _explore(st, 0, tuck_on=1)
    assert pl.spaces[0].grown and len(pl.spaces[0].tucked) == 3 and pl.hand == []
    assert len(pl.spaces[1].tucked) == 2 and len(st.dragon_deck) == deck_before - 2
