"""The import's limits, refused before the work and in the error shape, and everything within them
taken (issue 49): files of 2.4, 3 and 4.9 MB previewed and imported, 5.1 MB answered 413; 50,000
rows refused before any hand is scored; a workbook that inflates refused from its archive with the
reading process's memory measured; a character PostgreSQL cannot store named by its line in the
preview, so the commit refuses the same line instead of failing.

The big files are made once for the module.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook
from rest_framework.test import APIClient

from mighty_ledger import services
from mighty_ledger.models import Player, Session, SheetImport
from mighty_ledger.services import spreadsheets
from tests.servers import REPO
from tests.web.test_sheet_imports import HAND_SHEET_KOREAN, KOREAN_PLAYERS, csv_bytes

URL = "/api/v1/imports"
MB = 1024 * 1024
EVENINGS, HANDS_EACH = 12, 100


@pytest.fixture
def group(db):
    return services.group_create(name="Thursday", player_names=KOREAN_PLAYERS)


def client(token: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return api


def send(api: APIClient, content: bytes, name: str = "hands.csv", **fields):
    upload = SimpleUploadedFile(name, content, content_type="application/octet-stream")
    return api.post(URL, {"file": upload, "preset": "korean-standard", **fields}, format="multipart")


def sheet_of_size(size: int) -> bytes:
    """Twelve evenings of a hundred hands, each row with a long note, to ``size`` bytes exactly."""
    header = ",".join([*HAND_SHEET_KOREAN[0], "비고"]) + "\r\n"
    hands = HAND_SHEET_KOREAN[1:]
    rows = []
    for evening in range(EVENINGS):
        for number in range(HANDS_EACH):
            hand = hands[number % len(hands)][1:]
            rows.append(f"2023-{evening + 1:02d}-07," + ",".join(hand) + ",")
    room = size - len(header.encode()) - sum(len(row.encode()) + 2 for row in rows)
    note, spare = divmod(room, len(rows))
    text = header + "".join(row + "x" * (note + (index < spare)) + "\r\n" for index, row in enumerate(rows))
    content = text.encode()
    assert len(content) == size
    return content


@pytest.fixture(scope="module")
def sized_files() -> dict[float, bytes]:
    return {megabytes: sheet_of_size(int(megabytes * MB)) for megabytes in (2.4, 3, 4.9, 5.1)}


def test_files_up_to_five_mb_are_previewed_and_imported_and_a_larger_one_is_413(group, sized_files):
    api = client(group.edit_token)
    for megabytes in (2.4, 3, 4.9):
        answer = send(api, sized_files[megabytes])
        assert answer.status_code == 200, (megabytes, answer.content[:300])
        assert answer.json()["problems"] == []
        assert sum(session["hands"] for session in answer.json()["sessions"]) == EVENINGS * HANDS_EACH
    made = send(api, sized_files[3], commit="true")
    assert made.status_code == 201, made.content[:300]
    assert SheetImport.objects.get().hand_count == EVENINGS * HANDS_EACH

    too_big = send(api, sized_files[5.1], commit="true")

    assert too_big.status_code == 413
    assert too_big.json()["errors"] == [{"field": "file", "code": "too_large",
                                         "message": "The file is larger than 5 MB: send one of at most 5 MB."}]
    assert SheetImport.objects.count() == 1


def test_the_page_says_a_file_is_too_large_beside_the_file_and_previews_one_within(client, group, sized_files):
    url = f"/g/{group.edit_token}/import/"
    within = client.post(url, {"file": SimpleUploadedFile("a.csv", sized_files[3]), "preset": "korean-standard"})
    assert within.status_code == 200 and within.context["plan"].hand_count == EVENINGS * HANDS_EACH

    too_big = client.post(url, {"file": SimpleUploadedFile("a.csv", sized_files[5.1]), "preset": "korean-standard"})

    assert too_big.status_code == 413
    assert too_big.context["form"].errors["file"] == ["The file is larger than 5 MB: send one of at most 5 MB."]
    problems = too_big.text.split('id="problems-file"', 1)[1].split("</div>", 1)[0]
    assert "The file is larger than 5 MB" in problems


def fifty_thousand_rows() -> bytes:
    """The probe's file: a hand sheet of 50,000 rows, 2.3 MB."""
    rows = [",".join(HAND_SHEET_KOREAN[0])]
    hands = [",".join(row[1:]) for row in HAND_SHEET_KOREAN[1:]]
    rows += [f"2020-{1 + row // 5000:02d}-01,{hands[row % len(hands)]}" for row in range(50_000)]
    return ("\r\n".join(rows) + "\r\n").encode()


def test_fifty_thousand_rows_are_refused_before_any_hand_is_read(group, monkeypatch):
    content = fifty_thousand_rows()
    assert 2 * MB < len(content) < 3 * MB

    def never(*args, **kwargs):
        raise AssertionError("a row was read past the limit")

    monkeypatch.setattr("mighty_ledger.services.sheet_imports.read_sheet", never)
    for commit in ("false", "true"):
        answer = send(client(group.edit_token), content, commit=commit)
        assert answer.status_code == 400, answer.content[:300]
        assert answer.json()["errors"] == [{
            "field": "file", "code": "too_many_rows",
            "message": "The file has more than 10,000 rows: split it (one file per year, say) and import each.",
        }]
    assert not Session.objects.exists()


# --- workbooks: read from their archive before anything is parsed ------------------------------


SHEET_START = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
               b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
SHEET_END = b"</sheetData></worksheet>"


