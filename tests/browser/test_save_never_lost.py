"""A Save never loses a hand (issue 35): whatever its request meets, the hand stays on the phone
until the server has it, and is stored once.

The ways a request goes wrong at a table, each made by a route on the phone's browser context
(a service worker's own fetches go through it too):

- ``cut``: cut before it reaches the server (the server restarting, the phone changing network);
- ``cut_after``: the server stores it, the answer is lost on the way back;
- ``timeout``: the server stores it and no answer ever comes (the wait is cut to 1.5 s here);
- ``5xx``: a proxy answers 502 in the server's place.

Each time the page lands on the board, never on the browser's error page, says the Save waits
on the phone, and the outbox sends it once, with its key, when the line is back. Phones at
390×844 in English and 360×740 in Korean.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from playwright.sync_api import Page, Route, expect

from mighty_ledger import services
from mighty_ledger.models import Contract, Hand, Payment
from mighty_ledger.pages import app_shell
from mighty_ledger.reads.hands import hand_saved_by
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .chromium import close_context
from .test_offline import (
    OUTBOX,
    go_offline,
    go_online,
    open_as_app,
    outbox_items,
    outbox_replay,
    wait_until_kept,
)
from .test_offline_everything import goto_settled, wait_until_sent

pytestmark = pytest.mark.browser

PHONES = {"en": ("en-US", {"width": 390, "height": 844}), "ko": ("ko-KR", {"width": 360, "height": 740})}
KEPT = {"en": "kept on this phone", "ko": "이 폰에 보관"}
BROWSER_ERROR = ("This site can", "ERR_", "사이트에 연결할 수 없음")
# pagat (RULES.md §9.1): Di 14 ♠ alone (no friend), made with 14
DI_ALONE = {"declarer": "Di", "contract_points": "14", "contract_trump": "S", "call_type": "none", "points": "14"}


@pytest.fixture
def phone(browser, live_server, monkeypatch):
    """A phone in ``language`` at its size, with a Save's wait cut to 1.5 s, and no script error."""
    monkeypatch.setattr(app_shell, "SAVE_TIMEOUT_MS", 1500)
    contexts, errors = [], []

    def make(language: str) -> Page:
        locale, viewport = PHONES[language]
        context = browser.new_context(viewport=viewport, locale=locale, device_scale_factor=1)
        context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        close_context(context)
    assert not errors, errors


def choose(page: Page, name: str, value: str) -> None:
    """Tap the button of ``value`` among the form's ``name`` choices, in any language."""
    page.locator(f"label.pick:has(input[name='{name}'][value='{value}'])").click()


def number(page: Page, name: str, value: str) -> None:
    pick = page.locator(f"#field-{name} .pick-value[data-value='{value}']")
    if pick.count():
        pick.click()
    else:
        page.locator(f"input[name='{name}']").fill(value)


def fill_di_alone(page: Page, *, declarer: bool = True) -> None:
    if declarer:
        choose(page, "declarer", DI_ALONE["declarer"])
    number(page, "contract_points", DI_ALONE["contract_points"])
    choose(page, "contract_trump", DI_ALONE["contract_trump"])
    choose(page, "call_type", DI_ALONE["call_type"])
    if page.locator("#field-points").count():
        number(page, "points", DI_ALONE["points"])


def go_wrong(page: Page, path: str, how: str) -> list[str]:
    """The next POST to ``path`` meets ``how``; what reached the server is listed."""
    reached: list[str] = []

    def handle(route: Route) -> None:
        request = route.request
        if request.method != "POST" or reached or "went wrong" in reached:
            route.continue_()
            return
        if how == "cut":
            reached.append("went wrong")
            route.abort("connectionreset")
        elif how == "5xx":
            reached.append("went wrong")
            route.fulfill(status=502, content_type="text/html", body="<h1>502 Bad Gateway</h1>")
        else:
            # the server stores it (Playwright's copy of a worker's request says "Origin: null",
            # which the browser itself does not send: the page's origin, as the browser sends it)
            origin = "/".join(request.url.split("/")[:3])
            response = route.fetch(headers={**request.headers, "origin": origin}, max_redirects=0)
            reached.append(f"stored {response.status}")
            if how == "cut_after":
                route.abort("connectionreset")
            # timeout: no answer ever comes

    page.context.route(f"**{path}", handle)
    # and the server is not back yet for the outbox: it waits until the test says so
    page.context.route("**/api/v1/**", lambda route: route.abort("connectionrefused"))
    page.context.route("**/entry/?*", lambda route: route.abort("connectionrefused"))
    return reached


