"""Check every stored match (or the ones named) against its hash chain and seal, and optionally replay its log."""
from django.core.management.base import BaseCommand, CommandError

from game.matches import integrity
from game.models import Match


class Command(BaseCommand):
    help = ("Check stored matches: decisions numbered 1..version, the hash chain from the setup through every "
            "decision, the seal over setup, version and state; with --replay also replay each log, which must be "
            "legal at every step and give the saved state. Lists each damaged match and why; exits with status 1 "
            "when any is damaged. Changes nothing.")

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="*", type=int, help="only these matches (default: all)")
        parser.add_argument("--replay", action="store_true", help="also replay every log (slower: the whole game)")

    def handle(self, *args, ids, replay, **options):
        matches = Match.objects.order_by("pk")
        if ids:
            matches = matches.filter(pk__in=ids)
            missing = sorted(set(ids) - set(matches.values_list("pk", flat=True)))
            if missing:
                raise CommandError(f"no match with id {', '.join(map(str, missing))}")
        checked, damaged = 0, 0
        for match in matches.iterator(chunk_size=100):
            checked += 1
            problems = integrity.verify(match, replay=replay)
            if problems:
                damaged += 1
                self.stdout.write(f"match {match.pk} ({match.get_status_display()}, version {match.version}): damaged")
                for problem in problems:
                    self.stdout.write(f"  - {problem}")
            elif options["verbosity"] > 1:
                self.stdout.write(f"match {match.pk}: whole")
        how = "chain, seal and replay" if replay else "chain and seal"
        summary = f"{checked} match{'es' if checked != 1 else ''} checked ({how}), {damaged} damaged"
        if damaged:
            raise CommandError(summary, returncode=1)
        self.stdout.write(self.style.SUCCESS(summary))
