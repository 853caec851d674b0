"""The saved state without the decision log: the same size from the first move to the last, old saves still load."""
import json

import pytest

from game.engine.agents import RandomAgent
from game.engine.decisions import MalformedDecision
from game.engine.state import GameState
from game.engine.view import view_for

from .helpers import real_catalogue


def _played(seed, decisions, players=2):
    st = GameState.new(real_catalogue(), players=players, seed=seed)
    agent = RandomAgent(seed)
    for _ in range(decisions):
        st.apply(agent.choose(st.pending.options))
    return st


def _as_version_1(st):
    """What this engine saved before the log moved out of the state."""
    data = st.to_json()
    data["version"] = 1
    data["log"] = [dict(d) for d in st.log]
    del data["decisions"]
    return data


def test_the_saved_state_carries_no_log_only_the_count_of_decisions():
    st = _played(1, 40)
    data = st.to_json()
    assert "log" not in data and data["decisions"] == 40 == st.decided == len(st.log)
    loaded = GameState.from_json(real_catalogue(), json.loads(json.dumps(data)))
    assert loaded.log is None and loaded.decided == 40 and loaded.to_json() == data
    assert view_for(loaded, 0) == view_for(st, 0) and view_for(loaded, 0)["decisions"] == 40


def test_the_saved_state_does_not_grow_with_the_log():
    early, late = _played(2, 10), _played(2, 90)
    # a late game holds more cards on mats, but no longer the 90 decisions: within a few hundred bytes
    assert len(json.dumps(late.to_json())) < len(json.dumps(early.to_json())) + 1500
    assert len(json.dumps(_as_version_1(late))) > len(json.dumps(late.to_json())) + 90 * 20


def test_a_loaded_state_given_its_log_replays_and_plays_on():
    st = _played(3, 30)
    loaded = GameState.from_json(real_catalogue(), st.to_json(), log=st.log)
    agent = RandomAgent(9)
    while loaded.pending is not None:
        loaded.apply(agent.choose(loaded.pending.options))
    again = GameState.replay(real_catalogue(), loaded.options, loaded.log)
    assert again.to_json() == loaded.to_json() and again.decided == len(loaded.log)


def test_a_log_that_does_not_match_the_count_is_refused():
    st = _played(4, 12)
    with pytest.raises(MalformedDecision, match="log"):
        GameState.from_json(real_catalogue(), st.to_json(), log=st.log[:-1])


def test_an_old_save_with_the_log_inside_still_loads():
    st = _played(5, 25)
    old = json.loads(json.dumps(_as_version_1(st)))
    loaded = GameState.from_json(real_catalogue(), old)
    assert loaded.to_json() == st.to_json() and loaded.log == st.log and loaded.decided == 25
    agent = RandomAgent(5)
    loaded.apply(agent.choose(loaded.pending.options))
    assert loaded.decided == 26 and len(loaded.log) == 26
