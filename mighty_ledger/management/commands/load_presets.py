"""Make the scoring presets available to the ledger.

For now it only reports what `scoring` offers; it is safe to run on every
start (`make run` does) and must keep working while `scoring` is still growing.
"""

import importlib

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Load the scoring presets that the scoring package provides."

    def handle(self, *args, **options) -> None:
        # Imported here, not at module level, so `manage.py help` and every
        # other command work even when the scoring package is incomplete.
        try:
            importlib.import_module("scoring.presets")
            systems = importlib.import_module("scoring.systems")
        except ImportError:
            self.stdout.write("no presets yet")
            return

        preset_slugs = getattr(systems, "preset_slugs", None)
        if not callable(preset_slugs):
            self.stdout.write("no presets yet")
            return

        count = len(list(preset_slugs()))
        self.stdout.write(self.style.SUCCESS(f"{count} presets available"))
