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
    elif word == "play_dragon" or word == "swap" and node["what"] != "cave_card":
        acts.add("mat_dragons")
        may |= {"hand", "res", "coins", "eggs", "tucked", "cached", "tokens", ANY}
    elif word == "swap":  # a cave card
        acts.add("mat_caves")
        may |= {"caves", ANY}
    elif word == "train":
        acts.add("tokens")
        may |= {"res", "coins", "eggs", "hand", "caves"}
        if node.get("if_done"):
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
    for key in ("then", "else", "buys", "if_done", "effect"):
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


def _listed(value):
    return [value] if isinstance(value, str) else list(value)


def oracle_score(cat, pl, src, node):
    """VP a bare `score` should give, counted here apart from the interpreter, for the simple counters most
    end-game dragons use: dragons on the mat or in this cave with trait, size, kind and `other` filters, and eggs,
    cached resources or tucked cards on this dragon. None when the node is outside that subset."""
    if node.get("do") != "score" or "if" in node or "per" not in node:
        return None
    per = node["per"]
    allowed = {"what", "scope", "trait", "not_trait", "size", "not_size", "kind", "other", "item"}
    if set(per) - allowed or per.get("scope", "mat") not in ("mat", "cave", "here"):
        return None
    home = next(i for i, s in enumerate(pl.spaces) if s.dragon == src)
    scope = per.get("scope", "mat")
    what = per["what"]
    if what == "dragons" and scope in ("mat", "cave"):
        n = 0
        for i, s in enumerate(pl.spaces):
            if s.dragon is None or (scope == "cave" and i // 4 != home // 4):
                continue
            card = cat.dragons[s.dragon]
            if "trait" in per and card.trait not in _listed(per["trait"]):
                continue
            if "not_trait" in per and card.trait in _listed(per["not_trait"]):
                continue
            if "size" in per and card.size not in _listed(per["size"]):
                continue
            if "not_size" in per and card.size in _listed(per["not_size"]):
                continue
            if "kind" in per and not set(_listed(per["kind"])) & {a["kind"] for a in card.abilities}:
                continue
            if per.get("other") and s.dragon == src:
                continue
            n += 1
    elif scope == "here" and what in ("eggs", "cached", "tucked") and set(per) <= {"what", "scope", "item"}:
        s = pl.spaces[home]
        if what == "eggs":
            n = s.eggs
        elif what == "tucked":
            n = len(s.tucked)
        else:
            n = s.cached[("meat", "gold", "crystal", "milk").index(per["item"])] if "item" in per else sum(s.cached)
    else:
        return None
    vp = node["vp"] * n
    return min(vp, node["max"]) if "max" in node else vp


def fixed_here(node):
    """For a single lay_egg / cache (one named resource) / tuck word acting on this dragon with a fixed count and
    nothing after it: (what, resource or None, count). None for anything else."""
    if node.get("if_done") or not isinstance(node.get("count", 1), int):
        return None
    word = node["do"]
    if word == "lay_egg" and node.get("on") == {"scope": "here"} and not node.get("up_to"):
        return "eggs", None, node.get("count", 1)
    if word == "cache" and node.get("on") == {"scope": "here"} and node.get("item") in RESOURCE_ITEMS[:4] \
            and not node.get("up_to"):
        return "cached", node["item"], node.get("count", 1)
    if word == "tuck" and node.get("on") == {"scope": "here"} and node.get("from") == "deck" \
            and not node.get("up_to"):
        return "tucked", None, node.get("count", 1)
    return None
