"""The hand form fills in what a system's rules decide, so a table need not tick it."""

from __future__ import annotations

import pytest

from mighty_ledger.pages.forms import HandForm
from scoring.interface import check_request, next_request
from scoring.presets import resolve_system

SIX = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"]


def six_player_form(slug: str, **extra) -> HandForm:
    data = {
        "dealer": "Fay", "declarer": "Ann", "contract_points": "15", "contract_trump": "H",
        "call_type": "card", "call_cards": ["KH"], "partners": "Cy", "points_side": "declarer",
        "points": "15", **extra,
    }
    form = HandForm(data, seats=SIX, system=resolve_system(slug))
    assert form.is_valid(), form.errors
    return form


@pytest.mark.parametrize(
    "slug",
    [
        pytest.param("pagat-6p-rotation", id="seed-000-6p-rotation-dealer-sits-out"),
        pytest.param("korean-6-rotation", id="seed-003-6-rotation-dealer-sits-out"),
    ],
)
def test_the_dealer_is_entered_as_sitting_out_when_nobody_was_ticked(slug):
    entry = six_player_form(slug).entry()

    assert entry["sitting_out"] == ["Fay"]
    assert check_request({**entry, "system": slug, "seats": SIX})["legal"] is True


def test_a_ticked_seat_is_kept_and_the_engine_names_the_rule():
    entry = six_player_form("pagat-6p-rotation", sitting_out=["Bo"]).entry()

    assert entry["sitting_out"] == ["Bo"]
    answer = check_request({**entry, "system": "pagat-6p-rotation", "seats": SIX})
    assert [error["code"] for error in answer["errors"]] == ["sitting_out_not_dealer"]


THREE = ["Ann", "Bo", "Cy"]


def three_player_form(**extra) -> HandForm:
    data = {
        "dealer": "Ann", "declarer": "Bo", "contract_points": "13", "contract_trump": "S",
        "call_type": "none", "partners": "", "points_side": "declarer", "points": "14", **extra,
    }
    form = HandForm(data, seats=THREE, system=resolve_system("pagat-3p"))
    assert form.is_valid(), form.errors
    return form


@pytest.mark.parametrize(
    ("ticked", "entered", "deals_next"),
    [
        pytest.param("Cy", "Cy", "Cy", id="seed-000-3p-joker-holder-deals-next"),
        pytest.param("", None, "Bo", id="seed-000-3p-joker-buried-deal-passes-on"),
    ],
)
def test_three_players_say_who_held_the_joker(ticked, entered, deals_next):
    entry = three_player_form(joker_holder=ticked).entry()

    assert entry["joker_holder"] == entered
    previous = {**entry, "system": "pagat-3p"}
    answer = next_request({"system": "pagat-3p", "seats": THREE, "previous": previous})
    assert answer["dealer"] == deals_next
    assert HandForm.initial_from(entry)["joker_holder"] == ticked


def test_the_joker_field_is_only_where_the_joker_decides_the_deal():
    assert "joker_holder" not in six_player_form("pagat-6p-rotation").fields
    assert "joker_holder" in three_player_form().fields
