"""Scoring a finished mat: a per-category breakdown, the ranking and its tiebreak, as plain data.

`final_result(state)` scores a finished game (end-game abilities already ran through the interpreter, with their
decisions); scoring one mat without playing is `scorepad.score_mat`.
"""
from ..language.vocabulary import SCORE_CATEGORIES as CATEGORIES


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


def place_on_round(places, rnd, place):
    """Record `place` as round `rnd`'s objective place, at its index: places are read by round (`objective_vp`),
    so a position set up in a later round (its earlier rounds never scored here) gets "all others" (0, worth
    nothing) for those, and a marker put ahead of the round's scoring is replaced by the score."""
    del places[rnd - 1:]
    places.extend([0] * (rnd - 1 - len(places)))
    places.append(place)


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


def totals_so_far(st):
    """Each player's total VP if the game were scored now (end-game abilities not run yet): what a spectator may
    read off the table, since every part of it is public (hands and tucked cards count, they are not shown)."""
    return [s["total"] for s in final_result(st)["scores"]]


def objective_places(values):
    """Friendly ties: equal values share a place, the next value takes the next place; zero is 'all others'."""
    distinct = sorted({v for v in values if v > 0}, reverse=True)
    places = []
    for v in values:
        place = distinct.index(v) + 1 if v > 0 else 0
        places.append(place if place <= 3 else 0)
    return places
