"""manage.py simulate plays random games and prints speed and score figures (no database needed)."""
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def test_simulate_prints_speed_and_scores():
    out, err = StringIO(), StringIO()
    call_command("simulate", games=3, players=3, seed=5, stdout=out, stderr=err)
    text = out.getvalue()
    assert "3 games, 3 players" in text and "decisions/s" in text and "games/s" in text
    assert "winning score" in text and "mean VP by category" in text
    assert "3/3 games" in err.getvalue()


def test_simulate_is_reproducible_from_the_seed():
    runs = []
    for _ in range(2):
        out = StringIO()
        call_command("simulate", games=2, players=2, seed=11, academy=True, stdout=out, stderr=StringIO())
        runs.append([line for line in out.getvalue().splitlines() if line.startswith(("score", "winning", "mean"))])
    assert runs[0] == runs[1]


def test_simulate_rejects_bad_counts():
    with pytest.raises(CommandError, match="players"):
        call_command("simulate", games=1, players=9, stdout=StringIO(), stderr=StringIO())


def test_simulate_plays_solo_games_against_the_automa():
    out = StringIO()
    call_command("simulate", games=2, players=1, automa=3, ravel=True, seed=2, stdout=out, stderr=StringIO())
    assert "2 games, 1 players" in out.getvalue() and "winning score" in out.getvalue()


@pytest.mark.parametrize("options,words", [({"players": 1}, "give --automa LEVEL"),
                                           ({"players": 2, "automa": 1}, "only with --players 1"),
                                           ({"players": 1, "automa": 9}, "automa.level")])
def test_simulate_refuses_a_solo_game_without_a_proper_automa(options, words):
    with pytest.raises(CommandError, match=words):
        call_command("simulate", games=1, stdout=StringIO(), stderr=StringIO(), **options)
