"""The text a player reads for an ability, written from its effect tree (docs/effects.md).

Plain text for the API and search, HTML with inline icons for pages. Both come from one pass: the clause builders
below write plain English in which every game item is wrapped in a marker naming its icon; `_plain` drops the
markers, `_html` escapes the words and turns the markers into icon spans. So the two forms can never disagree.

Phrasing rules kept everywhere: numbers as digits ("1 meat", "2 eggs", "1 dragon card"); clauses start lower-case
and are capitalised once, at the start of a sentence; an acting word's `then` reads "...; if you do, ...", a `seq`
reads "..., then ...", `pay` reads "pay ... to ...".
"""
import html
import re

from .vocabulary import (
    ABILITY_KINDS,
    CAVE_DISPLAY,
    ITEMS,
    KIND_ADJECTIVES,
    KIND_LABELS,
    RESOURCES,
    SIZE_SET,
    SOURCES,
    TRAITS,
)
from .words import BUYS, IF_DONE, WORDS, declared, sources


class RenderError(ValueError):
    """The effect cannot be put into words: an unknown word, item or key. The message names the bad value."""


_OPEN, _MID, _CLOSE = "\x01", "\x02", "\x03"
_MARK = re.compile(f"{_OPEN}([^{_MID}]*){_MID}([^{_CLOSE}]*){_CLOSE}")


ENGLISH = {}


def english(name):
    """Register the clause builder of a declared word: builder(node, ctx) -> marked text."""
    declared(name)  # raises for a word the language does not declare

    def register(fn):
        ENGLISH[name] = fn
        return fn
    return register


def _icon(name, text):
    return f"{_OPEN}{name}{_MID}{text}{_CLOSE}"


NUMBER_WORDS = {1: "once", 2: "twice"}


def _items(item, count):
    """'2 coins' with the coin icon; `count` is a number."""
    if item not in ITEMS:
        raise RenderError(f"unknown item {item!r}")
    icon, one, many = ITEMS[item]
    return f"{count} " + _icon(icon, one if count == 1 else many)


def _noun(item, plural=False):
    """The item's name alone, with its icon: 'meat', 'dragon cards'."""
    if item not in ITEMS:
        raise RenderError(f"unknown item {item!r}")
    icon, one, many = ITEMS[item]
    return _icon(icon, many if plural else one)


def _one(item):
    """One unit of an item without a digit, as a training box shows it: 'milk', 'a dragon card', 'an egg'."""
    if item in RESOURCES:
        return _noun(item)
    if item == "any_resource":
        return "any " + _noun(item)
    noun = _noun(item)  # raises for an unknown item
    return f"{'an' if ITEMS[item][1][0] in 'aeiou' else 'a'} {noun}"


def _vp(n):
    return f"{n} " + _icon("vp", "VP")


def _join(parts, word="and"):
    parts = list(parts)
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + f" {word} " + parts[-1]


def _as_list(value):
    return [value] if isinstance(value, str) else list(value)


def _times(n):
    return NUMBER_WORDS.get(n, f"{n} times")


class _Ctx:
    """Who the text addresses ('you' or each opponent) and what each bound variable stands for."""

    def __init__(self, you="you", your="your", variables=None):
        self.you = you
        self.your = your
        self.extra_vp = False  # a dragon's end-game score comes on top of its printed VP
        self.vars = dict(variables or {})
        self.kinds = {}  # variable -> what it holds: "resource", "card", "cost_pick"; absent: anything

    def bind(self, name, description, holds=None):
        """Later steps of the same sequence read the binding too, so it is kept in place."""
        self.vars[name] = description
        if holds:
            self.kinds[name] = holds
        return self

    def for_opponents(self):
        """The opponents' part reads the owner's bindings ('1 of that resource') but speaks of their things."""
        ctx = _Ctx("they", "their", self.vars)
        ctx.kinds = dict(self.kinds)
        return ctx

    def var(self, ref, unbound="it"):
        """What a variable stands for; a fragment rendered on its own reads a plain pronoun."""
        return self.vars.get(ref["var"], unbound)


# ---------------------------------------------------------------------------------------------------- targets

