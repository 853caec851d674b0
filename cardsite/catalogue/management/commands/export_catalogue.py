"""Write the whole catalogue as one JSON file in the fixture schema; importing it again changes nothing."""
import json

from django.core.management.base import BaseCommand

from cardsite.catalogue.loader import export_catalogue


class Command(BaseCommand):
    help = "Export every expansion, card, tile and board fact as JSON in the fixture schema."

    def add_arguments(self, parser):
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, output, **options):
        text = json.dumps(export_catalogue(), ensure_ascii=False, indent=1) + "\n"
        if output:
            with open(output, "w", encoding="utf-8") as f:
                f.write(text)
            self.stderr.write(f"Wrote {output}")
        else:
            self.stdout.write(text, ending="")
