"""One CSV writer for every face (issue 21): the board's hands.csv and `export_group --csv` both
write a cell a spreadsheet would run (=, +, -, @, tab, CR first) after a quote, headers included."""

import csv
import io
from pathlib import Path

import pytest
from django.core.management import call_command

from mighty_ledger import services
from mighty_ledger.pages.views import stats as stats_views
from mighty_ledger.reads import exports
from tests.factories import GroupFactory, SessionFactory

# names a spreadsheet would run as formulas; "Ed" is a plain one
SEATS = ["=HYPERLINK(\"http://x.example\",\"pay\")", "+1+1", "@SUM(A1)", "-2", "Ed"]
HAND = {"dealer": "Ed", "declarer": SEATS[0], "contract": {"points": 15, "trump": "D"},
        "partner_call": {"type": "card", "cards": ["AS"]}, "partners": [SEATS[1]], "points": 16}


@pytest.fixture
def formula_table(db):
    session = SessionFactory(group=GroupFactory(), seats=list(SEATS))
    services.hand_record(session=session, entry=HAND)
    return session


def _cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))) for cell in row]


def _assert_nothing_runs(text: str) -> None:
    cells = _cells(text)
    texts = [cell for cell in cells if not cell.lstrip("-").isdigit()]  # numbers stay numbers
    assert not [cell for cell in texts if cell.startswith(exports.FORMULA_STARTS)], texts
    assert "'=HYPERLINK(\"http://x.example\",\"pay\") payment" in cells  # a header
    assert "'@SUM(A1) total" in cells and "'-2 total" in cells
    assert "'+1+1" in cells  # a partner's cell


def test_the_boards_csv_writes_no_cell_a_spreadsheet_would_run(client, formula_table):
    session = formula_table
    response = client.get(f"/g/{session.group.view_token}/s/{session.pk}/hands.csv")

    assert response.status_code == 200
    text = response.content.decode()
    _assert_nothing_runs(text)
    assert "'=HYPERLINK(\"http://x.example\",\"pay\")" in _cells(text)  # the declarer's cell


def test_the_commands_csv_writes_no_cell_a_spreadsheet_would_run(formula_table, tmp_path):
    path = tmp_path / "hands.csv"
    call_command("export_group", formula_table.group.edit_token, output=str(tmp_path / "group.json"),
                 csv_path=str(path), stderr=io.StringIO())

    _assert_nothing_runs(path.read_text(encoding="utf-8"))


def test_both_faces_write_through_the_one_writer():
    assert stats_views.SpreadsheetWriter is exports.SpreadsheetWriter
    assert "csv.writer" not in Path(stats_views.__file__).read_text(encoding="utf-8")
