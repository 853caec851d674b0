"""What the calculator's views and API call: score a sheet, save it, read a player's history and statistics."""
from django.db import transaction
from django.db.models import Avg, Count, Q

from ..models import CATEGORIES, ScoreEntry, ScoreSheet
from . import lookups
from .score import score_sheet
from .sheet import clean_sheet


def score(data):
    """(clean sheet, result) for raw input; raises SheetInvalid naming the fields that are wrong."""
    cat = lookups.current()
    sheet = clean_sheet(data, cat)
    return sheet, score_sheet(sheet, cat)


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
