"""Every ability in the project's fixtures renders, in both forms, with no raw data left in the words."""
import json
from pathlib import Path

import pytest

from game.engine.effects.render import render_abilities, render_abilities_html, render_effect

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
LEFTOVERS = ("{", "}", "None", "_", "\x01", "\x02", "\x03", "  ")


def _records(node, where):
    """(where, card record) for every record holding abilities, and (where, effect) for bare effects (board)."""
    if isinstance(node, dict):
        if isinstance(node.get("abilities"), list):
            yield where, node, None
            return
        if "do" in node:
            return  # inside an effect tree: its parts are read with it
        if isinstance(node.get("effect"), dict) and "do" in node["effect"] and "kind" not in node:
            yield where, None, node["effect"]
            return
        for key, value in node.items():
            yield from _records(value, f"{where}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _records(value, f"{where}[{i}]")


def _all_texts():
    for path in sorted(FIXTURES.glob("*.json")):
        for where, card, effect in _records(json.loads(path.read_text()), path.name):
            if card is not None:
                label = f"{where} (card {card.get('number')})"
                yield label, render_abilities(card["abilities"], card)
                yield label + " html", render_abilities_html(card["abilities"], card)
            else:
                yield where, render_effect(effect)


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
