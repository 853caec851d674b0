"""Every ability in the project's fixtures renders, in both forms, with no raw data left in the words."""
import json
from pathlib import Path

import pytest

from game.engine.effects.render import render_abilities, render_abilities_html, render_counter, render_effect
from game.engine.effects.schema import COUNT_WHATS

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