def landed_kept(page: Page, language: str, board: str) -> None:
    """On the board, not the browser's error page, saying the Save waits on the phone."""
    expect(page).to_have_url(board)
    expect(page.get_by_test_id("app-status")).to_contain_text(KEPT[language])
    body = page.locator("body").inner_text()
    assert not any(words in body for words in BROWSER_ERROR), body[:300]
    assert len(outbox_items(page)) == 1


def waiting_in_the_outbox(page: Page) -> list[dict]:
    """What the outbox holds once the tap just made has been written into it (the page looks
    there first, so that a second tap on the same form is not a second payment)."""
    page.wait_for_function(f"{OUTBOX}.then(items => items.length > 0)")
    return outbox_items(page)


def a_payment_marked_offline(phone, live_server, language: str) -> tuple:
    """A session of one hand whose first transfer a phone without signal marked as paid: the
    session, the phone's page and the payment waiting in its outbox."""
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone(language)
    open_as_app(page, live_server.url + base)
    wait_until_kept(page, base + "payments/")
    go_offline(page.context)
    page.goto(live_server.url + base + "payments/")
    page.get_by_test_id("payments-owed").locator("form button[type=submit]").first.click()
    (waiting,) = waiting_in_the_outbox(page)
    return session, page, waiting


def back_online(page: Page) -> None:
    page.context.unroute_all()
    outbox_replay(page)
    wait_until_sent(page)


@pytest.mark.parametrize("language", ["en", "ko"])
@pytest.mark.parametrize("how", ["cut", "cut_after", "timeout", "5xx"])
def test_a_new_hand_whose_save_goes_wrong_lands_on_the_board_waits_and_is_stored_once(
        phone, live_server, language, how):
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone(language)
    open_as_app(page, live_server.url + base)
    wait_until_kept(page, base)
    page.goto(live_server.url + base + "hands/new/")
    fill_di_alone(page)
    reached = go_wrong(page, base + "hands/new/", how)

    page.get_by_test_id("save-hand").click()

    landed_kept(page, language, live_server.url + base)
    expect(page.get_by_test_id("pending-hand")).to_contain_text("Di")
    # the taps are on the phone, with the form's key and the hand number the form entered
    (kept,) = outbox_items(page)
    assert kept["meant"] == 2 and ["declarer", "Di"] in kept["fields"]
    assert Hand.objects.filter(session=session).count() == (2 if how in ("cut_after", "timeout") else 1)

    back_online(page)
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [(hand.number, hand.entry["declarer"]) for hand in hands] == [(1, "Ann"), (2, "Di")]
    assert hand_saved_by(session, kept["key"]) == hands[1]
    assert reached and (how in ("cut", "5xx")) == (reached == ["went wrong"])
    # the draft went with the server's answer: the form is the next hand's
    goto_settled(page, live_server.url + base + "hands/new/")
    expect(page.locator("input[name=declarer]:checked")).to_have_count(0)
    expect(page.get_by_test_id("draft-notice")).to_have_count(0)


def test_a_save_the_server_answers_takes_it_out_of_the_outbox_and_clears_the_draft(phone, live_server):
    session = SessionFactory()
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone("en")
    open_as_app(page, live_server.url + base)
    page.goto(live_server.url + base + "hands/new/")
    fill_di_alone(page)
    page.get_by_test_id("save-hand").click()
    expect(page.locator("#hand-1")).to_contain_text("Di")
    assert outbox_items(page) == []
    assert page.evaluate("Object.keys(localStorage).filter(name => name.startsWith('draft:'))") == []


def other_forms():
    """Every other form that writes, each with one way of going wrong, in both languages."""
    return [
        pytest.param("contract", "cut_after", "en", id="contract-cut_after-en"),
        pytest.param("complete", "timeout", "ko", id="complete-timeout-ko"),
        pytest.param("edit", "5xx", "en", id="edit-5xx-ko"),
        pytest.param("delete", "cut", "ko", id="delete-cut-ko"),
        pytest.param("deal_miss", "cut_after", "ko", id="deal_miss-cut_after-ko"),
        pytest.param("abandon", "timeout", "en", id="abandon-timeout-en"),
    ]