def _describe_dragons(filters, ctx, plural, place=""):
    """'shy or playful dragons', 'other fledglings in this cave with an end-game ability': the place follows the
    noun, before any qualifier that trails it."""
    words = []
    if filters.get("other"):
        words.append("other")
    if filters.get("trained"):
        words.append("fully trained")
    if filters.get("untrained"):
        words.append("not fully trained")
    if "not_trait" in filters:
        words.append(", ".join(f"non-{t}" for t in _as_list(filters["not_trait"])))
    if "trait" in filters:
        words.append(_join(_as_list(filters["trait"]), "or"))
    if "not_size" in filters:
        words.append(", ".join(f"non-{s}" for s in _as_list(filters["not_size"])))
    sizes = _as_list(filters.get("size", []))
    if sizes and all(s in ("hatchling", "fledgling") for s in sizes):
        noun = _join([s + ("s" if plural else "") for s in sizes], "or")
    else:
        if sizes:
            words.append(_join(sizes, "or"))
        noun = "dragons" if plural else "dragon"
    text = " ".join(words + [noun]) + (f" {place}" if place else "")
    if "kind" in filters:
        kinds = _join([KIND_ADJECTIVES[k] for k in _as_list(filters["kind"])], "or")
        text += f" with {'an' if kinds[0] in 'aei' else 'a'} {kinds} ability"
    if "cost_has" in filters:
        text += f" with {_noun(filters['cost_has'])} in {'their' if plural else 'its'} cost"
    low, high = filters.get("cost_total_min"), filters.get("cost_total_max")
    whose = "whose costs total" if plural else "whose cost totals"
    if low is not None and high is not None:
        text += f" {whose} {low} to {high} items" if low != high else f" {whose} {_count_items(low)}"
    elif low is not None:
        text += f" {whose} at least {_count_items(low)}"
    elif high is not None:
        text += f" {whose} at most {_count_items(high)}"
    return text


def _count_items(n):
    return f"{n} item" if n == 1 else f"{n} items"


def _place(filters, ctx):
    """Where the dragons are: 'in this cave', 'on your mat', 'in your Golden Grotto'."""
    scope = filters.get("scope", "mat")
    your = ctx.your
    if filters.get("of") == "left_neighbour":
        your = "your left neighbour's" if ctx.your == "your" else "their left neighbour's"
    if "cave" in filters:
        return f"in {your} {CAVE_DISPLAY[filters['cave']]}"
    places = {
        "here": "",
        "mat": f"on {your} mat",
        "cave": "in this cave",
        "row": "in this cave",
        "column": "in this column",
        "adjacent": "orthogonally adjacent to this one",
        "beside": "beside this one in its cave",
        "right_of": "to the right of this one in its cave",
    }
    if scope not in places:
        raise RenderError(f"unknown scope {scope!r}")
    return places[scope]


def _target(target, ctx, prep, count=1):
    """The dragons a word acts on, after a preposition: 'here', 'on each shy dragon in this cave'."""
    target = target or {}
    if target.get("scope") == "here" and len(set(target) - {"scope", "nests"}) == 0:
        return "here"
    each = target.get("each", False)
    place = _place(target, ctx)
    if each:
        text = f"{prep} each {_describe_dragons(target, ctx, False, place)}"
    elif count == 1:
        text = f"{prep} a {_describe_dragons(target, ctx, False, place)}"
        text = re.sub(r"\ba (?=[aeiou])", "an ", text, count=1).replace("an other ", "another ")
    else:
        text = f"{prep} any {_describe_dragons(target, ctx, True, place)}"
    return text


# ---------------------------------------------------------------------------------------------------- counters

