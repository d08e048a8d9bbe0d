"""Bringing 5,000 hands in from a spreadsheet: the file read, every hand scored by the engine, and
the whole import written in one transaction (issue 39's target: under 10 s on this machine).

A Korean hand sheet of 50 evenings of 100 hands each, as CSV in CP949 (what Korean Excel writes),
imported into a group with its players, then undone, so each round imports it anew. Wall-clock
time, the figure a player waits for; the preview alone (read and scored, nothing written) beside it.
"""

from __future__ import annotations

import datetime
import statistics
import time

from .django_setup import django_on_sqlite
from .measure import Figure

EVENINGS, HANDS_EACH = 50, 100
ROUNDS = 3
SEATS = ["가영", "나래", "다솜", "라희", "마루"]
TRUMPS = ["스페이드", "하트", "다이아", "클로버", "노기루다"]


def sheet() -> bytes:
    rows = ["날짜,주공,공약,기루다,프렌드 콜,프렌드,점수"]
    start = datetime.date(2020, 1, 6)
    for evening in range(EVENINGS):
        day = (start + datetime.timedelta(weeks=evening)).isoformat()
        for hand in range(HANDS_EACH):
            declarer, partner = SEATS[hand % 5], SEATS[(hand + 2) % 5]
            call, partners = ("노프렌드", "") if hand % 7 == 0 else ("조커", partner)
            rows.append(f"{day},{declarer},{14 + hand % 4},{TRUMPS[hand % 5]},{call},{partners},{10 + hand % 11}")
    return ("\r\n".join(rows) + "\r\n").encode("cp949")


def run() -> list[Figure]:
    django_on_sqlite()
    from mighty_ledger import services
    from mighty_ledger.services.sheet_imports import sheet_import, sheet_import_undo, sheet_preview

    group = services.group_create(name="Sheet bench", player_names=SEATS)
    content = sheet()
    previews, imports = [], []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        plan = sheet_preview(group=group, content=content, preset="korean-standard")
        previews.append(time.perf_counter() - start)
        assert not plan.problems and plan.hand_count == EVENINGS * HANDS_EACH, plan.problems[:3]
        start = time.perf_counter()
        made, created, _ = sheet_import(group=group, content=content, preset="korean-standard")
        imports.append(time.perf_counter() - start)
        assert created and made.hand_count == EVENINGS * HANDS_EACH
        sheet_import_undo(sheet_import=made)
    return [Figure(f"a spreadsheet of {EVENINGS * HANDS_EACH:,} past hands imported (seconds)",
                   statistics.median(imports), "≤ 10",
                   f"median of {ROUNDS}; the preview alone {statistics.median(previews):.2f} s")]
