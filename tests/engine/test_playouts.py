"""Seeded random games at 2-5 players, with and without Dragon Academy: no error, invariants after every step."""
import pytest

from game.engine.agents import play_out
from game.engine.state import GameState

from . import invariants
from .helpers import real_catalogue


def play(seed, players, academy, weighted=True, roundtrip=True):
    st = GameState.new(real_catalogue(), players=players, seed=seed, academy=academy)
    memo = {"roundtrip": roundtrip}
    invariants.check(st, memo)
    play_out(st, seed=seed, weighted=weighted, on_step=lambda s: invariants.check(s, memo))
    assert st.finished and st.result["winners"]
    return st


@pytest.mark.parametrize("seed", range(40))
def test_random_game_finishes_with_invariants_intact(seed):
    play(seed, players=2 + seed % 4, academy=seed % 2 == 1, weighted=seed % 5 != 0, roundtrip=seed % 3 != 1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1400))
def test_many_random_games(seed):
    play(seed, players=2 + seed % 4, academy=seed % 3 != 0, weighted=seed % 2 == 0, roundtrip=seed % 10 == 0)


def test_same_seed_and_decisions_reproduce_the_game_exactly():
    st = play(7, players=3, academy=True, roundtrip=False)
    again = GameState.replay(real_catalogue(), st.options, st.log)
    assert again.to_json() == st.to_json()


def test_different_seeds_deal_differently():
    a = GameState.new(real_catalogue(), players=2, seed=1)
    b = GameState.new(real_catalogue(), players=2, seed=2)
    assert a.dragon_deck != b.dragon_deck
