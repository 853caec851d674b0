"""The one walk over nested effects, derived from the declarations: a key whose type is an effect (or a list of
effects) holds sub-effects; nothing else does."""
from .words import WORDS


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


def asks_first(effect):
    """Whether an end-game ability with this effect asks its owner before it runs (it pays, gains or chooses)."""
    return any(WORDS[word].asks_first for word in words_in(effect) if word in WORDS)
