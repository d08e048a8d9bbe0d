"""What a table's pages cost when the database is large: 1,000,000 hands of other groups.

The same group (a session of 200 hands) is measured on two SQLite files side
by side: one that holds only it, and a copy that also holds 2,000 other groups
with a 500-hand session each and a revision per hand (1,000,000 of both).
Interleaved rounds, CPU time of this thread (SQLite runs in it, so its
searches are counted), median ratio; the target is ≤ 1.2 for each page.

Then every query the three requests run is shown with the plan SQLite picks
for it on the large file: an index named for each, never a scan of a table
that grows with other groups (hands, sessions, revisions, players, groups).
"""

from __future__ import annotations

import sqlite3
import statistics
import time
from contextlib import closing
from pathlib import Path

from .django_setup import bulk_session, django_on_sqlite

SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
# pagat's example: 15 ♦ made with 16, the partner called by ♠A
MADE_15_DIAMONDS = {"dealer": "Ed", "declarer": "Ann", "contract": {"points": 15, "trump": "D"},
                    "partner_call": {"type": "card", "cards": ["AS"]}, "partners": ["Cy"], "points": 16}
OTHER_GROUPS, HANDS_EACH = 2_000, 500
GROWING = ("mighty_ledger_hand", "mighty_ledger_session", "mighty_ledger_revision",
           "mighty_ledger_player", "mighty_ledger_group", "mighty_ledger_payment", "mighty_ledger_contract")


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f'PRAGMA table_info("{table}")') if row[1] != "id"]


def _copies(db: sqlite3.Connection, table: str, template_id: int, numbers: str, changed: dict[str, str]) -> None:
    """INSERT one copy of a template row per row of ``numbers`` (a CTE yielding ``i``), some columns changed."""
    columns = _columns(db, table)
    values = ", ".join(changed.get(column, f't."{column}"') for column in columns)
    quoted = ", ".join(f'"{column}"' for column in columns)
    db.execute(f'WITH RECURSIVE {numbers} INSERT INTO "{table}" ({quoted}) '
               f'SELECT {values} FROM "{table}" AS t, n WHERE t.id = {template_id}')


def fill(path: Path, *, group_id: int, session_id: int) -> None:
    """Other groups, each with five players, one session of HANDS_EACH hands and a revision per hand."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    groups = f"n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {OTHER_GROUPS})"
    first_group = db.execute('SELECT max(id) FROM "mighty_ledger_group"').fetchone()[0] + 1
    _copies(db, "mighty_ledger_group", group_id, groups,
            {"edit_token": "'edit-' || i", "view_token": "'view-' || i", "name": "'Other ' || i"})
    player = db.execute('SELECT min(id) FROM "mighty_ledger_player" WHERE group_id = ?', (group_id,)).fetchone()[0]
    for name in SEATS:
        _copies(db, "mighty_ledger_player", player, groups, {"group_id": f"{first_group - 1} + i", "name": f"'{name}'"})
    first_session = db.execute('SELECT max(id) FROM "mighty_ledger_session"').fetchone()[0] + 1
    _copies(db, "mighty_ledger_session", session_id, groups, {"group_id": f"{first_group - 1} + i"})
    template_hand = db.execute('SELECT min(id) FROM "mighty_ledger_hand" WHERE session_id = ?',
                               (session_id,)).fetchone()[0]
    hands = (f"n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < {OTHER_GROUPS * HANDS_EACH - 1})")
    first_hand = db.execute('SELECT max(id) FROM "mighty_ledger_hand"').fetchone()[0] + 1
    _copies(db, "mighty_ledger_hand", template_hand, hands,
            {"session_id": f"{first_session} + i / {HANDS_EACH}", "number": f"1 + i % {HANDS_EACH}"})
    template_revision = db.execute('SELECT min(id) FROM "mighty_ledger_revision" WHERE hand_id IS NOT NULL').fetchone()[0]
    _copies(db, "mighty_ledger_revision", template_revision, hands, {
        "group_id": f"{first_group} + i / {HANDS_EACH}", "session_id": f"{first_session} + i / {HANDS_EACH}",
        "hand_id": f"{first_hand} + i", "subject": "'hand'", "action": "'created'",
    })
    db.execute(f'UPDATE "mighty_ledger_session" SET hand_count = {HANDS_EACH} WHERE id >= {first_session}')
    db.commit()
    db.close()


def _use(path: Path) -> None:
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = str(path)


def _cpu(work, calls: int) -> float:
    work()  # after a switch: the connection is opened and the caches warm before the clock runs
    start = time.thread_time()
    for _ in range(calls):
        work()
    return (time.thread_time() - start) / calls


def _plans(path: Path, work) -> list[str]:
    """Each distinct query one request runs, with the index SQLite searches it by, or SCAN."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _use(path)
    with CaptureQueriesContext(connection) as captured:
        work()
    lines, seen = [], set()
    with connection.cursor() as cursor:
        for query in captured.captured_queries:
            sql = query["sql"]
            if not sql.lstrip().upper().startswith(("SELECT", "UPDATE", "INSERT")) or sql in seen:
                continue
            seen.add(sql)
            # the captured text has its values inlined, as SQLite would run it
            cursor.execute("EXPLAIN QUERY PLAN " + sql)
            steps = [row[-1] for row in cursor.fetchall()]
            table = next((name for name in GROWING if name in sql), "")
            scans = [step for step in steps if step.startswith("SCAN") and any(t in step for t in GROWING)]
            verdict = "SCAN ← needs an index" if scans else "; ".join(steps) or "no table read"
            lines.append(f"    {sql.split()[0]} {table.removeprefix('mighty_ledger_')}: {verdict}")
    return lines


