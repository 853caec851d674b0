"""Which parts of the catalogue the interpreter cannot run: a walk of every effect tree against the interpreter itself.

Nothing here lists cards or words by hand. A word is runnable when the interpreter's registry (`WORDS`) has a
handler for it. A key of a node, or a mode value such as a scope, a counter's `count` or a card source, is runnable
when the code that runs that part of the tree reads it: the string is among the constants of the handler's code or of
the engine functions it calls (followed through the engine's modules). So when a word learns a key, coverage sees it;
when a card uses a key no handler reads, coverage lists the card, the path of the node and what is missing.

Plain data values (resource, cave, size and trait names) are compared as data by the interpreter and are not
checked here; the schema (effects/schema.py) already rejects unknown ones.
"""
import types
from functools import lru_cache

from . import interpreter as fx
from . import state as state_module
from .effects import schema

# Values that the interpreter compares as data rather than branching on by name.
DATA_VALUES = (set(schema.RESOURCES) | set(schema.CAVES) | set(schema.SIZES) | set(schema.TRAITS)
               | set(schema.ABILITY_KINDS))
# Keys whose value is a variable name, a number or a sub-tree, never a mode to branch on.
FREE_VALUE_KEYS = {"as", "var", "count", "vp", "max", "div", "pick", "times", "cost_total_min", "cost_total_max"}
# Keys whose values the interpreter looks up as data (`card.cost.get(value)`, `card.trait in values`).
DATA_KEYS = {"cost_has", "trait", "not_trait", "size", "not_size", "cave", "kind", "kinds"}
SUBTREE_KEYS = {"then", "else", "effect", "steps", "options"}


