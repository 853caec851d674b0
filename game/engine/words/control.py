"""Words that shape an effect: seq, choose, may, repeat, if."""
from ..decisions import Option
from ..runtime import YES, YES_NO, amount, can, possible, push_fx, test, word


@word("seq")
def seq(st, task, frame):
    for step in reversed(task["e"]["steps"]):
        push_fx(st, step, task["f"])


@can("seq")
def can_seq(st, node, frame):
    return any(possible(st, step, frame) for step in node["steps"])


@word("choose")
def choose(st, task, frame):
    node = task["e"]
    chosen = task.setdefault("chosen", [])
    a = task.pop("a", None)
    if a is None:
        if len(chosen) >= node.get("pick", 1):
            return
        distinct = node.get("distinct", True)
        options = [Option("choose", (i,)) for i, option in enumerate(node["options"])
                   if not (distinct and i in chosen) and possible(st, option, frame)]
        if not options:
            return
        return st.ask(task, frame["p"], "choose", options, choices=[node["options"][o.args[0]] for o in options])
    i = a.args[0]
    chosen.append(i)
    st.emit("chose", p=frame["p"], effect=node["options"][i])
    st.stack.append(task)
    push_fx(st, node["options"][i], task["f"])


@can("choose")
def can_choose(st, node, frame):
    return any(possible(st, option, frame) for option in node["options"])


@word("may")
def may(st, task, frame):
    node = task["e"]
    a = task.pop("a", None)
    if a is None:
        if not possible(st, node["effect"], frame):
            return
        return st.ask(task, frame["p"], "may", YES_NO, effect=node["effect"])
    st.emit("chose" if a == YES else "declined", p=frame["p"], effect=node["effect"])
    if a == YES:
        push_fx(st, node["effect"], task["f"])


@can("may")
def can_may(st, node, frame):
    return possible(st, node["effect"], frame)


@word("repeat")
def repeat(st, task, frame):
    node = task["e"]
    if "n" not in task:
        task["n"] = amount(st, frame, node["times"])
    a = task.pop("a", None)
    if task["n"] <= 0 or not possible(st, node["effect"], frame):
        return
    if node.get("up_to") and a is None:
        return st.ask(task, frame["p"], "repeat", YES_NO, left=task["n"], effect=node["effect"])
    if a is not None:
        st.emit("repeated", p=frame["p"], effect=node["effect"], again=a == YES)
        if a != YES:
            return
    task["n"] -= 1
    st.stack.append(task)
    push_fx(st, node["effect"], task["f"])


@can("repeat")
def can_repeat(st, node, frame):
    return possible(st, node["effect"], frame)


@word("if")
def if_(st, task, frame):
    node = task["e"]
    branch = node["then"] if test(st, frame, node["cond"]) else node.get("else")
    if branch is not None:
        push_fx(st, branch, task["f"])


@can("if")
def can_if(st, node, frame):
    branch = node["then"] if test(st, frame, node["cond"]) else node.get("else")
    return branch is not None and possible(st, branch, frame)