def _counted(counter, ctx):
    """(singular, plural) noun phrases for what a counter counts, place included."""
    what = counter.get("what")
    place = _place(counter, ctx)
    dragons = _describe_dragons(counter, ctx, True)
    on_place = f" {place}" if place else " on this dragon"
    filtered = any(k in counter for k in ("trait", "not_trait", "size", "not_size", "kind", "other", "trained",
                                           "untrained", "cost_has", "cost_total_min", "cost_total_max"))
    where = f" on {_describe_dragons(counter, ctx, True, place)}" if filtered else on_place
    your = _place({"scope": "mat", "of": counter.get("of")}, ctx)[3:]  # "your mat" / "your left neighbour's mat"
    owner = your[:-4]  # "your" / "your left neighbour's"
    if what == "dragons":
        if counter.get("scope") == "here":
            place = "(this one)"
        return _describe_dragons(counter, ctx, False, place), _describe_dragons(counter, ctx, True, place)
    if what == "eggs":
        nests = counter.get("include_mat_nests")
        extra = {None: "", True: " (the mat's own nests included)", False: " (not counting the mat's own nests)"}[nests]
        return _noun("egg") + where + extra, _noun("egg", True) + where + extra
    if what == "cached":
        if counter.get("item"):
            return f"{_noun(counter['item'])} cached" + where, f"{_noun(counter['item'], True)} cached" + where
        return "resource cached" + where, "resources cached" + where
    if what == "tucked":
        under = where.replace(" on ", " under ", 1)
        return "card tucked" + under, "cards tucked" + under
    if what == "nest_capacity":
        # objective 3 side A; side B's eggs say the opposite
        whole_mat = counter.get("scope", "mat") == "mat" and not counter.get("cave")
        extra = " (dragons' nests only, not the mat's own)" if whole_mat else ""
        return "nest" + where + extra, "nests" + where + extra
    if what == "training_tokens":
        return "training token" + where, "training tokens" + where
    if what == "cave_cards":
        where_cards = (place or f"on {your}") + " (covered ones included)"
        return _noun("cave") + f" {where_cards}", _noun("cave", True) + f" {where_cards}"
    if what == "cards_in_cave":
        suffix = f" {place}" if place else ""
        return (f"card{suffix} (dragon or cave card, covered ones included)",
                f"cards{suffix} (dragons and cave cards, covered ones included)")
    if what == "excavated":
        where_spaces = place or f"on {your}"
        return f"excavated space {where_spaces}", f"excavated spaces {where_spaces}"
    if what == "filled_columns":
        return (f"column on {your} with a dragon in all three caves",
                f"columns on {your} with a dragon in all three caves")
    if what == "trait_sets":
        return (f"full set of the four traits ({', '.join(TRAITS)}) among {owner} dragons",
                f"full sets of the four traits ({', '.join(TRAITS)}) among {owner} dragons")
    if what == "size_sets":
        return (f"full set of the four sizes ({', '.join(SIZE_SET)}) among {owner} dragons",
                f"full sets of the four sizes ({', '.join(SIZE_SET)}) among {owner} dragons")
    if what == "guild_markers":
        return f"of {owner} markers on the Dragon Guild tile", f"{owner} markers on the Dragon Guild tile"
    if what == "guild_position":
        return (f"of {owner} markers on the Dragon Guild tile (ties broken by position on the guild track)",
                f"{owner} markers on the Dragon Guild tile (ties broken by position on the guild track)")
    if what == "objectives_lowest":
        return (f"round objective where {owner} marker is the lowest placed (ties included)",
                f"round objectives where {owner} marker is the lowest placed (ties included)")
    if what == "resource_icons":
        dragons = _describe_dragons(counter, ctx, True, place)
        return f"resource icon in the printed costs of {dragons}", f"resource icons in the printed costs of {dragons}"
    if what == "best_cave_resource_icons":
        return (f"resource icon in the printed costs of the {dragons} in {owner} cave with the most such icons",
                f"resource icons in the printed costs of the {dragons} in {owner} cave with the most such icons")
    raise RenderError(f"cannot count {what!r}")


def _per(counter, ctx):
    """'for each shy dragon in this cave', 'for every 2 eggs on your mat'."""
    one, many = _counted(counter, ctx)
    div = counter.get("div", 1)
    return f"for each {one}" if div == 1 else f"for every {div} {many}"


def _counter_noun(counter, ctx):
    one, many = _counted(counter, ctx)
    div = counter.get("div", 1)
    if div == 1:
        return f"the number of {many}"
    return f"the number of {many}, divided by {div} and rounded down"


def render_counter(counter):
    """'the number of shy dragons in this cave'."""
    return _plain(_counter_noun(counter, _Ctx()))


# ---------------------------------------------------------------------------------------------------- conditions

def _compare(op, left, right, ctx):
    if isinstance(left, int) and not isinstance(right, int):
        left, right = right, left
        op = {"at_least": "at_most", "at_most": "at_least", "equal": "equal"}[op]
    if (op == "at_least" and right == 2 and isinstance(left, dict) and left.get("scope") == "beside"
            and left.get("what") == "dragons" and set(left) == {"what", "scope"}):
        # only the two neighbours count (dragon 39): "2 dragons beside" alone reads as met by any two in the cave
        return "the spaces directly to its left and to its right in its cave both hold a dragon"
    if isinstance(left, dict) and isinstance(right, int) and left.get("div", 1) == 1:
        one, many = _counted(left, ctx)
        if right == 0 and op in ("at_most", "equal"):
            return f"there are no {many}"
        if op == "at_least" and right == 1:
            return f"there is at least 1 {one}"
        amount = {"at_least": "at least ", "at_most": "at most ", "equal": "exactly "}[op]
        verb = "is" if right == 1 else "are"
        return f"there {verb} {amount}{right} {one if right == 1 else many}"
    a = _counter_noun(left, ctx) if isinstance(left, dict) else str(left)
    b = _counter_noun(right, ctx) if isinstance(right, dict) else str(right)
    phrase = {"at_least": "is at least", "at_most": "is at most", "equal": "equals"}[op]
    return f"{a} {phrase} {b}"


