"""The settlement page asks for no money already paid (issue 35), on a phone, in English and Korean.

Ann made 15 ♦ with Cy at ₩100 a point: Bo and Di each owe Ann ₩500, Ed owes Cy ₩500. This phone
is Bo's. Bo pays Ann and it is marked on the page's one list of transfers: the list, the text for
the group's chat and Bo's own line drop it at once, and the payments card holds it as marked. Then the table plays a hand more and every face of the
page agrees on what is still owed, as the API says it, without a reload: the page follows the
table's stream (served by uvicorn, as in production; pytest-django's WSGI server holds no stream).
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .steps import has_no_horizontal_scroll, screenshot
from .test_live_table import asgi_server  # noqa: F401 (the pages under uvicorn, their streams open)

pytestmark = pytest.mark.browser

PHONES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
# Bo declares 15 ♦ with Di and makes it with 18: Bo +16, Di +8, the others −8 each
BO_MAKES = MADE_15_DIAMONDS | {"declarer": "Bo", "partners": ["Di"], "points": 18}
WORDS = {
    "en-US": {"mark": "Mark as paid", "you_pay": "You pay Ann ₩500", "bo_pays": "Bo pays Ann ₩500",
              "before": "The evening's transfers, before payments"},
    "ko-KR": {"mark": "지불 완료로 표시", "you_pay": "나 → Ann 500원", "bo_pays": "Bo → Ann 500원",
              "before": "지불 전 오늘의 송금"},
}


@pytest.fixture
def evening(transactional_db):
    session = SessionFactory(stake_per_point=Decimal(100), currency="KRW")
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    session.refresh_from_db()
    return session


def lines(list_locator) -> list[tuple[str, str, str]]:
    """A list of transfers (partials/transfers.html) as (payer, payee, amount)."""
    return [tuple(item.get_attribute(name) for name in ("data-from", "data-to", "data-amount"))
            for item in list_locator.locator("li[data-from]").all()]


def api_outstanding(session) -> list[tuple[str, str, str]]:
    answer = Client(HTTP_AUTHORIZATION=f"Bearer {session.group.view_token}").get(
        f"/api/v1/sessions/{session.pk}/settlement").json()
    return [(line["from"], line["to"], line["amount"]) for line in answer["outstanding"]]


def chat_lines(page) -> list[str]:
    text = page.get_by_test_id("share-text").input_value()
    return [line for line in text.splitlines() if " pays " in line or " → " in line]


def expect_every_face_agrees(page, session) -> None:
    owed = api_outstanding(session)
    settle = page.get_by_test_id("settle-transfers")
    expect(settle.locator("li[data-from]")).to_have_count(len(owed))
    assert lines(settle) == owed
    # one list: the payments card drawn into the page holds the payments marked, not the list again
    expect(page.get_by_test_id("payments")).to_be_visible()
    expect(page.get_by_test_id("payments-owed")).to_have_count(0)
    # the chat says the same transfers in the same words, line by line
    assert chat_lines(page) == [words.strip() for words in settle.locator("li[data-from] > span").all_inner_texts()]


@pytest.mark.parametrize(("locale", "size"), [("en-US", "390x844"), ("ko-KR", "360x740")])
def test_a_payment_marked_leaves_the_list_the_chat_and_my_line_and_a_later_hand_keeps_them_agreed(
        asgi_server, phones, evening, locale, size):  # noqa: F811 (the fixture imported above)
    words = WORDS[locale]
    page = phones(locale)
    page.set_viewport_size(PHONES[size])
    settle_url = asgi_server.url + reverse("session_settle", args=[evening.group.edit_token, evening.pk])
    page.goto(settle_url)
    # this phone is Bo's (chosen once on the scoreboard, kept on the phone)
    page.evaluate("([key, name]) => localStorage.setItem(key, name)", [f"mighty-ledger:me:{evening.group_id}", "Bo"])
    page.reload()

    me = page.get_by_test_id("me-settle")
    expect(me.locator("li:visible")).to_have_text([words["you_pay"]])
    assert words["bo_pays"] in chat_lines(page)
    expect_every_face_agrees(page, evening)

    # Bo hands Ann ₩500: one tap on the list's line
    owed = page.get_by_test_id("settle-transfers")
    owed.locator('li[data-from="Bo"][data-to="Ann"]').get_by_role("button", name=words["mark"]).click()
    expect(owed.locator('li[data-from="Bo"]')).to_have_count(0)
    expect(page.get_by_test_id("payments-marked").locator("li")).to_have_count(1)
    expect(page.get_by_test_id("share-text")).not_to_have_value(re.compile(re.escape(words["bo_pays"])))
    expect(me.locator("li:visible")).not_to_have_text([words["you_pay"]])
    expect(page.locator("#evening-transfers summary")).to_have_text(words["before"])
    expect_every_face_agrees(page, evening)
    assert has_no_horizontal_scroll(page)
    screenshot(page, f"settle-outstanding-{locale}-{size}")

    # the table plays on: Bo makes a hand on another phone, and what is still owed moves under the page
    HandFactory(session=evening, entry=BO_MAKES)
    evening.refresh_from_db()
    expect(page.get_by_test_id("settle-transfers").locator('li[data-to="Bo"]')).not_to_have_count(0)
    expect_every_face_agrees(page, evening)
    me_lines = me.locator("li:visible").all_inner_texts()
    assert me_lines and all("Ann" not in line or "500" not in line for line in me_lines)
    assert has_no_horizontal_scroll(page)

    # the group page's "Still owed", for a group of this one evening, is the same list
    page.goto(asgi_server.url + reverse("group_page", args=[evening.group.edit_token]))
    assert lines(page.get_by_test_id("balance-transfers")) == api_outstanding(evening)
    assert has_no_horizontal_scroll(page)
