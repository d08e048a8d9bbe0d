"""A spreadsheet of past hands brought in: the three shapes in every encoding and in XLSX, the rows
that cannot be read (each named with its line, nothing written), a second import of the same file,
and the undo."""

from __future__ import annotations

import io

import pytest
from openpyxl import Workbook

from mighty_ledger import services
from mighty_ledger.models import Hand, Player, Session, SheetImport
from mighty_ledger.reads.exports import hands_csv
from mighty_ledger.reads.ratings import game_of
from mighty_ledger.reads.stats import group_stats
from mighty_ledger.services.sheet_imports import (
    SheetRefused,
    sheet_import,
    sheet_import_undo,
    sheet_preview,
)
from tests.factories import GroupFactory, SessionFactory

KOREAN_PLAYERS = ["가영", "나래", "다솜", "라희", "마루"]

HAND_SHEET_KOREAN = [
    ["날짜", "주공", "공약", "기루다", "프렌드 콜", "프렌드", "점수"],
    ["2024-03-05", "가영", "14", "스페이드", "조커", "나래", "15"],
    ["2024-03-05", "다솜", "14", "노기루다", "노프렌드", "", "15"],
    ["2024.3.5", "라희", "15", "♥", "마루", "마루", "16"],
    ["2024-03-12", "마루", "14", "다이아", "마이티", "가영", "12"],
    ["2024-03-12", "나래", "15", "클로버", "첫트릭", "다솜", "17"],
    ["2024-03-12", "가영", "14", "NT", "♠K", "라희", "13"],
]

SCORE_SHEET_KOREAN = [
    ["날짜", "가영", "나래", "다솜", "라희", "마루", "비고"],
    ["2024-04-01", "4", "-1", "-1", "-1", "-1", ""],
    ["", "+2", "1", "-1", "-1", "-1", "백런"],
    ["합계", "6", "0", "-2", "-2", "-2", ""],
    ["2024-04-08", "-4", "1", "1", "1", "1", ""],
]


def csv_bytes(rows, encoding: str) -> bytes:
    text = "\r\n".join(",".join(row) for row in rows) + "\r\n"
    return text.encode(encoding)


def xlsx_bytes(rows) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append([int(cell) if cell.lstrip("+-").isdigit() else cell for cell in row])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


ENCODINGS = ["utf-8", "utf-8-sig", "cp949", "euc-kr", "xlsx"]


def encoded(rows, encoding):
    return xlsx_bytes(rows) if encoding == "xlsx" else csv_bytes(rows, encoding)


@pytest.fixture
def group(db):
    return services.group_create(name="Thursday", player_names=KOREAN_PLAYERS)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_korean_hand_sheet_is_read_in_every_encoding(group, encoding):
    plan = sheet_preview(group=group, content=encoded(HAND_SHEET_KOREAN, encoding), preset="korean-standard")
    assert plan.problems == ()
    assert plan.shape == "hand_sheet"
    assert [(s.played_on.isoformat(), len(s.hands)) for s in plan.sessions] == [("2024-03-05", 3), ("2024-03-12", 3)]
    assert all(p.match == p.name for p in plan.players)
    first = plan.sessions[0].hands[0]
    assert first.entry["contract"] == {"points": 14, "trump": "S"}
    assert first.entry["partner_call"] == {"type": "card", "cards": ["JOKER"]}
    assert sum(first.payments.values()) == 0 and first.payments["가영"] > 0


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_korean_score_sheet_is_read_in_every_encoding(group, encoding):
    plan = sheet_preview(group=group, content=encoded(SCORE_SHEET_KOREAN, encoding), preset="korean-standard")
    assert plan.problems == ()
    assert plan.shape == "score_sheet"
    first, second = plan.sessions
    assert first.totals == first.written_totals == {"가영": 6, "나래": 0, "다솜": -2, "라희": -2, "마루": -2}
    assert second.totals == {"가영": -4, "나래": 1, "다솜": 1, "라희": 1, "마루": 1}
    assert {hand.kind for hand in first.hands} == {Hand.SCORE_SHEET}


