"""Words that move items: pay, gain, lay_egg, cache, tuck (and the hatchlings' feeding they trigger)."""
from ...language.words import BUYS, sources
from ..catalogue import RES_INDEX, RESOURCES
from ..decisions import Option
from ..exchange import do_exchange, exchange_now, exchange_options
from ..model import NEST, SPACES
from ..runtime import (
    amount,
    can,
    get_var,
    here,
    possible,
    push_fx,
    push_then,
    scope_spaces,
    set_var,
    targets,
    then_if_done,
    word,
)
from ..tasks import task as register_task

STOP = Option("stop")
# the options of the commonest questions, made once (an option is a frozen value: one object serves every game)
TAKE_DISPLAY = tuple(Option("take", ("display", slot)) for slot in range(3))
TAKE_DECK = Option("take", ("deck",))
EMPTY_DISPLAY = [None, None, None]
GAIN = {r: Option("resource", (r,)) for r in RESOURCES}
EGG_ON = {where: Option("egg_on", (where,)) for where in range(NEST, SPACES)}


def card_ref(kind, index):
    return [kind, index]


def take_card(st, p, ref):
    """Move a bound card (revealed, or already in hand) into the player's hand; False if it is gone."""
    kind, index = ref
    pl = st.players[p]
    if kind == "dragon":
        if index in st.revealed:
            st.revealed.remove(index)
            pl.hand.append(index)
            st.emit("took", p=p, card=["dragon", index], source="revealed")
            return True
        return index in pl.hand
    return index in pl.caves


def remove_card(st, p, ref):
    """Take a bound card out of the revealed cards or the hand, to tuck or play it; False if it is gone."""
    kind, index = ref
    pl = st.players[p]
    if kind == "dragon":
        if index in st.revealed:
            st.revealed.remove(index)
            return True
        if index in pl.hand:
            pl.hand.remove(index)
            return True
        return False
    if index in pl.caves:
        pl.caves.remove(index)
        return True
    return False


def bound_cards(st, frame, var):
    value = get_var(st, frame, var)
    if not isinstance(value, list):
        return []
    if value and isinstance(value[0], str) and value[0] in ("dragon", "cave"):
        value = [value]
    return [v for v in value if isinstance(v, list) and len(v) == 2 and v[0] in ("dragon", "cave")]


def feed(st, p, index, what):
    """A hatchling fed its food (a resource name, or "card"): queue on_feed, and on_grow_up the 3rd time."""
    space = st.players[p].spaces[index]
    card = st.cat.dragons[space.dragon]
    if card.size != "hatchling" or card.feeds_on != what:
        return
    st.stack.append({"t": "feed", "p": p, "d": space.dragon})


@register_task("feed")
def t_feed(st, task):
    p, dragon = task["p"], task["d"]
    pl = st.players[p]
    index = pl.find(dragon)
    if index is None:
        return
    space = pl.spaces[index]
    space.fed += 1
    if space.fed >= 3 and not space.grown:
        space.grown = True
        st.emit("grew_up", p=p, dragon=dragon, space=index)
        st.push_card_abilities(p, dragon, "on_grow_up", index)
    st.push_card_abilities(p, dragon, "on_feed", index)


# -- pay ------------------------------------------------------------------------------------------------------

def egg_sources(st, frame, source):
    pl = st.players[frame["p"]]
    if source is None:
        out = [NEST] if pl.nest else []
        return out + [i for i, s in enumerate(pl.spaces) if s.eggs]
    return [i for i in scope_spaces(st, frame, source) if pl.spaces[i].eggs]


