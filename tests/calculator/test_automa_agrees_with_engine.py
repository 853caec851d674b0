"""The calculator's Automa line and the engine's solo result are one rule: game.engine.automa.score."""
import pytest

from game.engine.agents import play_out
from game.engine.catalogue import load_fixtures
from game.engine.state import GameState
from tests.engine.helpers import FIXTURES


@pytest.mark.parametrize("seed,level,ravel,academy", [(1, 1, False, False), (2, 3, False, True), (3, 2, True, True),
                                                      (4, 3, True, False)])
def test_a_finished_solo_game_scores_the_same_on_the_calculator(scored, seed, level, ravel, academy):
    cat = load_fixtures(FIXTURES)
    st = GameState.new(cat, players=1, seed=seed, academy=academy, automa={"level": level, "ravel": ravel})
    play_out(st, seed=seed)
    engine = st.result["scores"][1]
    parts = st.result["automa"]
    end_squares = [cat.guild_end_vp[square] for row, square in parts["markers"] if row == -1]
    result = scored({"mode": "quick", "academy": academy, "players": [{"name": "Me"}],
                     "automa": {"level": level, "ravel": ravel, "dragon_cards": parts["dragon_cards"],
                                "cave_cards": parts["cave_cards"], "guild_steps": parts["guild_steps"],
                                "guild_markers": end_squares, "cache_tokens": parts["cache_tokens"],
                                "objective_vp": engine["objectives"]}})
    line = result["by_name"]["Automa"]
    assert line["total"] == engine["total"]
    for category in ("dragons", "items", "guild", "objectives", "cached"):
        assert line["breakdown"][category] == engine[category], category
