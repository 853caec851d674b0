"""Game-end scoring: every category, fledglings, the tiebreak, and scoring a mat without playing."""
from game.engine.model import Player
from game.engine.scorepad import score_mat
from game.engine.scoring import final_result, rank

from .helpers import dragon, make_catalogue, position, seat

PER_MEDIUM = dragon(1, "Counter", size="medium", vp=4, abilities=[
    {"kind": "end_game", "effect": {"do": "score", "vp": 3, "per": {"what": "dragons", "size": "medium"}, "max": 12}}])
MEDIUM = dragon(2, "Medium", size="medium", vp=2)
FLEDGLING = dragon(3, "Youngster", size="fledgling", vp=0, training=["milk"])
PAY_TO_SCORE = dragon(4, "Collector", vp=1, abilities=[
    {"kind": "end_game", "effect": {"do": "pay", "cost": [{"item": "card"}], "buys": {"do": "score", "vp": 5}}}])
CAT = make_catalogue([PER_MEDIUM, MEDIUM, FLEDGLING, PAY_TO_SCORE])


def mat(**spaces):
    pl = Player(0)
    for index, dragon_index in spaces.items():
        pl.spaces[int(index[1:])].dragon = dragon_index
        if int(index[1:]) % 4:
            pl.spaces[int(index[1:])].cave_card = 0
    return pl


def test_breakdown_counts_every_category():
    pl = mat(s0=0, s4=1, s8=1)
    pl.spaces[0].eggs = 2
    pl.nest = 1
    pl.spaces[4].cached = [1, 0, 2, 0]
    pl.spaces[8].tucked = [10, 11]
    pl.coins = 3
    pl.res = [2, 1, 0, 0]
    pl.hand = [12, 13]
    pl.caves = [5]
    pl.markers = [[-1, 0], [-1, 2]]
    score = score_mat(CAT, pl, objective_places=[1, 2, 0, 3])
    assert score == {"guild": 6 + 1, "dragons": 4 + 2 + 2, "abilities": 9, "eggs": 3, "cached": 3, "tucked": 2,
                     "objectives": 4 + 2 + 0 + 3, "coins": 3, "items": 1, "total": 45}


def test_fledglings_score_n_each_for_n_fledglings_trained_or_not():
    pl = mat(s0=2, s4=2, s8=2)
    pl.spaces[0].tokens = 1
    assert score_mat(CAT, pl)["dragons"] == 9


def test_end_game_choice_taken_from_the_calculator_input():
    pl = mat(s0=3)
    pl.hand = [12]
    assert score_mat(CAT, pl)["abilities"] == 0  # without a choice the pay is declined
    assert score_mat(CAT, pl, choices={3: ["yes"]})["abilities"] == 5
    pl.hand = []
    assert score_mat(CAT, pl, choices={3: ["yes"]})["abilities"] == 0  # nothing to pay with


def test_tiebreak_is_most_visible_dragons_then_shared():
    places, notes = rank([50, 50, 40], [6, 7, 9])
    assert places == [2, 1, 3] and "tiebreak" in notes[0]
    places, notes = rank([50, 50, 40], [7, 7, 9])
    assert places == [1, 1, 3] and "share" in notes[0]


def test_finished_game_reports_places_and_winners():
    st = position(CAT, [seat(CAT, mat={0: 1}), seat(CAT)])  # a 2-VP dragon more; the rest alike
    result = final_result(st)
    assert result["scores"][0]["dragons"] == 2 and result["places"][0] == 1 and result["winners"] == [0]


def test_guild_end_game_row_scores_its_effect_per_marker():
    # two dragons, and a marker on the test tile's END GAME ability row: 2 VP per dragon
    st = position(CAT, [seat(CAT, mat={0: 1, 4: 4}, guild_markers=[[2, 0]]), seat(CAT)])
    while st.pending is not None:
        st.apply(st.legal_options()[0])
    assert st.result["scores"][0]["guild"] == 4


def test_score_mat_scores_the_guild_tile_end_game_row_per_marker():
    from .helpers import PLAIN_TILE
    pl = mat(s0=1, s4=1, s8=1)
    score = score_mat(CAT, pl, guild_markers=[[2, 0], [-1, 1]], guild_tile=PLAIN_TILE)
    assert score["guild"] == 2 * 3 + 3  # 2 VP per dragon on the tile's END GAME row, and the 3 VP square


def test_score_mat_accepts_a_plain_dict_from_user_input():
    score = score_mat(CAT, {"coins": 4, "res": [1, 1, 1, 1], "nest": 2})
    assert score["coins"] == 4 and score["items"] == 1 and score["eggs"] == 2 and score["total"] == 7


PAY_TWO_CARDS = dragon(5, "Card Payer", vp=0, abilities=[
    {"kind": "end_game", "effect": {"do": "pay", "cost": [{"item": "dragon", "count": 2}],
                                    "buys": {"do": "score", "vp": 3}}}])
MISER = dragon(6, "Miser", vp=0, abilities=[
    {"kind": "end_game", "effect": {"do": "if", "cond": {"at_least": [
        {"what": "dragons"}, {"what": "dragons", "of": "left_neighbour"}]}, "then": {"do": "gain", "item": "gold"}}}])
LOWEST = dragon(7, "Lowest", vp=0, abilities=[
    {"kind": "end_game", "effect": {"do": "score", "vp": 2, "per": {"what": "objectives_lowest"}}}])
CAT2 = make_catalogue([PAY_TWO_CARDS, MISER, LOWEST])


def test_score_mat_takes_paid_cards_out_of_the_leftovers():
    pl = Player(0)
    pl.spaces[0].dragon = 0
    pl.hand = [10, 11, 12, 13]
    score = score_mat(CAT2, pl, choices={0: ["yes"]})
    assert score["abilities"] == 3 and score["items"] == 0 and len(pl.hand) == 2


def test_score_mat_adds_an_end_game_gain_to_the_leftovers():
    pl = Player(0)
    pl.spaces[0].dragon = 1
    pl.res = [3, 0, 0, 0]
    neighbour = Player(1)
    assert score_mat(CAT2, pl, neighbour=neighbour)["items"] == 1


def test_score_mat_compares_objective_places_with_every_opponent():
    pl = Player(0)
    pl.spaces[0].dragon = 2
    left, other = Player(1), Player(2)
    left.objectives, other.objectives = [1, 0, 0, 0], [3, 0, 0, 0]
    score = score_mat(CAT2, pl, objective_places=[2, 0, 0, 0], opponents=[left, other])
    assert score["abilities"] == 2 * 3  # lowest (tied) in rounds 2-4 only: the third player was below in round 1
