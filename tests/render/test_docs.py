"""docs/effects.md shows what each example reads; the renderer must still say exactly that."""
import json
import re
from pathlib import Path

import pytest

from game.engine.effects.render import render_effect

DOC = Path(__file__).resolve().parents[2] / "docs" / "effects.md"
ROW = re.compile(r"^\| `(\w+)` \| .*? \| `(\{.*\})` \| (.*) \|$")


def _examples():
    rows = [ROW.match(line) for line in DOC.read_text().splitlines()]
    # Rows whose example elides its inner effect ("{...}") are not complete effects, so only the others are checked.
    return [pytest.param(m.group(2), m.group(3), id=m.group(1)) for m in rows if m and "{...}" not in m.group(2)]


def test_docs_table_has_examples():
    assert len(_examples()) >= 18


@pytest.mark.parametrize("example, reads", _examples())
def test_docs_example_reads_as_the_renderer_writes_it(example, reads):
    assert render_effect(json.loads(example)) == reads
