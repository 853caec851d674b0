"""A few open seeks held by bots, so that a newcomer who opens the lobby of a fresh site (`dev.py serve`) finds games
to join at once and is answered at once. Does nothing while any public seek is open: run it as often as you like."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from game.matches import services
from game.models import Match, MatchSeat

# The seeks: (players, Dragon Academy, the level of the bot holding the first seat)
SEEKS = ((2, False, "greedy"), (2, True, "strong"), (3, False, "random"))
HOLDER = "wyrmdex-bots"


class Command(BaseCommand):
    help = ("Open a few casual seeks whose first seat a bot plays (by the account 'wyrmdex-bots', which cannot sign "
            "in), unless a public seek is already open. Bots may fill the other seats after half an hour.")

    def handle(self, *args, **options):
        if Match.objects.filter(status=Match.Status.OPEN, private=False).exists():
            self.stdout.write("a public seek is open: no demo seek added")
            return
        with transaction.atomic():
            holder, made = get_user_model().objects.get_or_create(username=HOLDER)
            if made:
                holder.set_unusable_password()
                holder.save(update_fields=["password"])
            for players, academy, level in SEEKS:
                match = services.create_match(holder, players=players, academy=academy, rated=False, bot_fill=True,
                                              timeout_level=level)
                # the holder never moves: a bot plays its seat from the first decision, as for a seat timed out
                MatchSeat.objects.filter(match=match, user=holder).update(controller=MatchSeat.Controller.BOT,
                                                                          level=level)
        self.stdout.write(f"opened {len(SEEKS)} demo seeks held by bots")
