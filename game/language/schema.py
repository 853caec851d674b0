"""The effect language's schema: which words exist, which keys each takes, and what values they hold.

Every ability of every card, guild row, objective side and mat icon is a tree of these nodes. `validate` walks a
tree and raises `EffectSchemaError` naming the path of the first bad node, so a loader can say exactly what is wrong.
Which keys each word takes is declared once in words.py; this module knows what each key type holds.
See docs/effects.md for the grammar in prose and one example per word.
"""

from .vocabulary import ABILITY_KINDS, CAVES, COST_ITEMS, GAIN_ITEMS, PRINTED_KINDS, RESOURCES, SIZES, TRAITS
from .walk import children
from .words import WORDS as DECLARED, From

SCOPES = ("here", "mat", "cave", "column", "row", "adjacent", "beside", "right_of")
COUNT_WHATS = (
    "dragons",          # dragons (never tucked cards) matching the filters
    "eggs",             # eggs on matching dragons (scope mat also counts the mat's own nests)
    "cached",           # resources cached on matching dragons
    "tucked",           # cards tucked under matching dragons
    "nest_capacity",    # printed nests of matching dragons
    "training_tokens",  # training tokens on matching fledglings
    "cave_cards",       # cave cards on the mat, covered ones included
    "cards_in_cave",    # dragons plus cave cards in the scope, covered ones included
    "excavated",        # excavated spaces (the starting first spaces included)
    "filled_columns",   # columns holding a dragon in all three caves
    "trait_sets",       # complete sets of the four traits among the dragons
    "size_sets",        # complete sets of the four sizes of SIZE_SET
    "guild_markers",    # player markers placed on the Dragon Guild tile
    "guild_position",   # objective only: markers on the guild, ties broken by track position
    "objectives_lowest",  # round objectives where the player's marker is the lowest placed (ties included)
    "resource_icons",   # resource icons printed in the costs of matching dragons
    "best_cave_resource_icons",  # the largest resource_icons count among the three caves
)
CARD_FILTER_KEYS = {"size", "trait"}


class EffectSchemaError(ValueError):
    """An effect tree breaks the language's schema; the message names the path and the rule."""

    def __init__(self, path, message):
        self.path = path
        super().__init__(f"{path}: {message}")


# A read-only view of the declarations (words.py) for callers that list a word's keys: word -> {key: type}.
WORDS = {name: word.keys for name, word in DECLARED.items()}
TARGET_KEYS = {"scope", "cave", "trait", "not_trait", "size", "not_size", "other", "each", "nests", "trained",
               "untrained", "kind"}
COUNTER_KEYS = TARGET_KEYS - {"each", "nests"} | {"what", "of", "div", "cost_has", "cost_total_min",
                                                  "cost_total_max", "include_mat_nests", "item"}
PLACE_KINDS = ("tuck", "discard", "keep", "play", "excavate")


def _list_of(values, allowed, path, what):
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, list) or not values:
        raise EffectSchemaError(path, f"expected a {what} or a non-empty list of them")
    for value in values:
        if value not in allowed:
            raise EffectSchemaError(path, f"{value!r} is not a {what}; known: {', '.join(allowed)}")


def _check_var(value, path):
    if not isinstance(value, str) or not value.isidentifier():
        raise EffectSchemaError(path, "a variable name must be a plain word such as 'it'")


def _check_var_ref(value, path):
    if not (isinstance(value, dict) and set(value) == {"var"}):
        raise EffectSchemaError(path, 'expected a variable reference such as {"var": "it"}')
    _check_var(value["var"], path + ".var")


def check_target(value, path):
    if not isinstance(value, dict):
        raise EffectSchemaError(path, "a target is an object such as {\"scope\": \"cave\"}")
    unknown = set(value) - TARGET_KEYS
    if unknown:
        raise EffectSchemaError(path, f"unknown target key {sorted(unknown)[0]!r}; known: {', '.join(sorted(TARGET_KEYS))}")
    _check_filters(value, path)


