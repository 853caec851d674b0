"""Excavate, entice, the exchange, and the end of a turn."""
import pytest

from game.engine.decisions import IllegalDecision, MalformedDecision, Option

from .helpers import cave, choose, dragon, make_catalogue, position, seat

COSTLY = dragon(1, "Costly", cost={"meat": 1, "gold": 1, "egg": 1}, habitats=["golden_grotto"],
                abilities=[{"kind": "when_played", "effect": {"do": "gain", "item": "crystal"}}])
CHEAP = dragon(2, "Cheap", cost={"coin": 1}, habitats=["crimson_cavern"])
ASKER = dragon(3, "Asker", abilities=[{"kind": "if_activated", "effect": {"do": "gain", "item": "meat"}}])
GIFT_CAVE = cave(1, [{"kind": "when_played", "effect": {"do": "gain", "item": "milk"},
                      "others": {"do": "gain", "item": "meat"}}])
CAT = make_catalogue([COSTLY, CHEAP, ASKER], [GIFT_CAVE])


def game(*seats):
    """Three players with 5 coins and nothing else, seat 0 to move; each of `seats` a player's things (see `seat`)."""
    seats = list(seats) + [{}] * (3 - len(seats))
    return position(CAT, [seat(CAT, **dict({"coins": 5}, **s)) for s in seats])


@pytest.fixture
def st():
    return game()


def test_excavate_fills_the_leftmost_empty_space_and_costs_a_coin():
    st = game({"caves": [3]})
    pl = st.players[0]
    choose(st, "excavate", 3, 1)
    assert pl.spaces[5].cave_card == 3 and pl.coins == 4 and pl.caves == []


def test_excavating_column_3_and_4_costs_one_and_two_eggs():
    st = game({"mat": {0: {"dragon": 1, "eggs": 1}, 1: {"cave_card": 4}}, "caves": [3, 5], "nest": 2})
    pl = st.players[0]
    choose(st, "excavate", 3, 0)
    assert st.pending.kind == "pay" and st.pending.data["item"] == "egg"  # two places hold eggs: the player picks
    choose(st, "pay", "egg", 0)
    assert pl.spaces[2].cave_card == 3 and pl.eggs() == 2
    st.put_to_move(0)
    choose(st, "excavate", 5, 0)  # column 4: two eggs; only the mat's nests hold eggs, so no question is asked
    assert pl.spaces[3].cave_card == 5 and pl.eggs() == 0


def test_excavate_needs_the_eggs_of_its_column():
    st = game({"mat": {1: {"cave_card": 4}}, "caves": [3]})
    assert Option("excavate", (3, 0)) not in st.legal_options()
    with pytest.raises(IllegalDecision, match="egg"):
        choose(st, "excavate", 3, 0)


def test_column_4_offers_three_items_for_a_coin():
    st = game({"mat": {1: {"cave_card": 11}, 2: {"cave_card": 12}}, "caves": [3], "nest": 2, "res": [3, 0, 0, 0]})
    pl = st.players[0]
    choose(st, "excavate", 3, 0)
    # the eggs come from the only place holding them, without a question
    assert st.pending.kind == "use_ability" and st.pending.data["effect"] == st.cat.column_4_effect
    choose(st, "yes")  # of the four ways to pay 3 items only "3 resources" is possible: no more questions
    assert pl.res == [0, 0, 0, 0] and pl.coins == 5


def test_cave_card_benefit_goes_to_owner_then_each_opponent_clockwise():
    st = game({"caves": [0]})
    choose(st, "excavate", 0, 2)
    choose(st, "no")  # the owner declines the milk...
    assert st.pending.player == 1
    choose(st, "yes")  # ...the opponents may still take their meat
    assert st.pending.player == 2
    choose(st, "no")
    assert [p.res for p in st.players] == [[0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]]


def test_entice_pays_coin_and_printed_cost_and_fires_when_played():
    st = game({"hand": [0], "res": [1, 1, 0, 0], "nest": 1})
    pl = st.players[0]
    choose(st, "entice", 0, 1)
    choose(st, "yes")
    assert pl.spaces[4].dragon == 0 and pl.coins == 4 and pl.res == [0, 0, 1, 0] and pl.nest == 0


def test_entice_rejects_a_cave_the_dragon_does_not_live_in():
    st = game({"hand": [0], "res": [1, 1, 0, 0], "nest": 1})
    before = st.to_json()
    with pytest.raises(IllegalDecision, match="does not live in the Crimson Cavern"):
        choose(st, "entice", 0, 0)
    assert st.to_json() == before


def test_entice_rejects_an_unaffordable_dragon():
    st = game({"hand": [0]})
    with pytest.raises(IllegalDecision, match="cannot pay"):
        choose(st, "entice", 0, 1)


