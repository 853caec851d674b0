"""Import errata or fan cards from a JSON or CSV file, checked like the fixtures; a bad file changes nothing."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cardsite.catalogue.loader import CatalogueError, import_file


class Command(BaseCommand):
    help = "Import a JSON (fixture schema) or CSV file (columns in docs/catalogue.md) into the catalogue."

    def add_arguments(self, parser):
        parser.add_argument("path", help="a .json or .csv file")

    def handle(self, *args, path, verbosity, **options):
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from None
        try:
            counts, warnings = import_file(Path(path).name, raw)
        except CatalogueError as exc:
            raise CommandError(f"nothing was imported:\n{exc}") from None
        for warning in warnings if verbosity >= 1 else ():
            self.stderr.write(self.style.WARNING(f"warning: {warning}"))
        if verbosity >= 1:
            self.stdout.write(f"Imported: {counts.summary()}")
