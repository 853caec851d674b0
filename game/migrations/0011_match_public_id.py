"""Matches get a public id, drawn at random (game/matches/ids.py): added empty, filled with distinct ids for the
matches already stored, then made unique and required."""
from django.db import migrations, models

import game.matches.ids


def fill_public_ids(apps, schema_editor):
    Match = apps.get_model("game", "Match")
    taken = set()
    for match in Match.objects.filter(public_id__isnull=True).only("pk").iterator():
        public_id = game.matches.ids.new_public_id()
        while public_id in taken:  # 59 random bits: a clash is all but impossible, but the column is unique
            public_id = game.matches.ids.new_public_id()
        taken.add(public_id)
        Match.objects.filter(pk=match.pk).update(public_id=public_id)


class Migration(migrations.Migration):

    dependencies = [
        ('game', '0010_guests'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='public_id',
            field=models.CharField(editable=False, max_length=12, null=True),
        ),
        migrations.RunPython(fill_public_ids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='match',
            name='public_id',
            field=models.CharField(default=game.matches.ids.new_public_id, editable=False, help_text="The match's name in every URL and in the API: drawn at random, so no one finds a match by counting (game/matches/ids.py). The number is internal.", max_length=12, unique=True),
        ),
    ]
