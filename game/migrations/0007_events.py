from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("game", "0006_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="matchdecision",
            name="events",
            field=models.JSONField(blank=True, default=None, editable=False, null=True,
                                   help_text="What the decision caused, as the engine recorded it (secrets included: "
                                             "shown only through view.events_for). Empty before events were kept."),
        ),
    ]
