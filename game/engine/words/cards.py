"""Words that move cards onto the mat: excavate, play_dragon, the swap family (cover and swaps), reveal, distribute."""
from ...language.words import sources
from ..catalogue import RES_INDEX
from ..decisions import Option
from ..model import COLUMNS
from ..runtime import can, push_fx, push_then, set_var, targets, test, word
from ..tasks import task as register_task
from .items import STOP, _default_here, bound_cards, feed, remove_card

# -- excavate -------------------------------------------------------------------------------------------------

def _excavate_cards(st, frame, source):
    pl = st.players[frame["p"]]
    if source == ("hand",):
        return sorted(set(pl.caves))
    if source == ("display",):
        return sorted({c for c in st.display_caves if c is not None})
    if source == ("deck",):
        return [-1] if (st.cave_deck or st.cave_discard) else []
    return sorted({ref[1] for ref in bound_cards(st, frame, source["var"]) if ref[0] == "cave" and ref[1] in pl.caves})


def excavate_caves(st, p, free):
    pl = st.players[p]
    eggs = pl.eggs()
    out = []
    for cave in range(3):
        index = st.next_unexcavated(p, cave)
        if index is not None and (free or eggs >= st.cat.excavate_eggs[index % COLUMNS]):
            out.append(cave)
    return out


def _excavate_options(st, frame, node):
    cards = _excavate_cards(st, frame, sources(node))
    caves = excavate_caves(st, frame["p"], node.get("free", False)) if cards else []
    return [Option("excavate", (card, cave)) for card in cards for cave in caves]


@word("excavate")
def excavate(st, task, frame):
    node = task["e"]
    a = task.pop("a", None)
    if a is None:
        options = _excavate_options(st, frame, node)
        if not options:
            return
        return st.ask(task, frame["p"], "excavate", options, free=node.get("free", False))
    card, cave = a.args
    push_then(st, node, task["f"])
    put_cave(st, task["f"], frame["p"], card, cave, "display" if sources(node) == ("display",) else "hand",
             node.get("free", False))


def put_cave(st, fid, p, card, cave, source, free):
    """Take a cave card from its source and excavate the leftmost empty space of a cave with it."""
    pl = st.players[p]
    if card == -1:
        card = st.draw_cave()
        where = "deck"
    elif source == "display":
        st.display_caves[st.display_caves.index(card)] = None
        where = "display"
    else:
        pl.caves.remove(card)
        where = "hand"
    if card is not None:
        st.place_cave(p, card, st.next_unexcavated(p, cave), fid, free=free, event={"source": where})


@can("excavate")
def can_excavate(st, node, frame):
    return bool(_excavate_options(st, frame, node))


# -- play_dragon ----------------------------------------------------------------------------------------------

def _dragon_sources(st, frame, source):
    pl = st.players[frame["p"]]
    if isinstance(source, dict):
        return [("hand", ref[1]) for ref in bound_cards(st, frame, source["var"])
                if ref[0] == "dragon" and (ref[1] in pl.hand or ref[1] in st.revealed)]
    cards = []
    if "hand" in source:
        cards += [("hand", d) for d in sorted(set(pl.hand))]
    if "display" in source:
        cards += [("display", d) for d in st.display_dragons if d is not None]
    return cards


def play_options(st, frame, cards, mode, kind="play"):
    p = frame["p"]
    pl = st.players[p]
    if pl.dragon_count() >= st.cat.max_dragons:
        return []
    spaces = []
    for cave in range(3):
        index = st.next_empty(p, cave)
        spaces.append(index if index is not None and pl.excavated(index) else None)
    options = []
    for where, dragon in cards:
        card = st.cat.dragons[dragon]
        for cave in card.habitats:
            index = spaces[cave]
            if index is None:
                continue
            if mode == "discount_one" and not st.free_to_play(p, dragon, index) and st.discounts(dragon):
                # a discount of 1 egg or 1 resource printed in the cost: one option per item it may take off
                options += [Option(kind, (dragon, cave, item)) for item in st.discounts(dragon)
                            if st.can_afford_dragon(p, dragon, index, 0, "printed", exchange=True, waive=item)]
            elif st.can_afford_dragon(p, dragon, index, 0, "printed" if mode == "discount_one" else mode,
                                      exchange=True):
                options.append(Option(kind, (dragon, cave)))
    return options


