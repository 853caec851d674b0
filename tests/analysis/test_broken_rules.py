"""A position that breaks a rule of the game is allowed on the board, for what-if questions, but said: the answer's
`broken_rules` names each break, its place and its rule (the score pad refuses the same mats)."""
import pytest

from tests.analysis.conftest import position

pytestmark = pytest.mark.django_db

ACADEMY_DRAGON = 188  # Speckled Manta, a fledgling that comes with Dragon Academy only, lives in the Golden Grotto


def dragon(card, cave, column, seat=0):
    return {"do": "dragon", "seat": seat, "card": card, "cave": cave, "column": column}


def test_a_dragon_in_a_cave_it_does_not_live_in_is_flagged(ask):
    result = ask(position(dragon(63, "crimson", 1)))
    [broken] = result["broken_rules"]
    assert broken["rule"] == "habitat"
    assert (broken["seat"], broken["cave"], broken["column"]) == (0, "crimson_cavern", 1)
    assert "not the Crimson Cavern" in broken["text"] and "(63)" in broken["text"]
    assert broken["rules"].startswith("/rules/#")
    assert result["pending"]["options"]  # still answered: a what-if question


def test_a_dragon_after_an_empty_space_of_its_cave_is_flagged(ask):
    result = ask(position(dragon(128, "crimson", 3, seat=1)))
    assert [(b["rule"], b["seat"], b["column"]) for b in result["broken_rules"]] == [("from_left", 1, 3)]


def test_a_dragon_academy_card_in_a_base_game_is_flagged(ask):
    result = ask(position(dragon(ACADEMY_DRAGON, "golden", 1)))
    assert "expansion" in [b["rule"] for b in result["broken_rules"]]
    assert not [b for b in ask(position(dragon(ACADEMY_DRAGON, "golden", 1), academy=True))["broken_rules"]
                if b["rule"] == "expansion"]


def test_a_position_the_rules_can_reach_breaks_nothing(ask):
    assert ask(position(dragon(128, "crimson", 1), dragon(89, "crimson", 2)))["broken_rules"] == []
