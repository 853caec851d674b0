"""Remove guests nobody claimed: their user rows, sessions and matches (docs/matches.md, "Guests")."""
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from game.matches import guests

DEFAULT_DAYS = 30


class Command(BaseCommand):
    help = ("Delete guests (players without an account) made more than --days ago none of whose matches changed "
            "in that time, with their matches and sessions. A guest who signed up or signed in is no guest any "
            "more and is never touched. --dry-run only counts them.")

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=DEFAULT_DAYS, help=f"age in days (default {DEFAULT_DAYS})")
        parser.add_argument("--dry-run", action="store_true", help="count them, delete nothing")

    def handle(self, *args, days, dry_run, **options):
        if days < 1:
            raise CommandError("--days must be at least 1")
        ids = list(guests.stale(days).values_list("pk", flat=True))
        if not dry_run:
            with transaction.atomic():
                for pk in ids:
                    # Each guest's own matches go with it (the creator's and the seats' CASCADE).
                    guests.stale(days).filter(pk=pk).delete()
        self.stdout.write(f"{'would remove' if dry_run else 'removed'} {len(ids)} guest{'' if len(ids) == 1 else 's'}")
