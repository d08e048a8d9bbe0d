"""Reading a spreadsheet of past hands as the table wrote it: the spellings of trumps, contracts,
partner calls, numbers and dates, and the shape told from the header."""

from __future__ import annotations

import datetime

import pytest

from scoring.sheets import (
    HAND_SHEET,
    HANDS_CSV,
    SCORE_SHEET,
    parse_call,
    parse_contract,
    parse_date,
    parse_int,
    read_sheet,
    recognise,
)

SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]


@pytest.mark.parametrize(("text", "trump", "expected"), [
    ("14", "스페이드", (14, "S")), ("14", "♠", (14, "S")), ("14", "S", (14, "S")), ("14", "spades", (14, "S")),
    ("13", "노기루다", (13, "NT")), ("13", "NT", (13, "NT")), ("13", "노기", (13, "NT")),
    ("15", "하트", (15, "H")), ("15", "다이아", (15, "D")), ("15", "클로버", (15, "C")),
    ("14 S", None, (14, "S")), ("S14", None, (14, "S")), ("스페이드 14", None, (14, "S")),
    ("노기루다 13", None, (13, "NT")), ("13NT", None, (13, "NT")), ("14", None, None), ("S", None, None),
])
def test_contracts_as_tables_write_them(text, trump, expected):
    assert parse_contract(text, trump) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("조커", {"type": "card", "cards": ["JOKER"]}), ("Joker", {"type": "card", "cards": ["JOKER"]}),
    ("마이티", {"type": "card", "cards": ["AS"]}), ("노프렌드", {"type": "none"}), ("no friend", {"type": "none"}),
    ("첫트릭", {"type": "first_trick"}), ("초구", {"type": "first_trick"}), ("♠K", {"type": "card", "cards": ["KS"]}),
    ("스페이드 K", {"type": "card", "cards": ["KS"]}), ("HA", {"type": "card", "cards": ["AH"]}),
    ("Cy", {"type": "player", "seat": "Cy"}), ("nobody", None),
])
def test_partner_calls_as_tables_write_them(text, expected):
    assert parse_call(text, "H", SEATS) == expected


def test_the_mighty_follows_the_trump():
    # RULES.md: the Mighty is ♠A, or ◆A when spades are trump
    assert parse_call("마이티", "S", SEATS) == {"type": "card", "cards": ["AD"]}


@pytest.mark.parametrize(("text", "expected"), [
    ("5", 5), ("+5", 5), ("-3", -3), ("−3", -3), ("1,200", 1200), ("5점", 5), ("5.0", 5), ("5.5", None), ("x", None),
])
def test_whole_numbers_as_written(text, expected):
    assert parse_int(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("2024-03-05", datetime.date(2024, 3, 5)), ("2024.3.5", datetime.date(2024, 3, 5)),
    ("2024. 3. 5.", datetime.date(2024, 3, 5)), ("2024/03/05", datetime.date(2024, 3, 5)),
    ("2024년 3월 5일", datetime.date(2024, 3, 5)), ("2024-02-30", None), ("yesterday", None),
])
def test_dates_as_written(text, expected):
    assert parse_date(text) == expected


@pytest.mark.parametrize(("header", "shape"), [
    (["session", "date", "number", "kind", "contract", "declarer", "partners", "points", "made",
      "Ann payment", "Ann total"], HANDS_CSV),
    (["Points", "Declarer", "Date", "Trump", "Contract", "Partner"], HAND_SHEET),
    (["날짜", "주공", "공약", "기루다", "프렌드", "점수"], HAND_SHEET),
    (["Date", "Ann", "Bo", "Cy"], SCORE_SHEET),
    (["Date", "Note"], None),
])
def test_the_shape_is_told_from_the_header(header, shape):
    assert recognise(header)[0] == shape


def test_an_english_hand_sheet_in_another_column_order():
    rows = [["Points", "Partner", "Declarer", "Trump", "Contract", "Date", "Partner call"],
            ["16", "Cy", "Ann", "NT", "14", "2024-05-01", "joker"],
            ["12", "", "Bo", "D", "15", "2024-05-01", ""],
            ["15", "Ed", "Di", "C", "14", "2024-05-01", "first trick"]]
    sheet = read_sheet(rows, players=5)
    assert sheet.problems == ()
    (session,) = sheet.sessions
    assert [hand.entry["declarer"] for hand in session.hands] == ["Ann", "Bo", "Di"]
    assert session.hands[1].entry["partner_call"] == {"type": "none"}
    assert sorted(session.seats) == SEATS
