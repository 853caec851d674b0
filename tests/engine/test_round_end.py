"""Round end in the rulebook's order: once-per-round abilities, the objective, then the next round's upkeep."""
import pytest

from game.engine.decisions import Option
from game.engine.scoring import objective_places

from .helpers import asked_about, choose, dragon, make_catalogue, position, seat

MEAT = dragon(1, "Meat Giver", abilities=[{"kind": "once_per_round", "effect": {"do": "gain", "item": "meat"}}])
GOLD = dragon(2, "Gold Giver", abilities=[{"kind": "once_per_round", "effect": {"do": "gain", "item": "gold"}}])
MILK = dragon(3, "Milk Giver", abilities=[{"kind": "once_per_round", "effect": {"do": "gain", "item": "milk"}}])


CAT = make_catalogue([MEAT, GOLD, MILK])


def coinless(mats=({}, {}), **partial):
    """Two players without a coin or anything else, so both pass at once and round 1 ends; `mats` by space index."""
    return position(CAT, [seat(CAT, coins=0, mat=mat) for mat in mats], **partial)


@pytest.fixture
def st():
    return coinless()


def test_once_per_round_in_turn_order_and_a_player_orders_their_own():
    st = coinless(({0: 0, 4: 1}, {0: 2}), start_player=1)  # nobody has a coin: both pass, and the round ends
    assert st.pending.player == 1 and asked_about(st) == "Milk Giver"  # the start player goes first
    choose(st, "yes")
    assert st.pending.player == 0 and st.legal_options() == [Option("next_ability", (0,)),
                                                              Option("next_ability", (1,))]
    choose(st, "next_ability", 1)
    assert asked_about(st) == "Gold Giver"
    choose(st, "yes")
    assert asked_about(st) == "Meat Giver"
    choose(st, "no")
    assert st.players[0].res == [0, 1, 0, 0] and st.players[1].res == [0, 0, 0, 1]


def test_objective_ties_are_friendly_and_zero_is_all_others():
    assert objective_places([3, 3, 1, 0]) == [1, 1, 2, 0]
    assert objective_places([5, 4, 4, 2, 1]) == [1, 2, 2, 3, 0]  # 4th distinct value: all others
    assert objective_places([0, 0]) == [0, 0]


def test_objective_scored_at_round_end_with_round_vp():
    st = coinless(({0: 20, 4: 21}, {0: 22}))
    while st.round == 1:
        st.apply(st.legal_options()[0])
    assert [p.objectives for p in st.players] == [[1], [2]]


def test_next_round_gives_six_coins_and_an_egg_refreshes_display_and_rotates_start():
    display = [20, 21, 22]  # round 1's display
    st = coinless(display={"dragons": [CAT.dragons[d].number for d in display]})
    assert st.round == 2 and st.start == 1 and st.current == 1
    assert [p.coins for p in st.players] == [6, 6] and [p.nest for p in st.players] == [1, 1]
    assert not set(display) & set(st.display_dragons) and set(display) <= set(st.dragon_discard)


def test_after_four_rounds_the_game_ends_with_a_result(st):
    while st.pending is not None:
        st.apply(Option("pass") if Option("pass") in st.legal_options() else st.legal_options()[0])
    assert st.finished and st.round == 4
    assert [len(p.objectives) for p in st.players] == [4, 4]
    assert set(st.result["scores"][0]) >= {"guild", "dragons", "abilities", "eggs", "cached", "tucked",
                                           "objectives", "coins", "items", "total"}


def test_rulebook_friendly_tie_example_round_worth_6_then_3():
    from game.engine.scoring import objective_vp

    from .helpers import real_catalogue
    cat = real_catalogue()
    places = objective_places([4, 4, 2])  # two tie for 1st on the round-3 objective, one is next
    assert places == [1, 1, 2]
    assert [objective_vp(cat, [0, 0, place]) for place in places] == [6, 6, 3]
