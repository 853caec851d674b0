"""What the calculator's views and API call: score a sheet, save it, read a player's history and statistics."""
from django.db import transaction
from django.db.models import Avg, Count, Q

from game.engine import scoring

from ..models import CATEGORIES, ScoreEntry, ScoreSheet
from . import lookups
from .score import score_sheet
from .sheet import SheetInvalid, clean_sheet


def score(data):
    """(clean sheet, result) for raw input; raises SheetInvalid naming the fields that are wrong."""
    cat = lookups.current()
    sheet = clean_sheet(data, cat)
    return sheet, score_sheet(sheet, cat)


def preview(data):
    """Totals while a sheet is typed in, failing soft: the whole sheet's result when it is valid, else each line
    scored alone (its objective VP taken from its places), and None for a line that has mistakes of its own.

    Returns (lines, errors): per line its total, each dragon's ability VP by card slug and whether the total is
    `final`, or None. A line scored alone is final in quick mode, where a line's total is its own sum, unless the
    sheet finds a mistake in it beside the others; in card mode the rounds ranked on counts or mats and the abilities
    that look at other mats need every line, so while another line has a mistake the total is not final."""
    cat = lookups.current()
    try:
        sheet, result = score(data)
    except SheetInvalid as exc:
        lines = [_alone(data, seat, cat) for seat in range(len(_players(data)))]
        shared = isinstance(data, dict) and data.get("mode") == "card" and (len(lines) + bool(data.get("automa"))) > 1
        for seat, line in enumerate(lines):
            if line is not None:
                # A line valid alone may still be wrong beside the others (a 2nd place with nobody on 1st).
                own = any(path.startswith(f"players[{seat}].") for path in exc.errors)
                line["final"] = not shared and not own
        return lines, exc.errors
    return [_preview_line(line) for line in result["lines"][:len(sheet["players"])]], {}


def _players(data):
    players = data.get("players") if isinstance(data, dict) else None
    return players if isinstance(players, list) else []


def _alone(data, seat, cat):
    player = dict(_players(data)[seat]) if isinstance(_players(data)[seat], dict) else {}
    places = player.pop("objective_places", None)
    places = places if isinstance(places, list) else []
    player.pop("objective_counts", None)
    alone = {k: v for k, v in data.items() if k not in ("players", "automa", "me")}
    alone["players"] = [player]
    try:
        sheet, result = score(alone)
    except SheetInvalid:
        return None
    line = _preview_line(result["lines"][0])
    if all(p in (0, 1, 2, 3, None) and not isinstance(p, bool) for p in places):
        line["total"] += scoring.objective_vp(cat.engine, [p or 0 for p in places])
    return line


def _preview_line(line):
    return {"total": line["total"], "abilities": line.get("abilities_by_card", {}), "final": True}


def save(data, owner=None):
    """Score and store a sheet with one entry per line, all or nothing."""
    sheet, result = score(data)
    me = sheet.get("me", 0) if owner is not None else None
    with transaction.atomic():
        saved = ScoreSheet.objects.create(owner=owner, mode=sheet["mode"], title=sheet["title"], data=sheet,
                                          result=result)
        ScoreEntry.objects.bulk_create([
            ScoreEntry(sheet=saved, seat=line["seat"], name=line["name"], automa=line["automa"],
                       mine=line["seat"] == me, total=line["total"], visible_dragons=line["visible_dragons"],
                       place=line["place"], won=line["won"], **line["breakdown"])
            for line in result["lines"]
        ])
    return saved


def history(user):
    return ScoreSheet.objects.filter(owner=user).prefetch_related("entries")


def statistics(user):
    """Games, wins and the average of every category over the user's own lines."""
    mine = ScoreEntry.objects.filter(sheet__owner=user, mine=True)
    figures = mine.aggregate(games=Count("id"), wins=Count("id", filter=Q(won=True)), average_total=Avg("total"),
                             **{f"average_{c}": Avg(c) for c in CATEGORIES})
    averages = {c: round(figures[f"average_{c}"] or 0, 1) for c in CATEGORIES}
    return {
        "games": figures["games"],
        "wins": figures["wins"],
        "average_total": round(figures["average_total"] or 0, 1),
        "averages": averages,
        "totals": [{"sheet": e.sheet.code, "date": e.sheet.created.date().isoformat(), "total": e.total,
                    "won": e.won} for e in mine.select_related("sheet").order_by("sheet__created", "sheet__id")],
    }
