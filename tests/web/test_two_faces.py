"""The same session through both faces: the pages and the API show the same figures.

A table that started a session through the API at 0.30 EUR a point once saw
+3.00 / −1.50 there and +3 / −1 on the settlement page, because each face
rounded money its own way. Both now read mighty_ledger.reads, which takes
every figure from scoring.settle; this walks one evening through both and
compares totals, money, chips, transfers and the next dealer.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from mighty_ledger.pages.templatetags.money import format_money
from tests.api.conftest import Api
from tests.factories import MADE_15_DIAMONDS, SEATS

FAILED_16_NT = {"dealer": "Ann", "declarer": "Bo", "contract": {"points": 16, "trump": "NT"},
                "partner_call": {"type": "card", "cards": ["JOKER"]}, "partners": ["Di"], "points": 13}

STAKES = [
    pytest.param({"stake_per_point": "0.30", "currency": "EUR"}, id="0.30-eur"),
    pytest.param({"stake_per_point": "0.25", "currency": "EUR"}, id="0.25-eur"),
    pytest.param({"stake_per_point": "1", "currency": "USD"}, id="1-usd"),
    pytest.param({"stake_per_point": "100", "currency": "KRW"}, id="100-krw"),
    pytest.param({"chips_start": 100, "chips_per_point": 1}, id="chips"),
    pytest.param({"stake_per_point": "0.30", "currency": "EUR", "chips_start": 50}, id="money-and-chips"),
]


def evening(db, stakes: dict, hands: list[dict]):
    """A group, a session and its hands, all through the API as a client would make them."""
    created = Api().post("/api/v1/groups", {"name": "Thursday", "players": SEATS}).json()
    edit = Api(created["edit_token"])
    session = edit.post("/api/v1/sessions", {"seats": SEATS, "preset": "pagat-standard", **stakes})
    assert session.status_code == 201, session.content
    session_id = session.json()["id"]
    for entry in hands:
        assert edit.post(f"/api/v1/sessions/{session_id}/hands", entry).status_code == 201
    return created["edit_token"], session_id, edit


def test_the_case_that_disagreed_now_reads_the_same_on_both_faces(db, client):
    token, session_id, edit = evening(db, {"stake_per_point": "0.30", "currency": "EUR"}, [MADE_15_DIAMONDS])

    api = edit.get(f"/api/v1/sessions/{session_id}/settlement").json()
    page = client.get(reverse("session_settle", args=[token, session_id])).content.decode()

    assert api["money"] == {"Ann": "3.00", "Bo": "-1.50", "Cy": "1.50", "Di": "-1.50", "Ed": "-1.50"}
    assert api["rounding_unit"] == "0.01"
    for shown in ("€3.00", "−€1.50", "€1.50"):
        assert shown in page
    assert "Bo pays" in page and "1 EUR" not in page and "2 EUR" not in page


@pytest.mark.parametrize("stakes", STAKES)
def test_pages_and_api_show_the_same_evening(db, client, stakes):
    token, session_id, edit = evening(db, stakes, [MADE_15_DIAMONDS, FAILED_16_NT, MADE_15_DIAMONDS])

    api = edit.get(f"/api/v1/sessions/{session_id}/settlement").json()
    api_session = edit.get(f"/api/v1/sessions/{session_id}").json()
    settle_page = client.get(reverse("session_settle", args=[token, session_id]))
    board_page = client.get(reverse("session_board", args=[token, session_id]))
    settlement, board = settle_page.context["settlement"], board_page.context["board"]

    assert api["totals"] == dict(settlement.totals) == dict(board.settlement.totals) == api_session["totals"]
    assert api["transfers"] == [transfer.as_json() for transfer in settlement.transfers]
    assert api["settle_in"] == settlement.unit
    assert api_session["next"]["dealer"] == board_page.context["board"].next.dealer
    assert api_session["next"]["first_bidder"] == board_page.context["board"].next.first_bidder

    text = settle_page.content.decode()
    currency = stakes.get("currency", "")
    if "stake_per_point" in stakes:
        assert api["money"] == {seat: str(amount) for seat, amount in settlement.money.items()}
        assert api["money_transfers"] == [transfer.as_json() for transfer in settlement.money_transfers]
        # the default rounding is the currency's minor unit: cents, whole won
        assert api["rounding_unit"] == ("1" if currency == "KRW" else "0.01")
        for amount in settlement.money.values():
            assert format_money(amount, currency) in text
            assert format_money(amount, currency) in board_page.content.decode()
        assert sum(Decimal(amount) for amount in api["money"].values()) == 0
    else:
        assert api["money"] is None and settlement.money is None
    if "chips_start" in stakes:
        assert api["chips"] == settlement.chips
        assert api["chip_transfers"] == [transfer.as_json() for transfer in settlement.chip_transfers]
        assert sum(api["chips"].values()) == stakes["chips_start"] * len(SEATS)
    else:
        assert api["chips"] is None
    for transfer in settlement.settling_transfers:
        assert f"{transfer.frm} pays {transfer.to}" in text


def test_the_settlement_lists_the_players_in_seat_order(db, client):
    token, session_id, _ = evening(db, {"stake_per_point": "100", "currency": "KRW"}, [MADE_15_DIAMONDS])

    settlement = client.get(reverse("session_settle", args=[token, session_id])).context["settlement"]

    assert list(settlement.totals)[: len(SEATS)] == SEATS
