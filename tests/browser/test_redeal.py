"""The redeal calculator: a player taps the ten cards they were dealt and reads the verdict."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .steps import has_no_horizontal_scroll, screenshot

pytestmark = pytest.mark.browser

# pagat-standard, five players: ten cards without an A, K, Q, J, 10 or the Joker
NO_POINT_CARDS = ["♠2", "♠3", "♠4", "♠5", "♠6", "♠7", "♠8", "♠9", "♥2", "♥3"]


def test_ten_cards_without_a_point_card_may_demand_a_redeal(page, live_server):
    page.goto(live_server.url + "/redeal/")
    expect(page.get_by_label("Scoring system")).to_have_value("pagat-standard")
    # the odds of the system are there before any card is tapped
    expect(page.locator(".odds__headline")).to_contain_text("A random hand qualifies")
    hand = page.get_by_role("group", name="Your hand: 10 cards")
    verdict = page.locator("#redeal-verdict")

    for card in NO_POINT_CARDS[:-1]:
        hand.get_by_text(card, exact=True).click()
    expect(verdict).to_contain_text("9 of 10 cards chosen.")
    hand.get_by_text(NO_POINT_CARDS[-1], exact=True).click()

    expect(verdict).to_contain_text("Deal miss: this hand may demand a redeal.")
    expect(verdict.locator(".criterion__verdict")).to_have_text(["Qualifies"])
    # the odds are said once, under the calculator, as a player says them: exact odds from the
    # engine (scoring/redeal.py) 18990476 / 443161355 ≈ 0.04285, the fraction for whoever points at it
    expect(page.get_by_text("A random hand qualifies")).to_have_count(1)
    expect(page.locator(".odds__headline")).to_have_text("A random hand qualifies 1 in 23 (4.3%).")
    expect(page.locator(".odds__headline")).to_have_attribute("title", "18990476/443161355")
    assert has_no_horizontal_scroll(page)
    screenshot(page, "redeal")

    # the king of spades counts +1: the same hand with it must be played
    hand.get_by_text("♥3", exact=True).click()
    hand.get_by_text("♠K", exact=True).click()
    expect(verdict).to_contain_text("No deal miss: this hand must be played.")