def _card_test(filters, negate=False):
    parts = []
    if "size" in filters:
        parts.append(_join([f"a {size}" if size in ("hatchling", "fledgling") else size
                            for size in _as_list(filters["size"])], "or"))
    if "trait" in filters:
        parts.append(_join(_as_list(filters["trait"]), "or"))
    return ("is not " if negate else "is ") + " and ".join(parts)


def _cond(cond, ctx, subject="the revealed card"):
    if not isinstance(cond, dict) or len(cond) != 1:
        raise RenderError(f"a condition has exactly one key, not {cond!r}")
    (op, arg), = cond.items()
    if op in ("at_least", "at_most", "equal"):
        return _compare(op, arg[0], arg[1], ctx)
    if op == "all":
        return _join([_cond(c, ctx, subject) for c in arg], "and")
    if op == "any":
        return _join([_cond(c, ctx, subject) for c in arg], "or")
    if op == "not":
        inner = arg
        (iop, iarg), = inner.items()
        if iop == "card":
            return f"{subject} {_card_test(iarg, negate=True)}"
        if iop == "at_least" and isinstance(iarg[1], int) and isinstance(iarg[0], dict) and iarg[0].get("div", 1) == 1:
            _one, many = _counted(iarg[0], ctx)
            return f"there are fewer than {iarg[1]} {many}"
        return f"it is not true that {_cond(inner, ctx, subject)}"
    if op == "card":
        return f"{subject} {_card_test(arg)}"
    raise RenderError(f"unknown condition {op!r}")


def render_condition(cond):
    """'there are at least 3 dragons in this cave'."""
    return _plain(_cond(cond, _Ctx()))


# ---------------------------------------------------------------------------------------------------- words

def _amount(node, ctx, key="count"):
    """(number, per-phrase): a plain number, or 1 and 'for each ...' when the amount is a counter."""
    value = node.get(key, 1)
    if isinstance(value, dict):
        return 1, " " + _per(value, ctx)
    return value, ""


def _then(text, node, ctx):
    """An acting word's text followed by what it does next if it acted (`if_done`)."""
    follow = node.get(IF_DONE)
    if follow is not None and follow["do"] == "distribute":
        return f"{text}: {_clause(follow, ctx)}"
    if follow is not None:
        return f"{text}; if {ctx.you} do, {_clause(follow, ctx)}"
    return text


@english("seq")
def _w_seq(node, ctx, top=False):
    steps = [_clause(step, ctx) for step in node["steps"]]
    if top and any(";" in step or ":" in step or step.startswith("if ") for step in steps):
        # Steps that hold their own "if you do" or colon read clearly only as sentences of their own.
        return ". Then ".join(steps)
    return ", then ".join(steps)


@english("choose")
def _w_choose(node, ctx):
    options = [_clause(option, ctx) for option in node["options"]]
    pick = node.get("pick", 1)
    distinct = node.get("distinct", True)
    complex_options = any(";" in option or ":" in option or " or " in option for option in options)
    if pick == 1 and len(options) == 2 and not complex_options:
        return f"either {options[0]} or {options[1]}"
    if complex_options:
        how = "choose 1" if pick == 1 else (f"choose {pick} different options" if distinct
                                            else f"choose {pick} times (the same option may repeat)")
        return f"{how}: " + "; ".join(f"({i}) {option}" for i, option in enumerate(options, 1))
    if pick == 1:
        how = "choose 1"
    else:
        how = f"choose {pick} different options" if distinct else f"choose {pick} times (the same option may repeat)"
    return f"{how}: " + "; ".join(options[:-1]) + "; or " + options[-1]


@english("may")
def _w_may(node, ctx):
    inner = _clause(node["effect"], ctx)
    if inner.startswith(f"{ctx.you} may "):
        return inner
    return f"{ctx.you} may {inner}"


@english("repeat")
def _w_repeat(node, ctx):
    inner = _clause(node["effect"], ctx)
    times = node["times"]
    up_to = "up to " if node.get("up_to") else ""
    if isinstance(times, dict):
        return f"{up_to}once {_per(times, ctx)}: {inner}"
    return f"{up_to}{_times(times)}: {inner}"


@english("if")
def _w_if(node, ctx):
    text = f"if {_cond(node['cond'], ctx)}, {_clause(node['then'], ctx)}"
    if "else" in node:
        text += f"; otherwise {_clause(node['else'], ctx)}"
    return text


def _cost_part(item, ctx):
    count = item.get("count", 1)
    text = _items(item["item"], count)
    if item["item"] == "card":
        text += f" from {ctx.your} hand"
    if "on" in item:
        text += " " + _target(item["on"], ctx, "from", count)
    return text