def test_a_score_sheet_hand_counts_in_totals_and_ratings_but_not_in_the_roles(group):
    made, created, _ = sheet_import(group=group, content=csv_bytes(SCORE_SHEET_KOREAN, "utf-8"),
                                 preset="korean-standard")
    assert created and made.hand_count == 3
    stats = group_stats(group)
    assert stats.from_score_sheet == 3 and stats.hands == 0
    assert stats.player("가영").points == 2
    hand = Hand.objects.filter(session__group=group, kind=Hand.SCORE_SHEET).order_by("session__played_on", "number")[0]
    assert game_of(hand.sides) == (["가영"], ["나래", "다솜", "라희", "마루"], [0, 1])


BAD_ROWS = [
    ("unknown player", ["2024-03-05", "가영", "14", "S", "조커", "하늘", "15"], "하늘"),
    ("impossible contract", ["2024-03-05", "가영", "9", "S", "조커", "나래", "15"], "9"),
    ("points out of range", ["2024-03-05", "가영", "14", "S", "조커", "나래", "25"], "25"),
    ("a date that is not one", ["2024-02-30", "가영", "14", "S", "조커", "나래", "15"], "2024-02-30"),
]


@pytest.mark.parametrize(("why", "row", "named"), BAD_ROWS, ids=[case[0] for case in BAD_ROWS])
def test_a_bad_row_is_named_with_its_line_and_nothing_is_written(group, why, row, named):
    rows = [HAND_SHEET_KOREAN[0] + ["참가자"], *[r + [" ".join(KOREAN_PLAYERS)] for r in HAND_SHEET_KOREAN[1:]]]
    rows.insert(3, row + [" ".join(KOREAN_PLAYERS)])
    content = csv_bytes(rows, "utf-8")
    plan = sheet_preview(group=group, content=content, preset="korean-standard")
    assert [problem.line for problem in plan.problems] == [4]
    assert named in plan.problems[0].message
    with pytest.raises(SheetRefused):
        sheet_import(group=group, content=content, preset="korean-standard")
    assert not Session.objects.filter(group=group).exists()
    assert not SheetImport.objects.exists()


def test_scores_not_summing_to_zero_are_named_with_their_line(group):
    rows = [*SCORE_SHEET_KOREAN, ["2024-04-09", "3", "1", "1", "1", "-1", ""]]
    plan = sheet_preview(group=group, content=csv_bytes(rows, "utf-8"), preset="korean-standard")
    assert [(problem.line, "5" in problem.message) for problem in plan.problems] == [(6, True)]


def test_the_same_file_twice_adds_nothing(group):
    content = csv_bytes(HAND_SHEET_KOREAN, "cp949")
    first, created, _ = sheet_import(group=group, content=content, preset="korean-standard")
    counts = Session.objects.count(), Hand.objects.count(), Player.objects.count()
    again, created_again, _ = sheet_import(group=group, content=content, preset="korean-standard")
    assert created and not created_again and again.key == first.key
    assert (Session.objects.count(), Hand.objects.count(), Player.objects.count()) == counts


def test_undo_removes_exactly_what_was_imported(group):
    SessionFactory(group=group, seats=KOREAN_PLAYERS, preset="korean-standard")
    before = set(Session.objects.live().values_list("pk", flat=True)), set(Player.objects.values_list("name", flat=True))
    rows = [[cell.replace("마루", "바다") for cell in row] for row in HAND_SHEET_KOREAN]
    made, _, _ = sheet_import(group=group, content=csv_bytes(rows, "utf-8"), preset="korean-standard")
    assert Player.objects.filter(group=group, name="바다").exists()
    sheet_import_undo(sheet_import=made)
    after = set(Session.objects.live().values_list("pk", flat=True)), set(Player.objects.values_list("name", flat=True))
    assert after == before
    # undone, the same file may be brought in again
    _, created, _ = sheet_import(group=group, content=csv_bytes(rows, "utf-8"), preset="korean-standard")
    assert created