def put_dragon(st, fid, p, dragon, cave, mode, waive=None):
    """Take a dragon from hand, display or the revealed cards, pay for it and put it in a cave."""
    pl = st.players[p]
    if dragon in st.display_dragons:
        st.display_dragons[st.display_dragons.index(dragon)] = None
        where = "display"
    elif dragon in st.revealed:
        st.revealed.remove(dragon)
        where = "revealed"
    else:
        pl.hand.remove(dragon)
        where = "hand"
    st.place_dragon(p, dragon, st.next_empty(p, cave), fid, mode, waive, event=("played", {"source": where}))


@word("play_dragon")
def play_dragon(st, task, frame):
    node = task["e"]
    mode = node.get("cost", "printed")
    a = task.pop("a", None)
    if a is None:
        options = play_options(st, frame, _dragon_sources(st, frame, sources(node)), mode)
        if not options:
            return
        return st.ask(task, frame["p"], "play_dragon", options, mode=mode)
    push_then(st, node, task["f"])
    put_dragon(st, task["f"], frame["p"], a.args[0], a.args[1], mode, a.args[2] if len(a.args) > 2 else None)


@can("play_dragon")
def can_play_dragon(st, node, frame):
    return bool(play_options(st, frame, _dragon_sources(st, frame, sources(node)),
                             node.get("cost", "printed")))


# -- cover and swaps ------------------------------------------------------------------------------------------

def move_dragon(st, p, index, new, keep_old):
    """Replace the dragon on a space with `new`; what lay on it moves over (eggs up to the new capacity)."""
    pl = st.players[p]
    space = pl.spaces[index]
    old = space.dragon
    card = st.cat.dragons[new]
    old_card = st.cat.dragons[old]
    if keep_old == "tuck":
        space.tucked.append(old)
    else:
        pl.hand.append(old)
    space.dragon = new
    space.eggs = min(space.eggs, card.capacity)
    space.tokens = min(space.tokens, len(card.training)) if card.size == old_card.size == "fledgling" else 0
    space.grown = False
    if card.size == "hatchling":
        food = card.feeds_on
        space.fed = len(space.tucked) if food == "card" else space.cached[RES_INDEX[food]] if food in RES_INDEX else 0
    else:
        space.fed = 0
    pl.fresh.append(new)
    st.push_card_abilities(p, new, "when_played", index)


def _cover_options(st, frame):
    pl = st.players[frame["p"]]
    out = []
    for dragon in sorted(set(pl.hand)):
        for index, space in enumerate(pl.spaces):
            if space.dragon is not None and index // COLUMNS in st.cat.dragons[dragon].habitats:
                out.append(Option("cover", (dragon, index)))
    return out


def cover_dragon(st, task, frame):
    a = task.pop("a", None)
    if a is None:
        options = _cover_options(st, frame)
        if not options:
            return
        return st.ask(task, frame["p"], "cover", options)
    push_then(st, task["e"], task["f"])
    dragon, index = a.args
    st.players[frame["p"]].hand.remove(dragon)
    st.emit("covered", p=frame["p"], dragon=dragon, space=index,
            old=st.players[frame["p"]].spaces[index].dragon)
    move_dragon(st, frame["p"], index, dragon, "tuck")


def can_cover(st, node, frame):
    return bool(_cover_options(st, frame))


def _swap_options(st, frame):
    spaces = [i for i, s in enumerate(st.players[frame["p"]].spaces) if s.dragon is not None]
    return [Option("swap", (i, j)) for k, i in enumerate(spaces) for j in spaces[k + 1:]]