@english("pay")
def _w_pay(node, ctx):
    cost = _join([_cost_part(item, ctx) for item in node["cost"]])
    if "as" in node:
        costs = node["cost"]
        if len(costs) == 1 and costs[0].get("count", 1) == 1 and costs[0]["item"] != "tithe":
            paid = f"the {_noun(costs[0]['item'])} {ctx.you} paid"
        else:
            paid = f"what {ctx.you} paid"
        ctx.bind(node["as"], paid)
    follow = node[BUYS]
    text = _clause(follow, ctx)
    if follow["do"] in ("repeat", "if", "may") or _LEADING_COUNT.match(text):
        return f"pay {cost}, then {text}"
    return f"pay {cost} to {text}"


_LEADING_COUNT = re.compile(r"(up to )?(once|twice|\d+ times)\b[^;]*?: ")


def _places(places, ctx):
    """Where a word takes from, as a player reads it: "your hand or the display"."""
    return " or ".join(SOURCES[place].format(your=ctx.your) for place in places)


@english("gain")
def _w_gain(node, ctx):
    item = node["item"]
    count, per = _amount(node, ctx)
    source = sources(node) if "from" in node else None
    if isinstance(item, dict):
        holds = ctx.kinds.get(item["var"])
        if holds == "resource":
            text = f"gain {count} of that resource{per}"
        elif holds == "card":
            text = f"take {ctx.var(item)} into {ctx.your} hand"
        elif holds == "cost_pick":
            text = f"gain {ctx.var(item)}{per}"
        else:
            text = f"gain {ctx.var(item)}{per}"
    elif item == "egg":
        text = f"lay {_items('egg', count)}{per}"
    elif item == "guild":
        text = f"advance {_times(count)} on the " + _icon("guild", "Dragon Guild") + per
    elif item in ("dragon", "cave") and source:
        verb = {("deck",): "draw", ("display",): "take"}.get(source, "gain")
        text = f"{verb} {_items(item, count)} from {_places(source, ctx)}{per}"
    elif item == "any_resource":
        kind = "of one kind" if node.get("same") else "of any kind"
        text = f"gain {_items(item, count)} {kind}{per}"
    else:
        text = f"gain {_items(item, count)}{per}"
    if node.get("same") and item != "any_resource":
        text += " (all of the same kind)"
    if "as" in node:
        pronoun = "it" if count == 1 and not per else "them"
        holds = "card" if item in ("dragon", "cave") else "resource" if item in ITEMS else None
        ctx = ctx.bind(node["as"], pronoun, holds)
    return _then(text, node, ctx)


@english("lay_egg")
def _w_lay_egg(node, ctx):
    count, per = _amount(node, ctx)
    up_to = "up to " if node.get("up_to") else ""
    text = f"lay {up_to}{_items('egg', count)}"
    target = node.get("on")
    if target:
        scope = target.get("scope", "mat")
        # As the interpreter reads it: the mat's nests are offered by default only for a plain "anywhere on the mat".
        plain = not any(k in target for k in ("cave", "trait", "not_trait", "size", "not_size", "kind", "other",
                                              "each", "trained", "untrained"))
        nests = target.get("nests", scope == "mat" and plain)
        if scope == "mat" and set(target) <= {"scope", "nests"}:
            text += "" if nests else f" on a dragon (not in {ctx.your} mat's nests)"
        else:
            text += " " + _target(target, ctx, "on", count if not per else 2)
            if nests and not target.get("each"):
                text += f" or in {ctx.your} mat's nests"
    return _then(text + per, node, ctx)


@english("cache")
def _w_cache(node, ctx):
    count, per = _amount(node, ctx)
    up_to = "up to " if node.get("up_to") else ""
    item = node["item"]
    if isinstance(item, dict):
        what = ctx.var(item)
        if what == "them":
            if "count" in node:
                what = f"{up_to}{count if not per else 'some'} of them"
            elif up_to:
                what = "any of them"
            if "count" not in node or count != 1:
                count = 2  # several units: spread over dragons as the player likes
    else:
        what = up_to + _items(item, count)
    text = f"cache {what}"
    if "from" in node:
        text += f" from {_places(sources(node), ctx)}"
    text += " " + _target(node.get("on", {"scope": "here"}), ctx, "on", count if not per else 2)
    return _then(text + per, node, ctx)


@english("tuck")
def _w_tuck(node, ctx):
    count, per = _amount(node, ctx)
    up_to = "up to " if node.get("up_to") else ""
    source = sources(node)
    if isinstance(source, dict):
        what = ctx.var(source)
        if count != 1 or up_to or per:
            what = f"{up_to}{count} of {what}"
    else:
        what = f"{up_to}{_items('dragon', count)} from {_places(source, ctx)}"
    text = f"tuck {what} " + _target(node.get("on", {"scope": "here"}), ctx, "under", count if not per else 2)
    if "as" in node:  # names the resources shown in the tucked dragon's cost
        ctx.bind(node["as"], "1 resource shown in the tucked dragon's cost", "cost_pick")
    return _then(text + per, node, ctx)


