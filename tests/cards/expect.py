"""What an ability may change and must change, read from the words of its effect tree.

This is the tests' own reading of docs/effects.md, written apart from the interpreter: `gain` of a resource touches
the supply, `cache` the cached resources (and the supply it came from), `score` the end-game VP, and so on. Words
that run other abilities (a played dragon's when-played ability, an activated ability, a guild advancement's space)
can change anything, so a tree holding one allows every channel but must still change one of its own.
"""
ANY = "any"
RESOURCE_ITEMS = ("meat", "gold", "crystal", "milk", "any_resource")


def _item_channels(item):
    if isinstance(item, dict):  # a bound variable: resources or cards gained again
        return {"res", "hand", "caves", "coins"}
    if item in RESOURCE_ITEMS:
        return {"res"}
    return {"coin": {"coins"}, "egg": {"eggs"}, "dragon": {"hand"}, "cave": {"caves"}, "guild": {ANY}}[item]


def _cost_channels(cost):
    out = set()
    for item in cost:
        name = item["item"]
        if name in RESOURCE_ITEMS:
            out.add("res")
        elif name == "coin":
            out.add("coins")
        elif name == "egg":
            out.add("eggs")
        elif name == "dragon":
            out.add("hand")
        elif name == "cave":
            out.add("caves")
        elif name == "card":
            out |= {"hand", "caves"}
        elif name == "tithe":
            out |= {"res", "hand", "caves", "eggs"}
    return out


def channels(node):
    """(may, acts): channels the tree may change, and those its acting words change when they act."""
    word = node["do"]
    may, acts = set(), set()
    if word == "gain":
        acts |= _item_channels(node["item"])
        if node.get("item") in ("dragon", "cave") or isinstance(node.get("item"), dict):
            may |= {"hand", "caves"}
    elif word == "pay":
        may |= _cost_channels(node["cost"])
    elif word == "lay_egg":
        acts.add("eggs")
    elif word == "cache":
        acts.add("cached")
        may.add("res")
        may.add(ANY)  # caching on a hatchling feeds it, and its feeding ability may do anything
    elif word == "tuck":
        acts.add("tucked")
        may |= {"hand", ANY}  # tucking under a hatchling feeds it
    elif word == "excavate":
        acts.add("mat_caves")
        may |= {"caves", "eggs", "coins", ANY}  # the cave card's when-played ability, the 4th column's benefit
    elif word in ("play_dragon", "cover_dragon", "swap_with_hand", "swap_dragons"):
        acts.add("mat_dragons")
        may |= {"hand", "res", "coins", "eggs", "tucked", "cached", "tokens", ANY}
    elif word == "swap_cave_card":
        acts.add("mat_caves")
        may |= {"caves", ANY}
    elif word == "train":
        acts.add("tokens")
        may |= {"res", "coins", "eggs", "hand", "caves"}
        if node.get("then"):
            may.add(ANY)
    elif word == "activate":
        may.add(ANY)
        acts.add(ANY)
    elif word == "reveal":
        may |= {"hand", "tucked", ANY}
    elif word == "distribute":
        acts |= {"hand", "caves", "tucked", "mat_dragons", "mat_caves"}
        may.add(ANY)
    elif word == "score":
        acts.add("end_vp")
    for key in ("then", "else", "effect"):
        if isinstance(node.get(key), dict):
            m, a = channels(node[key])
            may |= m
            acts |= a
    for key in ("steps", "options"):
        for sub in node.get(key, ()):
            m, a = channels(sub)
            may |= m
            acts |= a
    return may | acts, acts


def fixed_gains(node):
    """For trees of plain gains with fixed counts (no choice, no variable), the exact change: {"meat": 1, "coin": 2}.
    None for anything else."""
    word = node["do"]
    if word == "seq":
        total = {}
        for step in node["steps"]:
            sub = fixed_gains(step)
            if sub is None:
                return None
            for k, v in sub.items():
                total[k] = total.get(k, 0) + v
        return total
    if word == "gain" and set(node) <= {"do", "item", "count"} and isinstance(node.get("count", 1), int) \
            and node["item"] in ("meat", "gold", "crystal", "milk", "coin"):
        return {node["item"]: node.get("count", 1)}
    return None