FIELDS = ("dragon", "eggs", "cached", "tucked", "tokens", "fed", "grown")


def swap_dragons(st, task, frame):
    a = task.pop("a", None)
    if a is None:
        options = _swap_options(st, frame)
        if not options:
            return
        return st.ask(task, frame["p"], "swap_dragons", options)
    spaces = st.players[frame["p"]].spaces
    first, second = spaces[a.args[0]], spaces[a.args[1]]
    st.emit("swapped", p=frame["p"], spaces=list(a.args), dragons=[first.dragon, second.dragon])
    for field in FIELDS:
        x, y = getattr(first, field), getattr(second, field)
        setattr(first, field, y)
        setattr(second, field, x)
    push_then(st, task["e"], task["f"])


def can_swap(st, node, frame):
    return bool(_swap_options(st, frame))


def _swap_hand_options(st, frame):
    pl = st.players[frame["p"]]
    return [Option("swap_hand", (index, dragon)) for index, s in enumerate(pl.spaces) if s.dragon is not None
            for dragon in sorted(set(pl.hand)) if dragon != s.dragon]


def swap_with_hand(st, task, frame):
    a = task.pop("a", None)
    if a is None:
        options = _swap_hand_options(st, frame)
        if not options:
            return
        return st.ask(task, frame["p"], "swap_with_hand", options)
    push_then(st, task["e"], task["f"])
    index, dragon = a.args
    st.players[frame["p"]].hand.remove(dragon)
    st.emit("swapped_hand", p=frame["p"], dragon=dragon, space=index,
            old=st.players[frame["p"]].spaces[index].dragon)
    move_dragon(st, frame["p"], index, dragon, "hand")


def can_swap_hand(st, node, frame):
    return bool(_swap_hand_options(st, frame))


def _swap_cave_options(st, frame):
    pl = st.players[frame["p"]]
    return [Option("swap_cave", (index, card)) for index, s in enumerate(pl.spaces)
            if s.cave_card is not None and s.dragon is None for card in sorted(set(pl.caves))]


def swap_cave_card(st, task, frame):
    a = task.pop("a", None)
    if a is None:
        options = _swap_cave_options(st, frame)
        if not options:
            return
        return st.ask(task, frame["p"], "swap_cave_card", options)
    push_then(st, task["e"], task["f"])
    index, card = a.args
    pl = st.players[frame["p"]]
    pl.caves.remove(card)
    pl.caves.append(pl.spaces[index].cave_card)
    st.emit("swapped_cave", p=frame["p"], card=card, space=index, old=pl.spaces[index].cave_card)
    pl.spaces[index].cave_card = card
    st.push_cave_abilities(frame["p"], card)


def can_swap_cave(st, node, frame):
    return bool(_swap_cave_options(st, frame))


SWAPS = {  # the swap family's kinds (`what`): (handler, can it act now?)
    "cover": (cover_dragon, can_cover),
    "dragons": (swap_dragons, can_swap),
    "with_hand": (swap_with_hand, can_swap_hand),
    "cave_card": (swap_cave_card, can_swap_cave),
}


@word("swap")
def swap(st, task, frame):
    return SWAPS[task["e"]["what"]][0](st, task, frame)


@can("swap")
def can_swap_kind(st, node, frame):
    return SWAPS[node["what"]][1](st, node, frame)


# -- reveal and distribute ------------------------------------------------------------------------------------

@word("reveal")
def reveal(st, task, frame):
    node = task["e"]
    card = st.draw_dragon()
    if card is None:
        return
    st.revealed.append(card)
    st.emit("revealed", p=frame["p"], card=["dragon", card])
    set_var(frame, node["as"], ["dragon", card])
    st.stack.append({"t": "reveal_end", "card": card})
    branch = node.get("then") if test(st, frame, node["cond"], card_var=node["as"]) else node.get("else")
    if branch is not None:
        push_fx(st, branch, task["f"])


