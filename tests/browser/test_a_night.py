"""A whole evening as the players live it: a group, a session, pagat's seven hands, settling up."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.test_table import PAGAT_EXAMPLES

from .steps import (
    PHONE,
    TRUMP_BUTTONS,
    fill_hand,
    has_no_horizontal_scroll,
    preview_payment,
    screenshot,
    signed,
    totals_row,
    transfers,
)

pytestmark = pytest.mark.browser

SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]


def test_pagats_seven_examples_from_an_empty_home_page_to_settling_up(page, live_server):
    page.goto(live_server.url + "/")
    screenshot(page, "home")

    page.get_by_label("Group name").fill("Thursday table")
    page.get_by_label("Players").fill("\n".join(SEATS))
    page.get_by_role("button", name="Create the group").click()

    # two capability links, each at least 128 bits of randomness (22 base64url characters)
    edit_link = page.get_by_label("Edit link (can change everything)")
    view_link = page.get_by_label("View link (can only look)")
    expect(edit_link).to_have_value(re.compile(rf"^{re.escape(live_server.url)}/g/[\w-]{{22,}}/$"))
    expect(view_link).to_have_value(re.compile(rf"^{re.escape(live_server.url)}/g/[\w-]{{22,}}/$"))
    view_url = view_link.input_value()
    assert edit_link.input_value() != view_url
    screenshot(page, "group")

    page.get_by_role("link", name="Start a session").click()
    # the systems are cards in groups, the likeliest first (an English phone, five players: pagat's)
    page.get_by_role("group", name="Scoring system").get_by_role(
        "radio", name=re.compile(r"^Pagat standard \(5 players\)")).check()
    # seats are tapped clockwise, as the players sit
    seats = page.get_by_role("group", name="Seats, clockwise")
    seats.get_by_role("button", name="Clear the seats").click()
    for name in SEATS:
        seats.get_by_role("button", name=name, exact=True).click()
    expect(seats.get_by_role("button", name="Cy", exact=True)).to_have_attribute("aria-pressed", "true")
    screenshot(page, "session-new")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_test_id("next-hand")).to_be_visible()

    for number, example in enumerate(PAGAT_EXAMPLES, start=1):
        entry, expected = example.values
        next_dealer = page.get_by_test_id("next-hand").locator("strong").first.inner_text()
        page.get_by_role("link", name="Enter a hand").click()
        expect(page.get_by_role("heading", name=f"Hand {number}")).to_be_visible()
        # the dealer is pre-filled from the table flow; the players only check it
        expect(page.locator("#dealer-fold > summary")).to_have_text(f"Dealer: {next_dealer}")

        fill_hand(page, entry)
        expect(preview_payment(page, "Ann")).to_have_text(signed(expected["Ann"]))
        if number in (1, 6):
            screenshot(page, f"hand-form-{example.id}")
        page.get_by_role("button", name="Save").click()

        row = page.locator(f"#hand-{number}")
        expect(row).to_be_visible()
        # the latest hand is marked (its row stands out); the one before it no longer is
        expect(row).not_to_have_css("background-color", "rgba(0, 0, 0, 0)")
        if number > 1:
            expect(page.locator(f"#hand-{number - 1}")).to_have_css("background-color", "rgba(0, 0, 0, 0)")
        trump = entry["contract"]["trump"]
        # the board writes 15♦ but 16 NT: a suit sign sits against the number, a word does not
        contract = f"{entry['contract']['points']}{' ' if trump == 'NT' else ''}{TRUMP_BUTTONS[trump]}"
        expect(row.locator("td.what")).to_contain_text(contract)
        paid = row.locator("td.num .paid")
        for seat, points in expected.items():
            expect(paid.nth(SEATS.index(seat))).to_have_text(signed(points))

    # RULES.md §9.1, as tests/web/test_table.py sums them
    assert totals_row(page) == ["166", "-59", "11", "-59", "-59"]
    # one minus sign everywhere: the board's totals print U+2212, as payments and money do
    expect(page.locator("#totals td strong").nth(1)).to_have_text("−59")
    assert has_no_horizontal_scroll(page), "five players must fit 390 px without scrolling sideways"
    screenshot(page, "board")
    page.set_viewport_size({"width": 360, "height": 740})  # the narrowest phone issue 4 names
    assert has_no_horizontal_scroll(page), "five players must fit 360 px without scrolling sideways"
    page.set_viewport_size(PHONE)

    page.get_by_role("navigation", name="Session").get_by_role("link", name="Settle").click()
    expect(page.get_by_role("heading", name="Settle up")).to_be_visible()
    paid_out = transfers(page)
    # nobody's balance cancels anyone else's: five players need four transfers
    assert len(paid_out) == 4
    balance = dict.fromkeys(SEATS, 0)
    for payer, payee, points in paid_out:
        balance[payer] -= points
        balance[payee] += points
    assert balance == {"Ann": 166, "Bo": -59, "Cy": 11, "Di": -59, "Ed": -59}
    screenshot(page, "settle")

    # a player who only has the view link sees the same night and can change nothing
    page.goto(view_url)
    expect(page.get_by_text("View only")).to_be_visible()
    expect(page.get_by_role("link", name="Start a session")).to_have_count(0)
    page.get_by_role("link", name=re.compile(r"^\d{4}-\d{2}-\d{2}$")).click()
    assert totals_row(page) == ["166", "-59", "11", "-59", "-59"]
    expect(page.get_by_role("link", name="Enter a hand")).to_have_count(0)
    screenshot(page, "board-view-only")
