"""A sheet as people keep it, and the board's own download brought back (issue 49): a title in a
merged cell, an empty row and notes above the header are passed over; the same evenings brought
in from another file are named in the preview and left out unless asked for; a name misspelt by
one letter of its syllable (민쥰 for 민준) is offered as the group's player; the board's hands.csv
carries its evening's date and title and comes back as the same hands, for a session of each
family of scoring systems."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook
from rest_framework.test import APIClient

from mighty_ledger import services
from mighty_ledger.models import Hand, Session, SheetImport
from mighty_ledger.services.sheet_imports import SheetRefused, sheet_import, sheet_preview
from tests.factories import SessionFactory
from tests.web.test_sheet_imports import HAND_SHEET_KOREAN, KOREAN_PLAYERS, csv_bytes, xlsx_bytes


@pytest.fixture
def group(db):
    return services.group_create(name="Thursday", player_names=KOREAN_PLAYERS)


def kept_workbook() -> bytes:
    """The hand sheet as a Korean group keeps it: a title across the columns, an empty row, a note,
    then the header on row 4 and a bad contract on row 7."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["2024 목요일 마이티 기록"])
    sheet.merge_cells("A1:G1")
    sheet.append([])
    sheet.append(["장소: 신촌, 판당 100원"])
    rows = [list(row) for row in HAND_SHEET_KOREAN]
    rows.insert(3, ["2024-03-05", "가영", "9", "스페이드", "조커", "나래", "15"])
    for row in rows:
        sheet.append([int(cell) if cell.isdigit() else cell for cell in row])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def test_title_rows_an_empty_row_and_notes_above_the_header_are_passed_over(group):
    plan = sheet_preview(group=group, content=kept_workbook(), preset="korean-standard")

    assert plan.shape == "hand_sheet"
    # lines as the spreadsheet numbers its rows: the header is row 4, the bad contract row 7
    assert [(problem.line, "9" in problem.message) for problem in plan.problems] == [(7, True)]
    plain = sheet_preview(group=group, content=xlsx_bytes(HAND_SHEET_KOREAN), preset="korean-standard")
    assert [(s.played_on, len(s.hands), s.totals) for s in plan.sessions] == [
        (s.played_on, len(s.hands), s.totals) for s in plain.sessions]


def test_a_row_of_notes_with_several_cells_is_not_taken_for_the_header(group):
    rows = [["장소", "신촌"], ["회비", "5,000원"], *HAND_SHEET_KOREAN]
    plan = sheet_preview(group=group, content=csv_bytes(rows, "utf-8"), preset="korean-standard")

    assert plan.problems == () and plan.shape == "hand_sheet" and plan.hand_count == 6


def another_evening(day: str) -> list[list[str]]:
    return [[day, "다솜", "15", "하트", "조커", "가영", "16"], [day, "나래", "14", "S", "조커", "라희", "15"],
            [day, "마루", "14", "S", "노프렌드", "", "15"]]


def test_the_same_evenings_as_xlsx_then_as_csv_are_named_and_left_out(group):
    sheet_import(group=group, content=xlsx_bytes(HAND_SHEET_KOREAN), preset="korean-standard")
    content = csv_bytes([*HAND_SHEET_KOREAN, *another_evening("2024-03-19")], "cp949")

    plan = sheet_preview(group=group, content=content, preset="korean-standard")

    stored = {s.played_on.isoformat(): s.pk for s in Session.objects.filter(group=group)}
    assert [(s.played_on.isoformat(), s.duplicate_of) for s in plan.sessions] == [
        ("2024-03-05", stored["2024-03-05"]), ("2024-03-12", stored["2024-03-12"]), ("2024-03-19", None)]
    made, created, _ = sheet_import(group=group, content=content, preset="korean-standard")
    assert created and made.hand_count == 3
    assert Session.objects.filter(group=group, played_on="2024-03-05").count() == 1
    # asked for, they come in again
    again = csv_bytes([*HAND_SHEET_KOREAN, *another_evening("2024-03-26")], "utf-8")
    made, created, _ = sheet_import(group=group, content=again, preset="korean-standard", import_duplicates=True)
    assert created and made.hand_count == 9
    assert Session.objects.filter(group=group, played_on="2024-03-05").count() == 2


def test_a_file_of_evenings_all_in_the_group_already_writes_nothing_and_says_so(group):
    sheet_import(group=group, content=xlsx_bytes(HAND_SHEET_KOREAN), preset="korean-standard")

    with pytest.raises(SheetRefused) as refused:
        sheet_import(group=group, content=csv_bytes(HAND_SHEET_KOREAN, "utf-8"), preset="korean-standard")

    assert refused.value.code == "already_in_group"
    assert SheetImport.objects.count() == 1 and Hand.objects.count() == 6


