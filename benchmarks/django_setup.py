"""Django for the in-process benchmarks: a temporary SQLite file, migrated, removed at exit.

Set before django.setup(), so the benchmark never touches the development
database. DEBUG is on only while settings load (plain static file storage: no
collectstatic needed) and off before the first request, so no query log or
debug templates slow the figures down.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import warnings

_ready = False


def django_on_sqlite() -> None:
    global _ready
    if _ready:
        return
    directory = tempfile.mkdtemp(prefix="mighty-bench-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{directory}/bench.sqlite3"
    os.environ["DEBUG"] = "true"
    os.environ["RATE_LIMITS_ENABLED"] = "false"
    os.environ.pop("REDIS_URL", None)

    import django
    from django.conf import settings
    from django.core.management import call_command

    # WhiteNoise looks in STATIC_ROOT too; only `collectstatic` (production) creates it
    warnings.filterwarnings("ignore", "No directory at.*staticfiles", UserWarning)
    django.setup()
    settings.DEBUG = False
    # the test client's host; not setup_test_environment(), whose instrumented
    # template rendering copies every context and would inflate the page figures
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    _ready = True


def bulk_session(group, *, seats: list[str], hands: int, title: str = ""):
    """A session with ``hands`` recorded hands, written in a few queries.

    Alternately made and failed 15 ♦, scored once each by the engine; running
    totals from the same ledger replay the services use, so the rows are what
    hand_record would have stored.
    """
    from mighty_ledger import services

    known = set(group.players.values_list("name", flat=True))
    for name in seats:
        if name not in known:
            services.player_add(group=group, name=name)
    session = services.session_start(group=group, seats=seats, preset="pagat-standard", title=title)
    return bulk_hands(session, hands)


def bulk_hands(session, hands: int):
    """``hands`` recorded hands in a fresh session of pagat's standard system (a club night's table,
    seated by the draw), written as ``bulk_session`` writes them."""
    from mighty_ledger import reads, services
    from mighty_ledger.models import Hand
    from scoring.ledger import replay

    seats = list(session.seats)
    made = {"dealer": seats[-1], "declarer": seats[0], "contract": {"points": 15, "trump": "D"},
            "partner_call": {"type": "card", "cards": ["AS"]}, "partners": [seats[2]], "points": 16}
    entries = [made, {**made, "points": 12}]
    scored = [services.scored_hand(session, entry) for entry in entries]
    examples = [Hand(kind=Hand.SCORED, result=s.result, sides=s.sides) for s in scored]
    ledger = [reads.hand_ledger_entry(example) for example in examples]
    steps = replay(seats, (ledger[i % 2] for i in range(hands)))
    Hand.objects.bulk_create(
        (
            Hand(session=session, number=i + 1, kind=Hand.SCORED, entry=entries[i % 2],
                 result=scored[i % 2].result, explanation=scored[i % 2].explanation, sides=scored[i % 2].sides,
                 payments=step.payments, running_totals=step.totals, pot_after=step.pot)
            for i, step in enumerate(steps)
        ),
        batch_size=1000,
    )
    session.hand_count, session.totals, session.pot = hands, steps[-1].totals, steps[-1].pot
    session.save(update_fields=["hand_count", "totals", "pot"])
    return session


def other_groups(*, group_id: int, session_id: int, groups: int = 2_000, hands_each: int = 500) -> None:
    """``groups`` other groups in the SQLite file, each a copy of ``session_id`` (its hands, a
    revision per hand) with five players: 1,000,000 hands by default, written by SQLite itself."""
    import sqlite3

    from django.db import connection

    path = connection.settings_dict["NAME"]
    connection.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA synchronous = OFF")

    def copies(table: str, template_id: int, count: int, changed: dict[str, str]) -> None:
        # one copy of a template row per i in 0..count-1, some columns changed
        columns = [row[1] for row in db.execute(f'PRAGMA table_info("{table}")') if row[1] != "id"]
        values = ", ".join(changed.get(column, f't."{column}"') for column in columns)
        quoted = ", ".join(f'"{column}"' for column in columns)
        db.execute(f"WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {count - 1}) "
                   f'INSERT INTO "{table}" ({quoted}) SELECT {values} FROM "{table}" AS t, n WHERE t.id = {template_id}')

    def first_new(table: str) -> int:
        return db.execute(f'SELECT max(id) FROM "{table}"').fetchone()[0] + 1

    group, session, hand = first_new("mighty_ledger_group"), first_new("mighty_ledger_session"), first_new(
        "mighty_ledger_hand")
    copies("mighty_ledger_group", group_id, groups,
           {"edit_token": "'edit-' || i", "view_token": "'view-' || i", "name": "'Other ' || i"})
    players = db.execute('SELECT id FROM "mighty_ledger_player" WHERE group_id = ?', (group_id,)).fetchall()[:5]
    for index, (player,) in enumerate(players):
        copies("mighty_ledger_player", player, groups, {"group_id": f"{group} + i", "name": f"'Player {index}'"})
    copies("mighty_ledger_session", session_id, groups, {"group_id": f"{group} + i", "hand_count": str(hands_each)})
    template_hand = db.execute('SELECT min(id) FROM "mighty_ledger_hand" WHERE session_id = ?',
                               (session_id,)).fetchone()[0]
    copies("mighty_ledger_hand", template_hand, groups * hands_each,
           {"session_id": f"{session} + i / {hands_each}", "number": f"1 + i % {hands_each}"})
    revision = db.execute('SELECT min(id) FROM "mighty_ledger_revision" WHERE hand_id IS NOT NULL').fetchone()[0]
    copies("mighty_ledger_revision", revision, groups * hands_each, {
        "group_id": f"{group} + i / {hands_each}", "session_id": f"{session} + i / {hands_each}",
        "hand_id": f"{hand} + i"})
    db.commit()
    db.close()
