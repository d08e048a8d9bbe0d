"""`manage.py check_consistency`: exit 1 when any stored hand or total disagrees with the engine."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from mighty_ledger.models import Hand, Session
from mighty_ledger.reads.consistency import differences


class Command(BaseCommand):
    help = ("Re-score every live hand with the engine and replay every session's totals; "
            "report what differs from the stored history and exit 1 if anything does.")

    def handle(self, *args, **options) -> None:
        found = 0
        for difference in differences():
            self.stdout.write(difference.line())
            found += 1
        sessions = Session.objects.count()
        hands = Hand.objects.live().filter(kind=Hand.SCORED).count()
        if found:
            noun = "difference" if found == 1 else "differences"
            raise CommandError(f"{found} {noun} in {sessions} sessions ({hands} scored hands).")
        self.stdout.write(f"Consistent: {hands} scored hands in {sessions} sessions match the engine.")
