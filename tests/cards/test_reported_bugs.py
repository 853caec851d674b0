"""Bugs the card encoders and this suite found in the engine, each pinned by the card that showed it."""
import pytest

from game.engine.decisions import Option
from game.language.render import render_effect
from game.language.schema import EffectSchemaError, check_counter

from .board import CAT, about, answer, asks_to_use, build, fire, fire_card, space_of, waiting
from .situation import dragon_index

CRIMSON, GOLDEN, AMETHYST = 0, 4, 8


def end_vp(st, seat=0):
    return sum(st.players[seat].end_vp.values())


def test_wandering_protean_dragon_trains_every_adjacent_fledgling():
    st = build(mats={0: {GOLDEN + 1: 232, GOLDEN: 189, GOLDEN + 2: 185}})
    fire_card(st, 0, 232, "when_played")
    answer(st, "yes")
    assert [st.players[0].spaces[space_of(st, 0, n)].tokens for n in (189, 185)] == [1, 1]


def test_penurious_red_wyrm_caches_only_the_resources_it_gained():
    # 111 Penurious Red Wyrm, the only aggressive dragon in its cave: gain 1 resource, then cache up to 2 "of them"
    st = build(mats={0: {CRIMSON: 111}})
    pl = st.players[0]
    fire_card(st, 0, 111, "once_per_round")
    answer(st, "yes")
    answer(st, "resource", "meat")
    answer(st, "yes")  # you may cache them
    answer(st, "cache", "meat", CRIMSON)
    assert not waiting(st), f"offered to cache a resource it did not gain: {st.legal_options()}"
    assert pl.spaces[CRIMSON].cached == [1, 0, 0, 0] and pl.res == [3, 3, 3, 3]


def test_common_grass_lindworm_scores_only_the_milk_cached_on_it():
    st = build(mats={0: {AMETHYST: {"n": 17, "cached": [1, 0, 1, 2]}}})
    fire_card(st, 0, 17, "end_game")
    answer(st, "yes") if waiting(st) else None
    assert end_vp(st) == 2


def test_singeing_remora_scores_only_the_meat_cached_on_it():
    st = build(mats={0: {AMETHYST: {"n": 29, "cached": [2, 1, 0, 1]}}})
    fire_card(st, 0, 29, "end_game")
    answer(st, "yes") if waiting(st) else None
    assert end_vp(st) == 2


def _magicians(row):
    tile = next(t for t in CAT.guild_tiles if t["name"] == "Guild of Magicians")
    return tile["rows"][row]["effect"]


def test_cave_card_swap_fires_the_new_cards_ability_but_not_the_fourth_columns_benefit():
    # the Crimson Cavern dug to its 4th column; cave card 2 in hand
    st = build(mats={0: {CRIMSON: 62}}, more={0: {"excavated": {"crimson_cavern": 4}, "cave_cards": [2]}})
    pl = st.players[0]
    new = next(c.index for c in CAT.caves if c.number == 2 and c.printing == "original")
    assert pl.caves == [new]
    old = pl.spaces[CRIMSON + 3].cave_card
    fire(st, 0, _magicians(1), source="Guild of Magicians")
    answer(st, "yes")
    answer(st, "swap_cave", CRIMSON + 3, new) if waiting(st) and st.legal_options()[0].kind == "swap_cave" else None
    assert pl.spaces[CRIMSON + 3].cave_card == new and pl.caves == [old]
    asked = []
    while waiting(st):
        asked.append((st.pending.kind, about(st)))
        st.apply(Option("no") if Option("no") in st.legal_options() else st.legal_options()[0])
    assert asked and all(kind != "cave_order" and source != "the 4th column's when-covered benefit"
                         for kind, source in asked)
    assert ("use_ability", "cave card 2") in asked


