"""What an option is, as data: the card, space or cave it concerns, what it costs and what it gives.

`option_info(state, option)` reads the option in the light of the pending question (a `pay` of the `pay` question,
an `excavate` of the main action or of the `excavate` word, ...) and returns a plain dict:

    {"kind", "args", "label", "cost": {item: n}, "gain": {item: n}}
    + "card" ({"type", "index", "number", "name"}), "space" ({"cave", "column"}) or "nest", "cave" (0-2),
      and a few kind-specific keys ("cards", "spaces", "deck", "slot", "waive", "income", "row", "square",
      "first", "choice", "effect", "source", "ability", "place")

Built only when asked for (pages, labels, errors), never while playing. The label is rendered from the rest by
the language layer (game/language/options.py).
"""
from ..language.options import render_option
from .model import COLUMNS, NEST


def _valid_cave(cave):
    return isinstance(cave, int) and not isinstance(cave, bool) and 0 <= cave < 3


def _add(cost, item, n=1):
    if n:
        cost[item] = cost.get(item, 0) + n


def _put_space(info, index):
    if index == NEST:
        info["nest"] = True
    elif isinstance(index, int) and not isinstance(index, bool) and 0 <= index < 3 * COLUMNS:
        info["space"] = {"cave": index // COLUMNS, "column": index % COLUMNS}


def _dragon_on(st, p, index):
    if isinstance(index, int) and 0 <= index < 3 * COLUMNS:
        dragon = st.players[p].spaces[index].dragon
        if dragon is not None:
            return st.cat.card("dragon", dragon)
    return None


def _dragon_cost(st, p, dragon, index, mode, waive=None):
    """What playing a dragon onto a space takes, in this payment mode (nothing when it is free to play)."""
    if mode == "free" or (index is not None and st.free_to_play(p, dragon, index)):
        return {}
    return {item: n for item, n in st.dragon_cost(dragon, "printed" if mode == "discount_one" else mode,
                                                   waive).items() if n}


def _excavate_cost(st, p, cave, main, free):
    cost = {}
    index = st.next_unexcavated(p, cave)
    if main:
        _add(cost, "coin", st.cat.excavate_coins)
    if index is not None and not free:
        _add(cost, "egg", st.cat.excavate_eggs[index % COLUMNS])
    return cost, index


def _pass(st, p, args, q, info):
    if args:
        info["income"] = args[0]


def _excavate(st, p, args, q, info):
    card, cave = args
    if card == -1:
        info["deck"] = True
    else:
        info["card"] = st.cat.card("cave", card)
    info["cave"] = cave
    if _valid_cave(cave):
        main = q.kind == "main_action"
        info["cost"], index = _excavate_cost(st, p, cave, main, not main and q.data.get("free", False))
        _put_space(info, index)


def _place_dragon(st, p, dragon, cave, mode, info, waive=None, coins=0):
    info["card"] = st.cat.card("dragon", dragon)
    info["cave"] = cave
    if _valid_cave(cave) and info["card"]["name"] is not None:
        index = st.next_empty(p, cave)
        _put_space(info, index)
        cost = {}
        _add(cost, "coin", coins)  # the action's coin first, then the printed cost
        for item, n in _dragon_cost(st, p, dragon, index, mode, waive).items():
            _add(cost, item, n)
        info["cost"] = cost


def _entice(st, p, args, q, info):
    _place_dragon(st, p, args[0], args[1], "printed", info, coins=st.cat.entice_coins)


def _play(st, p, args, q, info):
    waive = args[2] if len(args) > 2 else None
    if waive is not None:
        info["waive"] = waive
    _place_dragon(st, p, args[0], args[1], q.data.get("mode", "printed"), info, waive)


def _explore(st, p, args, q, info):
    cave = args[0]
    info["cave"] = cave
    if _valid_cave(cave):
        visit = st.players[p].explored[cave]
        if visit < len(st.cat.explore_costs):
            coins, eggs = st.cat.explore_costs[visit]
            cost = {}
            _add(cost, "coin", coins)
            _add(cost, "egg", eggs)
            info["cost"] = cost


def _exchange(st, p, args, q, info):
    for given in args[:-1]:
        _add(info["cost"], given)
    info["gain"] = {args[-1]: st.cat.exchange_get}


def _yes_no(st, p, args, q, info):
    """Yes, no or stop: the ability or effect the question is about."""
    data = q.data
    for key in ("card", "source", "ability", "effect"):
        if data.get(key) is not None:
            info[key] = data[key]


def _discard_cards(st, p, args, q, info):
    info["cards"] = [st.cat.card(args[i], args[i + 1]) for i in range(0, len(args), 2)]
    for i in range(0, len(args), 2):  # the cards given up, by type
        _add(info["cost"], args[i])


def _resources(st, p, args, q, info):
    for r in args:
        _add(info["gain"], r)


def _discard(st, p, args, q, info):
    if len(args) == 2:
        info["card"] = st.cat.card(args[0], args[1])
    _add(info["cost"], args[0])  # a resource, or a card of that type


def _resource(st, p, args, q, info):
    data = q.data
    _add(info["gain"], args[0], data.get("left", 1) if data.get("same") else 1)


def _take(st, p, args, q, info):
    item = q.data.get("item", "dragon")
    if args[0] == "deck":
        info["deck"] = True
    else:
        slot = args[1]
        info["slot"] = slot
        display = st.display_dragons if item == "dragon" else st.display_caves
        if isinstance(slot, int) and 0 <= slot < len(display) and display[slot] is not None:
            info["card"] = st.cat.card(item, display[slot])
    info["gain"] = {item: 1}


def _egg_on(st, p, args, q, info):
    _put_space(info, args[0])
    dragon = _dragon_on(st, p, args[0])
    if dragon:
        info["card"] = dragon
    info["gain"] = {"egg": 1}


def _pay(st, p, args, q, info):
    if args[0] == "egg":
        _put_space(info, args[1])
        info["cost"] = {"egg": 1}
    elif len(args) == 2:
        info["card"] = st.cat.card(args[0], args[1])
        info["cost"] = {args[0]: 1}
    else:
        info["cost"] = {args[0]: 1}


def _cache(st, p, args, q, info):
    resource, index = args
    _put_space(info, index)
    dragon = _dragon_on(st, p, index)
    if dragon:
        info["card"] = dragon
    if q.data.get("supply", True):
        info["cost"] = {resource: 1}


def _tuck(st, p, args, q, info):
    card, index = args
    if card == -1:
        info["deck"] = True
    else:
        info["card"] = st.cat.card("dragon", card)
        if card in st.players[p].hand:  # not a card just revealed from the deck
            info["cost"] = {"dragon": 1}
    _put_space(info, index)


def _marker(st, p, args, q, info):
    info["row"], info["square"] = args


def _first(st, p, args, q, info):
    info["first"] = args[0]
    if q.data.get("card"):
        info["card"] = q.data["card"]


def _choose(st, p, args, q, info):
    options = [o for o in q.options if o.kind == "choose"]
    for k, option in enumerate(options):
        if option.args == tuple(args):
            info["choice"] = k + 1
            choices = q.data.get("choices") or []
            if k < len(choices):
                info["effect"] = choices[k]


def _next_ability(st, p, args, q, info):
    info["card"] = st.cat.card("dragon", args[0])
    _put_space(info, st.players[p].find(args[0]))


def _cover(st, p, args, q, info):
    info["card"] = st.cat.card("dragon", args[0])
    _put_space(info, args[1])


def _swap(st, p, args, q, info):
    _put_space(info, args[0])
    spaces = []
    for index in args:
        one = {}
        _put_space(one, index)
        spaces.append(one.get("space"))
    info["spaces"] = spaces


def _swap_hand(st, p, args, q, info):
    _put_space(info, args[0])
    info["card"] = st.cat.card("dragon", args[1])


def _swap_cave(st, p, args, q, info):
    _put_space(info, args[0])
    info["card"] = st.cat.card("cave", args[1])


def _train(st, p, args, q, info):
    index = args[0]
    _put_space(info, index)
    dragon = _dragon_on(st, p, index)
    if dragon:
        info["card"] = dragon
        space = st.players[p].spaces[index]
        training = st.cat.dragons[space.dragon].training
        if not q.data.get("free") and space.tokens < len(training):
            info["cost"] = {training[space.tokens]: 1}


def _activate(st, p, args, q, info):
    info["card"] = st.cat.card("dragon", args[0])
    _put_space(info, st.players[p].find(args[0]))


def _activate_icon(st, p, args, q, info):
    info["cave"], info["slot"] = args
    cave, slot = args
    if 0 <= cave < len(st.cat.mat_icons) and 0 <= slot < len(st.cat.mat_icons[cave]):
        info["effect"] = st.cat.mat_icons[cave][slot]  # what the printed icon does, for its label


def _activate_card(st, p, args, q, info):
    info["card"] = st.cat.card(args[0], args[1])


def _pick(st, p, args, q, info):
    place = args[0]
    info["place"] = place
    if place == "play":
        mode = "free" if q.data.get("free") else "printed"
        _place_dragon(st, p, args[2], args[3], mode, info)
        return
    info["card"] = st.cat.card(args[1], args[2])
    if place == "tuck":
        _put_space(info, args[3])
    elif place == "excavate":
        info["cave"] = args[3]
        if _valid_cave(args[3]):
            info["cost"], index = _excavate_cost(st, p, args[3], False, q.data.get("free", False))
            _put_space(info, index)


BUILDERS = {
    "pass": _pass, "excavate": _excavate, "entice": _entice, "play": _play, "explore": _explore,
    "exchange": _exchange, "yes": _yes_no, "no": _yes_no, "stop": _yes_no, "discard_cards": _discard_cards,
    "resources": _resources, "discard": _discard, "resource": _resource, "take": _take, "egg_on": _egg_on,
    "pay": _pay, "cache": _cache, "tuck": _tuck, "marker": _marker, "first": _first, "choose": _choose,
    "next_ability": _next_ability, "cover": _cover, "swap": _swap, "swap_hand": _swap_hand,
    "swap_cave": _swap_cave, "train": _train, "activate": _activate, "activate_icon": _activate_icon,
    "activate_card": _activate_card, "pick": _pick,
}


class _Question:
    """The pending question an option is read against (an empty one when nothing is asked)."""

    __slots__ = ("kind", "data", "options")

    def __init__(self, pending):
        self.kind = pending.kind if pending is not None else ""
        self.data = pending.data if pending is not None else {}
        self.options = pending.options if pending is not None else ()


def option_info(st, option):
    """The structured data of an option (see the module's docstring), read against the pending question."""
    kind, args = option.kind, tuple(option.args)
    pending = st.pending
    p = pending.player if pending is not None else st.current
    info = {"kind": kind, "args": list(args), "cost": {}, "gain": {}}
    build = BUILDERS.get(kind)
    if build is not None:
        next_frame = st.next_frame  # a conditional cost is tested in a frame of its own: leave no trace of it
        try:
            build(st, p, args, _Question(pending), info)
        except (IndexError, TypeError, ValueError, AttributeError, KeyError):  # args naming nothing: read raw
            info = {"kind": kind, "args": list(args), "cost": {}, "gain": {}, "unreadable": True}
        finally:
            st.next_frame = next_frame
    info["label"] = render_option(info)
    return info

