"""Which parts of a catalogue the engine cannot run, checked against the language's declarations.

A word runs when the language declares it (game/language/words.py) and the interpreter has a handler for it; a key
when the word declares it, with a value the schema allows for the key's type. That every declared key is in turn
read by its handler is a test of its own (tests/engine/test_key_coverage.py), so nothing here reads code.
"""
from ..language import schema
from ..language.vocabulary import CAVES, COST_ITEMS, FEEDS_ON
from ..language.walk import walk
from ..language.words import WORDS as DECLARED
from . import interpreter as fx


def _schema_problem(check, value, path):
    try:
        check(value, path)
    except schema.EffectSchemaError as error:
        yield str(error)


def check_effect(node, path="effect"):
    """Everything in one effect tree that the engine cannot run, as readable lines naming the path."""
    found = False
    for sub_path, sub in walk(node, path):
        word = sub.get("do") if isinstance(sub, dict) else None
        if word not in DECLARED:
            found = True
            yield f"{sub_path}.do: the language has no word {word!r}"
            continue
        if word not in fx.WORDS:
            found = True
            yield f"{sub_path}.do: the interpreter has no handler for the word {word!r}"
        for key in sub:
            if key != "do" and key not in DECLARED[word].keys:
                found = True
                yield f"{sub_path}.{key}: '{word}' takes no key {key!r}"
    if not found:  # the words and keys are known: now their values
        yield from _schema_problem(schema.validate, node, path)


def check_counter(counter, path):
    yield from _schema_problem(schema.check_counter, counter, path)


def check_cond(cond, path):
    yield from _schema_problem(schema.check_cond, cond, path)


def check_ability(ability, path):
    problems = []
    for key in ("effect", "others"):
        if isinstance(ability, dict) and isinstance(ability.get(key), dict):
            problems += check_effect(ability[key], f"{path}.{key}")
    yield from problems
    if not problems:
        yield from _schema_problem(schema.validate_ability, ability, path)


def check_dragon(card):
    """Gaps in one dragon: its abilities, its conditional cost, its hatchling food and its training boxes."""
    for i, ability in enumerate(card.abilities):
        yield from check_ability(ability, f"abilities[{i}]")
    if card.free_if:
        yield from check_cond(card.free_if, "free_if")
    if card.feeds_on and card.feeds_on not in FEEDS_ON:
        yield f"feeds_on: no word ever feeds a hatchling with {card.feeds_on!r}"
    for i, item in enumerate(card.training or ()):
        if item not in COST_ITEMS:
            yield f"training[{i}]: a training box of {item!r} cannot be paid"


def gaps(cat):
    """[(what, label, problem)] for every card, tile row, objective side and board effect the engine cannot run."""
    out = []
    for card in cat.dragons:
        label = f"dragon {card.number}" + (" (updated)" if card.printing == "updated" else "") + f" {card.name}"
        out += [("dragon", label, p) for p in check_dragon(card)]
    for card in cat.caves:
        label = f"cave {card.number}" + (" (updated)" if card.printing == "updated" else "")
        for i, ability in enumerate(card.abilities):
            out += [("cave", label, p) for p in check_ability(ability, f"abilities[{i}]")]
    for tile in cat.guild_tiles:
        for row in tile.get("rows", ()):
            label = f"guild tile {tile['number']} {tile['name']} row {row.get('position')}"
            out += [("guild row", label, p) for p in check_effect(row["effect"])]
    for tile in cat.objective_tiles:
        for side, data in sorted(tile.get("sides", {}).items()):
            label = f"objective tile {tile['number']} side {side}"
            out += [("objective side", label, p) for p in check_counter(data["counts"], "counts")]
    for cave, icons in zip(CAVES, cat.mat_icons):
        for slot, icon in enumerate(icons):
            if icon is not None:
                out += [("mat icon", f"{cave} path icon {slot + 1}", p) for p in check_effect(icon)]
    for space, effect in enumerate(cat.guild_spaces):
        if effect is not None:
            out += [("guild track", f"guild track space {space}", p) for p in check_effect(effect)]
    board = [("column 4 when covered", cat.column_4_effect), ("round income", cat.income_effect)]
    board += [(f"Academy income, round {rnd} space {i + 1}", effect)
              for rnd, effects in sorted(cat.academy_income.items()) for i, effect in enumerate(effects)]
    for label, effect in board:
        if effect is not None:
            out += [("board", label, p) for p in check_effect(effect)]
    return out