@english("excavate")
def _w_excavate(node, ctx):
    source = sources(node) if "from" in node else None
    text = "excavate a space"
    if node.get("free"):
        text += " for free"
    if isinstance(source, dict):
        text += f" with {ctx.var(source)}"
    elif source == ("deck",):
        text += f" with the top {_noun('cave')} of the deck"
    elif source:
        text += f" with a {_noun('cave')} from {_places(source, ctx)}"
    if not node.get("free"):
        text += EXCAVATE_COST
    return _then(text, node, ctx)


# An ability that plays a cave card never charges the action's coin, but the column's eggs are paid (ruling F1).
EXCAVATE_COST = ", paying its column's egg cost but no coin"


PLAY_COSTS = {
    "printed": ", paying its printed cost",
    "free": " for free",
    "discount_one": ", paying 1 resource or egg less than its printed cost",
    "no_resources": ", paying no resources (its coin and egg costs still apply)",
}


@english("play_dragon")
def _w_play_dragon(node, ctx):
    source = sources(node)
    if isinstance(source, dict):
        text = f"play {ctx.var(source)}"
    else:
        text = f"play a {_icon('dragon', 'dragon')} from {_places(source, ctx)}"
    text += PLAY_COSTS[node.get("cost", "printed")]
    return _then(text, node, ctx)


def _w_cover_dragon(node, ctx):
    text = (f"play a {_icon('dragon', 'dragon')} from {ctx.your} hand on top of one of {ctx.your} dragons, for free "
            "(the covered dragon becomes tucked)")
    return _then(text, node, ctx)


def _w_swap_dragons(node, ctx):
    return _then(f"swap two dragons on {ctx.your} mat (habitats ignored)", node, ctx)


def _w_swap_with_hand(node, ctx):
    return _then(f"swap a dragon on {ctx.your} mat with one from {ctx.your} hand (habitats ignored)", node, ctx)


def _w_swap_cave_card(node, ctx):
    return _then(f"swap an uncovered {_noun('cave')} on {ctx.your} mat with one from {ctx.your} hand; the new "
                 f"card's when-played ability is used (the mat's when-covered benefit is not)", node, ctx)


_SWAPS = {"cover": _w_cover_dragon, "dragons": _w_swap_dragons, "with_hand": _w_swap_with_hand,
          "cave_card": _w_swap_cave_card}


@english("swap")
def _w_swap(node, ctx):
    return _SWAPS[node["what"]](node, ctx)


@english("train")
def _w_train(node, ctx):
    count, per = _amount(node, ctx)
    up_to = "up to " if node.get("up_to") else ""
    target = dict(node.get("on") or {})
    free = " for free" if node.get("free") else ""
    verb = "fully train" if node.get("full") else "train"
    once = "" if node.get("full") else " once"
    if target.get("scope") == "here" and set(target) == {"scope"}:
        text = f"{verb} this fledgling{free}" if node.get("full") else \
            f"train this fledgling {up_to}{_times(count)}{per}{free}"
    else:
        if set(target) <= {"size"} and _as_list(target.get("size", "fledgling")) == ["fledgling"]:
            who = "a fledgling"
        else:
            target.setdefault("size", "fledgling")
            who = _target(target, ctx, "", 1)[1:]
        text = f"{verb} {who}{once}{free}"
        if count != 1 or per or up_to:
            # Each training picks its fledgling afresh (the interpreter asks every time), so the count leads.
            text = (f"{up_to}once {per.strip()}" if per else f"{up_to}{_times(count)}") + f": {text}"
    if "as" in node:
        ctx = ctx.bind(node["as"], "the item the training token covered")
    return _then(text, node, ctx)