def run() -> list[str]:
    django_on_sqlite()
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from mighty_ledger import services

    group = services.group_create(name="Size bench", player_names=SEATS)
    session = bulk_session(group, seats=SEATS, hands=200)
    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))  # a revision to copy
    small = Path(connection.settings_dict["NAME"])
    connection.close()
    big = small.with_name("large.sqlite3")
    # through SQLite's backup, not a copy of the file: the benchmarks before this one leave threads
    # with connections open (the stream process's), so the latest pages may still be in the WAL
    with closing(sqlite3.connect(small)) as source, closing(sqlite3.connect(big)) as copy:
        source.backup(copy)
    started = time.perf_counter()
    fill(big, group_id=group.pk, session_id=session.pk)
    filled = time.perf_counter() - started

    client = Client()
    pages = {
        "scoreboard": lambda: client.get(reverse("session_board", args=[group.view_token, session.pk])),
        "group page": lambda: client.get(reverse("group_page", args=[group.edit_token])),
        "hand POST (API)": lambda: client.post(
            f"/api/v1/sessions/{session.pk}/hands", MADE_15_DIAMONDS, content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {group.edit_token}"),
    }
    for path in (small, big):
        _use(path)
        for name, work in pages.items():
            status = work().status_code
            if status not in (200, 201):
                return [f"size: skipped, {name} answered {status}"]

    lines = [f"size: {OTHER_GROUPS * HANDS_EACH:,} hands and as many revisions of {OTHER_GROUPS:,} other groups "
             f"written in {filled:.0f} s; the file is {big.stat().st_size / 2**30:.1f} GiB "
             f"vs {small.stat().st_size / 2**20:.1f} MiB"]
    for name, work in pages.items():
        ratios, times = [], {small: [], big: []}
        for _ in range(7):
            for path in (big, small):
                _use(path)
                times[path].append(_cpu(work, 15))
            ratios.append(times[big][-1] / times[small][-1])
        lines.append(f"size: {name}, 1,000,000 other hands vs almost none: "
                     f"{statistics.median(times[big]) * 1e3:.2f} ms vs {statistics.median(times[small]) * 1e3:.2f} ms, "
                     f"ratio {statistics.median(ratios):.2f}  (target: ≤ 1.2)")
    for name, work in pages.items():
        lines.append(f"size: the queries of the {name} on the large file, and what SQLite searches by:")
        lines += _plans(big, work)
    _use(small)
    big.unlink()
    return lines
