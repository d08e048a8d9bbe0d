"""Bringing a spreadsheet of past hands in: the file read, every hand scored by the engine, and the
whole import written in one transaction, beside gunicorn's 30 s time-out (issues 39 and 49).

- A Korean hand sheet of 50 evenings of 100 hands each, as CSV in CP949 (what Korean Excel
  writes), imported into a group with its players, then undone, so each round imports it anew.
  A group's evenings repeat their hands, which the import scores once each.
- The largest file within the limits (services/spreadsheets.py): 10,000 rows (the header and
  9,999 hands, every one different, so nothing is scored twice), padded with notes to just under
  5 MB; and the largest workbook, 300,000 cells. Each is read in a process of its own, as a
  worker reads it, whose peak memory is the import's alone.

Wall-clock time, the figure a player waits for, and for the largest files the CPU time too (on a
machine shared with other work, the wall clock says as much of the others), as rows per second
and as a share of gunicorn's time-out; the preview alone (read and scored, nothing written)
beside the import.
"""

from __future__ import annotations

import datetime
import io
import json
import random
import statistics
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from .django_setup import django_on_sqlite
from .measure import Figure

EVENINGS, HANDS_EACH = 50, 100
TARGET_SECONDS = 10
GUNICORN_TIMEOUT = 30
ROUNDS = 3
SEATS = ["가영", "나래", "다솜", "라희", "마루"]
TRUMPS = ["스페이드", "하트", "다이아", "클로버", "노기루다"]
HEADER = "날짜,주공,공약,기루다,프렌드 콜,프렌드,점수"


def sheet() -> bytes:
    rows = [HEADER]
    start = datetime.date(2020, 1, 6)
    for evening in range(EVENINGS):
        day = (start + datetime.timedelta(weeks=evening)).isoformat()
        for hand in range(HANDS_EACH):
            declarer, partner = SEATS[hand % 5], SEATS[(hand + 2) % 5]
            call, partners = ("노프렌드", "") if hand % 7 == 0 else ("조커", partner)
            rows.append(f"{day},{declarer},{14 + hand % 4},{TRUMPS[hand % 5]},{call},{partners},{10 + hand % 11}")
    return ("\r\n".join(rows) + "\r\n").encode("cp949")


