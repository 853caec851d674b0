"""Migrate the catalogue's fixtures to the regular grammar of the effect language (docs/effects.md).

    python scripts/migrate_effects.py [fixtures/ | tests/ | file.py ...]

One key per role: a word's target is `on` (tuck and distribute's places said `under`), a condition is `cond`
(reveal and score said `if`), a counter says what it counts under `what` (it said `count`, which everywhere
else is an amount), and `reveal` names the variable it binds with `as` (it bound "it" silently). `then` has one
meaning, a condition's branch (`if`, `reveal`, with `else`): what a `pay` buys is `buys`, and what an acting word does
next "if you do" is `if_done`. `tuck` binds the resources in the tucked dragon's cost only with `as` (it bound
`tucked_cost` silently; the script writes `"as": "tucked_cost"` where a later step reads that name). The four
cover/swap words are one family, `{"do": "swap", "what": ...}` (`cover_dragon` is `"what": "cover"`,
`swap_dragons` `"dragons"`, `swap_with_hand` `"with_hand"`, `swap_cave_card` `"cave_card"`). `from` has one set of
places (hand, display, deck, supply, general): a choice between two is a list of them (`"hand_or_display"` is
`["hand", "display"]`, a `gain`'s `"any"` is `["display", "deck"]`), and the dragons a cost's eggs are paid from
are its target, `on` (a cost item said `from`).

The script rewrites each JSON file in place, keeping its one-record-per-line layout, and is idempotent: run twice,
the second run changes nothing. Fan cards and errata kept outside fixtures/ can be passed the same way (a folder of
the same JSON files). Python files (tests that embed effects) are rewritten too: every dict literal with a constant
"do" key is migrated by editing its keys in the source text, so the rest of the file stays as it was.
"""
import ast
import json
import sys
from pathlib import Path

COUNT_WHATS = {
    "dragons", "eggs", "cached", "tucked", "nest_capacity", "training_tokens", "cave_cards", "cards_in_cave",
    "excavated", "filled_columns", "trait_sets", "size_sets", "guild_markers", "guild_position", "objectives_lowest",
    "resource_icons", "best_cave_resource_icons",
}


IF_DONE_WORDS = {
    "gain", "lay_egg", "cache", "tuck", "excavate", "play_dragon", "cover_dragon", "swap_dragons", "swap_with_hand",
    "swap_cave_card", "swap", "train", "activate",
}


PLACE_CHOICES = {"hand_or_display": ["hand", "display"], "any": ["display", "deck"]}


SWAP_FAMILY = {"cover_dragon": "cover", "swap_dragons": "dragons", "swap_with_hand": "with_hand",
               "swap_cave_card": "cave_card"}


def _reads(value, name):
    """Whether a JSON value reads the variable `name` ({"var": name}) anywhere inside it."""
    if isinstance(value, dict):
        return value.get("var") == name or any(_reads(v, name) for v in value.values())
    if isinstance(value, list):
        return any(_reads(v, name) for v in value)
    return False


def _with_as(node, name):
    """The tuck node with `as` added before its follow-up."""
    out = {key: v for key, v in node.items() if key not in ("then", "if_done")}
    out["as"] = name
    out.update({key: v for key, v in node.items() if key in ("then", "if_done")})
    return out


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
    if word == "tuck" and "as" not in node and _reads(node, "tucked_cost"):
        node = _with_as(node, "tucked_cost")
    if word == "seq":  # a tuck whose later steps read the cost it bound
        steps = list(node["steps"])
        for i, step in enumerate(steps):
            if isinstance(step, dict) and step.get("do") == "tuck" and "as" not in step \
                    and _reads(steps[i + 1:], "tucked_cost"):
                steps[i] = _with_as(step, "tucked_cost")
        node = {**node, "steps": steps}
    if word == "pay" and "then" in node:
        node = _renamed(node, "then", "buys")
    if word in IF_DONE_WORDS and "then" in node:
        node = _renamed(node, "then", "if_done")
    if word in ("gain", "play_dragon") and isinstance(node.get("from"), str) and node["from"] in PLACE_CHOICES:
        node = {**node, "from": PLACE_CHOICES[node["from"]]}
    if word == "pay" and any(isinstance(item, dict) and "from" in item for item in node.get("cost", ())):
        node = {**node, "cost": [_renamed(item, "from", "on") if isinstance(item, dict) else item
                                 for item in node["cost"]]}
    if word in SWAP_FAMILY:
        node = {"do": "swap", "what": SWAP_FAMILY[word], **{key: v for key, v in node.items() if key != "do"}}
    return {key: migrate(v) for key, v in node.items()}