def _functions_in(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _functions_in(const)


@lru_cache(maxsize=None)
def reads(*roots):
    """Every string constant in the code of `roots` and of the engine functions they call, transitively."""
    seen, strings = set(), set()
    todo = list(roots)
    while todo:
        fn = todo.pop()
        if fn is None or id(fn) in seen or not isinstance(fn, types.FunctionType):
            continue
        seen.add(id(fn))
        for code in _functions_in(fn.__code__):
            for const in code.co_consts:
                if isinstance(const, str):
                    strings.add(const)
                elif isinstance(const, tuple):
                    strings.update(c for c in const if isinstance(c, str))
            for name in code.co_names:
                target = fn.__globals__.get(name)
                if isinstance(target, types.FunctionType) and target.__module__.startswith("game.engine"):
                    todo.append(target)
                method = _state_methods().get(name)  # `st.place_dragon(...)`: the state's own rules
                if method is not None:
                    todo.append(method)
    return frozenset(strings)


@lru_cache(maxsize=1)
def _state_methods():
    return {name: fn for name, fn in vars(state_module.GameState).items() if isinstance(fn, types.FunctionType)}


def enum_values(word, key):
    """The values the schema allows for a word's key, when it is a fixed list (else ())."""
    checker = schema.CHECKERS.get(schema.WORDS.get(word, {}).get(key))
    for cell in getattr(checker, "__closure__", None) or ():
        if isinstance(cell.cell_contents, tuple):
            return cell.cell_contents
    return ()


def word_reads(word):
    return reads(fx.WORDS.get(word), fx.CAN.get(word))


def counter_reads():
    return reads(fx.count)


def cond_reads():
    return reads(fx.test)


def flow_reads():
    """What the game flow (turns, walks, round and game end, hatchling feeding) knows of ability kinds and fields."""
    return reads(*state_module.HANDLERS.values(), *[m for m in vars(state_module.GameState).values()
                                                    if isinstance(m, types.FunctionType)])


# -- the walk -------------------------------------------------------------------------------------------------

def _value_gaps(value, known, path, what):
    """A mode value (or list of them) the interpreter never branches on."""
    values = value if isinstance(value, list) else [value]
    for v in values:
        if isinstance(v, str) and v not in DATA_VALUES and v not in known:
            yield f"{path}: {what} {v!r} is never read by the interpreter"


def check_counter(counter, path):
    known = counter_reads()
    for key, value in counter.items():
        if key not in known:
            yield f"{path}.{key}: the counter key {key!r} is never read by the interpreter"
        elif key not in FREE_VALUE_KEYS and key not in DATA_KEYS:
            yield from _value_gaps(value, known, f"{path}.{key}", f"the counter value for {key!r}")


def _check_amount(value, path):
    if isinstance(value, dict):
        yield from check_counter(value, path)


def check_cond(cond, path):
    (op, arg), = cond.items()
    if op not in cond_reads():
        yield f"{path}.{op}: the condition {op!r} is never tested by the interpreter"
        return
    if op in ("at_least", "at_most", "equal"):
        for i, side in enumerate(arg):
            yield from _check_amount(side, f"{path}.{op}[{i}]")
    elif op in ("all", "any"):
        for i, sub in enumerate(arg):
            yield from check_cond(sub, f"{path}.{op}[{i}]")
    elif op == "not":
        yield from check_cond(arg, f"{path}.not")
    elif op == "card":
        for key in arg:
            if key not in cond_reads():
                yield f"{path}.card.{key}: the revealed-card filter {key!r} is never read by the interpreter"


def _check_target(target, known, path, word):
    if isinstance(target, str):
        yield from _value_gaps(target, known, path, f"'{word}' target")
        return
    if not isinstance(target, dict) or set(target) == {"var"}:
        return
    for key, value in target.items():
        if key not in known:
            yield f"{path}.{key}: '{word}' never reads the target key {key!r}"
        elif key not in DATA_KEYS and isinstance(value, (str, list)):
            yield from _value_gaps(value, known, f"{path}.{key}", f"'{word}' target value")


def check_effect(node, path="effect"):
    """Everything in one effect tree that the interpreter cannot run, as readable lines naming the path."""
    word = node.get("do")
    handler = fx.WORDS.get(word)
    if handler is None:
        yield f"{path}.do: the interpreter has no handler for the word {word!r}"
        return
    known = word_reads(word)
    for key, value in node.items():
        if key == "do":
            continue
        here = f"{path}.{key}"
        if key not in known:
            yield f"{here}: '{word}' never reads the key {key!r}"
            continue
        if key in ("then", "else", "effect"):
            yield from check_effect(value, here)
        elif key in ("steps", "options"):
            for i, sub in enumerate(value):
                yield from check_effect(sub, f"{here}[{i}]")
        elif key in ("cond", "if"):
            yield from check_cond(value, here)
        elif key in ("times", "count"):
            yield from _check_amount(value, here)
        elif key == "per":
            yield from check_counter(value, here)
        elif key in ("on", "under"):
            yield from _check_target(value, known, here, word)
        elif key == "cost":
            if isinstance(value, list):
                for i, item in enumerate(value):
                    yield from _value_gaps(item.get("item"), known, f"{here}[{i}].item", f"'{word}' cost item")
                    if "from" in item:
                        yield from _check_target(item["from"], known, f"{here}[{i}].from", word)
            else:
                yield from _value_gaps(value, known, here, f"'{word}' value")
        elif key == "to":
            for i, place in enumerate(value):
                for pkey, pvalue in place.items():
                    if pkey not in known:
                        yield f"{here}[{i}].{pkey}: '{word}' never reads the place key {pkey!r}"
                    elif pkey == "under":
                        yield from _check_target(pvalue, known, f"{here}[{i}].under", word)
                    elif isinstance(pvalue, str):
                        yield from _value_gaps(pvalue, known, f"{here}[{i}].{pkey}", f"'{word}' place")
        elif key not in FREE_VALUE_KEYS and key not in DATA_KEYS and isinstance(value, (str, list)):
            allowed = enum_values(word, key)
            if len(allowed) == 2 and set(allowed) & known:
                continue  # a two-way switch: reading one value is handling both (the other is the default)
            yield from _value_gaps(value, known, here, f"'{word}' value for {key!r}")


def check_ability(ability, path):
    kind = ability.get("kind")
    if kind not in flow_reads():
        yield f"{path}.kind: the game never fires abilities of kind {kind!r}"
    if ability.get("effect") is not None:
        yield from check_effect(ability["effect"], f"{path}.effect")
    if ability.get("others") is not None:
        yield from check_effect(ability["others"], f"{path}.others")


def check_dragon(card):
    """Gaps in one dragon: its abilities, its conditional cost, its hatchling food and its training boxes."""
    for i, ability in enumerate(card.abilities):
        yield from check_ability(ability, f"abilities[{i}]")
    if card.free_if:
        yield from check_cond(card.free_if, "free_if")
    if card.feeds_on and card.feeds_on not in DATA_VALUES and card.feeds_on not in reads(*fx.WORDS.values()):
        yield f"feeds_on: no word ever feeds a hatchling with {card.feeds_on!r}"
    if card.training:
        known = word_reads("pay")
        for i, item in enumerate(card.training):
            if item not in DATA_VALUES and item not in known:
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
    for cave, icons in zip(schema.CAVES, cat.mat_icons):
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
