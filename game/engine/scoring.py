"""Scoring a finished mat: a per-category breakdown, the ranking and its tiebreak, as plain data.

`final_result(state)` scores a finished game (end-game abilities already ran through the interpreter, with their
decisions). `score_mat(...)` scores one mat built from anything (the score calculator's user input): end-game
abilities that need choices take them from `choices` instead of asking.
"""
from . import interpreter as fx
from .catalogue import RES_INDEX
from .model import Player

UNKNOWN_CARD = -1  # a card gained at game end by a scored mat: only its count matters

CATEGORIES = ("guild", "dragons", "abilities", "eggs", "cached", "tucked", "objectives", "coins", "items")
CATEGORY_NAMES = {
    "guild": "Dragon Guild END GAME markers", "dragons": "printed VP of dragons on the mat",
    "abilities": "end-game abilities", "eggs": "eggs", "cached": "cached resources", "tucked": "tucked cards",
    "objectives": "round objectives", "coins": "leftover coins (1 each)",
    "items": "leftover resources and cards (1 per 4)",
}


def visible_dragons(pl):
    return [s.dragon for s in pl.spaces if s.dragon is not None]


def base_breakdown(cat, pl, objective_vp, guild_vp):
    dragons = visible_dragons(pl)
    fledglings = sum(1 for d in dragons if cat.dragons[d].size == "fledgling")
    printed = sum(cat.dragons[d].vp for d in dragons if cat.dragons[d].size != "fledgling") + fledglings * fledglings
    abilities = sum(vp for source, vp in pl.end_vp.items() if source != "guild")
    return {
        "guild": guild_vp + pl.end_vp.get("guild", 0),
        "dragons": printed,
        "abilities": abilities,
        "eggs": pl.eggs(),
        "cached": sum(sum(s.cached) for s in pl.spaces),
        "tucked": sum(len(s.tucked) for s in pl.spaces),
        "objectives": objective_vp,
        "coins": pl.coins,
        "items": (sum(pl.res) + len(pl.hand) + len(pl.caves)) // 4,
    }


def objective_vp(cat, places):
    total = 0
    for rnd, place in enumerate(places, start=1):
        table = cat.objective_vp.get(rnd, ())
        if 1 <= place <= len(table):
            total += table[place - 1]
    return total


def guild_marker_vp(cat, markers):
    """Markers on the END GAME VP row (row -1) score the printed VP of their square."""
    total = 0
    for row, square in markers:
        if row == -1 and cat.guild_end_vp:
            total += cat.guild_end_vp[min(square, len(cat.guild_end_vp) - 1)]
    return total


def rank(totals, dragons):
    """Places by total VP; ties broken by visible dragons; still tied players share the place."""
    keys = [(t, d) for t, d in zip(totals, dragons)]
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    places = [0] * len(keys)
    for i in order:
        places[i] = 1 + sum(1 for k in keys if k > keys[i])
    notes = []
    for i in order:
        tied_vp = [j for j in range(len(keys)) if j != i and totals[j] == totals[i]]
        if tied_vp and i < min(tied_vp):
            group = [i] + tied_vp
            if len({dragons[j] for j in group}) > 1:
                notes.append(f"Players {', '.join(str(j + 1) for j in group)} tie on {totals[i]} VP; the tiebreak "
                             f"is the most dragons on the mat ({', '.join(str(dragons[j]) for j in group)}).")
            else:
                notes.append(f"Players {', '.join(str(j + 1) for j in group)} tie on {totals[i]} VP and on "
                             f"dragons ({dragons[i]}): they share the place.")
    return places, notes


def final_result(st):
    cat = st.cat
    scores = []
    for pl in st.players:
        breakdown = base_breakdown(cat, pl, objective_vp(cat, pl.objectives), guild_marker_vp(cat, pl.markers))
        breakdown["total"] = sum(breakdown[c] for c in CATEGORIES)
        scores.append(breakdown)
    totals = [s["total"] for s in scores]
    dragons = [len(visible_dragons(pl)) for pl in st.players]
    places, notes = rank(totals, dragons)
    winners = [i for i, place in enumerate(places) if place == 1]
    return {"scores": scores, "places": places, "winners": winners, "tiebreak": notes, "dragons": dragons}


