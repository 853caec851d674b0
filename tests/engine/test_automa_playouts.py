"""Whole solo games against the Automa at every level, base and Dragon Academy: invariants after every step."""
import pytest

from game.engine.agents import play_out
from game.engine.state import GameState
from game.engine.view import view_for

from . import invariants
from .helpers import real_catalogue

LEVELS = [(level, ravel) for ravel in (False, True) for level in (1, 2, 3)]


def play(seed, level, ravel, academy, weighted=True, roundtrip=True):
    st = GameState.new(real_catalogue(), players=1, seed=seed, academy=academy,
                       automa={"level": level, "ravel": ravel})
    memo = {"roundtrip": roundtrip}
    invariants.check(st, memo)
    play_out(st, seed=seed, weighted=weighted, on_step=lambda s: invariants.check(s, memo))
    return st


@pytest.mark.parametrize("level,ravel", LEVELS)
@pytest.mark.parametrize("academy", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_a_solo_game_is_played_to_a_result_with_invariants_intact(seed, level, ravel, academy):
    st = play(seed, level, ravel, academy, weighted=seed != 2, roundtrip=seed == 0)
    result = st.result
    assert st.finished and st.round == 4
    human, automa = result["scores"]
    assert automa["total"] == sum(v for k, v in automa.items() if k != "total") > 0
    assert sorted(result["places"]) == [1, 2]
    assert result["winners"] == ([1] if automa["total"] > human["total"] else [0])
    assert result["automa"]["level"] == level and result["automa"]["ravel"] is ravel
    assert len(st.automa["objectives"]) == 4 and len(st.players[0].objectives) == 4
    view = view_for(st, 0)
    assert view["automa"]["score"] == automa


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 220))
def test_many_solo_games(seed):
    level, ravel = LEVELS[seed % len(LEVELS)]
    play(seed, level, ravel, academy=seed % 4 >= 2, weighted=seed % 3 != 0, roundtrip=seed % 10 == 0)


def test_the_same_seed_and_decisions_reproduce_a_solo_game_exactly():
    st = play(5, 2, True, academy=True, roundtrip=False)
    again = GameState.replay(real_catalogue(), st.options, st.log)
    assert again.to_json() == st.to_json()
    assert again.options["automa"] == {"level": 2, "ravel": True}