def test_entice_goes_to_the_leftmost_excavated_empty_space_only():
    st = game({"hand": [1], "mat": {0: 30}})
    assert Option("entice", (1, 0)) not in st.legal_options()  # space 2 of the Crimson Cavern is not excavated
    st = game({"hand": [1], "mat": {0: 30, 1: {"cave_card": 7}}})
    pl = st.players[0]
    choose(st, "entice", 1, 0)
    assert pl.spaces[1].dragon == 1 and pl.coins == 3  # 1 coin to entice + 1 printed coin


def test_a_mat_holds_at_most_twelve_dragons():
    st = game({"mat": {i: 20 + i for i in range(12)}, "hand": [1]})
    assert not any(o.kind == "entice" for o in st.legal_options())


def test_exchange_two_resources_for_one_of_another_kind():
    st = game({"res": [2, 0, 0, 0]})
    pl = st.players[0]
    kinds = {o.args for o in st.legal_options() if o.kind == "exchange"}
    assert kinds == {("meat", "meat", "gold"), ("meat", "meat", "crystal"), ("meat", "meat", "milk")}
    choose(st, "exchange", "meat", "meat", "milk")
    assert pl.res == [0, 0, 0, 1] and st.current == 0  # an exchange is not a turn


def test_end_of_turn_discards_down_to_nine_cards_coins_and_resources():
    st = game({"coins": 12, "res": [5, 6, 0, 0], "hand": list(range(5, 15))})
    pl = st.players[0]
    choose(st, "pass")
    assert st.pending.kind == "discard_cards"
    choose(st, "discard", "dragon", 5)
    for _ in range(2):
        choose(st, "discard", "gold")
    assert pl.card_count() == 9 and sum(pl.res) == 9 and pl.coins == 9 and st.current == 1


def test_display_refills_at_end_of_turn_only():
    st = game({"mat": {4: 2}})  # an if-activated dragon first in the Golden Grotto keeps the turn going
    pl = st.players[0]
    choose(st, "explore", 1)
    taken = st.display_dragons[0]
    choose(st, "take", "display", 0)
    assert st.display_dragons[0] is None and taken in pl.hand  # still this turn: the slot stays empty
    choose(st, "no")
    while st.pending.player == 0:
        st.apply(st.legal_options()[0])
    assert all(card is not None for card in st.display_dragons) and st.current == 1


def test_passed_player_takes_no_more_turns_this_round():
    st = game({}, {}, {"coins": 2})
    choose(st, "pass")
    assert st.current == 1
    choose(st, "pass")
    assert st.current == 2
    choose(st, "explore", 0)
    choose(st, "resource", "meat")
    assert st.current == 2  # the others passed: player 3 plays on alone
    choose(st, "explore", 1)
    choose(st, "take", "deck")
    assert st.round == 2 and st.current == 1  # with no coin left, passing was player 3's only choice


def test_malformed_decisions_are_a_different_error(st):
    for bad in ({"kind": 3}, {"args": []}, {"kind": "pass", "args": [1.5]}, {"kind": "pass", "args": "x"}, "pass"):
        with pytest.raises(MalformedDecision):
            st.apply(bad)
    with pytest.raises(IllegalDecision, match="not one of the choices"):
        st.apply({"kind": "cache", "args": ["meat", 0]})
    assert isinstance(MalformedDecision("x"), ValueError) and isinstance(IllegalDecision("x"), ValueError)


def test_column_4_and_the_cave_card_resolve_in_the_order_the_player_picks():
    # cave card 0's when-played: gain a milk (and a meat for each opponent)
    st = game({"mat": {1: {"cave_card": 11}, 2: {"cave_card": 12}}, "caves": [0], "nest": 2, "res": [2, 0, 0, 0]})
    pl = st.players[0]
    choose(st, "excavate", 0, 0)
    assert st.legal_options() == [Option("first", ("cave_card",)), Option("first", ("column_4",))]
    choose(st, "first", "cave_card")
    choose(st, "yes")  # gain the milk first ...
    choose(st, "no")
    choose(st, "no")
    choose(st, "yes")  # ... so the 4th column can take 3 resources: 2 meat and that milk
    choose(st, "pay", "milk")  # then only meat is left: no more questions
    assert pl.res == [0, 0, 0, 0] and pl.coins == 5


def test_a_passed_player_still_takes_a_share_of_others_abilities():
    st = game({}, {}, {"caves": [0]})
    choose(st, "pass")  # player 1 passes
    choose(st, "pass")  # player 2 passes
    choose(st, "excavate", 0, 0)
    choose(st, "yes")
    assert st.pending.player == 0 and st.players[0].passed  # asked although passed
    choose(st, "yes")
    choose(st, "yes")
    assert [p.res for p in st.players] == [[1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1]]
