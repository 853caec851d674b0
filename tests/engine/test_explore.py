"""Explore: the entrance cost per visit, the walk left to right, and the rulebook's walk-through."""
import pytest

from game.engine.decisions import IllegalDecision, Option
from game.engine.model import NEST

from .helpers import asked_about, choose, dragon, make_catalogue, position, seat

CHAMELEON = dragon(1, "Chameleon", abilities=[{"kind": "end_game", "effect": {"do": "score", "vp": 1}}])
HOARDER = dragon(2, "Hoarding Flyer", abilities=[{"kind": "if_activated", "effect": {"do": "gain", "item": "gold"}}])
PLAYER = dragon(3, "Eager Player", abilities=[
    {"kind": "if_activated", "effect": {"do": "play_dragon", "from": "hand", "cost": "free"}}])
CHAMELEON_TWIN = dict(CHAMELEON, number=4, name="Second Chameleon")  # a position holds one copy of each card
CAT = make_catalogue([CHAMELEON, HOARDER, PLAYER, CHAMELEON_TWIN])


def table(coins=5, **mine):
    """Two players with `coins` coins and nothing else, seat 0 to move; `mine`: seat 0's things (see `seat`)."""
    return position(CAT, [seat(CAT, coins=coins, **mine), seat(CAT, coins=coins)])


@pytest.fixture
def game():
    return table()


def test_rulebook_walk_through_crimson_cavern():
    """Tess: any resource, past the Chameleon, the guild icon, the Hoarding Flyer, any resource, then a stop sign."""
    st = table(mat={0: 0, 1: 1, 2: {}})  # column 3 excavated but empty: the stop sign
    choose(st, "explore", 0)
    assert st.pending.kind == "gain_resource"  # the first path icon
    choose(st, "resource", "meat")
    # past the Chameleon (no if-activated ability), the guild icon: space 1 of the track lays an egg
    assert st.players[0].guild == 1
    choose(st, "egg_on", NEST)
    assert st.pending.player == 0 and st.legal_options() == [Option("yes"), Option("no")]  # Hoarding Flyer
    choose(st, "yes")
    choose(st, "resource", "crystal")  # the second path icon
    pl = st.players[0]
    assert pl.res == [1, 1, 1, 0]  # meat, gold, crystal
    assert pl.coins == 4 and pl.nest == 1 and pl.explored == [1, 0, 0]
    assert st.current == 1 and st.pending.kind == "main_action"  # stop sign: the turn ended


def test_walk_stops_at_first_space_without_a_dragon(game):
    st = game
    choose(st, "explore", 0)
    choose(st, "resource", "milk")  # the first icon is before space 1, which is empty: the walk ends there
    assert st.players[0].guild == 0
    assert st.current == 1


def test_full_cave_reaches_the_end_ability():
    st = table(mat=dict(enumerate((0, 1, 2, 3))))  # Chameleon, Hoarding Flyer, Eager Player, Chameleon
    choose(st, "explore", 0)
    choose(st, "resource", "meat")
    choose(st, "egg_on", NEST)  # guild icon -> track space 1
    choose(st, "yes")  # Hoarding Flyer: gold
    choose(st, "resource", "meat")
    choose(st, "egg_on", NEST)  # the lay-egg icon
    # the end: up to 2x cache a resource from your supply on any dragon
    assert st.pending.kind == "cache"
    choose(st, "cache", "meat", 0)
    choose(st, "cache", "meat", 1)
    assert st.players[0].spaces[0].cached == [1, 0, 0, 0]
    assert st.current == 1


def test_explore_costs_a_coin_then_eggs_on_later_visits():
    st = table(nest=2)
    pl = st.players[0]
    visits = []
    for expected_eggs in (2, 1, 0):  # eggs left after the 1st, 2nd (+1 egg) and 3rd (+2 eggs) visit
        st.put_to_move(0)
        if expected_eggs == 0:
            assert Option("explore", (0,)) not in st.legal_options()  # 2 eggs needed, 1 left
            break
        choose(st, "explore", 0)
        while st.pending.player == 0:
            st.apply(st.legal_options()[0])
        visits.append((pl.coins, pl.eggs()))
    assert visits == [(4, 2), (3, 1)]


def test_a_fourth_visit_in_a_round_is_refused_with_a_reason():
    st = table(explored={"crimson_cavern": 3})
    before = st.to_json()
    with pytest.raises(IllegalDecision, match="most times"):
        choose(st, "explore", 0)
    assert st.to_json() == before


def test_dragon_played_this_turn_is_not_activated_on_the_walk():
    # Eager Player: if activated, play a dragon from hand for free; the Hoarding Flyer will land on space 2, right
    # where the walk goes next
    st = table(mat={0: 2, 1: {}}, hand=[1])
    choose(st, "explore", 0)
    choose(st, "resource", "gold")
    choose(st, "yes")  # Eager Player's ability
    choose(st, "play", 1, 0)
    # the guild icon follows (lay an egg); then the walk steps onto the Hoarding Flyer, played this turn
    choose(st, "egg_on", NEST)
    assert st.players[0].spaces[1].dragon == 1
    assert st.players[0].res[1] == 1  # only the gold from the first icon; the Flyer stayed quiet
    while st.pending.player == 0:
        assert st.pending.kind != "use_ability" or asked_about(st) != "Hoarding Flyer"
        st.apply(st.legal_options()[0])


def test_dragon_played_at_round_end_can_be_activated_next_round():
    st = table(coins=0, mat={0: 1}, played_this_turn=[CAT.dragons[1].number])  # both pass; round 2 begins
    assert st.round == 2 and st.players[0].fresh == []
