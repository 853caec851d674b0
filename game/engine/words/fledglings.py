"""Words that work other abilities: train (fledglings) and activate (another dragon's or the mat's ability)."""
from ..decisions import Option
from ..runtime import amount, can, push_ability, push_fx, push_then, set_var, targets, then_if_done, word
from .items import STOP, bound_cards, can_pay


def _trainable(st, frame, node):
    p = frame["p"]
    spaces = st.players[p].spaces
    tgt = dict(node.get("on") or {"scope": "mat"})
    tgt["untrained"] = True
    out = []
    for index in targets(st, frame, tgt):
        card = st.cat.dragons[spaces[index].dragon]
        if node.get("free") or node.get("full") or can_pay(st, frame, [{"item": card.training[spaces[index].tokens]}]):
            out.append(index)
    return out


def _trained(st, task, node, p, space, index, card):
    """The box is covered now; the story tells it once it is paid for (a paid box's payment runs next, and the task
    comes back to tell it), so the log reads "paid 1 milk", then "trained"."""
    told = {"p": p, "dragon": space.dragon, "space": index, "tokens": space.tokens, "of": len(card.training)}
    if node.get("free") or node.get("full"):
        st.emit("trained", **told)
    else:
        task["told"] = told


@word("train")
def train(st, task, frame):
    node = task["e"]
    p = frame["p"]
    spaces = st.players[p].spaces
    if "told" in task:  # back from paying for a box: now it is trained
        st.emit("trained", **task.pop("told"))
    if "left" not in task:
        task["left"] = amount(st, frame, node.get("count", 1))
        task["done"] = 0
        if (node.get("on") or {}).get("each"):
            # each matching fledgling trains (count times), in mat order; paid boxes are asked about one by one
            task["queue"] = [index for index in _trainable(st, frame, node) for _ in range(task["left"])]
    if "queue" in task:
        task.pop("a", None)
        while task["queue"]:
            index = task["queue"].pop(0)
            space = spaces[index]
            card = st.cat.dragons[space.dragon]
            if space.tokens >= len(card.training):
                continue
            covered = card.training[space.tokens]
            if not (node.get("free") or node.get("full")) and not can_pay(st, frame, [{"item": covered}]):
                continue
            if node.get("full"):
                covered = card.training[space.tokens:]
                space.tokens = len(card.training)
            else:
                space.tokens += 1
            _trained(st, task, node, p, space, index, card)
            if node.get("as"):
                set_var(frame, node["as"], covered)
            task["done"] += 1
            if not (node.get("free") or node.get("full")):
                st.stack.append(task)
                push_fx(st, {"do": "pay", "cost": [{"item": covered}]}, task["f"])
                return
        then_if_done(st, task, node)
        return
    a = task.pop("a", None)
    if a is not None:
        if a == STOP:
            task["left"] = 0
        else:
            index = a.args[0]
            space = spaces[index]
            card = st.cat.dragons[space.dragon]
            covered = card.training[space.tokens]
            if node.get("full"):
                covered = card.training[space.tokens:]
                space.tokens = len(card.training)
            else:
                space.tokens += 1
            _trained(st, task, node, p, space, index, card)
            if node.get("as"):
                set_var(frame, node["as"], covered)
            task["left"] -= 1
            task["done"] += 1
            st.stack.append(task)
            if not (node.get("free") or node.get("full")):
                push_fx(st, {"do": "pay", "cost": [{"item": covered}]}, task["f"])
            return
    if task["left"] > 0:
        spots = _trainable(st, frame, node)
        if spots:
            options = [Option("train", (index,)) for index in spots]
            if node.get("up_to"):
                options.append(STOP)
            return st.ask(task, p, "train", options, left=task["left"], full=bool(node.get("full")),
                          free=bool(node.get("free") or node.get("full")))
    then_if_done(st, task, node)


@can("train")
def can_train(st, node, frame):
    return bool(_trainable(st, frame, node))


def _activate_options(st, frame, node, chosen):
    p = frame["p"]
    kinds = node.get("kinds", ["if_activated"])
    kinds = [kinds] if isinstance(kinds, str) else kinds
    on = node.get("on", {"scope": "mat"})
    options = []
    if on == "mat":
        options = [Option("activate_icon", (cave, slot)) for cave in range(3) for slot in range(5)]
    elif isinstance(on, dict) and "var" in on:
        for ref in bound_cards(st, frame, on["var"]):
            card = st.cat.caves[ref[1]] if ref[0] == "cave" else st.cat.dragons[ref[1]]
            if any(ab["kind"] in kinds for ab in card.abilities):
                options.append(Option("activate_card", tuple(ref)))
    else:
        spaces = st.players[p].spaces
        for index in targets(st, frame, on):
            dragon = spaces[index].dragon
            if st.cat.dragons[dragon].kinds.intersection(kinds) and st.active(p, dragon, index):
                options.append(Option("activate", (dragon,)))
    if node.get("distinct", True):
        options = [o for o in options if list(o.args) not in chosen]
    return options


@word("activate")
def activate(st, task, frame):
    node = task["e"]
    p = frame["p"]
    kinds = node.get("kinds", ["if_activated"])
    kinds = [kinds] if isinstance(kinds, str) else kinds
    chosen = task.setdefault("chosen", [])
    if "left" not in task:
        task["left"] = node.get("count", 1)
        on = node.get("on", {"scope": "mat"})
        if isinstance(on, dict) and on.get("each"):
            each = _activate_options(st, frame, node, [])
            if each:
                push_then(st, node, task["f"])
            for option in reversed(each):
                _run(st, p, option, kinds)
            return
    a = task.pop("a", None)
    if a is not None and a != STOP:
        chosen.append(list(a.args))
        task["left"] -= 1
        st.stack.append(task)  # back after the ability: another pick, or `then`
        _run(st, p, a, kinds)
        return
    options = _activate_options(st, frame, node, chosen) if task["left"] > 0 and a != STOP else []
    if not options:
        if chosen:
            push_then(st, node, task["f"])
        return
    if node.get("up_to"):
        options.append(STOP)
    return st.ask(task, p, "activate", options, left=task["left"])


def _run(st, p, option, kinds):
    if st.events is not None:
        what = {"icon": list(option.args)} if option.kind == "activate_icon" else {"card": list(option.args)} \
            if option.kind == "activate_card" else {"dragon": option.args[-1]}
        st.emit("activated", p=p, **what)
    if option.kind == "activate_icon":
        cave, slot = option.args
        push_ability(st, p, st.cat.mat_icons[cave][slot], cave=cave, ask=False, source="a mat icon")
    elif option.kind == "activate_card" and option.args[0] == "cave":
        card = st.cat.caves[option.args[1]]
        for ability in reversed(card.abilities):
            if ability["kind"] in kinds:
                push_ability(st, p, ability["effect"], ability.get("others"), source=f"cave card {card.number}",
                             via=["cave", option.args[1]])
    else:
        dragon = option.args[-1]
        for ability in reversed(st.cat.dragons[dragon].abilities):
            if ability["kind"] in kinds:
                push_ability(st, p, ability["effect"], ability.get("others"), src=dragon, kind=ability["kind"],
                             source=f"dragon:{dragon}")


@can("activate")
def can_activate(st, node, frame):
    return bool(_activate_options(st, frame, node, []))
