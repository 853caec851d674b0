"""`coverage` finds what the engine cannot run by checking effect trees against the language's declarations and the
interpreter's registry (that every declared key is read by its handler is tests/engine/test_key_coverage.py)."""
import pytest
from django.core.management import call_command

from game.engine.coverage import check_counter, check_effect, gaps
from tests.engine.helpers import dragon, make_catalogue, real_catalogue


def test_every_card_tile_row_objective_side_and_board_effect_runs():
    assert gaps(real_catalogue()) == []


def test_a_word_the_language_does_not_know_is_listed_with_its_path():
    problems = list(check_effect({"do": "seq", "steps": [{"do": "gain", "item": "gold"}, {"do": "juggle"}]}))
    assert problems == ["effect.steps[1].do: the language has no word 'juggle'"]


def test_a_key_the_word_does_not_declare_is_listed():
    problems = list(check_effect({"do": "gain", "item": "gold", "sparkle": True}))
    assert problems == ["effect.sparkle: 'gain' takes no key 'sparkle'"]


def test_a_target_key_the_word_ignores_is_listed():
    problems = list(check_effect({"do": "score", "vp": 1, "per": {"what": "dragons", "colour": "red"}}))
    assert len(problems) == 1 and problems[0].startswith("effect.per: unknown counter key 'colour'")


def test_a_mode_value_the_interpreter_never_branches_on_is_listed():
    problems = list(check_counter({"what": "dragons", "scope": "diagonal"}, "per"))
    assert len(problems) == 1 and problems[0].startswith("per.scope: 'diagonal' is not a scope")


def test_data_values_and_two_way_switches_are_not_reported():
    effect = {"do": "cache", "item": "milk", "from": "general", "on": {"scope": "cave", "trait": ["shy", "helpful"]}}
    assert list(check_effect(effect)) == []


def test_a_card_using_an_unknown_word_is_named_in_the_list():
    bad = dragon(1, name="Broken Drake", abilities=[{"kind": "when_played", "effect": {"do": "teleport"}}])
    found = gaps(make_catalogue([bad], filler=2))
    assert found == [("dragon", "dragon 1 Broken Drake",
                      "abilities[0].effect.do: the language has no word 'teleport'")]


def test_command_exits_1_and_prints_each_gap(tmp_path, capsys):
    import json
    import shutil
    from pathlib import Path

    fixtures = Path(__file__).resolve().parents[2] / "fixtures"
    for path in fixtures.glob("*.json"):
        shutil.copy(path, tmp_path / path.name)
    data = json.loads((tmp_path / "dragons-001-092.json").read_text())
    data["dragons"][0]["abilities"] = [{"kind": "when_played", "effect": {"do": "teleport"}}]
    (tmp_path / "dragons-001-092.json").write_text(json.dumps(data))
    with pytest.raises(SystemExit) as exit_info:
        call_command("coverage", fixtures=str(tmp_path))
    assert exit_info.value.code == 1
    out = capsys.readouterr().out
    assert "dragon 1 " in out and "no word 'teleport'" in out


def test_command_refuses_a_missing_folder(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        call_command("coverage", fixtures=str(tmp_path / "nowhere"))
    assert exit_info.value.code == 2
    assert "--fixtures" in capsys.readouterr().err


def test_command_on_the_project_catalogue_prints_nothing_and_succeeds(capsys):
    call_command("coverage")
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "runs every ability" in captured.err and "268 dragons, 102 cave cards" in captured.err


def test_a_word_declared_later_is_covered_once_a_handler_registers_against_it():
    from game.engine import interpreter as fx
    from game.language.words import WORDS, Word

    effect = {"do": "juggle_for_test", "balls": 3, "style": "cascade"}
    assert list(check_effect(effect)) == ["effect.do: the language has no word 'juggle_for_test'"]
    WORDS["juggle_for_test"] = Word("juggle_for_test", {"balls": "posint", "style": "rest"})
    try:
        assert list(check_effect(effect)) == ["effect.do: the interpreter has no handler for the word 'juggle_for_test'"]

        @fx.word("juggle_for_test")
        def juggle(st, task, frame):
            node = task["e"]
            return node.get("balls"), node.get("style") == "cascade"

        assert list(check_effect(dict(effect, style="keep"))) == []
        assert list(check_effect(dict(effect, height=2))) == ["effect.height: 'juggle_for_test' takes no key 'height'"]
    finally:
        WORDS.pop("juggle_for_test", None)
        fx.WORDS.pop("juggle_for_test", None)


def test_behaviour_for_an_undeclared_word_is_refused():
    from game.engine import interpreter as fx

    with pytest.raises(KeyError, match="no word 'juggle_for_test'"):
        fx.word("juggle_for_test")