def test_dragon_swap_moves_items_caps_eggs_moves_training_left_to_right_and_fires_when_played():
    # 206 Adroit Salientian Dragon (fledgling: meat, milk; 4 nests) fully trained, 3 eggs, a cached milk, a tucked card,
    # swapped for 187 Sagacious Spitter (fledgling: one gold box, 1 nest): one token moves, one is returned
    st = build(mats={0: {CRIMSON: {"n": 206, "tokens": 2, "eggs": 3, "cached": [0, 0, 0, 1], "tucked": 1}}},
               hands={0: [187]})
    pl = st.players[0]
    fire(st, 0, _magicians(0), source="Guild of Magicians")
    answer(st, "yes")
    if waiting(st) and st.legal_options()[0].kind == "pay":
        answer(st, "pay", "egg", CRIMSON)
    while waiting(st):
        st.apply(st.legal_options()[0])
    space = pl.spaces[CRIMSON]
    assert space.dragon == dragon_index(187) and dragon_index(206) in pl.hand
    assert (space.eggs, space.cached, len(space.tucked), space.tokens) == (1, [0, 0, 0, 1], 1, 1)


def test_dragon_swap_plays_the_new_dragons_when_played_ability():
    st = build(mats={0: {CRIMSON: {"n": 43, "eggs": 1}}}, hands={0: [60]})
    pl = st.players[0]
    fire(st, 0, _magicians(0), source="Guild of Magicians")
    answer(st, "yes")
    while waiting(st) and not asks_to_use(st, "Stealthy Rufftail"):
        st.apply(st.legal_options()[0])
    answer(st, "yes")
    assert pl.spaces[CRIMSON].dragon == dragon_index(60) and pl.res[3] == 5


def test_a_hatchling_swapped_in_does_not_feed_on_what_was_already_there_but_grows_up_on_the_next_feed():
    # 1 White-Bellied Grazer (eats milk; feeding gives a resource) replaces a dragon holding 4 cached milk
    st = build(mats={0: {CRIMSON: {"n": 43, "cached": [0, 0, 0, 4]}}}, hands={0: [1]},
               more={0: {"nest_eggs": 1}})  # the egg the swap costs
    pl = st.players[0]
    fire(st, 0, _magicians(0), source="Guild of Magicians")
    answer(st, "yes")
    asked = []
    while waiting(st):
        asked.append(about(st))
        st.apply(st.legal_options()[0])
    space = pl.spaces[CRIMSON]
    assert space.dragon == dragon_index(1) and space.cached == [0, 0, 0, 4] and not space.grown
    assert "White-Bellied Grazer" not in asked
    fire(st, 0, {"do": "cache", "item": "milk", "on": {"scope": "here"}}, src=dragon_index(1))
    answer(st, "yes")
    while waiting(st):
        st.apply(st.legal_options()[0])
    assert space.grown
    fed = space.fed
    fire(st, 0, {"do": "cache", "item": "milk", "on": {"scope": "here"}}, src=dragon_index(1))
    answer(st, "yes")
    while waiting(st):
        st.apply(st.legal_options()[0])
    assert space.fed == fed + 1 and space.grown


def test_a_cost_is_not_offered_when_what_it_buys_cannot_happen():
    # Guild of Highlands: pay a cave card to cover a dragon; 62 prefers only the Amethyst Abyss, the mat's only
    # dragon is in the Crimson Cavern, so there is nothing to cover and the cave card must stay in hand
    st = build(mats={0: {CRIMSON: 43}}, hands={0: [62]}, more={0: {"cave_cards": 1}})
    pl = st.players[0]
    card = pl.caves[0]
    highlands = next(t for t in CAT.guild_tiles if t["name"] == "Guild of Highlands")
    fire(st, 0, highlands["rows"][1]["effect"], source="Guild of Highlands")
    assert not waiting(st) and pl.caves == [card]


def test_a_cached_counter_names_only_a_resource():
    check_counter({"what": "cached", "scope": "here", "item": "milk"}, "per")
    with pytest.raises(EffectSchemaError, match="per.item: 'gem' is not a resource"):
        check_counter({"what": "cached", "item": "gem"}, "per")
    with pytest.raises(EffectSchemaError, match="only a 'cached' counter names one resource"):
        check_counter({"what": "dragons", "item": "milk"}, "per")


def test_a_one_resource_counter_reads_in_plain_words():
    text = render_effect({"do": "score", "vp": 1, "per": {"what": "cached", "scope": "here", "item": "milk"}})
    assert "milk cached" in text