def can_pay(st, frame, cost):
    pl = st.players[frame["p"]]
    res = list(pl.res)
    coins = pl.coins
    dragons, caves = len(pl.hand), len(pl.caves)
    eggs = pl.eggs()
    flexible = {"any_resource": 0, "card": 0, "tithe": 0}
    for item in cost:
        name, n = item["item"], item.get("count", 1)
        if name in RES_INDEX:
            res[RES_INDEX[name]] -= n
        elif name == "coin":
            coins -= n
        elif name == "dragon":
            dragons -= n
        elif name == "cave":
            caves -= n
        elif name == "egg":
            eggs -= n
            if "on" in item:
                spaces = st.players[frame["p"]].spaces
                if sum(spaces[i].eggs for i in scope_spaces(st, frame, item["on"])) < n:
                    return False
        else:
            flexible[name] += n
    if coins < 0 or dragons < 0 or caves < 0 or eggs < 0:
        return False
    # a missing resource can be made by the exchange (the board's rate), which is allowed at any time
    short = -sum(r for r in res if r < 0)
    exchanges = -(-short // st.cat.exchange_get)
    spare_res = sum(r for r in res if r > 0) - st.cat.exchange_give * exchanges - flexible["any_resource"]
    spare_cards = dragons + caves - flexible["card"]
    if spare_res < 0 or spare_cards < 0:
        return False
    return spare_res + spare_cards + eggs >= flexible["tithe"]


def pay_options(st, frame, item):
    pl = st.players[frame["p"]]
    name = item["item"]
    options = []
    if name in ("any_resource", "tithe"):
        options += [Option("pay", (r,)) for i, r in enumerate(RESOURCES) if pl.res[i]]
    if name in ("dragon", "card", "tithe"):
        options += [Option("pay", ("dragon", d)) for d in sorted(set(pl.hand))]
    if name in ("cave", "card", "tithe"):
        options += [Option("pay", ("cave", c)) for c in sorted(set(pl.caves))]
    if name in ("egg", "tithe"):
        options += [Option("pay", ("egg", where)) for where in egg_sources(st, frame, item.get("on"))]
    return options


@word("pay")
def pay(st, task, frame):
    node = task["e"]
    p = frame["p"]
    pl = st.players[p]
    cost = node["cost"]
    if "i" not in task:
        if not pay_worthwhile(st, node, frame):
            return
        task["i"], task["left"], task["paid"] = 0, cost[0].get("count", 1), []
    a = task.pop("a", None)
    if a is not None:
        if a.kind == "exchange":
            exchange_now(st, p, a.args)
        else:
            _pay_one(st, p, a.args, task["paid"], "part" in task)
            task["left"] -= 1
    while task["i"] < len(cost):
        item = cost[task["i"]]
        if task["left"] <= 0:
            task["i"] += 1
            if task["i"] < len(cost):
                task["left"] = cost[task["i"]].get("count", 1)
            continue
        name = item["item"]
        if name in RES_INDEX:
            if pl.res[RES_INDEX[name]] < task["left"]:
                rest = [{"item": name, "count": task["left"]}] + cost[task["i"] + 1:]
                options = [o for o in exchange_options(st.cat, pl)
                           if o.args[-1] == name and _still_payable(st, frame, o, rest)]
                return st.ask(task, p, "exchange_to_pay", options, item=name, left=task["left"],
                              give=st.cat.exchange_give, get=st.cat.exchange_get)
            pl.res[RES_INDEX[name]] -= task["left"]
            task["paid"] += [name] * task["left"]
            st.emit("paid", p=p, item=name, n=task["left"], **({"part": True} if "part" in task else {}))
            task["left"] = 0
            continue
        if name == "coin":
            pl.coins -= task["left"]
            task["paid"] += ["coin"] * task["left"]
            st.emit("paid", p=p, item="coin", n=task["left"])
            task["left"] = 0
            continue
        options = pay_options(st, frame, item)
        if not options:  # cannot happen after can_pay, but never loop forever
            return
        return st.ask(task, p, "pay", options, item=name, left=task["left"])
    if node.get("as"):
        set_var(frame, node["as"], task["paid"])
    if node.get(BUYS) is not None:
        push_fx(st, node[BUYS], task["f"])


def _still_payable(st, frame, exchange, rest):
    pl = st.players[frame["p"]]
    before = list(pl.res)
    do_exchange(st.cat, pl, exchange.args)
    try:
        return can_pay(st, frame, rest)
    finally:
        pl.res = before


def _pay_one(st, p, args, paid, part=False):
    """One unit paid by the player's pick; `part`: of a cost an action's or a card's event already names."""
    part = {"part": True} if part else {}
    pl = st.players[p]
    if args[0] == "dragon":
        pl.hand.remove(args[1])
        st.dragon_discard.append(args[1])
        paid.append(["dragon", args[1]])
        st.emit("paid", p=p, item="dragon", n=1, card=["dragon", args[1]])  # discarded face up
    elif args[0] == "cave":
        pl.caves.remove(args[1])
        st.cave_discard.append(args[1])
        paid.append(["cave", args[1]])
        st.emit("paid", p=p, item="cave", n=1, card=["cave", args[1]])
    elif args[0] == "egg":
        if args[1] == NEST:
            pl.nest -= 1
        else:
            pl.spaces[args[1]].eggs -= 1
        paid.append("egg")
        st.emit("paid", p=p, item="egg", n=1, space=args[1],
                dragon=None if args[1] == NEST else pl.spaces[args[1]].dragon, **part)
    else:
        pl.res[RES_INDEX[args[0]]] -= 1
        paid.append(args[0])
        st.emit("paid", p=p, item=args[0], n=1, **part)


def pay_worthwhile(st, node, frame):
    """A cost is offered only when it can be paid and what it buys can happen (unless that reads the payment)."""
    if not can_pay(st, frame, node["cost"]):
        return False
    buys = node.get(BUYS)  # the engine's own payments (a space's egg cost, a training box) buy nothing further
    return buys is None or "as" in node or possible(st, buys, frame)


@can("pay")
def can_pay_word(st, node, frame):
    return pay_worthwhile(st, node, frame)


# -- gain -----------------------------------------------------------------------------------------------------

def resolve_item(st, frame, item):
    if isinstance(item, dict):
        return get_var(st, frame, item["var"])
    return item


@word("gain")
def gain(st, task, frame):
    node = task["e"]
    p = frame["p"]
    pl = st.players[p]
    item = resolve_item(st, frame, node["item"])
    if "left" not in task:
        task["left"] = amount(st, frame, node.get("count", 1))
        task["got"] = []
    a = task.pop("a", None)
    got = task["got"]
    if isinstance(item, list):
        if item and isinstance(item[0], str) and item[0] in ("dragon", "cave"):
            item = [item]
        if item and isinstance(item[0], list):  # bound cards: take them into hand
            for ref in item:
                if take_card(st, p, ref):
                    got.append(ref)
            return _gained(st, task, frame, got)
        choices = [r for r in item if r in RES_INDEX]  # one of these resources (e.g. those in a tucked card's cost)
        item = "any_resource"
    else:
        choices = RESOURCES
    if item in RES_INDEX:
        pl.res[RES_INDEX[item]] += task["left"]
        got += [item] * task["left"]
        if task["left"]:
            st.emit("gained", p=p, item=item, n=task["left"])
        task["left"] = 0
    elif item == "any_resource":
        if a is not None:
            n = task["left"] if node.get("same") else 1
            pl.res[RES_INDEX[a.args[0]]] += n
            got += [a.args[0]] * n
            task["left"] -= n
            st.emit("gained", p=p, item=a.args[0], n=n)
        if task["left"] > 0 and choices:
            options = [GAIN[r] for r in RESOURCES if r in choices]
            return st.ask(task, p, "gain_resource", options, left=task["left"], same=bool(node.get("same")))
    elif item == "coin":
        pl.coins += task["left"]
        got += ["coin"] * task["left"]
        if task["left"]:
            st.emit("gained", p=p, item="coin", n=task["left"])
        task["left"] = 0
    elif item == "egg":
        n = task["left"]
        task["left"] = 0
        got.append("egg")
        _gained(st, task, frame, got)
        push_fx(st, {"do": "lay_egg", "count": n}, task["f"])
        return
    elif item == "guild":
        n = task["left"]
        task["left"] = 0
        got.append("guild")
        _gained(st, task, frame, got)
        st.queue_guild(p, n)
        return
    elif item in ("dragon", "cave"):
        source = sources(node)
        display = st.display_dragons if item == "dragon" else st.display_caves
        if a is not None:
            if a.args[0] == "display":
                card = display[a.args[1]]
                display[a.args[1]] = None
                st.emit("took", p=p, card=[item, card], source="display", slot=a.args[1])
            else:
                card = st.draw_dragon() if item == "dragon" else st.draw_cave()
                _drew(st, p, item, card)
            _to_hand(pl, item, card, got)
            task["left"] -= 1
        while task["left"] > 0:
            deck_ok = bool(st.dragon_deck or st.dragon_discard) if item == "dragon" else bool(
                st.cave_deck or st.cave_discard)
            options = []
            if "display" in source:
                options = [TAKE_DISPLAY[i] for i in range(3) if display[i] is not None]
            if "deck" in source and deck_ok:
                if source == ("deck",):
                    card = st.draw_dragon() if item == "dragon" else st.draw_cave()
                    _drew(st, p, item, card)
                    _to_hand(pl, item, card, got)
                    task["left"] -= 1
                    continue
                options.append(TAKE_DECK)
            if not options:
                break
            return st.ask(task, p, "take_card", options, item=item, left=task["left"])
        task["left"] = 0
    _gained(st, task, frame, got)


def _drew(st, p, item, card):
    if card is not None:
        st.emit("drew", p=p, kind=item, n=1, cards=[[item, card]])  # the cards: only the drawer sees them


def _to_hand(pl, item, card, got):
    if card is None:
        return
    if item == "dragon":
        pl.hand.append(card)
    else:
        pl.caves.append(card)
    got.append([item, card])


def _gained(st, task, frame, got):
    node = task["e"]
    if node.get("as"):
        value = got
        if node.get("same") and got and isinstance(got[0], str):
            value = got[0]
        set_var(frame, node["as"], value)
    if got:
        push_then(st, node, task["f"])


@can("gain")
def can_gain(st, node, frame):
    item = resolve_item(st, frame, node["item"])
    if item is None or item == []:
        return False
    if item == "egg":
        return bool(st.egg_room(frame["p"], range(12), True))
    if item in ("dragon", "cave"):
        source = sources(node)
        display = st.display_dragons if item == "dragon" else st.display_caves
        deck = (st.dragon_deck or st.dragon_discard) if item == "dragon" else (st.cave_deck or st.cave_discard)
        return ("display" in source and display != EMPTY_DISPLAY) or ("deck" in source and bool(deck))
    return True


# -- lay_egg --------------------------------------------------------------------------------------------------

def _egg_target(frame, node):
    tgt = node.get("on") or {}
    if not tgt:
        return tgt, True  # any dragon of the mat, or the mat's own nests
    mat = tgt.get("scope", "mat") == "mat" and not tgt.get("cave")
    plain = not any(k in tgt for k in ("trait", "not_trait", "size", "not_size", "kind", "other", "each"))
    return tgt, tgt.get("nests", mat and plain)


@word("lay_egg")
def lay_egg(st, task, frame):
    node = task["e"]
    p = frame["p"]
    tgt, nests = _egg_target(frame, node)
    if "left" not in task:
        task["left"] = amount(st, frame, node.get("count", 1))
        task["laid"] = 0
        if tgt.get("each"):
            for index in targets(st, frame, tgt):
                for _ in range(task["left"]):
                    if st.egg_room(p, (index,), False):
                        st.lay(p, index)
                        task["laid"] += 1
                        st.emit("laid", p=p, space=index, n=1, dragon=st.players[p].spaces[index].dragon)
            task["left"] = 0
    a = task.pop("a", None)
    if a is not None:
        if a == STOP:
            task["left"] = 0
        else:
            st.lay(p, a.args[0])
            task["laid"] += 1
            task["left"] -= 1
            where = a.args[0]
            st.emit("laid", p=p, space=where, n=1,
                    dragon=None if where == NEST else st.players[p].spaces[where].dragon)
    if task["left"] > 0:
        room = st.egg_room(p, targets(st, frame, tgt), nests)
        if room:
            options = [EGG_ON[where] for where in room]
            if node.get("up_to"):
                options.append(STOP)
            return st.ask(task, p, "lay_egg", options, left=task["left"])
    if task["laid"]:
        push_then(st, node, task["f"])


@can("lay_egg")
def can_lay_egg(st, node, frame):
    tgt, nests = _egg_target(frame, node)
    return bool(st.egg_room(frame["p"], targets(st, frame, tgt), nests))


# -- cache ----------------------------------------------------------------------------------------------------

def _default_here(st, frame, tgt):
    if tgt is None:
        return {"scope": "here"} if here(st, frame) is not None else {"scope": "mat"}
    return tgt


def _cache_kinds(st, frame, node, pool=None, makeable=False):
    """The kinds that may be cached now; with `makeable`, also those from the supply the player lacks but can make
    by an exchange (the cache then offers that exchange first)."""
    item = resolve_item(st, frame, node["item"])
    if pool is not None:
        item = pool
    if isinstance(item, list):
        kinds = [r for r in item if r in RES_INDEX]
    elif item == "any_resource":
        kinds = list(RESOURCES)
    elif item in RES_INDEX:
        kinds = [item]
    else:
        kinds = []
    if sources(node) == ("supply",):
        pl = st.players[frame["p"]]
        total = sum(pl.res)
        kinds = [r for r in kinds if pl.res[RES_INDEX[r]] or (makeable and total >= st.cat.exchange_give)]
    return sorted(set(kinds), key=RESOURCES.index)


def _cache_exchanges(st, frame, node, pool, spots):
    """Exchanges that make a kind the cache names from the supply and the player lacks."""
    if not spots or sources(node) != ("supply",):
        return []
    held = _cache_kinds(st, frame, node, pool)
    wanted = set(_cache_kinds(st, frame, node, pool, makeable=True)) - set(held)
    return [o for o in exchange_options(st.cat, st.players[frame["p"]]) if o.args[-1] in wanted]


@word("cache")
def cache(st, task, frame):
    node = task["e"]
    p = frame["p"]
    pl = st.players[p]
    tgt = _default_here(st, frame, node.get("on"))
    if "left" not in task:
        _start_counting(st, frame, task, node, tgt)
        bound = resolve_item(st, frame, node["item"])
        if isinstance(bound, list):  # "cache them": only the units bound, each once
            task["pool"] = [r for r in bound if r in RES_INDEX]
    a = task.pop("a", None)
    if a is not None and a.kind == "exchange":
        exchange_now(st, p, a.args)
        a = None
    if a is not None:
        if a == STOP:
            task["left"] = 0
        else:
            r, index = a.args
            if "pool" in task:
                task["pool"].remove(r)
            supply = sources(node) == ("supply",)
            if supply:
                pl.res[RES_INDEX[r]] -= 1
            pl.spaces[index].cached[RES_INDEX[r]] += 1
            st.emit("cached", p=p, item=r, space=index, dragon=pl.spaces[index].dragon,
                    source="supply" if supply else "general")
            task["left"] -= 1
            task["done"] += 1
            if task["left"] > 0:
                st.stack.append(task)
                feed(st, p, index, r)
                return
            feed_after = (index, r)
            then_if_done(st, task, node)
            feed(st, p, *feed_after)
            return
    if task["left"] > 0:
        kinds = _cache_kinds(st, frame, node, task.get("pool"))
        if "spots" in task:
            spots = [task["spots"][(task["total"] - task["left"]) // task["units"]]]
        else:
            spots = targets(st, frame, tgt)
        exchanges = _cache_exchanges(st, frame, node, task.get("pool"), spots)
        if (kinds or exchanges) and spots:
            options = [Option("cache", (r, index)) for index in spots for r in kinds] + exchanges
            if node.get("up_to"):
                options.append(STOP)
            return st.ask(task, p, "cache", options, left=task["left"], supply=sources(node) == ("supply",))
    then_if_done(st, task, node)


@can("cache")
def can_cache(st, node, frame):
    tgt = _default_here(st, frame, node.get("on"))
    return bool(_cache_kinds(st, frame, node, makeable=True)) and bool(targets(st, frame, tgt))


def _start_counting(st, frame, task, node, tgt):
    """A counted word starts: how many to do, and with `each`, that many on every matching dragon."""
    task["left"] = amount(st, frame, node.get("count", 1))
    task["done"] = 0
    if tgt.get("each"):
        task["spots"] = targets(st, frame, tgt)
        task["units"] = task["left"]
        task["left"] = task["total"] = len(task["spots"]) * task["left"]


# -- tuck -----------------------------------------------------------------------------------------------------

def _tuck_cards(st, frame, node):
    source = sources(node)
    pl = st.players[frame["p"]]
    if source == ("hand",):
        return sorted(set(pl.hand))
    if source == ("deck",):
        return [-1] if (st.dragon_deck or st.dragon_discard) else []
    return sorted({ref[1] for ref in bound_cards(st, frame, source["var"]) if ref[0] == "dragon"
                   and (ref[1] in pl.hand or ref[1] in st.revealed)})


@word("tuck")
def tuck(st, task, frame):
    node = task["e"]
    p = frame["p"]
    pl = st.players[p]
    tgt = _default_here(st, frame, node.get("on"))
    if "left" not in task:
        _start_counting(st, frame, task, node, tgt)
    a = task.pop("a", None)
    if a is not None:
        if a == STOP:
            task["left"] = 0
        else:
            card, index = a.args
            source = "deck" if card == -1 else "revealed" if card in st.revealed else "hand"
            if card == -1:
                card = st.draw_dragon()
            elif not remove_card(st, p, ["dragon", card]):
                card = None
            if card is not None:
                pl.spaces[index].tucked.append(card)
                st.emit("tucked", p=p, space=index, dragon=pl.spaces[index].dragon, source=source,
                        card=["dragon", card])  # face down: only the player sees which
                if node.get("as"):  # the resources shown in the tucked dragon's cost
                    cost = st.cat.dragons[card].cost
                    set_var(frame, node["as"], [r for r in RESOURCES if cost.get(r)])
                task["done"] += 1
            task["left"] -= 1
            if card is not None:
                if task["left"] > 0:
                    st.stack.append(task)
                    feed(st, p, index, "card")
                    return
                then_if_done(st, task, node)
                feed(st, p, index, "card")
                return
    if task["left"] > 0:
        cards = _tuck_cards(st, frame, node)
        if "spots" in task:
            spots = [task["spots"][(task["total"] - task["left"]) // task["units"]]]
        else:
            spots = targets(st, frame, tgt)
        if cards and spots:
            options = [Option("tuck", (card, index)) for card in cards for index in spots]
            if node.get("up_to"):
                options.append(STOP)
            return st.ask(task, p, "tuck", options, left=task["left"])
    then_if_done(st, task, node)


@can("tuck")
def can_tuck(st, node, frame):
    tgt = _default_here(st, frame, node.get("on"))
    return bool(_tuck_cards(st, frame, node)) and bool(targets(st, frame, tgt))
