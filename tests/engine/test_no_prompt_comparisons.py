"""Code decides on a question's kind and data, never on its English prompt: no source compares prompt text.

A test of the words themselves (the log keeps the prompt it showed) marks its line with `# words-test`.
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROMPT = r"""(?:\.prompt\b|\[["']prompt["']\])"""
OPERAND = r"""[\w.\[\]()"']*"""
COMPARISONS = [
    re.compile(PROMPT + r"\s*(?:==|!=)"),                     # pending.prompt == "..."
    re.compile(r"(?:==|!=)\s*" + OPERAND + PROMPT),          # "..." != pending.prompt
    re.compile(PROMPT + r"\.\w+\("),                         # pending.prompt.startswith(...), .lower(), ...
    re.compile(r"\bin\s+" + OPERAND + PROMPT),               # "Cache" in pending.prompt
]


def comparisons(text):
    """(line number, line) of every comparison of prompt text in a source."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if "# words-test" in line:
            continue
        if any(pattern.search(line) for pattern in COMPARISONS):
            found.append((number, line.strip()))
    return found


@pytest.mark.parametrize("line", [
    'while st.pending.prompt != "Choose your action":',
    'if "Choose your action" == state.pending.prompt:',
    'assert st.pending.prompt.startswith("Place a marker")',
    'return decision.kind == "pick" and "tuck" in decision.prompt.lower()',
    'assert "Milk Giver" in st.pending.prompt',
    'assert result["pending"]["prompt"] == "Excavating the 4th column"',
    'assert pending["prompt"].startswith("Lay an egg")',
])
def test_the_scan_finds_each_form_of_comparison(line):
    assert comparisons(line) == [(1, line)]


@pytest.mark.parametrize("line", [
    'while st.pending.kind != "main_action":',
    'prompt=pending.prompt, label=label',
    'return {"prompt": pending.prompt if mine else None}',
    'assert decision.prompt == words  # words-test: the log keeps the question\'s words',
])
def test_the_scan_lets_reading_and_showing_the_prompt_pass(line):
    assert comparisons(line) == []


def test_no_source_compares_prompt_text():
    me = Path(__file__).resolve()
    found = []
    for folder in ("game", "cardsite", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.resolve() == me:
                continue
            for number, line in comparisons(path.read_text()):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line}")
    assert not found, "decide on pending.kind and pending.data, not on the prompt's words:\n" + "\n".join(found)
