"""Build and check every scoring system before the server takes a hand.

Presets are data in `scoring/presets/`, read by the pages and the API as they
are; nothing is copied into the database. What start-up needs is the proof
that every preset still builds into a valid system (options, deck, Chicago
tables) and can be described, so a broken rules change stops `make run` and
`make serve` instead of the first hand of the evening.
"""

from django.core.management.base import BaseCommand, CommandError

from scoring.describe import describe
from scoring.presets import all_presets
from scoring.problems import InvalidInput


class Command(BaseCommand):
    help = "Build, check and list every scoring system the ledger offers."

    def handle(self, *args, **options) -> None:
        broken = []
        for preset in all_presets():
            try:
                describe(preset.system())
            except InvalidInput as error:
                broken.append(f"{preset.slug}: {error}")
        if broken:
            raise CommandError("Some scoring systems do not build:\n" + "\n".join(broken))
        presets = all_presets()
        self.stdout.write(self.style.SUCCESS(f"{len(presets)} scoring systems ready"))
        if options["verbosity"] > 1:
            for preset in presets:
                self.stdout.write(f"  {preset.slug}: {preset.name}")
