"""Glicko-2 (game/ratings/glicko2.py) against Glickman's worked example and the method's own properties."""
import math

import pytest

from game.ratings.glicko2 import BASE, START_RD, Rating, expected_score, idle, pairwise, rate_game, update


def test_glickmans_worked_example():
    # "Example of the Glicko-2 system" (Glickman, 2013): a 1500 player (RD 200, σ 0.06) beats a 1400 (RD 30) and
    # loses to a 1550 (RD 100) and a 1700 (RD 300), with τ = 0.5: r' ≈ 1464.06, RD' ≈ 151.52, σ' ≈ 0.05999.
    after = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)],
                   tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_examples_intermediate_quantities():
    # The same example's steps 3 and 4: v ≈ 1.7785 and Δ ≈ −0.4834 on the Glicko-2 scale, visible through the
    # expected scores E ≈ 0.639, 0.432, 0.303 against the three opponents.
    me = Rating(1500, 200, 0.06)
    expected = [expected_score(me, Rating(r, rd)) for r, rd in ((1400, 30), (1550, 100), (1700, 300))]
    assert expected == pytest.approx([0.639, 0.432, 0.303], abs=0.001)


def test_a_period_without_games_only_widens_the_deviation():
    after = idle(Rating(1500, 50, 0.06))
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.rd == pytest.approx(math.sqrt((50 / 173.7178) ** 2 + 0.06 ** 2) * 173.7178)
    assert update(Rating(1500, 50, 0.06), []) == after
    assert idle(Rating(1600, 340, 0.06), periods=100).rd == START_RD  # never wider than a newcomer's


def test_winning_raises_losing_lowers_and_a_tie_against_an_equal_keeps_the_rating():
    me, them = Rating(), Rating()
    assert update(me, [(them, 1)]).rating > BASE > update(me, [(them, 0)]).rating
    assert update(me, [(them, 0.5)]).rating == pytest.approx(BASE)
    assert update(me, [(them, 1)]).rd < START_RD  # a game makes the rating surer


def test_beating_a_stronger_player_gains_more():
    me = Rating(1500, 100)
    assert update(me, [(Rating(1800, 100), 1)]).rating - 1500 > update(me, [(Rating(1200, 100), 1)]).rating - 1500


def test_a_multiplayer_game_is_scored_pairwise_by_place():
    assert pairwise([2, 1, 2]) == [[(1, 0.0), (2, 0.5)], [(0, 1.0), (2, 1.0)], [(0, 0.5), (1, 0.0)]]
    before = [Rating(), Rating(), Rating(), Rating()]
    after = rate_game(before, [1, 2, 3, 4])
    assert after[0].rating > after[1].rating > BASE > after[2].rating > after[3].rating
    assert after[0].rating - BASE == pytest.approx(BASE - after[3].rating)  # symmetric from equal starts
    with pytest.raises(ValueError):
        rate_game([Rating()], [1])
    with pytest.raises(ValueError):
        update(Rating(), [(Rating(), 2)])