@pytest.mark.parametrize(("form", "how", "language"), other_forms())
def test_every_form_that_writes_keeps_its_save_when_the_request_goes_wrong(phone, live_server, form, how, language):
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    contract = None
    if form in ("complete", "abandon"):
        bid = {key: MADE_15_DIAMONDS[key] for key in ("dealer", "declarer", "contract", "partner_call")}
        contract, _ = services.contract_open(session=session, entry=bid)
    page = phone(language)
    open_as_app(page, live_server.url + base)
    wait_until_kept(page, base)
    if form == "contract":
        page.goto(live_server.url + base + "playing/new/")
        fill_di_alone(page)
        path, save = base + "playing/new/", page.get_by_test_id("save-contract")
    elif form == "complete":
        page.goto(f"{live_server.url}{base}playing/{contract.pk}/complete/")
        choose(page, "partners", "Cy")
        number(page, "points", "16")
        path, save = base + "hands/new/", page.get_by_test_id("save-hand")
    elif form == "edit":
        page.goto(live_server.url + base + "h/1/edit/")
        number(page, "points", "13")
        path, save = base + "h/1/edit/", page.get_by_test_id("save-hand")
    elif form == "delete":
        page.goto(live_server.url + base + "h/1/")
        path, save = base + "h/1/delete/", page.get_by_test_id("delete-hand")
    elif form == "deal_miss":
        page.goto(live_server.url + base + "events/new/?kind=deal_miss")
        choose(page, "shown_by", "Bo")
        path, save = base + "events/new/", page.get_by_test_id("save-event")
    else:
        page.goto(live_server.url + base)
        path = f"{base}playing/{contract.pk}/abandon/"
        page.get_by_test_id("throw-in").click()
        save = page.get_by_test_id("abandon-hand")
    go_wrong(page, path, how)

    save.click()

    landed_kept(page, language, live_server.url + base)
    back_online(page)
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    if form == "contract":
        (recorded,) = Contract.objects.filter(session=session)
        assert recorded.entry["declarer"] == "Di" and len(hands) == 1
    elif form == "complete":
        contract.refresh_from_db()
        assert len(hands) == 2 and contract.status == Contract.COMPLETED and contract.hand == hands[1]
    elif form == "edit":
        assert len(hands) == 1 and (hands[0].entry["points"], hands[0].version) == (13, 2)
    elif form == "delete":
        assert len(hands) == 1 and hands[0].deleted_at is not None
    elif form == "deal_miss":
        assert [(hand.number, hand.kind) for hand in hands] == [(1, "scored"), (2, "deal_miss")]
    else:
        contract.refresh_from_db()
        assert len(hands) == 1 and contract.status == Contract.ABANDONED


@pytest.mark.parametrize(("how", "language"), [("timeout", "en"), ("5xx", "ko"), ("cut_after", "en")])
def test_a_payment_whose_request_goes_wrong_waits_on_the_card_and_is_marked_once(phone, live_server, how, language):
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone(language)
    open_as_app(page, live_server.url + base + "payments/")
    go_wrong(page, base + "payments/mark/", how)

    page.get_by_test_id("payments-owed").locator("form button[type=submit]").first.click()

    expect(page.get_by_test_id("draft-notice")).to_contain_text(KEPT[language])
    expect(page.get_by_test_id("pending-payments").locator("li")).to_have_count(1)
    back_online(page)
    assert Payment.objects.filter(session=session).count() == 1


@pytest.mark.parametrize("language", ["en", "ko"])
def test_offline_settle_and_payments_hide_transfers_a_deletion_or_a_waiting_hand_changes(
        phone, live_server, language):
    session = SessionFactory()
    for _ in range(2):
        HandFactory(session=session, entry=MADE_15_DIAMONDS)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone(language)
    open_as_app(page, live_server.url + base)
    for path in ("settle/", "payments/", "h/2/", "hands/new/"):
        wait_until_kept(page, base + path)

    go_offline(page.context)
    # before anything changes on this phone, the kept copies are the board's: they are shown
    page.goto(live_server.url + base + "settle/")
    expect(page.get_by_test_id("settle-transfers")).to_be_visible()
    expect(page.get_by_test_id("kept-settlement")).to_have_count(0)

    page.goto(live_server.url + base + "h/2/")
    page.get_by_test_id("delete-hand").click()
    expect(page.get_by_test_id("pending-delete")).to_be_visible()
    for path in ("settle/", "payments/"):
        page.goto(live_server.url + base + path)
        expect(page.get_by_test_id("kept-settlement")).to_contain_text("1")
        expect(page.get_by_test_id("transfers-wait").first).to_be_visible()
        expect(page.locator("[data-testid=settle-transfers]:visible, [data-testid=payments-owed]:visible")
               ).to_have_count(0)
        expect(page.locator("form[action$='/payments/mark/']:visible")).to_have_count(0)

    # a hand saved offline too: two changes the settlement does not count yet
    page.goto(live_server.url + base + "hands/new/")
    fill_di_alone(page)
    page.get_by_test_id("save-hand").click()
    expect(page.get_by_test_id("pending-hand")).to_have_count(1)
    page.goto(live_server.url + base + "settle/")
    expect(page.get_by_test_id("kept-settlement")).to_contain_text("2")