@register_task("reveal_end")
def t_reveal_end(st, task):
    """A revealed card that nothing tucked, kept or played is discarded."""
    if task["card"] in st.revealed:
        st.revealed.remove(task["card"])
        st.dragon_discard.append(task["card"])
        st.emit("discarded", cards=[["dragon", task["card"]]])


@can("reveal")
def can_reveal(st, node, frame):
    return bool(st.dragon_deck or st.dragon_discard)


def _place_options(st, frame, place, pool):
    """Options are ("pick", (place, card kind, card[, space or cave])), so a label can say what happens."""
    kind = place["place"]
    if kind in ("discard", "keep"):
        return [Option("pick", (kind, *ref)) for ref in pool]
    if kind == "tuck":
        spots = targets(st, frame, _default_here(st, frame, place.get("on")))
        return [Option("pick", (kind, "dragon", ref[1], index)) for ref in pool if ref[0] == "dragon"
                for index in spots]
    if kind == "play":
        cards = [("hand", ref[1]) for ref in pool if ref[0] == "dragon"]
        mode = "free" if place.get("free") else "printed"
        return [Option("pick", (kind, "dragon", o.args[0], o.args[1])) for o in play_options(st, frame, cards, mode)]
    if kind == "excavate":
        caves = excavate_caves(st, frame["p"], place.get("free", False))
        return [Option("pick", (kind, "cave", ref[1], cave)) for ref in pool if ref[0] == "cave" for cave in caves]
    return []


@word("distribute")
def distribute(st, task, frame):
    node = task["e"]
    p = frame["p"]
    pl = st.players[p]
    if "pool" not in task:
        task["pool"] = [ref for ref in bound_cards(st, frame, node["cards"]["var"])
                        if (ref[1] in pl.hand if ref[0] == "dragon" else ref[1] in pl.caves)]
        task["pi"] = 0
        task["left"] = node["to"][0].get("count", 1)
    a = task.pop("a", None)
    places = node["to"]
    if a is not None:
        place = places[task["pi"]]
        if a == STOP:
            task["left"] = 0
        else:
            _, card_kind, card, *where = a.args
            ref = [card_kind, card]
            task["pool"].remove(ref)
            task["left"] -= 1
            st.stack.append(task)
            kind = place["place"]
            if kind == "discard":
                remove_card(st, p, ref)
                (st.dragon_discard if ref[0] == "dragon" else st.cave_discard).append(ref[1])
                st.emit("discarded", p=p, cards=[ref])
            elif kind == "tuck":
                source = "revealed" if card in st.revealed else "hand"
                remove_card(st, p, ref)
                pl.spaces[where[0]].tucked.append(card)
                st.emit("tucked", p=p, space=where[0], dragon=pl.spaces[where[0]].dragon, source=source, card=ref)
                feed(st, p, where[0], "card")
            elif kind == "play":
                put_dragon(st, task["f"], p, card, where[0], "free" if place.get("free") else "printed")
            elif kind == "excavate":
                put_cave(st, task["f"], p, card, where[0], "hand", place.get("free", False))
            return
    while task["pi"] < len(places):
        place = places[task["pi"]]
        if task["left"] > 0 and task["pool"]:
            options = _place_options(st, frame, place, task["pool"])
            if options:
                if place.get("up_to"):
                    options.append(STOP)
                return st.ask(task, p, "distribute", options, place=place["place"], left=task["left"],
                              free=bool(place.get("free")))
        task["pi"] += 1
        if task["pi"] < len(places):
            task["left"] = places[task["pi"]].get("count", 1)
    if node.get("rest", "keep") == "discard":
        for ref in task["pool"]:
            if remove_card(st, p, ref):
                (st.dragon_discard if ref[0] == "dragon" else st.cave_discard).append(ref[1])
                st.emit("discarded", p=p, cards=[ref])


@can("distribute")
def can_distribute(st, node, frame):
    return bool(bound_cards(st, frame, node["cards"]["var"]))

