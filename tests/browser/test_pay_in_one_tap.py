"""Pay in one tap (issue 39), on a phone at 390×844, in English and Korean.

Ann made 15 ♦ with Cy at ₩100 a point: Bo and Di each owe Ann ₩500, Ed owes Cy ₩500. Ann keeps
a Toss ID and a KakaoPay money link, Cy a bank account. On the settle page each transfer owed
carries its payee's buttons, their links in the forms docs/table.md ("Paying in one tap")
documents; the payer goes to their app and, back on the page, one tap marks the transfer paid.
"This phone is me" shows the buttons for what this phone's player pays. A view link's pages
never show a handle. The pages run under uvicorn, as in production, so the page follows the
table's stream when a payment is marked.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from mighty_ledger.models import Player
from mighty_ledger.services.pay import player_pay_set
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .steps import has_no_horizontal_scroll, screenshot
from .test_every_page import LOADED, UNFOLD, check
from .test_live_table import asgi_server  # noqa: F401 (the pages under uvicorn, their streams open)

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
# the link forms docs/table.md documents, and nothing else
TOSS_LINK = re.compile(r"^https://toss\.me/[0-9A-Za-z%]+/\d+$")
KAKAOPAY_LINK = re.compile(r"^https://qr\.kakaopay\.com/[0-9A-Za-z]+$")
ACCOUNT = "3333-01-1234567"
WORDS = {
    "en-US": {"toss": "Pay with Toss", "kakaopay": "Pay with KakaoPay", "account": "Copy the account number",
              "amount": "Copy the amount", "mark": "Mark as paid", "no_amount": "KakaoPay's link cannot carry the amount",
              "copied": "Account number and amount copied", "you_pay": "You pay Ann ₩500",
              "account_label": "Account number", "account_rule": "An account number is 6 to 20 digits"},
    "ko-KR": {"toss": "토스로 보내기", "kakaopay": "카카오페이로 보내기", "account": "계좌번호 복사",
              "amount": "금액 복사", "mark": "지불 완료로 표시", "no_amount": "카카오페이 링크에는 금액을 담을 수 없습니다",
              "copied": "계좌번호와 금액을 복사했습니다", "you_pay": "나 → Ann 500원",
              "account_label": "계좌번호", "account_rule": "계좌번호는 숫자 6~20자리입니다"},
}


@pytest.fixture
def evening(transactional_db):
    session = SessionFactory(stake_per_point=Decimal(100), currency="KRW")
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    players = {player.name: player for player in Player.objects.filter(group=session.group)}
    player_pay_set(player=players["Ann"], changes={"toss": "annkim", "kakaopay": "https://qr.kakaopay.com/Ej8ZBFvdw"})
    player_pay_set(player=players["Cy"], changes={"bank": "kakaobank", "account": ACCOUNT})
    session.refresh_from_db()
    return session


def phone_at(phones, asgi_server, locale: str, **options):  # noqa: F811
    page = phones(locale, **options)
    page.set_viewport_size(PHONE)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=asgi_server.url)
    # the payer's app is not on this test machine: its link answers with a page of its own
    for app in ("https://toss.me/**", "https://qr.kakaopay.com/**"):
        page.route(app, lambda route: route.fulfill(status=200, content_type="text/html",
                                                    body="<!doctype html><title>app</title><p>the app</p>"))
    return page


def settle_url(asgi_server, session, token: str) -> str:  # noqa: F811
    return asgi_server.url + reverse("session_settle", args=[token, session.pk])


@pytest.mark.parametrize("locale", ["ko-KR"])
def test_each_transfer_owed_opens_the_payees_app_and_is_marked_paid_in_one_tap(
        asgi_server, phones, evening, locale):  # noqa: F811 (the fixture imported above)
    words = WORDS[locale]
    page = phone_at(phones, asgi_server, locale)
    page.goto(settle_url(asgi_server, evening, evening.group.edit_token))
    owed = page.get_by_test_id("settle-transfers")

    # Bo owes Ann: Toss with Ann's ID and ₩500 filled in, Ann's KakaoPay link (no amount, and it says so)
    bo = owed.locator('li[data-from="Bo"][data-to="Ann"]')
    toss = bo.get_by_role("link", name=words["toss"])
    kakaopay = bo.get_by_role("link", name=words["kakaopay"])
    assert TOSS_LINK.match(toss.get_attribute("href")) and toss.get_attribute("href") == "https://toss.me/annkim/500"
    assert KAKAOPAY_LINK.match(kakaopay.get_attribute("href"))
    expect(bo.locator("[data-pay-note=kakaopay]")).to_contain_text(words["no_amount"])
    expect(bo.locator("output[data-pay-text]")).to_have_text("500")
    bo.get_by_role("button", name=words["amount"]).click()
    assert page.evaluate("navigator.clipboard.readText()") == "500"

    # Ed owes Cy: Cy's account number copied with the amount, as a banking app reads a pasted transfer
    ed = owed.locator('li[data-from="Ed"][data-to="Cy"]')
    expect(ed.get_by_role("link")).to_have_count(0)
    ed.get_by_role("button", name=words["account"]).click()
    expect(ed.locator("[data-pay-status]")).to_contain_text(words["copied"])
    assert page.evaluate("navigator.clipboard.readText()") == f"카카오뱅크 {ACCOUNT} 500원"
    assert has_no_horizontal_scroll(page)
    screenshot(page, f"pay-in-one-tap-{locale}")

    # Bo taps Toss, pays in the app, comes back: one tap marks it paid
    toss.click()
    page.wait_for_url("https://toss.me/annkim/500")
    page.go_back()
    page.wait_for_url(settle_url(asgi_server, evening, evening.group.edit_token))
    bo = page.get_by_test_id("settle-transfers").locator('li[data-from="Bo"][data-to="Ann"]')
    bo.locator("[data-pay-then]").get_by_role("button", name=words["mark"]).click()
    expect(page.get_by_test_id("settle-transfers").locator('li[data-from="Bo"]')).to_have_count(0)
    expect(page.get_by_test_id("payments-owed").locator('li[data-from="Bo"]')).to_have_count(0)
    assert evening.payments.standing().filter(payer="Bo", payee="Ann", amount=Decimal(500)).exists()
    # Di still owes Ann, and still has her buttons
    expect(page.get_by_test_id("settle-transfers").locator('li[data-from="Di"]').get_by_role(
        "link", name=words["toss"])).to_have_attribute("href", "https://toss.me/annkim/500")


@pytest.mark.parametrize("locale", ["en-US"])
def test_this_phone_is_me_shows_the_buttons_for_what_i_pay(asgi_server, phones, evening, locale):  # noqa: F811
    words = WORDS[locale]
    page = phone_at(phones, asgi_server, locale)
    page.goto(settle_url(asgi_server, evening, evening.group.edit_token))
    page.evaluate("([key, name]) => localStorage.setItem(key, name)", [f"mighty-ledger:me:{evening.group_id}", "Bo"])
    page.reload()

    me = page.get_by_test_id("me-settle")
    mine = me.locator("li:visible")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text(words["you_pay"])
    expect(mine.get_by_role("link", name=words["toss"])).to_have_attribute("href", "https://toss.me/annkim/500")
    expect(mine.get_by_role("link", name=words["kakaopay"])).to_have_attribute("href", "https://qr.kakaopay.com/Ej8ZBFvdw")
    # nobody else's buttons on Bo's card (Ed's transfer to Cy is not Bo's to pay)
    expect(me.get_by_role("button", name=words["account"])).to_have_count(0)
    assert has_no_horizontal_scroll(page)
    screenshot(page, f"pay-this-phone-is-me-{locale}")

    mine.get_by_role("link", name=words["kakaopay"]).click()
    page.wait_for_url("https://qr.kakaopay.com/Ej8ZBFvdw")
    page.go_back()
    page.get_by_test_id("me-settle").locator("li:visible").get_by_role("button", name=words["mark"]).click()
    expect(page.get_by_test_id("me-settle").get_by_role("link", name=words["toss"])).to_have_count(0)
    expect(page.get_by_test_id("settle-transfers").locator('li[data-from="Bo"]')).to_have_count(0)


@pytest.mark.parametrize("locale", ["ko-KR"])
def test_the_view_link_shows_no_handle_on_any_page(asgi_server, phones, evening, locale):  # noqa: F811
    words = WORDS[locale]
    page = phone_at(phones, asgi_server, locale)
    view = evening.group.view_token
    ann = Player.objects.get(group=evening.group, name="Ann")
    page.goto(settle_url(asgi_server, evening, view))
    page.evaluate("([key, name]) => localStorage.setItem(key, name)", [f"mighty-ledger:me:{evening.group_id}", "Ed"])
    for path in (reverse("session_settle", args=[view, evening.pk]), reverse("session_board", args=[view, evening.pk]),
                 reverse("session_payments", args=[view, evening.pk]), reverse("group_page", args=[view]),
                 reverse("player_page", args=[view, "Cy"]), reverse("group_stats", args=[view])):
        page.goto(asgi_server.url + path)
        html = page.content()
        for secret in (ACCOUNT, "toss.me", "annkim", "qr.kakaopay.com", "카카오뱅크"):
            assert secret not in html, (path, secret)
        expect(page.get_by_test_id("pay-buttons")).to_have_count(0)
        expect(page.get_by_role("button", name=words["account"])).to_have_count(0)
    # the "How to pay" page itself is refused to a view link
    assert page.request.get(asgi_server.url + reverse("player_pay", args=[view, ann.pk])).status == 403


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_the_buttons_and_the_pay_page_pass_axe_with_big_taps_at_390_and_360_px(
        asgi_server, phones, evening, locale):  # noqa: F811
    # the refused form below answers 400 on purpose, which the console reports
    page = phone_at(phones, asgi_server, locale, console=lambda message: message.type == "error" and "400" not in message.text)
    found: list[str] = []
    cy = Player.objects.get(group=evening.group, name="Cy")
    page.goto(settle_url(asgi_server, evening, evening.group.edit_token))
    page.wait_for_function(LOADED)
    page.evaluate(UNFOLD)
    check(page, f"settle with pay buttons ({locale})", found)
    page.goto(asgi_server.url + reverse("player_pay", args=[evening.group.edit_token, cy.pk]))
    check(page, f"how to pay Cy ({locale})", found)
    # a handle refused is said beside its field, on the same page
    page.get_by_label(WORDS[locale]["account_label"]).fill("12-ab")
    page.locator("#pay-form button[type=submit]").click()
    expect(page.locator("#field-account")).to_contain_text(WORDS[locale]["account_rule"])
    check(page, f"how to pay Cy, refused ({locale})", found)
    assert found == [], "\n".join(found)
