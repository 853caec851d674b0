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
