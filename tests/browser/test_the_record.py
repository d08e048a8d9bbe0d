"""The evening's story and the group's record, as a phone shows them.

The evening is tests/web/test_stats.py's: pagat's five-player game, five hands
worked out there by the rules, played for 100 won a point. Cy ends +255 and is
owed by everyone: Ann 6,600원, Bo and Di 4,300원 each, Ed 10,300원.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from mighty_ledger import services
from tests.factories import SessionFactory
from tests.web.test_stats import EXPECTED, play

from .steps import board_url, has_no_horizontal_scroll, screenshot, signed

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 740}


@pytest.fixture
def evening(transactional_db):
    return play(SessionFactory(played_on=datetime.date(2026, 11, 20), title="Friday",
                               stake_per_point=Decimal(100), currency="KRW"))


def test_the_scoreboard_draws_one_line_per_player_on_a_small_phone(page, live_server, evening):
    page.set_viewport_size(SMALL_PHONE)
    page.goto(board_url(live_server, evening))

    chart = page.get_by_test_id("score-chart")  # loaded by htmx after the board
    expect(chart.locator("path.series-line")).to_have_count(5)
    expect(chart.locator("line.chart-last")).to_have_count(1)  # the last hand is marked
    # each line has its own marker shape as well as its colour, with the total in its tooltip
    expect(chart.locator("svg.chart-plot .series-0 path.series-marker").last.locator("title")).to_have_text("Ann after hand 5: −66")
    box = chart.locator("svg.chart-plot").bounding_box()
    assert 280 <= box["width"] <= SMALL_PHONE["width"]
    # the axis labels stay readable once the plot is scaled to the phone
    assert chart.locator("text.chart-tick").first.bounding_box()["height"] >= 9
    assert has_no_horizontal_scroll(page)
    # the figures are also a table, for anyone who cannot read the lines
    chart.get_by_text("The figures as a table").click()
    last_row = chart.locator("details table tbody tr").last
    expect(last_row.locator("th")).to_have_text("5")
    assert last_row.locator("td").all_inner_texts() == [signed(evening.totals[seat]) for seat in evening.seats]
    expect(page.get_by_role("link", name="Download the hands (CSV)")).to_be_visible()
    screenshot(page, "board-chart")


def test_the_statistics_page_shows_the_evenings_figures(page, live_server, evening):
    page.goto(live_server.url + reverse("group_stats", args=[evening.group.view_token]))

    expect(page.get_by_test_id("stats-hands")).to_have_text("4")
    for name, (hands, sat_out, declarer, partner, defender, points, win, loss) in EXPECTED.items():
        row = page.get_by_test_id("stats-players").locator(f'tr[data-player="{name}"] td')
        assert row.all_inner_texts()[:3] == [str(hands), str(sat_out), signed(points)]
        assert row.all_inner_texts()[4:] == [signed(win) or "0", signed(loss) or "0"]
        declared = page.get_by_test_id("stats-declarer").locator(f'tr[data-player="{name}"] td')
        assert declared.first.inner_text() == str(declarer[0])
        sides = page.get_by_test_id("stats-sides").locator(f'tr[data-player="{name}"] td')
        assert [sides.nth(0).inner_text(), sides.nth(2).inner_text(), sides.nth(4).inner_text()] == [
            str(partner[0]), str(defender[0]), str(defender[2])]
    cy = page.get_by_test_id("stats-players").locator('tr[data-player="Cy"] td')
    expect(cy.nth(3)).to_have_text("₩25,500")
    expect(page.get_by_test_id("stats-declarer").locator('tr[data-player="Cy"] td').nth(1)).to_contain_text("1 (100%)")
    expect(page.get_by_test_id("stats-contracts")).to_contain_text("1/1")
    # the season's chart: one line per player
    expect(page.get_by_test_id("score-chart").locator("path.series-line")).to_have_count(5)
    assert has_no_horizontal_scroll(page)
    screenshot(page, "stats")

    page.get_by_test_id("stats-players").get_by_role("link", name="Cy", exact=True).click()
    figures = page.get_by_test_id("player-figures")
    # one evening and one partner: each named once, not as both the best and the worst
    expect(figures).to_contain_text("The only friend")
    expect(figures).to_contain_text("Ann (1/1)")
    expect(figures).not_to_contain_text("Worst friend")
    expect(figures).to_contain_text("The only session")


def test_the_share_text_is_ready_to_paste_and_a_payment_is_marked_and_undone(page, live_server, evening):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{live_server.url}/g/{evening.group.edit_token}/s/{evening.pk}/settle/")

    expected = "\n".join([
        "Mighty, 2026-11-20 · Friday",
        "Cy +255, Bo −43, Di −43, Ann −66, Ed −103",
        "Ann pays Cy ₩6,600",
        "Bo pays Cy ₩4,300",
        "Di pays Cy ₩4,300",
        "Ed pays Cy ₩10,300",
    ])
    box = page.get_by_test_id("share-text")
    expect(box).to_have_value(expected)
    # the whole text shows without scrolling the box
    assert box.evaluate("box => box.scrollHeight <= box.clientHeight")
    page.get_by_role("button", name="Copy the list").click()
    expect(page.locator("[data-share-status]")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == expected

    # the page's one list of transfers: each line marked as paid where it is read
    owed = page.get_by_test_id("settle-transfers")
    owed.locator("li", has_text="Ed pays Cy").get_by_role("button", name="Mark as paid").click()
    payments = page.get_by_test_id("payments")
    expect(payments.get_by_test_id("payments-marked")).to_contain_text("Ed paid Cy ₩10,300")
    # paid: no longer among what is still owed (issue 35), in the list as in the chat
    expect(owed.locator("li", has_text="Ed pays Cy")).to_have_count(0)
    screenshot(page, "settle-share")

    page.goto(f"{live_server.url}/g/{evening.group.edit_token}/")
    balance = page.get_by_test_id("balance")
    expect(balance).to_contain_text("Ann pays Cy ₩6,600")
    expect(balance).not_to_contain_text("Ed pays Cy")
    expect(page.get_by_test_id("season-chart").locator("path.series-line")).to_have_count(5)
    assert has_no_horizontal_scroll(page)
    screenshot(page, "group-season")

    page.go_back()
    page.get_by_test_id("payments-marked").get_by_role("button", name="Undo").click()
    expect(page.get_by_test_id("settle-transfers").locator("li", has_text="Ed pays Cy")).to_contain_text("Mark as paid")


def test_a_payment_whose_answer_was_lost_is_recorded_once(phones, live_server, evening):
    from mighty_ledger.models import Payment

    # the phone's console reports the answer it lost; its outbox's requests are its own (no
    # service worker stands in them), so the route below sees them
    second = phones(console=None, service_workers="block")
    second.goto(board_url(live_server, evening) + "payments/")
    payments = second.get_by_test_id("payments")
    expect(payments.locator("li", has_text="Ed pays Cy").get_by_role("button", name="Mark as paid")).to_be_visible()
    # meanwhile Ed paid Cy ₩300 of it, marked by a client of the API; the phone still shows ₩10,300 owed
    services.payment_record(session=evening, payer="Ed", payee="Cy", amount=Decimal(300))

    payments.locator("li", has_text="Ed pays Cy").get_by_role("button", name="Mark as paid").click()
    asked = payments.get_by_test_id("payment-beyond-owed")
    expect(asked).to_contain_text("Ed owes Cy only ₩10,000 in this session, not ₩10,300")

    # "Record it anyway" reaches the server, but its answer is lost on the way back
    lost = []

    def answer_lost(route):
        route.fetch()
        lost.append(route.request.url)
        route.abort("connectionreset")

    second.route("**/api/v1/sessions/*/payments", answer_lost)
    asked.get_by_role("button", name="Record it anyway").click()
    for _ in range(100):
        if lost:
            break
        second.wait_for_timeout(50)
    assert lost and Payment.objects.count() == 2
    second.unroute("**/api/v1/sessions/*/payments")
    # the phone kept the mark that got no answer in its outbox and sends it again under the same
    # key (a second tap meanwhile is the same mark): the server knows it, and the card shows the
    # one payment it saved
    expect(second.get_by_test_id("payments-marked").locator("li")).to_have_count(2)
    assert Payment.objects.count() == 2

    # the card drawn after that: its next "Mark as paid", tapped twice, is one payment. Ed paid Cy
    # ₩300 more than he owed: what is still owed nets it (Di pays Cy ₩4,000 and Ed ₩300)
    second.get_by_test_id("payments").locator("li", has_text="Di pays Cy").get_by_role(
        "button", name="Mark as paid").dblclick()
    expect(second.get_by_test_id("payments-marked")).to_contain_text("Di paid Cy ₩4,000")
    assert sorted(Payment.objects.values_list("payer", "amount")) == [
        ("Di", Decimal(4000)), ("Ed", Decimal(300)), ("Ed", Decimal(10300))]