def test_duplicates_over_the_api_and_on_the_page(client, group):
    sheet_import(group=group, content=xlsx_bytes(HAND_SHEET_KOREAN), preset="korean-standard")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {group.edit_token}")
    content = csv_bytes(HAND_SHEET_KOREAN, "utf-8")

    def send(**fields):
        return api.post("/api/v1/imports", {"file": SimpleUploadedFile("h.csv", content), "preset": "korean-standard",
                                            **fields}, format="multipart")

    preview = send().json()
    assert all(isinstance(session["duplicate_of"], int) for session in preview["sessions"])
    refused = send(commit="true")
    assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "already_in_group"
    assert send(commit="true", import_duplicates="true").status_code == 201

    page = client.post(f"/g/{group.edit_token}/import/", {
        "file": SimpleUploadedFile("h.csv", content), "preset": "korean-standard"}).text
    assert "Already in the group" in page and 'name="import_duplicates"' in page


def test_a_hangul_name_misspelt_by_one_letter_is_offered_as_the_groups_player(db):
    group = services.group_create(name="Thursday", player_names=["민준", "서연", "지호", "하은", "도윤", "John"])
    rows = [["날짜", "민쥰", "서연", "지호", "하은", "Jon"], ["2024-05-02", "4", "-1", "-1", "-1", "-1"]]

    plan = sheet_preview(group=group, content=csv_bytes(rows, "utf-8"), preset="korean-standard")

    near = {match.name: match.near for match in plan.players if match.match is None}
    assert near == {"민쥰": ("민준",), "Jon": ("John",)}


def test_names_that_share_only_a_syllable_are_not_offered(db):
    group = services.group_create(name="Thursday", player_names=["민준", "서연"])
    rows = [["날짜", "민지", "서준", "a", "b", "c"], ["2024-05-02", "4", "-1", "-1", "-1", "-1"]]

    plan = sheet_preview(group=group, content=csv_bytes(rows, "utf-8"), preset="korean-standard")

    assert {match.name: match.near for match in plan.players if match.name in ("민지", "서준")} == {
        "민지": (), "서준": ()}


# --- the board's hands.csv, brought back ----------------------------------------------------------

SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
FAMILY_PRESETS = ["pagat-standard", "chicago-5p", "korean-standard"]


def played_evening(preset: str) -> Session:
    session = SessionFactory(seats=SEATS, preset=preset, played_on="2024-01-09", title="목요일, 신촌")
    hands = [("Ann", "Cy", 16, {"type": "card", "cards": ["JOKER"]}), ("Bo", None, 14, {"type": "none"}),
             ("Di", "Ed", 11, {"type": "first_trick"}), ("Cy", "Ann", 20, {"type": "card", "cards": ["KH"]})]
    for declarer, partner, points, call in hands:
        services.hand_record(session=session, entry={
            "dealer": "Ed", "declarer": declarer, "contract": {"points": 14, "trump": "NT" if partner else "H"},
            "partner_call": call, "partners": [partner] if partner else [], "points": points,
        })
    services.hand_record(session=session, kind=Hand.ALL_PASS, entry={"dealer": "Ann"})
    services.hand_record(session=session, kind=Hand.DEAL_MISS, entry={"dealer": "Bo", "shown_by": "Cy"})
    return session


def board_csv(client, session: Session) -> bytes:
    answer = client.get(reverse("session_hands_csv", args=[session.group.view_token, session.pk]))
    assert answer.status_code == 200
    return answer.content


@pytest.mark.parametrize("preset", FAMILY_PRESETS)
def test_the_boards_hands_csv_comes_back_as_the_same_hands(client, db, preset):
    source = played_evening(preset)
    exported = board_csv(client, source)
    target = services.group_create(name="Elsewhere")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {target.edit_token}")

    answer = api.post("/api/v1/imports", {"file": SimpleUploadedFile("hands.csv", exported), "preset": preset,
                                          "commit": "true"}, format="multipart")

    assert answer.status_code == 201, json.dumps(answer.json(), ensure_ascii=False)[:600]
    (session,) = Session.objects.filter(group=target)
    assert (session.played_on.isoformat(), session.title, session.seats) == ("2024-01-09", "목요일, 신촌", SEATS)
    assert board_csv(client, session) == exported


def test_a_board_download_without_its_date_is_asked_for_it(group):
    rows = [["number", "kind", "dealer", "declarer", "contract", "partners", "points", "made",
             *(f"{name} payment" for name in KOREAN_PLAYERS)],
            ["1", "all_pass", "가영", "", "", "", "", "", "0", "0", "0", "0", "0"]]
    content = csv_bytes(rows, "utf-8")

    plan = sheet_preview(group=group, content=content, preset="korean-standard")
    dated = sheet_preview(group=group, content=content, preset="korean-standard", played_on=datetime.date(2024, 2, 1))

    assert [(problem.line, problem.message) for problem in plan.problems] == [
        (1, "This file does not say which evening its hands were played: give its date.")]
    assert dated.problems == () and dated.sessions[0].played_on.isoformat() == "2024-02-01"
