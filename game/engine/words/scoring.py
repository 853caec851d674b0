"""The end-game word: score."""
from ..runtime import amount, test, word


def score_value(st, frame, node):
    if "cond" in node and not test(st, frame, node["cond"]):
        return 0
    vp = node["vp"]
    if "per" in node:
        vp *= amount(st, frame, node["per"])
    if "max" in node:
        vp = min(vp, node["max"])
    return vp


@word("score")
def score(st, task, frame):
    vp = score_value(st, frame, task["e"])
    end_vp = st.players[frame["p"]].end_vp
    source = frame["source"] or "abilities"
    end_vp[source] = end_vp.get(source, 0) + vp
    if st.events is not None:
        st.emit("scored", p=frame["p"], vp=vp, **({"dragon": frame["src"]} if frame["src"] >= 0 else {}))
