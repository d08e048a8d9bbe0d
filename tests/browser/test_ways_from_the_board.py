"""A group that has never seen the app finds what it asks at the table from the board: the redeal
calculator for its own system and the way back, the guide, what a game word on the hand form means,
and why a hand number is missing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from mighty_ledger import services
from mighty_ledger.models import Hand
from tests.factories import HandFactory, SessionFactory

from .steps import board_url

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}


def test_from_the_board_to_the_calculator_of_this_system_and_back(phones, live_server, db):
    session = SessionFactory(preset="chicago-5p")
    page = phones(size=NARROW)
    page.goto(board_url(live_server, session))

    page.get_by_test_id("board-redeal-link").click()

    expect(page.get_by_label("Scoring system")).to_have_value("chicago-5p")
    hand = page.get_by_role("group", name="Your hand: 10 cards")
    hand.get_by_text("♠2", exact=True).click()
    expect(page.locator("#redeal-verdict")).to_contain_text("1 of 10 cards chosen.")
    # after a tap the address is still this session's calculator: the way back is still there
    page.get_by_test_id("back-to-board").click()
    expect(page).to_have_url(board_url(live_server, session))


def test_the_guide_from_the_board_in_korean(phones, live_server, db):
    session = SessionFactory()
    page = phones("ko-KR", size=NARROW)
    page.goto(board_url(live_server, session))

    page.get_by_test_id("board-guide-link").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("테이블에서 쓰는 법")


@pytest.mark.parametrize(("language", "tip", "word", "meaning"), [
    ("en-US", "called-card", "Ripper", "makes the Joker fall"),
    ("ko-KR", "call", "초구 프렌드", "첫 트릭을 가져간 사람이 프렌드입니다."),
])
def test_a_game_word_on_the_hand_form_is_explained_where_it_appears(phones, live_server, db, language, tip, word, meaning):
    session = SessionFactory()
    page = phones(language, size=NARROW)
    page.goto(f"{board_url(live_server, session)}hands/new/")
    note = page.get_by_test_id(f"tip-{tip}")
    expect(note).to_be_hidden()

    page.get_by_test_id(f"tip-{tip}-button").click()

    expect(note).to_be_visible()
    expect(note.get_by_text(word, exact=True)).to_be_visible()
    expect(note).to_contain_text(meaning)
    # it covers the form without moving it, and goes with Escape
    page.keyboard.press("Escape")
    expect(note).to_be_hidden()


def test_a_deleted_hand_is_said_on_the_board_and_opens_the_changes(phones, live_server, db):
    session = SessionFactory()
    for _ in range(3):
        HandFactory(session=session)
    services.hand_delete(hand=Hand.objects.get(session=session, number=2))
    page = phones(size=NARROW)
    page.goto(board_url(live_server, session))

    row = page.get_by_test_id("deleted-hands")
    expect(row).to_have_text("Hand 2 deleted")
    box = row.get_by_role("link").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44

    row.get_by_role("link").click()
    expect(page).to_have_url(f"{board_url(live_server, session)}history/")
