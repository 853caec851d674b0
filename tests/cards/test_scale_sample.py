"""A seeded sample of the scale check (scripts/scale_check.py runs 10,000): 50 games over 2-5 players, base and
Dragon Academy, every card in the decks, invariants after every step."""
import pytest

from tests.scripts import load_script

SCALE = load_script("scale_check")


@pytest.mark.parametrize("g", range(50))
def test_seeded_game_finishes_with_invariants_intact(g):
    result = SCALE.play_one((g, 20000))
    assert "error" not in result, f"{result.get('error')}\n{result.get('trace')}"
    assert result["decisions"] > 0 and len(result["totals"]) == SCALE.setup_for(g, 20000)["players"]


def test_the_sample_covers_every_player_count_with_and_without_the_expansion():
    setups = {(s["players"], s["academy"]) for s in (SCALE.setup_for(g, 20000) for g in range(50))}
    assert setups == {(p, a) for p in range(2, 6) for a in (False, True)}
