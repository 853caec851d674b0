"""Load fixtures/*.json into the database: validated first, then written in one transaction; twice = no change."""
from django.core.management.base import BaseCommand, CommandError

from cardsite.catalogue.loader import FIXTURES, CatalogueError, load_fixtures


class Command(BaseCommand):
    help = "Validate the catalogue fixtures and load them; a bad record names its file, card and field and loads nothing."

    def add_arguments(self, parser):
        parser.add_argument("--fixtures", default=str(FIXTURES), help="folder of catalogue JSON files")
        parser.add_argument("--prune", action="store_true",
                            help="also delete cards, tiles and facts that are no longer in the fixtures")

    def handle(self, *args, fixtures, prune, verbosity, **options):
        try:
            counts, warnings = load_fixtures(fixtures, prune=prune)
        except CatalogueError as exc:
            raise CommandError(f"nothing was loaded:\n{exc}") from None
        for warning in warnings if verbosity >= 1 else ():
            self.stderr.write(self.style.WARNING(f"warning: {warning}"))
        if verbosity >= 1:
            self.stdout.write(f"Catalogue: {counts.summary()}")
        if verbosity >= 2:
            for section, figures in counts.per_section.items():
                self.stdout.write(f"  {section}: " + ", ".join(f"{v} {k}" for k, v in figures.items()))