def dump(data):
    """The fixtures' layout: one top-level key holding a list, one record per line."""
    (key, records), = data.items()
    lines = ",\n".join(json.dumps(record, ensure_ascii=False) for record in records)
    return f'{{{json.dumps(key)}: [\n{lines}\n]}}\n'


def _literal_effects(tree):
    """Each dict literal in a Python tree with a constant "do": (dict node, {key: (key node, value node)})."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {k.value: (k, v) for k, v in zip(node.keys, node.values)
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            if "do" in keys and isinstance(keys["do"][1], ast.Constant) and isinstance(keys["do"][1].value, str):
                yield node, keys


def migrate_python(text):
    """The source of a Python file with the effects its dict literals spell migrated (the same rules as `migrate`)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line.encode()))
    data = text.encode()

    def offset(lineno, col):
        return starts[lineno - 1] + col

    def span(node):
        return offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset)

    edits = []

    def rename(key_node, new):
        start, end = span(key_node)
        quote = data[start:start + 1].decode()
        edits.append((start, end, f"{quote}{new}{quote}"))

    for node, keys in _literal_effects(ast.parse(text)):
        word = keys["do"][1].value
        source = data[slice(*span(node))].decode()
        if word == "tuck" and "as" not in keys and '"tucked_cost"' in source:
            anchor = keys.get("then", keys.get("if_done"))
            if anchor is not None:
                start, _ = span(anchor[0])
                edits.append((start, start, '"as": "tucked_cost", '))
        if word == "pay" and "then" in keys:
            rename(keys["then"][0], "buys")
        if word in IF_DONE_WORDS and "then" in keys:
            rename(keys["then"][0], "if_done")
        if word in ("gain", "play_dragon") and "from" in keys and isinstance(keys["from"][1], ast.Constant) \
                and keys["from"][1].value in PLACE_CHOICES:
            start, end = span(keys["from"][1])
            quote = data[start:start + 1].decode()
            places = ", ".join(f"{quote}{place}{quote}" for place in PLACE_CHOICES[keys["from"][1].value])
            edits.append((start, end, f"[{places}]"))
        if word == "pay" and "cost" in keys and isinstance(keys["cost"][1], ast.List):
            for item in keys["cost"][1].elts:
                if isinstance(item, ast.Dict):
                    for key in item.keys:
                        if isinstance(key, ast.Constant) and key.value == "from":
                            rename(key, "on")
        if word in SWAP_FAMILY:
            start, end = span(keys["do"][1])
            quote = data[start:start + 1].decode()
            edits.append((start, end, f'{quote}swap{quote}, {quote}what{quote}: {quote}{SWAP_FAMILY[word]}{quote}'))
    for start, end, new in sorted(edits, reverse=True):
        data = data[:start] + new.encode() + data[end:]
    return data.decode()


def main_python(paths):
    changed = 0
    for path in paths:
        text = path.read_text()
        migrated = migrate_python(text)
        if migrated != text:
            path.write_text(migrated)
            changed += 1
            print(f"migrated {path}")
    print(f"{changed} Python file(s) changed")


def main(folder):
    folder = Path(folder)
    if folder.suffix == ".py" or any(folder.rglob("*.py")):
        return main_python([folder] if folder.suffix == ".py" else sorted(folder.rglob("*.py")))
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
    for target in sys.argv[1:] or [Path(__file__).resolve().parents[1] / "fixtures"]:
        main(target)