@english("activate")
def _w_activate(node, ctx):
    # The interpreter's default kind (game/engine/words/fledglings.py) is if_activated.
    kinds = _join([KIND_ADJECTIVES[k] for k in _as_list(node.get("kinds", ["if_activated"]))], "or")
    count = node.get("count", 1)
    up_to = "up to " if node.get("up_to") else ""
    target = node.get("on", {"scope": "mat"})
    if target == "mat":
        if count == 1 and not up_to:
            what = f"the ability of 1 icon on {ctx.your} mat's paths"
        else:
            different = " different" if node.get("distinct", True) else ""
            what = f"the abilities of {up_to}{count}{different} icons on {ctx.your} mat's paths"
        text = f"use {what}"
    elif isinstance(target, dict) and set(target) == {"var"}:
        text = f"use the {kinds} ability of {ctx.var(target)}"
    elif target.get("scope") == "here" and set(target) == {"scope"}:
        text = f"use this dragon's {kinds} ability again"
    else:
        filters = dict(target)
        place = _place(filters, ctx)
        if filters.get("each"):
            text = f"use the {kinds} ability of each {_describe_dragons(filters, ctx, False, place)}"
        elif count == 1 and not up_to:
            dragons = _describe_dragons(filters, ctx, False, place)
            article = "an" if dragons[0] in "aeiou" else "a"
            text = f"use the {kinds} ability of {article} {dragons}".replace("an other ", "another ")
        else:
            dragons = _describe_dragons(filters, ctx, True, place)
            text = f"use the {kinds} abilities of {up_to}{count} {dragons}"
        if count != 1 and not filters.get("each") and node.get("distinct", True):
            text += " (each a different dragon)"
    return _then(text, node, ctx)


def _uses_var(node, name):
    """Whether an effect tree reads the variable `name` anywhere."""
    if isinstance(node, dict):
        if node == {"var": name}:
            return True
        return any(_uses_var(value, name) for value in node.values())
    if isinstance(node, list):
        return any(_uses_var(value, name) for value in node)
    return False


def _reveal_branch(branch, ctx, name):
    """A branch that does not take the revealed card discards it (docs/effects.md), and says so."""
    if branch is None:
        return "discard it"
    text = _clause(branch, ctx)
    return text if _uses_var(branch, name) else f"discard it and {text}"


@english("reveal")
def _w_reveal(node, ctx):
    ctx.bind(node["as"], "it", "card")
    text = f"reveal the top {_noun('dragon')} of the deck: if {_cond(node['cond'], ctx, 'it')}, "
    text += _reveal_branch(node.get("then"), ctx, node["as"])
    text += "; otherwise " + _reveal_branch(node.get("else"), ctx, node["as"])
    return text


def _place_part(place, ctx, of=""):
    kind = place["place"]
    count = place.get("count", 1)
    amount = ("up to " if place.get("up_to") else "") + str(count) + of
    if kind == "tuck":
        return f"tuck {amount} " + _target(place.get("on", {"scope": "here"}), ctx, "under", count)
    if kind == "discard":
        return f"discard {amount}"
    if kind == "keep":
        return f"keep {amount}"
    if kind == "play":
        return f"play {amount}" + (" for free" if place.get("free") else " (paying the printed cost)")
    if kind == "excavate":
        return f"excavate with {amount}" + (" for free" if place.get("free") else EXCAVATE_COST)
    raise RenderError(f"unknown place {kind!r}")


@english("distribute")
def _w_distribute(node, ctx):
    cards = ctx.var(node["cards"], "them")
    parts = [_place_part(place, ctx, f" of {cards}" if i == 0 else "") for i, place in enumerate(node["to"])]
    rest = node.get("rest", "discard")
    parts.append("keep the rest" if rest == "keep" else "discard the rest")
    return _join(parts)


@english("score")
def _w_score(node, ctx):
    vp = node["vp"]
    verb = "score" if vp >= 0 else "lose"
    text = f"{verb} {'an extra ' if ctx.extra_vp and vp >= 0 else ''}{_vp(abs(vp))}"
    if "per" in node:
        text += " " + _per(node["per"], ctx)
    if "max" in node:
        text += f" (at most {node['max']} VP)"
    if "cond" in node:
        text += f" if {_cond(node['cond'], ctx)}"
    return text


def _from_template(node, ctx):
    text = declared(node["do"]).english.format(you=ctx.you, your=ctx.your)
    return _then(text, node, ctx) if IF_DONE in declared(node["do"]).keys else text


def has_english(name):
    """Whether a declared word can be put into words: a builder registered here, or a template in its declaration."""
    return name in ENGLISH or (name in WORDS and WORDS[name].english is not None)


assert all(has_english(name) for name in WORDS), "every word of the language needs its English"


def _clause(node, ctx, top=False):
    if not isinstance(node, dict) or not has_english(node.get("do")):
        word = node.get("do") if isinstance(node, dict) else node
        raise RenderError(f"unknown word {word!r}")
    if top and node["do"] == "seq":
        return _w_seq(node, ctx, top=True)
    return ENGLISH.get(node["do"], _from_template)(node, ctx)


# ---------------------------------------------------------------------------------------------------- sentences

def _capitalise(text):
    i = 0
    while i < len(text) and text[i] == _OPEN:
        i = text.index(_MID, i) + 1
    return text[:i] + text[i:i + 1].upper() + text[i + 1:]


