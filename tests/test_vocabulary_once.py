"""The game's nouns are listed once, in game/language/vocabulary.py: no module or page script keeps its own copy."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / "game" / "language" / "vocabulary.py"
# Known copies still to go: the card search's query syntax highlighter spells the cost fields in a regular expression.
KNOWN = set()
# A list of every resource, cave, cave name, size or trait, spelled out in order (in any quotes and spacing).
COPIES = {
    "resources": ("meat", "gold", "crystal", "milk"),
    "caves": ("crimson_cavern", "golden_grotto", "amethyst_abyss"),
    "cave names": ("Crimson Cavern", "Golden Grotto", "Amethyst Abyss"),
    "sizes": ("hatchling", "small", "medium", "large"),
    "traits": ("shy", "aggressive", "playful", "helpful"),
    "printed kinds": ("when_played", "if_activated", "once_per_round", "end_game"),
}
# Between the words only quotes, commas, spaces, brackets or "and": an alias table with other words between is no copy.
GAP = r"(?:[\s\"'`,;/|()\[\]]|\band\b){1,12}"
PATTERNS = {name: re.compile(GAP.join(re.escape(w) for w in words)) for name, words in COPIES.items()}


def _sources():
    for folder, suffix in (("game", ".py"), ("cardsite", ".py"), ("static", ".js")):
        for path in (ROOT / folder).rglob(f"*{suffix}"):
            if path != HOME and "migrations" not in path.parts:
                yield path


def test_no_copy_of_a_vocabulary_list_outside_the_vocabulary():
    copies = sorted(f"{path.relative_to(ROOT)}: {name}" for path in _sources()
                    for name, pattern in PATTERNS.items() if pattern.search(path.read_text()))
    assert sorted(set(copies) - KNOWN) == []


def test_the_check_finds_a_copy():
    assert PATTERNS["cave names"].search('var NAMES = ["Crimson Cavern", "Golden Grotto", "Amethyst Abyss"]')
    assert PATTERNS["sizes"].search("(hatchling, small, medium and large)")
    assert PATTERNS["resources"].search("for kind in ('meat', 'gold', 'crystal', 'milk'):")