def largest_sheet() -> bytes:
    """The header and 9,999 hands, 100 an evening, none alike (a declarer, contract, trump, partner
    and points drawn for each), each row with a note, to just under the 5 MB limit."""
    from mighty_ledger.services.spreadsheets import MAX_BYTES, MAX_ROWS

    draw = random.Random(49)
    seen, hands = set(), []
    while len(hands) < MAX_ROWS - 1:
        declarer = draw.choice(SEATS)
        partner = draw.choice([seat for seat in SEATS if seat != declarer] + [""])
        hand = (declarer, draw.randint(14, 20), draw.choice(TRUMPS), partner, draw.randint(0, 20))
        if hand not in seen:
            seen.add(hand)
            hands.append(hand)
    start = datetime.date(2016, 1, 4)
    rows = [f"{(start + datetime.timedelta(weeks=number // 100)).isoformat()},{declarer},{contract},{trump},"
            f"{'조커' if partner else '노프렌드'},{partner},{points}"
            for number, (declarer, contract, trump, partner, points) in enumerate(hands)]
    room = MAX_BYTES - 4096 - len((HEADER + ",비고\r\n").encode()) - sum(len(row.encode()) + 3 for row in rows)
    note = "x" * (room // len(rows))
    return ((HEADER + ",비고\r\n") + "".join(f"{row},{note}\r\n" for row in rows)).encode()


def largest_workbook() -> bytes:
    """A workbook of 300,000 cells: 9,999 rows of 30, the most a workbook may hold."""
    from openpyxl import Workbook

    from mighty_ledger.services.spreadsheets import MAX_CELLS

    skeleton = io.BytesIO()
    Workbook().save(skeleton)
    columns = [chr(65 + i) if i < 26 else "A" + chr(65 + i - 26) for i in range(30)]
    rows = MAX_CELLS // len(columns) - 1
    out = io.BytesIO()
    with zipfile.ZipFile(skeleton) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            if item.filename != "xl/worksheets/sheet1.xml":
                target.writestr(item, source.read(item.filename))
                continue
            with target.open(item.filename, "w") as part:
                part.write(b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats'
                           b'.org/spreadsheetml/2006/main"><sheetData>')
                for row in range(1, rows + 1):
                    part.write(f'<row r="{row}">'.encode() + b"".join(
                        f'<c r="{column}{row}"><v>{row}</v></c>'.encode() for column in columns) + b"</row>")
                part.write(b"</sheetData></worksheet>")
    return out.getvalue()


# run in a process of its own, as a worker: its peak (ru_maxrss, KB on Linux) over what it held before
MEASURE = """
import json, resource, sys, time
from benchmarks.django_setup import django_on_sqlite
django_on_sqlite()
from mighty_ledger import services
from mighty_ledger.services.sheet_imports import sheet_import, sheet_preview
from mighty_ledger.services.spreadsheets import sheet_file
content = open(sys.argv[1], "rb").read()
group = services.group_create(name="Largest", player_names=%r)
peak = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
# what the process holds now (migrating the database peaked higher): the growth is the import's
before = int(next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmRSS:")))
figures = {}
def timed(name, work):
    start, cpu = time.perf_counter(), time.process_time()
    done = work()
    figures[name], figures[name + "_cpu"] = time.perf_counter() - start, time.process_time() - cpu
    return done
if sys.argv[2] == "workbook":
    read = timed("read", lambda: sheet_file(content))
    assert read.refusal is None, read.refusal
else:
    plan = timed("preview", lambda: sheet_preview(group=group, content=content, preset="korean-standard"))
    assert not plan.problems and plan.hand_count == %d, plan.problems[:3]
    made, created, _ = timed("import", lambda: sheet_import(group=group, content=content, preset="korean-standard"))
    assert created
figures["grew_mb"] = (peak() - before) / 1024
print(json.dumps(figures))
"""


def _measured(content: bytes, what: str) -> dict:
    from mighty_ledger.services.spreadsheets import MAX_ROWS

    path = Path(f"/tmp/mighty-bench-sheet-{what}")
    path.write_bytes(content)
    try:
        done = subprocess.run([sys.executable, "-c", MEASURE % (SEATS, MAX_ROWS - 1), str(path), what],
                              cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, check=True)
    finally:
        path.unlink(missing_ok=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def run() -> list[Figure]:
    django_on_sqlite()
    from mighty_ledger import services
    from mighty_ledger.services.sheet_imports import sheet_import, sheet_import_undo, sheet_preview
    from mighty_ledger.services.spreadsheets import MAX_ROWS

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
    largest = largest_sheet()
    hands = _measured(largest, "sheet")
    workbook = _measured(largest_workbook(), "workbook")
    rows = MAX_ROWS - 1
    return [
        Figure(f"a spreadsheet of {EVENINGS * HANDS_EACH:,} past hands imported (seconds)", statistics.median(imports),
               f"≤ {TARGET_SECONDS}", f"median of {ROUNDS}; the preview alone {statistics.median(previews):.2f} s"),
        Figure(f"the largest file within the limits ({len(largest) / 2**20:.1f} MB, {rows:,} hands all different) "
               "imported, CPU seconds of gunicorn's time-out", hands["import_cpu"], f"≤ {GUNICORN_TIMEOUT}",
               f"{rows / hands['import_cpu']:,.0f} rows/s; preview {hands['preview_cpu']:.1f} s CPU "
               f"({rows / hands['preview_cpu']:,.0f} rows/s); peak memory +{hands['grew_mb']:.0f} MB"),
        Figure("the largest workbook within the limits (300,000 cells) read, CPU seconds of gunicorn's time-out",
               workbook["read_cpu"], f"≤ {GUNICORN_TIMEOUT}", f"peak memory +{workbook['grew_mb']:.0f} MB"),
    ]