def _check_filters(value, path):
    if "scope" in value and value["scope"] not in SCOPES:
        raise EffectSchemaError(path + ".scope", f"{value['scope']!r} is not a scope; known: {', '.join(SCOPES)}")
    if "cave" in value and value["cave"] not in CAVES:
        raise EffectSchemaError(path + ".cave", f"{value['cave']!r} is not a cave; known: {', '.join(CAVES)}")
    for key in ("trait", "not_trait"):
        if key in value:
            _list_of(value[key], TRAITS, f"{path}.{key}", "trait")
    for key in ("size", "not_size"):
        if key in value:
            _list_of(value[key], SIZES, f"{path}.{key}", "size")
    if "kind" in value:
        _list_of(value["kind"], PRINTED_KINDS, path + ".kind", "printed ability kind")
    for key in ("other", "each", "nests", "trained", "untrained", "include_mat_nests"):
        if key in value and not isinstance(value[key], bool):
            raise EffectSchemaError(f"{path}.{key}", "expected true or false")


def check_counter(value, path):
    if isinstance(value, bool) or not isinstance(value, dict):
        raise EffectSchemaError(path, 'a counter is an object such as {"what": "dragons", "scope": "cave"}')
    unknown = set(value) - COUNTER_KEYS
    if unknown:
        raise EffectSchemaError(path, f"unknown counter key {sorted(unknown)[0]!r}; known: {', '.join(sorted(COUNTER_KEYS))}")
    if value.get("what") not in COUNT_WHATS:
        raise EffectSchemaError(path + ".what", f"{value.get('what')!r} is not countable; known: {', '.join(COUNT_WHATS)}")
    _check_filters(value, path)
    if "of" in value and value["of"] not in ("self", "left_neighbour"):
        raise EffectSchemaError(path + ".of", "expected 'self' or 'left_neighbour'")
    if "div" in value:
        _check_posint(value["div"], path + ".div")
    if "cost_has" in value and value["cost_has"] not in RESOURCES + ("coin", "egg"):
        raise EffectSchemaError(path + ".cost_has", "expected a resource, 'coin' or 'egg'")
    if "item" in value:
        if value["what"] != "cached":
            raise EffectSchemaError(path + ".item", "only a 'cached' counter names one resource")
        if value["item"] not in RESOURCES:
            raise EffectSchemaError(path + ".item", f"{value['item']!r} is not a resource; known: {', '.join(RESOURCES)}")
    for key in ("cost_total_min", "cost_total_max"):
        if key in value and (not isinstance(value[key], int) or isinstance(value[key], bool) or value[key] < 0):
            raise EffectSchemaError(f"{path}.{key}", "expected a whole number, 0 or more")


def _check_posint(value, path):
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise EffectSchemaError(path, "expected a whole number, 1 or more")


def _check_amount(value, path):
    if isinstance(value, dict):
        check_counter(value, path)
    elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise EffectSchemaError(path, "expected a whole number or a counter")


def check_cond(value, path):
    if not isinstance(value, dict) or len(value) != 1:
        raise EffectSchemaError(path, "a condition is an object with exactly one key such as {\"at_least\": [...]}")
    (op, arg), = value.items()
    if op in ("at_least", "at_most", "equal"):
        if not isinstance(arg, list) or len(arg) != 2:
            raise EffectSchemaError(f"{path}.{op}", "expected a pair [counter or number, counter or number]")
        for i, side in enumerate(arg):
            _check_amount(side, f"{path}.{op}[{i}]")
    elif op in ("all", "any"):
        if not isinstance(arg, list) or not arg:
            raise EffectSchemaError(f"{path}.{op}", "expected a non-empty list of conditions")
        for i, sub in enumerate(arg):
            check_cond(sub, f"{path}.{op}[{i}]")
    elif op == "not":
        check_cond(arg, f"{path}.not")
    elif op == "card":
        if not isinstance(arg, dict) or not arg or set(arg) - CARD_FILTER_KEYS:
            raise EffectSchemaError(f"{path}.card", "expected {\"size\": [...]} or {\"trait\": [...]}")
        _check_filters(arg, f"{path}.card")
    else:
        raise EffectSchemaError(path, f"unknown condition {op!r}; known: at_least, at_most, equal, all, any, not, card")