def _sentence(clause):
    clause = _capitalise(clause)
    return clause if clause.endswith((".", "!", "?")) else clause + "."


def _plain(text):
    return _MARK.sub(lambda m: m.group(2), text)


def _html(text):
    out = []
    pos = 0
    for m in _MARK.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        icon, word = m.group(1), m.group(2)
        title = word if icon != "tithe" else "tithe"
        out.append(f'<span class="icon icon-{html.escape(icon)}" title="{html.escape(title)}"></span>'
                   f'{html.escape(word)}')
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


_DESCRIBED = {}  # id(effect) -> (effect, words): catalogue effects are shared and never change


def describe(effect):
    """An effect in plain words, without the final full stop, for prompts, option labels and the story. Cached per
    effect node; a gap in the renderer never stops a prompt (the word's name stands in)."""
    hit = _DESCRIBED.get(id(effect))
    if hit is not None and hit[0] is effect:
        return hit[1]
    try:
        text = render_effect(effect).rstrip(".")
    except (ValueError, KeyError, TypeError, AttributeError):
        return effect.get("do", "?").replace("_", " ") if isinstance(effect, dict) else "?"
    if len(_DESCRIBED) > 50000:
        _DESCRIBED.clear()
    _DESCRIBED[id(effect)] = (effect, text)
    return text


def render_effect(effect):
    """One or more sentences, in plain words, for an effect tree."""
    return _plain(_sentence(_clause(effect, _Ctx(), top=True)))


def _feed_phrase(feeds_on):
    if feeds_on == "card":
        return f"a {_noun('dragon')} is tucked here"
    if feeds_on in ("milk", "meat"):
        return f"{_noun(feeds_on)} is cached here"
    return "this hatchling is fed"


def _ability_marked(ability, card=None, after_feed=False):
    kind = ability.get("kind") if isinstance(ability, dict) else None
    if kind not in ABILITY_KINDS:
        raise RenderError(f"unknown ability kind {kind!r}")
    if "effect" not in ability:
        raise RenderError("an ability needs an effect")
    own = _Ctx()
    own.extra_vp = kind == "end_game" and bool(card) and "vp" in card  # on a dragon card, not a guild row
    body = _sentence(_clause(ability["effect"], own, top=True))
    feeds_on = (card or {}).get("feeds_on")
    if kind == "on_feed":
        text = f"Whenever {_feed_phrase(feeds_on)}: {body}"
    elif kind == "on_grow_up" and after_feed:
        # Growing up comes on top of the feeding benefit just read, so "also" and no repeat of the trigger.
        text = f"The third time: {_sentence('also ' + _clause(ability['effect'], _Ctx(), top=True))}"
    elif kind == "on_grow_up":
        text = f"The third time {_feed_phrase(feeds_on)}: {body}"
    else:
        text = _icon(f"kind-{kind.replace('_', '-')}", KIND_LABELS[kind]) + ": " + body
    if "others" in ability:
        inner = _clause(ability["others"], own.for_opponents())
        if inner.startswith("they may "):
            inner = inner[len("they may "):]
        counted = _LEADING_COUNT.match(inner)
        if counted:
            inner = inner.replace(": ", ", ", 1)  # "may, up to twice, lay 1 egg"
        if counted or inner.startswith("if "):
            text += " " + _sentence(f"each opponent may, {inner}")
        else:
            text += " " + _sentence(f"each opponent may {inner}")
    return text


def _training_marked(card):
    boxes = card.get("training") or []
    if not boxes:
        return ""
    return "Training: " + ", then ".join(_one(box) for box in boxes) + "."


def _card_marked(abilities, card):
    parts = []
    if card and card.get("free_if"):
        # The condition is counted as if the dragon were already in the space it goes into.
        parts.append(_sentence("free to play if, once it is in place, " + _cond(card["free_if"], _Ctx())))
    if card and card.get("training"):
        parts.append(_training_marked(card))
    previous = None
    for ability in abilities or []:
        parts.append(_ability_marked(ability, card, after_feed=previous == "on_feed"))
        previous = ability.get("kind") if isinstance(ability, dict) else None
    return " ".join(parts)


def render_ability(ability, card=None):
    """'When played: Gain 2 coins. Each opponent may gain 1 coin.'"""
    return _plain(_ability_marked(ability, card))


def render_abilities(abilities, card=None):
    """Every ability of a card, in order, with the card's training boxes and cost waiver first."""
    return _plain(_card_marked(abilities, card))


def render_abilities_html(abilities, card=None):
    """The same sentences as `render_abilities`, escaped, with inline icons before each item's word."""
    return _html(_card_marked(abilities, card))