def score_mat(catalogue, mat, objective_places=(), guild_markers=(), choices=None, neighbour=None, guild_tile=None,
              opponents=()):
    """Score one mat (a Player, or its to_json() dict) without playing: the score calculator's entry point.

    `objective_places` are the player's places per round (1, 2, 3 or 0 for "all others"); `guild_markers` are
    [row, square] pairs (row -1 is the END GAME VP row; a row of `guild_tile` marked end_game scores its effect).
    `choices` maps a dragon's catalogue index to the answers its end-game ability needs, in order ("yes"/"no" for
    a may or pay, an option number for a choose); without them a choose takes its best option and a pay is declined.
    `neighbour` is the left neighbour's mat, for abilities that compare with it; `opponents` are every other
    player's mats (with their `objectives` places), for abilities that compare with all players. The first of them
    is taken as the left neighbour when `neighbour` is not given.
    The given Player is scored in place: `end_vp` is filled, and what end-game abilities pay or gain changes its
    leftovers.
    """
    from .state import GameState

    pl = mat if isinstance(mat, Player) else Player.from_json(0, _complete(mat))
    pl.markers = [list(m) for m in guild_markers] or pl.markers
    pl.objectives = list(objective_places) or pl.objectives
    st = GameState(catalogue)
    others = [m if isinstance(m, Player) else Player.from_json(i + 1, _complete(m)) for i, m in enumerate(opponents)]
    if neighbour is not None:
        left = neighbour if isinstance(neighbour, Player) else Player.from_json(1, _complete(neighbour))
        others = [left] + [m for m in others if m is not neighbour]
    st.players = [pl] + others
    pl.end_vp = {}
    rows = (guild_tile or {}).get("rows", [])
    for row, _square in pl.markers:
        if 0 <= row < len(rows) and rows[row].get("end_game"):
            fid = fx.new_frame(st, 0, source="guild")
            pl.end_vp["guild"] = pl.end_vp.get("guild", 0) + evaluate(st, st.frames[fid], rows[row]["effect"], [])
    for dragon in visible_dragons(pl):
        card = catalogue.dragons[dragon]
        if not st.active(0, dragon):
            continue
        for ability in card.abilities:
            if ability["kind"] == "end_game":
                fid = fx.new_frame(st, 0, dragon, source=f"dragon:{dragon}")
                answers = list((choices or {}).get(dragon, ()))
                vp = evaluate(st, st.frames[fid], ability["effect"], answers)
                pl.end_vp[f"dragon:{dragon}"] = pl.end_vp.get(f"dragon:{dragon}", 0) + vp
    breakdown = base_breakdown(catalogue, pl, objective_vp(catalogue, pl.objectives),
                               guild_marker_vp(catalogue, pl.markers))
    breakdown["total"] = sum(breakdown[c] for c in CATEGORIES)
    return breakdown


def evaluate(st, frame, node, answers):
    """VP an end-game effect scores, taking decisions from `answers` (consumed in order)."""
    from .words.items import can_pay
    from .words.scoring import score_value

    word = node["do"]
    if word == "score":
        return score_value(st, frame, node)
    if word == "seq":
        return sum(evaluate(st, frame, step, answers) for step in node["steps"])
    if word == "if":
        branch = node["then"] if fx.test(st, frame, node["cond"]) else node.get("else")
        return evaluate(st, frame, branch, answers) if branch else 0
    if word == "may":
        take = answers.pop(0) if answers else "yes"
        return evaluate(st, frame, node["effect"], answers) if take == "yes" else 0
    if word == "pay":
        take = answers.pop(0) if answers else "no"
        if take == "yes" and can_pay(st, frame, node["cost"]):
            _auto_pay(st.players[frame["p"]], node["cost"])
            return evaluate(st, frame, node["then"], answers)
        return 0
    if word == "gain":
        _auto_gain(st, frame, node)
        return evaluate(st, frame, node["then"], answers) if node.get("then") else 0
    if word == "choose":
        if answers:
            return evaluate(st, frame, node["options"][int(answers.pop(0))], answers)
        return max(evaluate(st, frame, option, []) for option in node["options"])
    return 0


def _take_resource(pl, index=None):
    """Pay one resource (a given kind, or the most plentiful); short of a kind, exchange 2 others for it first."""
    if index is None:
        index = max(range(4), key=lambda k: pl.res[k])
    if pl.res[index] == 0:
        for _ in range(2):
            spare = max((k for k in range(4) if k != index), key=lambda k: pl.res[k])
            pl.res[spare] -= 1
        pl.res[index] += 1
    pl.res[index] -= 1


def _auto_pay(pl, cost):
    """Pay a cost on a scored mat: only how many items remain matters to the score, not which."""
    for item in cost:
        name = item["item"]
        for _ in range(item.get("count", 1)):
            if name in RES_INDEX:
                _take_resource(pl, RES_INDEX[name])
            elif name == "any_resource":
                _take_resource(pl)
            elif name == "coin":
                pl.coins -= 1
            elif name == "dragon":
                pl.hand.pop()
            elif name == "cave":
                pl.caves.pop()
            elif name == "card":
                (pl.hand if pl.hand else pl.caves).pop()
            elif name == "egg" or (name == "tithe" and not sum(pl.res) and not pl.hand and not pl.caves):
                _take_egg(pl)
            elif name == "tithe":
                if sum(pl.res):
                    _take_resource(pl)
                else:
                    (pl.hand if pl.hand else pl.caves).pop()


def _take_egg(pl):
    if pl.nest:
        pl.nest -= 1
        return
    for space in pl.spaces:
        if space.eggs:
            space.eggs -= 1
            return


def _auto_gain(st, frame, node):
    """An end-game gain (leftovers that score as items): resources, dragon or cave cards."""
    pl = st.players[frame["p"]]
    item = node["item"]
    n = fx.amount(st, frame, node.get("count", 1))
    if item in RES_INDEX:
        pl.res[RES_INDEX[item]] += n
    elif item == "any_resource":
        pl.res[0] += n  # the kind does not change the score
    elif item == "dragon":
        pl.hand += [UNKNOWN_CARD] * n
    elif item == "cave":
        pl.caves += [UNKNOWN_CARD] * n
    elif item == "coin":
        pl.coins += n


def _complete(data):
    """Fill a partial mat dict (from user input) with empty defaults."""
    base = Player(0).to_json()
    base.update(data)
    return base