def _check_costs(value, path):
    if not isinstance(value, list) or not value:
        raise EffectSchemaError(path, "a cost is a non-empty list of items to pay")
    for i, item in enumerate(value):
        here = f"{path}[{i}]"
        if not isinstance(item, dict) or set(item) - {"item", "count", "on"}:
            raise EffectSchemaError(here, 'a cost item is {"item": ..., "count": n, "on": target}')
        if item.get("item") not in COST_ITEMS:
            raise EffectSchemaError(here + ".item", f"{item.get('item')!r} cannot be paid; known: {', '.join(COST_ITEMS)}")
        if "count" in item:
            _check_posint(item["count"], here + ".count")
        if "on" in item:
            if item["item"] != "egg":
                raise EffectSchemaError(here + ".on", "only eggs are paid from dragons")
            check_target(item["on"], here + ".on")


def _check_places(value, path):
    if not isinstance(value, list) or not value:
        raise EffectSchemaError(path, "expected a non-empty list of places")
    for i, place in enumerate(value):
        here = f"{path}[{i}]"
        if not isinstance(place, dict) or place.get("place") not in PLACE_KINDS:
            raise EffectSchemaError(here, f"a place needs \"place\": one of {', '.join(PLACE_KINDS)}")
        unknown = set(place) - {"place", "count", "up_to", "on", "free"}
        if unknown:
            raise EffectSchemaError(here, f"unknown place key {sorted(unknown)[0]!r}")
        if "count" in place:
            _check_posint(place["count"], here + ".count")
        if "on" in place:
            check_target(place["on"], here + ".on")


def _enum(allowed):
    def check(value, path):
        if value not in allowed:
            raise EffectSchemaError(path, f"{value!r} is not allowed here; known: {', '.join(allowed)}")
    return check


def _item_or_var(allowed):
    def check(value, path):
        if isinstance(value, dict):
            _check_var_ref(value, path)
        elif value not in allowed:
            raise EffectSchemaError(path, f"{value!r} is not allowed here; known: {', '.join(allowed)}")
    return check


def _check_bool(value, path):
    if not isinstance(value, bool):
        raise EffectSchemaError(path, "expected true or false")


def _check_int(value, path):
    if not isinstance(value, int) or isinstance(value, bool):
        raise EffectSchemaError(path, "expected a whole number")


def _check_effects(value, path):
    if not isinstance(value, list) or not value:
        raise EffectSchemaError(path, "expected a non-empty list of effects")
    for i, sub in enumerate(value):
        validate(sub, f"{path}[{i}]")


def check_from(kind, value, path):
    """A word's `from` against its declared `From`: one of its sources, a list of them where it picks, or a var."""
    if isinstance(value, dict) and kind.var:
        _check_var_ref(value, path)
        return
    if isinstance(value, list) and kind.pick:
        if len(value) < 2 or len(set(value)) != len(value):
            raise EffectSchemaError(path, "a list of places names two or more, each once")
        places = value
    else:
        places = [value]
    for place in places:
        if not isinstance(place, str) or place not in kind.sources:
            forms = ", ".join(kind.sources) + (", a list of them" if kind.pick else "") + (
                ' or a variable such as {"var": "it"}' if kind.var else "")
            raise EffectSchemaError(path, f"{place!r} is not a place this word takes from; known: {forms}")


def _check_activate_target(value, path):
    if value == "mat":
        return
    if isinstance(value, dict) and set(value) == {"var"}:
        _check_var_ref(value, path)
        return
    check_target(value, path)


