"""Every ability in the project's fixtures renders, in both forms, with no raw data left in the words."""
import json
from pathlib import Path

import pytest

from game.language.render import render_abilities, render_abilities_html, render_counter, render_effect
from game.language.schema import COUNT_WHATS

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
LEFTOVERS = ("{", "}", "None", "_", "\x01", "\x02", "\x03", "  ")


def _records(node, where):
    """(where, kind, node) for every card record holding abilities, every bare effect and every counter."""
    if isinstance(node, dict):
        if isinstance(node.get("abilities"), list):
            yield where, "card", node
            return
        if "do" in node:
            yield where, "effect", node  # a whole effect tree: its parts are read with it
            return
        if node.get("what") in COUNT_WHATS:
            yield where, "counter", node
            return
        for key, value in node.items():
            yield from _records(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _records(value, f"{where}[{i}]")


def _all_texts():
    for path in sorted(FIXTURES.glob("*.json")):
        for where, kind, node in _records(json.loads(path.read_text()), path.name):
            if kind == "card":
                label = f"{where} (card {node.get('number')})"
                yield label, render_abilities(node["abilities"], node)
                yield label + " html", render_abilities_html(node["abilities"], node)
            elif kind == "effect":
                yield where, render_effect(node)
            else:
                yield where, render_counter(node)


def test_every_fixture_ability_renders_without_raw_keys():
    bad = []
    count = 0
    for label, text in _all_texts():
        count += 1
        html_free = text if not label.endswith("html") else None
        if html_free is not None:
            found = [bit for bit in LEFTOVERS if bit in text]
            if found:
                bad.append(f"{label}: {found} in {text!r}")
    assert count > 0, "no fixture records found"
    assert bad == []


@pytest.mark.parametrize("bit", ["None", "any_resource", "{", "\x01"])
def test_html_form_has_no_raw_keys_either(bit):
    for label, text in _all_texts():
        if label.endswith("html"):
            assert bit not in text, label


def _dragon(number):
    for path in sorted(FIXTURES.glob("dragons-*.json")):
        data = json.loads(path.read_text())
        for card in data if isinstance(data, list) else data["dragons"]:
            if card["number"] == number:
                return card
    raise LookupError(number)


def test_weary_gryphdragon_names_both_neighbours_not_any_two_dragons():
    """Issue 14 item 7: the engine counts the spaces left and right of it, so the sentence must say that."""
    card = _dragon(39)
    text = render_abilities(card["abilities"], card)
    assert "directly to its left and to its right in its cave both hold a dragon" in text
    assert "at least 2" not in text


@pytest.mark.parametrize("number", [17, 18, 29, 179, 209, 210])
def test_end_game_points_added_to_a_dragons_value_read_as_extra(number):
    """Issue 14 item 10: "+n VP" on these cards adds to the printed value, so it must not read as the whole value."""
    card = _dragon(number)
    text = render_abilities(card["abilities"], card)
    assert "At game end: Score an extra " in text
    assert "At game end: Score 1 VP" not in text and "At game end: Score 2 VP" not in text


def test_objective_3a_counts_dragons_nests_and_3b_the_mats_own_too():
    """Issue 14 item 9: the two sides of objective 3 count different nests, and each says which."""
    tiles = {t["number"]: t for t in json.loads((FIXTURES / "objective-tiles.json").read_text())["objective_tiles"]}
    sides = tiles[3]["sides"]
    assert render_counter(sides["a"]["counts"]) == "the number of nests on your mat (dragons' nests only, not the mat's own)"
    assert "the mat's own nests included" in render_counter(sides["b"]["counts"])
