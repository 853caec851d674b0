"""The one interpreter of the effect language (docs/effects.md).

Effects run on the state's explicit task stack: a task is a plain JSON-able dict, so a game paused in the middle of
an ability serializes and resumes. Each word is a handler registered with `@word("name")` against its declaration
(see game/engine/words/); a handler may push more tasks, or ask its player a question and be called again with the
answer in task["a"]. Importing this module registers every word.
"""
from . import words  # noqa: F401  (registers every word of the language)
from .runtime import (  # noqa: F401  (the interpreter's public door: callers read these as fx.<name>)
    CAN, NO, WORDS, YES, YES_NO, amount, can, count, describe, dragon_matches, get_var, here, new_frame, possible,
    push_ability, push_fx, push_then, scope_spaces, set_var, targets, test, then_if_done, word,
)
from .tasks import task


def ability_label(st, task):
    src = task["src"]
    if src >= 0:
        return st.cat.dragons[src].name
    return task.get("source") or "this benefit"


@task("ability")
def run_ability(st, task):
    answer = task.pop("a", None)
    if answer is None:
        fid = new_frame(st, task["p"], task["src"], cave=task["cave"], source=task["source"])
        task["f"] = fid
        effect = task["e"]
        if effect is not None and possible(st, effect, st.frames[fid]):
            if task["ask"]:
                return st.ask(task, task["p"], f"Use {ability_label(st, task)}: {describe(st, effect)}?", YES_NO)
            answer = YES
        else:
            answer = NO
    fid = task["f"]
    others = task["o"]
    if others is not None:
        n = len(st.players)
        for k in range(n - 1, 0, -1):
            st.stack.append({"t": "others", "p": (task["p"] + k) % n, "parent": fid, "e": others,
                             "src": task["src"], "source": task["source"]})
    if answer == YES:
        push_fx(st, task["e"], fid)


@task("others")
def run_others(st, task):
    answer = task.pop("a", None)
    if answer is None:
        parent = st.frames[task["parent"]]
        fid = new_frame(st, task["p"], task["src"], owner=parent["owner"], parent=task["parent"],
                        source=task["source"])
        task["f"] = fid
        if not possible(st, task["e"], st.frames[fid]):
            return
        who = ability_label(st, task)
        return st.ask(task, task["p"], f"An opponent's {who} offers you: {describe(st, task['e'])}. Take it?",
                      YES_NO)
    if answer == YES:
        push_fx(st, task["e"], task["f"])


@task("fx")
def run_fx(st, task):
    frame = st.frames[task["f"]]
    WORDS[task["e"]["do"]](st, task, frame)