CHECKERS = {
    "effect": lambda v, p: validate(v, p),
    "effects": _check_effects,
    "posint": _check_posint,
    "int": _check_int,
    "bool": _check_bool,
    "amount": _check_amount,
    "cond": check_cond,
    "costs": _check_costs,
    "var": _check_var,
    "var_ref": _check_var_ref,
    "target": check_target,
    "counter": check_counter,
    "gain_item": _item_or_var(GAIN_ITEMS),
    "resource_item": _item_or_var(RESOURCES + ("any_resource",)),
    "play_cost": _enum(("free", "printed", "discount_one", "no_resources")),
    "activate_kinds": lambda v, p: _list_of(v, PRINTED_KINDS, p, "printed ability kind"),
    "activate_target": _check_activate_target,
    "places": _check_places,
    "rest": _enum(("keep", "discard")),
    "swap_what": _enum(tuple(DECLARED["swap"].family)),
}


def validate(node, path="effect"):
    """Raise EffectSchemaError unless `node` is a well-formed effect tree."""
    if not isinstance(node, dict):
        raise EffectSchemaError(path, "an effect is an object with a \"do\" key")
    word = node.get("do")
    if word not in DECLARED:
        raise EffectSchemaError(path + ".do", f"unknown word {word!r}; known: {', '.join(DECLARED)}")
    spec = DECLARED[word].keys
    for key, value in node.items():
        if key == "do":
            continue
        if key not in spec:
            raise EffectSchemaError(f"{path}.{key}", f"'{word}' takes no key {key!r}; it takes: {', '.join(spec)}")
        kind = spec[key]
        if isinstance(kind, From):
            check_from(kind, value, f"{path}.{key}")
        else:
            CHECKERS[kind](value, f"{path}.{key}")
    missing = DECLARED[word].required - set(node)
    if missing:
        raise EffectSchemaError(path, f"'{word}' needs {', '.join(sorted(missing))}")


def validate_ability(ability, path="ability"):
    """An ability record: {"kind": ..., "effect": E, "others": E?}."""
    if not isinstance(ability, dict):
        raise EffectSchemaError(path, "an ability is an object with \"kind\" and \"effect\"")
    unknown = set(ability) - {"kind", "effect", "others"}
    if unknown:
        raise EffectSchemaError(path, f"unknown ability key {sorted(unknown)[0]!r}; known: kind, effect, others")
    if ability.get("kind") not in ABILITY_KINDS:
        raise EffectSchemaError(path + ".kind", f"{ability.get('kind')!r} is not an ability kind; known: {', '.join(ABILITY_KINDS)}")
    if "effect" not in ability:
        raise EffectSchemaError(path, "an ability needs an effect")
    validate(ability["effect"], path + ".effect")
    if "others" in ability:
        validate(ability["others"], path + ".others")
    if ability["kind"] == "end_game":
        _check_score_only(ability["effect"], path + ".effect")


SCORE_ONLY_SHAPES = ("score", "seq", "choose", "may", "if", "pay")


def _check_score_only(node, path):
    """End-game abilities score; they may pay first, choose, or test, and gain only items that are then scored."""
    word = node["do"]
    if word in SCORE_ONLY_SHAPES:
        for sub_path, sub in children(node, path):
            _check_score_only(sub, sub_path)
        return
    if word == "gain" and node.get("item") in RESOURCES + ("any_resource", "dragon", "cave"):
        return  # a few end-game abilities hand out leftovers that score as items (e.g. dragon 103)
    raise EffectSchemaError(path, f"an end-game ability may not use '{word}'")


def validate_abilities(abilities, path="abilities"):
    if not isinstance(abilities, list):
        raise EffectSchemaError(path, "expected a list of abilities")
    for i, ability in enumerate(abilities):
        validate_ability(ability, f"{path}[{i}]")


assert {kind for word in DECLARED.values() for kind in word.keys.values()
        if not isinstance(kind, From)} <= set(CHECKERS), \
    "every key type a word declares needs its checker"
