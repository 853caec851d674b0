"""docs/effects.md shows what each example reads; the renderer must still say exactly that."""
import json
import re
from pathlib import Path

import pytest

from game.language.render import render_effect

DOC = Path(__file__).resolve().parents[2] / "docs" / "effects.md"
ROW = re.compile(r"^\| `(\w+)` \| .*? \| `(\{.*\})` \| (.*) \|$")


def _examples():
    rows = [ROW.match(line) for line in DOC.read_text().splitlines()]
    # Rows whose example elides its inner effect ("{...}") are not complete effects, so only the others are checked.
    return [pytest.param(m.group(2), m.group(3), id=m.group(1)) for m in rows if m and "{...}" not in m.group(2)]


def test_docs_table_has_examples():
    assert len(_examples()) >= 16  # one row per word: the four cover/swap words are now one, `swap`


@pytest.mark.parametrize("example, reads", _examples())
def test_docs_example_reads_as_the_renderer_writes_it(example, reads):
    assert render_effect(json.loads(example)) == reads


WORD_ROW = re.compile(r"^\| `(\w+)` \| (.*?) \| `\{")
KEY = re.compile(r"`(\w+)`")


def _documented_words():
    """word -> the keys its row of docs/effects.md names (values, given in parentheses, are left out)."""
    out = {}
    for line in DOC.read_text().splitlines():
        match = WORD_ROW.match(line)
        if match:
            keys = re.sub(r"\([^)]*\)", "", match.group(2))
            out[match.group(1)] = set(KEY.findall(keys))
    return out


def test_docs_name_every_declared_word_and_no_other():
    from game.language.words import WORDS

    assert sorted(_documented_words()) == sorted(WORDS)


def test_docs_name_exactly_the_keys_each_word_declares():
    from game.language.words import WORDS

    documented = _documented_words()
    wrong = {name: (sorted(documented.get(name, ())), sorted(word.keys)) for name, word in WORDS.items()
             if documented.get(name) != set(word.keys)}
    assert wrong == {}


FROM = re.compile(r"`from` \(([^)]*)\)")


def test_docs_name_exactly_the_places_each_from_takes():
    """A word's row says which places its `from` takes, whether a list or a var, and its default, as declared."""
    from game.language.words import WORDS, From

    wrong = {}
    rows = {m.group(1): m.group(2) for m in map(WORD_ROW.match, DOC.read_text().splitlines()) if m}
    for name, word in WORDS.items():
        kind = word.keys.get("from")
        if not isinstance(kind, From):
            continue
        places, default = FROM.search(rows[name]).group(1).split(", default ")
        documented = (set(KEY.findall(places)), "list" in places.split("/"), "var" in places.split("/"),
                      set(kind.sources) if default == "both" else set(KEY.findall(default)))
        declared = (set(kind.sources), kind.pick, kind.var, set(kind.default))
        if documented != declared:
            wrong[name] = (documented, declared)
    assert wrong == {}
