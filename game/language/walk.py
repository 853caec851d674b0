"""The one walk over nested effects, derived from the declarations: a key whose type is an effect (or a list of
effects) holds sub-effects; nothing else does."""
from .words import WORDS, search_name


def children(node, path="effect"):
    """(path, sub-effect) for each effect directly inside `node`, in the order its word declares its keys."""
    word = WORDS.get(node.get("do")) if isinstance(node, dict) else None
    if word is None:
        return
    for key, kind in word.keys.items():
        value = node.get(key)
        if value is None:
            continue
        if kind == "effect":
            yield f"{path}.{key}", value
        elif kind == "effects":
            for i, sub in enumerate(value):
                yield f"{path}.{key}[{i}]", sub


def walk(node, path="effect"):
    """(path, node) for the effect and every effect nested in it, depth first, the effect itself first."""
    yield path, node
    for sub_path, sub in children(node, path):
        yield from walk(sub, sub_path)


def words_in(node):
    """The words an effect uses, each once, in the order the walk meets them."""
    seen = []
    for _path, sub in walk(node):
        word = sub.get("do") if isinstance(sub, dict) else None
        if word is not None and word not in seen:
            seen.append(word)
    return seen


def ability_words(abilities):
    """The words a card's abilities use (each ability's `effect` and its opponents' `others` part), each once."""
    seen = []
    for ability in abilities or ():
        if not isinstance(ability, dict):
            continue
        for part in ("effect", "others"):
            for word in words_in(ability.get(part)) if isinstance(ability.get(part), dict) else ():
                if word not in seen:
                    seen.append(word)
    return seen


def asks_first(effect):
    """Whether an end-game ability with this effect asks its owner before it runs (it pays, gains or chooses)."""
    return any(WORDS[word].asks_first for word in words_in(effect) if word in WORDS)


def ability_search_words(abilities):
    """The search's words for a card's abilities (a family word by its kind: `cover_dragon`), each once."""
    seen = []
    for ability in abilities or ():
        if not isinstance(ability, dict):
            continue
        for part in ("effect", "others"):
            if isinstance(ability.get(part), dict):
                for _path, sub in walk(ability[part]):
                    name = search_name(sub) if isinstance(sub, dict) else None
                    if name is not None and name not in seen:
                        seen.append(name)
    return seen


def _cond_counters(cond):
    """The counters on the sides of a condition and the conditions inside it (see `schema.check_cond`)."""
    if not isinstance(cond, dict):
        return
    for op, arg in cond.items():
        if op in ("at_least", "at_most", "equal"):
            yield from (side for side in arg if isinstance(side, dict))
        elif op in ("all", "any"):
            for sub in arg:
                yield from _cond_counters(sub)
        elif op == "not":
            yield from _cond_counters(arg)


def counters(node):
    """Every counter in an effect and the effects nested in it, in walk order: a key of type `counter`, an `amount`
    that counts rather than names a number, and the sides of a `cond`."""
    for _path, sub in walk(node):
        word = WORDS.get(sub.get("do")) if isinstance(sub, dict) else None
        if word is None:
            continue
        for key, kind in word.keys.items():
            value = sub.get(key)
            if kind in ("counter", "amount") and isinstance(value, dict):
                yield value
            elif kind == "cond":
                yield from _cond_counters(value)
