"""Scoring one mat without playing (the score calculator): the mat is built from anything, and end-game abilities
that need choices take them from `choices` instead of asking."""
from ..language.words import BUYS, IF_DONE
from . import interpreter as fx
from .catalogue import RES_INDEX
from .model import Player
from .scoring import CATEGORIES, base_breakdown, guild_marker_vp, objective_vp, visible_dragons
from .state import GameState
from .words.items import can_pay
from .words.scoring import score_value

UNKNOWN_CARD = -1  # a card gained at game end by a scored mat: only its count matters


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
            _auto_pay(st.cat, st.players[frame["p"]], node["cost"])
            return evaluate(st, frame, node[BUYS], answers)
        return 0
    if word == "gain":
        _auto_gain(st, frame, node)
        return evaluate(st, frame, node[IF_DONE], answers) if node.get(IF_DONE) else 0
    if word == "choose":
        if answers:
            return evaluate(st, frame, node["options"][int(answers.pop(0))], answers)
        return max(evaluate(st, frame, option, []) for option in node["options"])
    return 0


def _take_resource(cat, pl, index=None):
    """Pay one resource (a given kind, or the most plentiful); short of a kind, exchange others for it first."""
    if index is None:
        index = max(range(4), key=lambda k: pl.res[k])
    if pl.res[index] == 0:
        for _ in range(cat.exchange_give):
            spare = max((k for k in range(4) if k != index), key=lambda k: pl.res[k])
            pl.res[spare] -= 1
        pl.res[index] += cat.exchange_get
    pl.res[index] -= 1


def _auto_pay(cat, pl, cost):
    """Pay a cost on a scored mat: only how many items remain matters to the score, not which."""
    for item in cost:
        name = item["item"]
        for _ in range(item.get("count", 1)):
            if name in RES_INDEX:
                _take_resource(cat, pl, RES_INDEX[name])
            elif name == "any_resource":
                _take_resource(cat, pl)
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
                    _take_resource(cat, pl)
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
