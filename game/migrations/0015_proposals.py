# Take-back requests and abandon offers (game/matches/proposals.py), and the "abandoned" ending.
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('game', '0014_merge_0013_lobby_0013_profiles'),
    ]

    operations = [
        migrations.AlterField(
            model_name='match',
            name='ending',
            field=models.CharField(blank=True, choices=[('scored', 'Scored at the end of the game'), ('last', 'Every other player left'), ('aborted', 'Aborted before the first move'), ('abandoned', 'Abandoned: every player agreed to stop')], max_length=9),
        ),
        migrations.CreateModel(
            name='MatchProposal',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('takeback', 'Take back the last move'), ('abandon', 'Abandon the match')], max_length=8)),
                ('seat', models.PositiveSmallIntegerField(help_text='The seat that asked.')),
                ('version', models.PositiveIntegerField(help_text="The match's version when it was asked.")),
                ('back_to', models.PositiveIntegerField(blank=True, help_text='A take-back: the version the match goes back to.', null=True)),
                ('answers', models.JSONField(blank=True, default=dict, help_text='Seat (as text) -> true (agrees) or false.')),
                ('status', models.CharField(choices=[('open', 'Waiting for answers'), ('accepted', 'Accepted'), ('declined', 'Declined'), ('cancelled', 'Cancelled'), ('lapsed', 'Lapsed: the match moved on')], default='open', max_length=9)),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('closed', models.DateTimeField(blank=True, null=True)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='proposals', to='game.match')),
            ],
            options={
                'ordering': ['match', 'id'],
                'constraints': [models.UniqueConstraint(condition=models.Q(('status', 'open')), fields=('match',), name='match_one_open_proposal')],
            },
        ),
    ]
