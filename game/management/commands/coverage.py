"""List every card, tile row, objective side and board effect the rules engine cannot run; exit 1 if any."""
import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from game.engine.catalogue import load_fixtures
from game.engine.coverage import gaps


class Command(BaseCommand):
    help = "List what in the catalogue the rules engine cannot run (exit status 1 when the list is not empty)."

    def add_arguments(self, parser):
        parser.add_argument("--fixtures", default=str(Path(settings.BASE_DIR) / "fixtures"),
                            help="folder of the catalogue's fixture files (default: the project's fixtures/)")

    def handle(self, *args, **options):
        folder = Path(options["fixtures"])
        if not folder.is_dir():
            self.stderr.write(f"--fixtures: {folder} is not a folder")
            sys.exit(2)
        cat = load_fixtures(folder)
        found = gaps(cat)
        for what, label, problem in found:
            self.stdout.write(f"{label}: {problem}")
        checked = (f"{len(cat.dragons)} dragons, {len(cat.caves)} cave cards, "
                   f"{sum(len(t.get('rows', ())) for t in cat.guild_tiles)} guild rows, "
                   f"{sum(len(t.get('sides', {})) for t in cat.objective_tiles)} objective sides and the board")
        if found:
            self.stderr.write(f"{len(found)} part(s) the engine cannot run, in {checked}.")
            sys.exit(1)
        self.stderr.write(f"The engine runs every ability: checked {checked}.")