def test_an_offline_payment_copy_older_than_the_kept_board_says_so(phone, live_server):
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone("ko")
    open_as_app(page, live_server.url + base)
    wait_until_kept(page, base + "payments/")
    # another phone saves a hand; this one sees the board, but its payments page is not fetched again
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    page.context.route("**/payments/", lambda route: route.abort("connectionreset"))
    page.reload()
    revision = session.__class__.objects.get(pk=session.pk).revision
    page.wait_for_function(
        "([path, revision]) => caches.open('pages').then(cache => cache.match(path))"
        ".then(kept => { window.__board = kept && kept.headers.get('X-Revision'); }) && window.__board === revision",
        arg=[base, str(revision)], polling=100)

    go_offline(page.context)
    page.goto(live_server.url + base + "payments/")
    expect(page.get_by_test_id("kept-settlement")).to_contain_text("이 사본은 이 폰에 보관된 점수판보다 오래되었습니다.")
    expect(page.locator("[data-testid=payments-owed]:visible")).to_have_count(0)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_payment_the_server_refuses_shows_its_reason_with_fix_and_discard(phone, live_server, language):
    session, page, waiting = a_payment_marked_offline(phone, live_server, language)
    payer, payee, amount = waiting["entry"]["from"], waiting["entry"]["to"], Decimal(waiting["entry"]["amount"])
    # another phone marks part of the same transfer meanwhile: this phone's is now more than is owed
    services.payment_record(session=session, payer=payer, payee=payee, amount=amount - 2)

    go_online(page.context)
    outbox_replay(page)
    card = page.get_by_test_id("pending-payments")
    expect(card.get_by_test_id("refused-message")).to_contain_text("2")
    expect(card.get_by_test_id("discard-refused")).to_be_visible()
    card.get_by_test_id("fix-refused").click()
    card.get_by_test_id("fix-amount").fill("2")
    card.get_by_test_id("send-again").click()
    wait_until_sent(page)
    assert sorted(payment.amount for payment in Payment.objects.filter(session=session)) == sorted([amount - 2, 2])


def test_a_refused_payment_can_be_discarded(phone, live_server):
    session, page, waiting = a_payment_marked_offline(phone, live_server, "ko")
    services.payment_record(session=session, payer=waiting["entry"]["from"], payee=waiting["entry"]["to"],
                            amount=Decimal(waiting["entry"]["amount"]))

    go_online(page.context)
    outbox_replay(page)
    card = page.get_by_test_id("pending-payments")
    expect(card.get_by_test_id("refused-message")).not_to_be_empty()
    page.once("dialog", lambda dialog: dialog.accept())
    card.get_by_test_id("discard-refused").click()
    page.wait_for_function(f"{OUTBOX}.then(items => items.length === 0)")
    assert Payment.objects.filter(session=session).count() == 1


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_restored_draft_fills_the_preview_in(phone, live_server, language):
    session = SessionFactory()
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone(language)
    page.goto(live_server.url + base + "hands/new/")
    fill_di_alone(page)
    preview = page.get_by_test_id("preview")
    expect(preview.locator("table.payments tr")).to_have_count(5)
    page.reload()

    expect(page.get_by_test_id("draft-notice")).to_be_visible()
    # pagat: a lone declarer's 14 made: +8 for Di, −2 each for the four defenders
    expect(preview.locator("table.payments tr")).to_have_count(5)
    expect(preview.locator("tr", has=page.locator("th", has_text="Di"))).to_contain_text("+")


@pytest.mark.parametrize("language", ["en", "ko"])
def test_start_again_keeps_the_declarer_tapped_on_the_board(phone, live_server, language):
    session = SessionFactory()
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone(language)
    page.goto(f"{live_server.url}{base}hands/new/?declarer=Di")
    expect(page.locator("input[name=declarer][value=Di]")).to_be_checked()
    choose(page, "contract_trump", "H")
    page.reload()
    expect(page.get_by_test_id("draft-notice")).to_be_visible()

    page.get_by_test_id("draft-notice").get_by_role("button").click()
    expect(page.locator("input[name=contract_trump][value=H]")).not_to_be_checked()
    expect(page.locator("input[name=declarer][value=Di]")).to_be_checked()
    fill_di_alone(page, declarer=False)
    page.get_by_test_id("save-hand").click()
    expect(page.locator("#hand-1")).to_contain_text("Di")
    assert json.loads(json.dumps(Hand.objects.get(session=session).entry["declarer"])) == "Di"
