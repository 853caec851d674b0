"""`coverage` finds what the interpreter cannot run by walking effect trees against the interpreter's own code."""
import pytest
from django.core.management import call_command

from game.engine.coverage import check_counter, check_effect, gaps
from tests.engine.helpers import dragon, make_catalogue, real_catalogue


def test_every_card_tile_row_objective_side_and_board_effect_runs():
    assert gaps(real_catalogue()) == []


def test_a_word_without_a_handler_is_listed_with_its_path():
    problems = list(check_effect({"do": "seq", "steps": [{"do": "gain", "item": "gold"}, {"do": "juggle"}]}))
    assert problems == ["effect.steps[1].do: the interpreter has no handler for the word 'juggle'"]


def test_a_key_no_handler_reads_is_listed():
    problems = list(check_effect({"do": "gain", "item": "gold", "sparkle": True}))
    assert problems == ["effect.sparkle: 'gain' never reads the key 'sparkle'"]


def test_a_target_key_the_word_ignores_is_listed():
    problems = list(check_effect({"do": "score", "vp": 1, "per": {"count": "dragons", "colour": "red"}}))
    assert problems == ["effect.per.colour: the counter key 'colour' is never read by the interpreter"]


def test_a_mode_value_the_interpreter_never_branches_on_is_listed():
    problems = list(check_counter({"count": "dragons", "scope": "diagonal"}, "per"))
    assert problems == ["per.scope: the counter value for 'scope' 'diagonal' is never read by the interpreter"]


def test_data_values_and_two_way_switches_are_not_reported():
    effect = {"do": "cache", "item": "milk", "from": "general", "on": {"scope": "cave", "trait": ["shy", "helpful"]}}
    assert list(check_effect(effect)) == []


def test_a_card_using_an_unknown_word_is_named_in_the_list():
    bad = dragon(1, name="Broken Drake", abilities=[{"kind": "when_played", "effect": {"do": "teleport"}}])
    found = gaps(make_catalogue([bad], filler=2))
    assert found == [("dragon", "dragon 1 Broken Drake",
                      "abilities[0].effect.do: the interpreter has no handler for the word 'teleport'")]


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
    assert "dragon 1 " in out and "no handler for the word 'teleport'" in out


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


def test_a_word_registered_later_is_covered_for_the_keys_its_handler_reads():
    from game.engine import interpreter as fx
    from game.engine.coverage import reads

    effect = {"do": "juggle_for_test", "balls": 3, "style": "cascade"}
    assert list(check_effect(effect)) == ["effect.do: the interpreter has no handler for the word 'juggle_for_test'"]

    def juggle(st, task, frame):
        node = task["e"]
        return node.get("balls"), node.get("style") == "cascade"

    fx.WORDS["juggle_for_test"] = juggle
    try:
        reads.cache_clear()
        assert list(check_effect(effect)) == []
        assert list(check_effect(dict(effect, style="shower"))) == [
            "effect.style: 'juggle_for_test' value for 'style' 'shower' is never read by the interpreter"]
    finally:
        del fx.WORDS["juggle_for_test"]
        reads.cache_clear()
