"""Migrate the catalogue's fixtures to the regular grammar of the effect language (docs/effects.md).

    python scripts/migrate_effects.py [fixtures/]

One key per role: a word's target is `on` (tuck and distribute's places said `under`), a condition is `cond`
(reveal and score said `if`), a counter says what it counts under `what` (it said `count`, which everywhere
else is an amount), and `reveal` names the variable it binds with `as` (it bound "it" silently). The script rewrites each file in place, keeping its one-record-per-line layout, and is
idempotent: run twice, the second run changes nothing. Fan cards and errata kept outside fixtures/ can be passed the
same way (a folder of the same JSON files).
"""
import json
import sys
from pathlib import Path

COUNT_WHATS = {
    "dragons", "eggs", "cached", "tucked", "nest_capacity", "training_tokens", "cave_cards", "cards_in_cave",
    "excavated", "filled_columns", "trait_sets", "size_sets", "guild_markers", "guild_position", "objectives_lowest",
    "resource_icons", "best_cave_resource_icons",
}


def _renamed(node, old, new):
    """The same dict with key `old` renamed to `new`, in the same position."""
    return {(new if key == old else key): value for key, value in node.items()}


def migrate(value):
    """The migrated copy of any JSON value: effect nodes, places and counters are rewritten wherever they sit."""
    if isinstance(value, list):
        return [migrate(v) for v in value]
    if not isinstance(value, dict):
        return value
    node = value
    word = node.get("do")
    if word == "tuck" and "under" in node:
        node = _renamed(node, "under", "on")
    if word in ("reveal", "score") and "if" in node:
        node = _renamed(node, "if", "cond")
    if word == "reveal" and "as" not in node:  # the revealed card was bound to "it" without saying so
        node = {"do": "reveal", "as": "it", **{key: v for key, v in node.items() if key != "do"}}
    if "place" in node and "under" in node:  # a place of `distribute`
        node = _renamed(node, "under", "on")
    if isinstance(node.get("count"), str) and node["count"] in COUNT_WHATS:  # a counter
        node = _renamed(node, "count", "what")
    return {key: migrate(v) for key, v in node.items()}


def dump(data):
    """The fixtures' layout: one top-level key holding a list, one record per line."""
    (key, records), = data.items()
    lines = ",\n".join(json.dumps(record, ensure_ascii=False) for record in records)
    return f'{{{json.dumps(key)}: [\n{lines}\n]}}\n'


def main(folder):
    changed = 0
    for path in sorted(Path(folder).glob("*.json")):
        text = path.read_text()
        data = json.loads(text)
        migrated = migrate(data)
        if json.dumps(migrated) == json.dumps(data):
            continue  # nothing to migrate (key order included)
        if dump(data) != text:
            sys.exit(f"{path}: not in the fixtures' layout; refusing to rewrite it")
        path.write_text(dump(migrated))
        changed += 1
        print(f"migrated {path}")
    print(f"{changed} file(s) changed")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "fixtures")
