"""The one interpreter of the effect language (docs/effects.md).

Effects run on the state's explicit task stack: a task is a plain JSON-able dict, so a game paused in the middle of
an ability serializes and resumes. Each word is a handler registered with `@word("name")` against its declaration
(see game/engine/words/); a handler may push more tasks, or ask its player a question and be called again with the
answer in task["a"]. Importing this module registers every word.
"""
from . import words  # noqa: F401  (registers every word of the language)
from .runtime import (  # noqa: F401  (the interpreter's public door: callers read these as fx.<name>)
    CAN,
    NO,
    WORDS,
    YES,
    YES_NO,
    amount,
    can,
    count,
    dragon_matches,
    get_var,
    here,
    new_frame,
    possible,
    push_ability,
    push_fx,
    push_then,
    scope_spaces,
    set_var,
    targets,
    test,
    then_if_done,
    word,
)
from .tasks import task


def card_ref(st, task):
    """The card an ability belongs to, as question data: a dragon or a cave card (None for the board's benefits
    and guild rows)."""
    if task["src"] >= 0:
        return st.cat.card("dragon", task["src"])
    via = task.get("via")
    if via is not None and via[0] == "cave":
        return st.cat.card("cave", via[1])
    return None


def ability_label(st, task):
    src = task["src"]
    if src >= 0:
        return st.cat.dragons[src].name
    return task.get("source") or "this benefit"


def whose(task):
    """Which card an ability belongs to, as event data: {"dragon": i}, {"cave_card": i}, {"guild_row": r} or
    {"column_4": True}; None for the board's own benefits (paths, income, the guild track) and training."""
    via = task.get("via")
    if via is not None:
        return {"cave_card": via[1]} if via[0] == "cave" else {"guild_row": via[1]} if via[0] == "guild_row" \
            else {"column_4": True}
    if task["src"] >= 0 and task["source"] != "training":
        return {"dragon": task["src"]}
    return None


@task("ability")
def run_ability(st, task):
    answer = task.pop("a", None)
    if answer is None:
        fid = new_frame(st, task["p"], task["src"], cave=task["cave"], source=task["source"])
        task["f"] = fid
        effect = task["e"]
        if effect is not None and possible(st, effect, st.frames[fid]):
            if task["ask"]:
                return st.ask(task, task["p"], "use_ability", YES_NO, card=card_ref(st, task), effect=effect,
                              source=ability_label(st, task), ability=task.get("kind", ""))
            answer = YES
        else:
            answer = None  # it could do nothing: nothing fired
    if st.events is not None and answer is not None:
        card = whose(task)
        if card is not None:
            st.emit("ability", p=task["p"], kind=task["kind"], used=answer == YES, **card)
    fid = task["f"]
    others = task["o"]
    if others is not None:
        st.automa_cache(others, ability_label(st, task), answer != YES)  # solo: the Automa's cache, not a share
        n = len(st.players)
        for k in range(n - 1, 0, -1):
            share = {"t": "others", "p": (task["p"] + k) % n, "parent": fid, "e": others, "src": task["src"],
                     "source": task["source"]}
            if "via" in task:
                share["via"] = task["via"]
            st.stack.append(share)
    if answer == YES:
        push_fx(st, task["e"], fid)


@task("others")
def run_others(st, task):
    answer = task.pop("a", None)
    if answer is None:
        if "f" not in task:  # asked again after an exchange (State.apply): the share's frame is already made
            parent = st.frames[task["parent"]]
            task["f"] = new_frame(st, task["p"], task["src"], owner=parent["owner"], parent=task["parent"],
                                  source=task["source"])
        if not possible(st, task["e"], st.frames[task["f"]]):
            return
        return st.ask(task, task["p"], "opponent_offer", YES_NO, card=card_ref(st, task), effect=task["e"],
                      source=ability_label(st, task), owner=st.frames[task["parent"]]["p"])
    if st.events is not None:
        card = whose(task) or {}
        st.emit("share", p=task["p"], owner=st.frames[task["parent"]]["owner"], used=answer == YES, **card)
    if answer == YES:
        push_fx(st, task["e"], task["f"])


@task("fx")
def run_fx(st, task):
    frame = st.frames[task["f"]]
    WORDS[task["e"]["do"]](st, task, frame)