def test_a_near_name_is_offered_and_a_choice_is_kept(group):
    rows = [[cell.replace("가영", "가 영") if cell == "가영" else cell for cell in row] for row in SCORE_SHEET_KOREAN]
    rows[0][1] = "가영이"
    plan = sheet_preview(group=group, content=csv_bytes(rows, "utf-8"), preset="korean-standard")
    match = next(p for p in plan.players if p.name == "가영이")
    assert match.match is None and match.near[0] == "가영"
    chosen = sheet_preview(group=group, content=csv_bytes(rows, "utf-8"), preset="korean-standard",
                           choices={"가영이": "가영"})
    assert next(p for p in chosen.players if p.name == "가영이").match == "가영"
    assert "가영" in chosen.sessions[0].seats


ROUND_TRIP_PRESETS = ["pagat-standard", "chicago-5p", "korean-standard"]


def _renumbered(text: str) -> list[str]:
    """The export's lines with each session's id read as which session it is (1, 2…): a new group's
    sessions get new ids, everything else must come back byte for byte."""
    order: dict[str, int] = {}
    lines = text.split("\r\n")
    out = [lines[0]]
    for line in lines[1:]:
        session, _, rest = line.partition(",")
        out.append(f"{order.setdefault(session, len(order) + 1)},{rest}" if line else line)
    return out


@pytest.mark.parametrize("preset", ROUND_TRIP_PRESETS)
def test_hands_csv_comes_back_byte_for_byte(db, preset):
    source = GroupFactory()
    players = ["Ann", "Bo", "Cy", "Di", "Ed"]
    for day in ("2024-01-02", "2024-01-09"):
        session = SessionFactory(group=source, seats=players, preset=preset, played_on=day,
                                 title="Thursday, late" if day == "2024-01-09" else "")
        for declarer, partner, points in (("Ann", "Cy", 16), ("Bo", None, 14), ("Di", "Ed", 11)):
            services.hand_record(session=session, entry={
                "dealer": "Ed", "declarer": declarer, "contract": {"points": 14, "trump": "NT" if partner else "H"},
                "partner_call": {"type": "card", "cards": ["JOKER"]} if partner else {"type": "none"},
                "partners": [partner] if partner else [], "points": points,
            })
        services.hand_record(session=session, kind=Hand.ALL_PASS, entry={"dealer": "Ann"})
    exported = io.StringIO()
    hands_csv(source, exported)
    target = services.group_create(name="Elsewhere")
    made, created, _ = sheet_import(group=target, content=exported.getvalue().encode(), preset=preset)
    assert created and made.hand_count == 8
    # the title comes back as the title; the session column is only the export's id
    assert sorted(Session.objects.filter(group=target).values_list("title", flat=True)) == ["", "Thursday, late"]
    again = io.StringIO()
    hands_csv(target, again)
    assert _renumbered(again.getvalue()) == _renumbered(exported.getvalue())


def test_a_score_sheet_hand_is_not_edited_into_something_else(group):
    from scoring.problems import InvalidInput

    sheet_import(group=group, content=csv_bytes(SCORE_SHEET_KOREAN, "utf-8"), preset="korean-standard")
    hand = Hand.objects.filter(kind=Hand.SCORE_SHEET).first()
    with pytest.raises(InvalidInput):
        services.hand_amend(hand=hand, entry={"dealer": "가영"}, version=hand.version)
    hand.refresh_from_db()
    assert hand.entry["payments"]["가영"] == 4


def test_score_sheet_hands_come_back_through_hands_csv(group):
    sheet_import(group=group, content=csv_bytes(SCORE_SHEET_KOREAN, "utf-8"), preset="korean-standard")
    exported = io.StringIO()
    hands_csv(group, exported)
    target = services.group_create(name="Elsewhere")
    made, created, _ = sheet_import(group=target, content=exported.getvalue().encode(), preset="korean-standard")
    assert created and made.hand_count == 3
    again = io.StringIO()
    hands_csv(target, again)
    assert _renumbered(again.getvalue()) == _renumbered(exported.getvalue())


def test_a_score_sheet_for_another_number_of_players_is_named(group):
    plan = sheet_preview(group=group, content=csv_bytes(SCORE_SHEET_KOREAN, "utf-8"), preset="korean-4")
    assert [(problem.line, "4" in problem.message) for problem in plan.problems] == [(2, True), (5, True)]
