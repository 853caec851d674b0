"""Fill the game history (game/matches/history.py) for the matches that finished before it was kept: the same rows
the ratings write for a match that ends from now on, a few hundred matches at a time."""
from django.db import migrations

BATCH = 500


def fill(apps, schema_editor):
    from game.matches.history import record

    Match = apps.get_model("game", "Match")
    models = tuple(apps.get_model("game", name) for name in ("FinishedGame", "FinishedSeat", "GameOpponent"))
    finished = (Match.objects.filter(status="finished", places__isnull=False).exclude(ending="aborted")
                .prefetch_related("seats").order_by("pk"))
    last = 0
    while True:
        batch = list(finished.filter(pk__gt=last)[:BATCH])
        if not batch:
            return
        for match in batch:
            record(match, sorted(match.seats.all(), key=lambda s: s.seat), models=models)
        last = batch[-1].pk


class Migration(migrations.Migration):

    dependencies = [("game", "0015_history")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