def workbook_with_sheet(write_rows) -> bytes:
    """A real workbook (openpyxl's) whose first sheet's XML is written by ``write_rows(out)``,
    streamed into the archive so that even a huge one is never whole in memory."""
    skeleton = io.BytesIO()
    Workbook().save(skeleton)
    out = io.BytesIO()
    with zipfile.ZipFile(skeleton) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            if item.filename == "xl/worksheets/sheet1.xml":
                with target.open(item.filename, "w", force_zip64=True) as sheet:
                    sheet.write(SHEET_START)
                    write_rows(sheet)
                    sheet.write(SHEET_END)
            else:
                target.writestr(item, source.read(item.filename))
    return out.getvalue()


def inflating(sheet) -> None:
    """One cell that unpacks to 300 MB of text: a few hundred KB in the archive."""
    sheet.write(b'<row r="1"><c r="A1" t="inlineStr"><is><t>')
    block = b"A" * MB
    for _ in range(300):
        sheet.write(block)
    sheet.write(b"</t></is></c></row>")


def many_cells(sheet) -> None:
    for row in range(1, 35_001):
        sheet.write(f'<row r="{row}">'.encode() + b"".join(
            f'<c r="{column}{row}"><v>1</v></c>'.encode() for column in "ABCDEFGHIJ") + b"</row>")


def far_column(sheet) -> None:
    sheet.write(b'<row r="1"><c r="A1" t="inlineStr"><is><t>date</t></is></c>'
                b'<c r="XFD1"><v>1</v></c></row>')


@pytest.fixture(scope="module")
def workbooks() -> dict[str, bytes]:
    return {"inflating": workbook_with_sheet(inflating), "many_cells": workbook_with_sheet(many_cells),
            "far_column": workbook_with_sheet(far_column)}


# ru_maxrss is the process's peak, in KB on Linux
READ_AND_MEASURE = """
import json, os, resource, sys
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mighty_ledger.settings")
django.setup()
from mighty_ledger.services.spreadsheets import sheet_file
content = open(sys.argv[1], "rb").read()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
read = sheet_file(content)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"grew_kb": after - before, "code": read.refusal.code if read.refusal else None}))
"""


def test_a_workbook_that_inflates_is_refused_from_its_archive_and_the_reader_stays_small(workbooks, tmp_path):
    path = tmp_path / "inflating.xlsx"
    path.write_bytes(workbooks["inflating"])
    assert path.stat().st_size < MB

    # a process of its own, as a worker is: its peak memory is the reading's alone
    measured = subprocess.run([sys.executable, "-c", READ_AND_MEASURE, str(path)], cwd=REPO, capture_output=True,
                              text=True, timeout=300)

    assert measured.returncode == 0, measured.stderr[-2000:]
    read = json.loads(measured.stdout)
    assert read["code"] == "workbook_too_large"
    assert read["grew_kb"] < 30 * 1024, f"reading a {path.stat().st_size} B workbook grew the process by {read['grew_kb']} KB"


def test_each_workbook_limit_is_named_in_the_error_shape(group, workbooks):
    api = client(group.edit_token)
    expected = {
        "inflating": ("workbook_too_large", "unpacks to more than 20 MB"),
        "many_cells": ("too_many_cells", "more than 300,000 cells"),
        "far_column": ("too_many_columns", "more than 200 columns"),
    }
    for name, (code, words) in expected.items():
        answer = send(api, workbooks[name], name=f"{name}.xlsx")
        assert answer.status_code == 400, (name, answer.content[:300])
        error, = answer.json()["errors"]
        assert (error["field"], error["code"]) == ("file", code) and words in error["message"], error


def test_a_limit_is_said_on_the_page_beside_the_file(client, group, workbooks):
    answer = client.post(f"/g/{group.edit_token}/import/", {
        "file": SimpleUploadedFile("big.xlsx", workbooks["many_cells"]), "preset": "korean-standard"})

    assert answer.status_code == 400
    assert "more than 300,000 cells" in answer.context["form"].errors["file"][0]
    assert "plan" not in answer.context


def test_limits_are_the_ones_the_docs_state():
    docs = (REPO / "docs" / "table.md").read_text() + (REPO / "docs" / "api.md").read_text()
    assert spreadsheets.MAX_BYTES == 5 * MB and "5 MB" in docs
    for figure in ("10,000 rows", "300,000 cells", "200 columns", "20 MB"):
        assert figure in docs, figure


# --- text PostgreSQL cannot store -------------------------------------------------------------


def test_a_nul_in_a_new_players_name_is_named_by_its_line_and_the_commit_refuses_the_same(group):
    # a new player's name with a NUL (lines 4 and 5 name him), and a bell in a date (line 7)
    rows = [[cell.replace("마루", "바\x00다") for cell in row] for row in HAND_SHEET_KOREAN]
    rows[6][0] += "\x07"
    content = csv_bytes(rows, "utf-8")
    api = client(group.edit_token)

    preview = send(api, content)
    committed = send(api, content, commit="true")

    assert preview.status_code == 200
    problems = preview.json()["problems"]
    controls = [(problem["line"], problem["message"]) for problem in problems if "control character" in problem["message"]]
    assert controls == [(4, "'바\ufffd다' holds a control character (U+0000), which cannot be kept: remove it."),
                        (5, "'바\ufffd다' holds a control character (U+0000), which cannot be kept: remove it."),
                        (7, "'2024-03-12\ufffd' holds a control character (U+0007), which cannot be kept: remove it.")]
    assert committed.status_code == 400
    assert committed.json()["problems"] == problems
    assert not Player.objects.filter(name__contains="바").exists() and not SheetImport.objects.exists()
