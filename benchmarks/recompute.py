"""Recomputing a 10,000-hand group's totals from stored results, against only reading those rows.

What the services replay does for a session after an edit, over every session of
a large group: read the live hands, turn stored results into ledger entries,
replay. The baseline reads the same rows and does nothing with them.
"""

from __future__ import annotations

from .django_setup import bulk_session, django_on_sqlite
from .measure import compare

SESSIONS, HANDS_EACH = 20, 500


def run() -> list[str]:
    django_on_sqlite()
    from mighty_ledger import services
    from mighty_ledger.models import Session
    from mighty_ledger.reads import hand_ledger_entry
    from scoring.ledger import replay

    group = services.group_create(name="Recompute bench")
    seats = ["Ann", "Bo", "Cy", "Di", "Ed"]
    for i in range(SESSIONS):
        bulk_session(group, seats=seats, hands=HANDS_EACH, title=f"evening {i}")
    sessions = list(Session.objects.filter(group=group))

    def recompute():
        for session in sessions:
            hands = list(session.hands.live().in_order())
            steps = replay(session.seats, (hand_ledger_entry(hand) for hand in hands))
            assert steps[-1].totals == session.totals

    def read_rows():
        for session in sessions:
            list(session.hands.live().in_order())

    ratio = compare(f"recompute {SESSIONS * HANDS_EACH:,} hands' totals vs reading the rows",
                    recompute, read_rows, rounds=7, calls=1)
    return [ratio.line()]
