"""scripts/bench_bots.py's Automa opponents: `automa:L` and `automa:L:ravel` set up the solo game they name."""
import pytest

from game.engine.catalogue import load_fixtures
from tests.scripts import load_script

BENCH = load_script("bench_bots")


@pytest.mark.parametrize("spec, setting", [
    ("automa", {"level": 1, "ravel": False}),
    ("automa:3", {"level": 3, "ravel": False}),
    ("automa:2:ravel", {"level": 2, "ravel": True}),
])
def test_an_automa_spec_names_her_level_and_mode(spec, setting):
    assert BENCH.automa_setting(spec) == setting


@pytest.mark.parametrize("spec", ["automa:2:fast", "automa:two", "automa:1:ravel:x"])
def test_a_malformed_automa_spec_is_refused_naming_it(spec):
    with pytest.raises(ValueError, match=spec):
        BENCH.automa_setting(spec)


def test_a_ravel_spec_plays_a_whole_solo_game_in_ravel_mode():
    line = BENCH.play_game(load_fixtures("fixtures"), "random", "automa:2:ravel", 2, 0, False)
    assert line["ravel"] is True and line["a_seat"] == 0 and len(line["scores"]) == 1
    assert line["a_won"] == (line["scores"][0] >= line["automa"])


def _game(index, score, won, cpu=1.0, decisions=10, a_seat=0):
    scores = [0, 0]
    scores[a_seat] = score
    return {"game": index, "a_seat": a_seat, "scores": scores, "a_won": won, "a_cpu": cpu, "a_decisions": decisions}


def test_a_paired_comparison_uses_only_the_games_both_runs_played():
    before = {0: _game(0, 70, False), 1: _game(1, 80, True), 2: _game(2, 90, True)}
    after = {1: _game(1, 84, True, a_seat=1), 2: _game(2, 92, True, cpu=3.0), 3: _game(3, 50, False)}
    found = BENCH.paired(before, after)
    assert found["games"] == 2
    assert found["difference"] == 3.0 and found["before"] == 85.0 and found["after"] == 88.0
    assert found["half"] == pytest.approx(1.96 * 1.0)  # differences 4 and 2: standard deviation 1.41, over root 2
    assert (found["wins_before"], found["wins_after"]) == (2, 2)
    assert (found["ms_before"], found["ms_after"]) == (100.0, 200.0)


def test_runs_with_no_game_in_common_are_not_compared():
    assert BENCH.paired({0: _game(0, 70, False)}, {1: _game(1, 80, True)}) is None
