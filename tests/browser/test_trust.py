"""What a player does that once wrote wrong money (issue 20), at 390×844, in English and Korean:
Back after Save, the result of a contract saved without its partner, and the prompt when two
phones save the same hand."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from mighty_ledger import services
from mighty_ledger.models import Hand
from tests.factories import MADE_15_DIAMONDS, SessionFactory

from .steps import screenshot

pytestmark = pytest.mark.browser

# pagat example 1's contract: Ann 15♦, the ace of spades called
ANN_15_DIAMONDS = {key: MADE_15_DIAMONDS[key] for key in services.CONTRACT_FIELDS if key in MADE_15_DIAMONDS}


@pytest.fixture
def phone(phones, live_server, request):
    """A phone whose language is the test's parameter; no script error goes unnoticed."""
    language = request.param
    return phones("ko-KR" if language == "ko" else "en-US", console=None,
                  cookies=({"name": "django_language", "value": language, "url": live_server.url},))


def tap_value(page, name: str, value: str) -> None:
    """Tap the choice of field ``name`` whose value is ``value`` (the same in every language)."""
    page.locator(f"label.pick:has(input[name='{name}'][value='{value}'])").click()


def type_number(page, name: str, value: int) -> None:
    page.locator(f"input[name='{name}']").fill(str(value))


def enter_ann_made_16(page) -> None:
    tap_value(page, "declarer", "Ann")
    type_number(page, "contract_points", 15)
    tap_value(page, "contract_trump", "D")
    tap_value(page, "call_pick", "S")
    tap_value(page, "call_rank", "A")
    tap_value(page, "partners", "Cy")
    type_number(page, "points", 16)


def board(live_server, session) -> str:
    return f"{live_server.url}/g/{session.group.edit_token}/s/{session.pk}/"


@pytest.mark.parametrize("phone", ["ko"], indirect=True)
def test_back_after_save_shows_the_saved_hand_and_saving_again_adds_nothing(phone, live_server):
    session = SessionFactory()
    phone.goto(board(live_server, session))
    phone.get_by_test_id("enter-hand").click()
    enter_ann_made_16(phone)
    phone.get_by_test_id("save-hand").click()
    expect(phone.locator("#hand-1")).to_be_visible()  # the server's row: the hand is stored

    phone.go_back()

    expect(phone.get_by_test_id("form-saved")).to_be_visible()
    expect(phone.get_by_test_id("saved-hand")).to_have_attribute("href", f"/g/{session.group.edit_token}/s/{session.pk}/h/1/")
    assert phone.locator("#hand-form").count() == 0
    screenshot(phone, f"back-after-save-{phone.evaluate('document.documentElement.lang')}")
    phone.reload()
    expect(phone.get_by_test_id("form-saved")).to_be_visible()
    assert Hand.objects.filter(session=session).count() == 1


@pytest.mark.parametrize("phone", ["en"], indirect=True)
def test_the_result_of_a_contract_is_not_saved_until_the_partner_is_tapped(phone, live_server):
    session = SessionFactory()
    services.contract_open(session=session, entry=ANN_15_DIAMONDS)
    phone.goto(board(live_server, session))
    phone.get_by_test_id("complete-hand").click()

    # nothing answers for the player: the partner row arrives with no one ticked
    expect(phone.locator("#field-partners input[name='partners']").first).to_be_visible()
    expect(phone.locator("input[name='partners']:checked")).to_have_count(0)
    type_number(phone, "points", 16)
    phone.get_by_test_id("save-hand").click()

    expect(phone.locator("#field-partners .errorlist, #field-partners [role=alert]").first).to_be_visible()
    assert not Hand.objects.filter(session=session).exists()
    tap_value(phone, "partners", "Cy")
    phone.get_by_test_id("save-hand").click()
    # the board's row of the saved hand (on a loaded run the Save may land on the kept board
    # first, waiting on the phone, and be stored a moment later)
    expect(phone.locator("#hand-1")).to_be_visible()
    (hand,) = Hand.objects.filter(session=session)
    assert hand.entry["partners"] == ["Cy"] and hand.result["payments"]["Cy"] == 5  # pagat example 1


@pytest.mark.parametrize("phone", ["ko"], indirect=True)
def test_when_another_phone_saved_first_the_easy_tap_keeps_theirs(phone, live_server):
    session = SessionFactory()
    phone.goto(board(live_server, session))
    phone.get_by_test_id("enter-hand").click()
    enter_ann_made_16(phone)
    services.hand_record(session=session, entry=MADE_15_DIAMONDS)  # the other phone was quicker

    phone.get_by_test_id("save-hand").click()

    # asked over the board, as a form left open asks: the same hand is the easy tap
    question = phone.locator("#board-question")
    keep, add = question.locator("[data-choice=same]"), question.locator("[data-choice=next]")
    expect(keep).to_be_visible()
    assert "primary" in keep.get_attribute("class")
    assert "primary" not in (add.get_attribute("class") or "")
    expect(question).to_contain_text("2")  # it says plainly that the next hand adds one, and which
    for target in (keep, add):
        box = target.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    screenshot(phone, f"another-phone-first-{phone.evaluate('document.documentElement.lang')}")
    expect(add).to_be_enabled()
    keep.click()

    expect(question).to_be_hidden()
    expect(phone.get_by_test_id("pending-hand")).to_have_count(0)
    expect(phone.get_by_test_id("enter-hand")).to_be_visible()
    assert Hand.objects.filter(session=session).count() == 1
