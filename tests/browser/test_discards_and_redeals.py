"""Two more things a table does: bury cards and count the defenders' points, and throw in a weak deal."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import SessionFactory

from .steps import board_url, call_card, card_button, pick_number, screenshot, tap

pytestmark = pytest.mark.browser



def test_discards_and_the_defenders_face_up_points(page, live_server):
    session = SessionFactory()
    page.goto(board_url(live_server, session))
    page.get_by_role("link", name="Enter a hand").click()

    tap(page, "Declarer", "Ann")
    pick_number(page, "Contract", 15)
    tap(page, "Trump", "♦")
    call_card(page, "AS")
    tap(page, "Partner", "Cy")
    page.locator("summary", has_text="Bid, discards, who counted").click()
    discards = page.locator("#field-discards")  # headed "Discards, exactly 3 cards"
    for code in ("2C", "3C", "KH"):  # the declarer buried one point card: its suit, then the card
        discards.get_by_role("group", name="Discards: suit").get_by_text(card_button(code)[0]).click()
        discards.get_by_text(card_button(code), exact=True).click()
    # the defenders' point cards lie face up, so that is what the table counts
    tap(page, "Points counted for", "defenders")
    page.get_by_label("Points", exact=True).fill("4")
    expect(page.get_by_test_id("preview")).to_contain_text("16 of 20")
    page.get_by_test_id("save-hand").click()

    # pagat example 1 again: 15 ♦ made with 16, Ann +10
    expect(page.locator("#hand-1")).to_contain_text("+10")
    page.locator("#hand-1").get_by_role("link", name="1").click()
    expect(page.get_by_text("♥K")).to_be_visible()
    screenshot(page, "hand-detail-with-discards")


def test_a_deal_miss_hands_the_deal_to_whoever_showed_the_hand(page, live_server):
    session = SessionFactory()
    page.goto(board_url(live_server, session))
    next_hand = page.get_by_test_id("next-hand")
    expect(next_hand).to_contain_text("Ann deals")

    page.get_by_role("link", name="Deal miss").click()
    tap(page, "Who showed the hand", "Di")
    page.get_by_test_id("save-event").click()

    # pagat: the player who demanded the redeal deals it and bids first
    expect(page.get_by_test_id("next-hand")).to_contain_text("Di deals, Di bids first")
    expect(page.locator("#hand-1")).to_contain_text("miss")
    screenshot(page, "board-after-deal-miss")
