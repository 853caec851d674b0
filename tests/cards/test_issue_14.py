"""Issue 14: rules the engine got wrong, each pinned by a real card on an exact mat."""
from game.engine.decisions import Option

from .board import CAT, answer, asks_to_use, build, fire, fire_card
from .situation import caves_by_number, dragon_index

CRIMSON, GOLDEN, AMETHYST = 0, 4, 8


def test_a_fledgling_played_this_turn_is_still_offered_training_when_walked_over():
    # 206: two boxes, meat then milk; played this turn, as if by an earlier ability of the turn
    st = build(mats={0: {CRIMSON: 206}}, more={0: {"played_this_turn": [206]}})
    pl = st.players[0]
    answer(st, "explore", 0)
    answer(st, "resource", "meat")  # the path's first icon
    assert st.pending.kind == "use_ability" and st.pending.data["effect"]["do"] == "train"
    answer(st, "yes")
    assert pl.spaces[CRIMSON].tokens == 1


def _cave_ability(number):
    return CAT.caves[caves_by_number()[(number, "original")]].abilities[0]["effect"]


def test_a_hatchling_caching_milk_it_lacks_offers_the_exchange_first():
    # 1 White-Bellied Grazer: cache 1 milk from your supply here
    st = build(mats={0: {GOLDEN: 1}}, more={0: {"resources": {"gold": 2}}})
    pl = st.players[0]
    fire_card(st, 0, 1, "if_activated")
    assert asks_to_use(st, "White-Bellied Grazer"), "skipped as if it could do nothing"
    answer(st, "yes")  # the only way is 2 gold for the milk, then caching it: both taken at once
    assert pl.spaces[GOLDEN].cached == [0, 0, 0, 1] and pl.res == [0, 0, 0, 0]
    assert pl.spaces[GOLDEN].fed == 1  # fed once: its cave card is offered next
    assert asks_to_use(st, "White-Bellied Grazer") and st.pending.data["ability"] == "on_feed"
    assert st.pending.data["effect"] == {"do": "gain", "item": "cave"}


def test_a_cache_offers_the_exchange_beside_what_the_player_holds():
    st = build(mats={0: {GOLDEN: 1}}, more={0: {"resources": {"meat": 1, "gold": 1}}})
    pl = st.players[0]
    fire(st, 0, {"do": "cache", "item": ["meat", "milk"], "on": {"scope": "mat"}})
    answer(st, "yes")
    assert st.legal_options() == [Option("cache", ("meat", GOLDEN)), Option("exchange", ("meat", "gold", "milk"))]
    answer(st, "exchange", "meat", "gold", "milk")  # then the milk is the only thing left to cache
    assert pl.res == [0, 0, 0, 0] and pl.spaces[GOLDEN].cached == [0, 0, 0, 1]


def test_galvanic_wyrm_plays_a_dragon_whose_meat_the_player_makes_by_exchange():
    st = build(mats={0: {CRIMSON: {"n": 198, "tokens": 2}}}, hands={0: [107]},  # 107: 2 meat
               more={0: {"excavated": {"crimson_cavern": 2}, "resources": {"meat": 1, "gold": 2}}})
    pl = st.players[0]
    fire_card(st, 0, 198, "once_per_round")
    assert asks_to_use(st, "Galvanic Wyrm"), "skipped as if it could do nothing"
    answer(st, "yes")  # one dragon, one cave, one exchange (2 gold for a meat): no question left
    assert pl.spaces[CRIMSON + 1].dragon == dragon_index(107)
    assert pl.res == [0, 0, 0, 0] and pl.hand == []


def test_a_discount_never_takes_off_a_coin_and_may_waive_an_egg_the_player_lacks():
    # 1: 1 milk and 1 egg (Golden Grotto); 81: 1 meat and 1 coin (Crimson)
    st = build(hands={0: [1, 81]}, more={0: {"resources": {"meat": 1, "milk": 1}, "coins": 1, "nest_eggs": 0}})
    pl = st.players[0]
    fire(st, 0, _cave_ability(52))
    answer(st, "yes")
    grazer, stoic = dragon_index(1), dragon_index(81)
    # without the milk the grazer would still need an egg the player lacks; no option takes off 81's coin
    assert st.legal_options() == [Option("play", (grazer, 1, "egg")), Option("play", (stoic, 0, "meat"))]
    answer(st, "play", grazer, 1, "egg")
    assert pl.spaces[GOLDEN].dragon == grazer and pl.res == [1, 0, 0, 0] and pl.coins == 1


def test_a_discount_plays_the_dragon_for_its_printed_cost_less_one_not_the_entice_coin():
    st = build(hands={0: [81]}, more={0: {"resources": {}, "coins": 1}})
    pl = st.players[0]
    fire(st, 0, _cave_ability(53))
    answer(st, "yes")
    assert pl.spaces[CRIMSON].dragon == dragon_index(81) and pl.coins == 0  # the meat waived, its own coin paid
