"""One way to save (issue 46): every Save goes into the outbox, shows on the phone at once where it
lands, and reaches the server once, as soon as the line allows, with or without a service worker.

The ways a Save's request goes wrong at a table, each made by a route on the phone's browser
context (the outbox's requests are the page's own):

- ``cut``: cut before it reaches the server (the server restarting, the phone changing network);
- ``cut_after``: the server stores it, the answer is lost on the way back;
- ``slow``: the server stores it and no answer comes before the outbox's wait (1.5 s here) is over;
- ``5xx``: a proxy answers 502 in the server's place;
- ``offline``: the phone loses its line the moment Save is tapped.

Each time the hand shows on the board at once, waiting, and is stored once when the line is back.
Phones at 390×844 in English and 360×740 in Korean, with the real service worker or none at all.
"""

from __future__ import annotations

import json
import time
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from mighty_ledger import services
from mighty_ledger.models import Contract, Hand, Payment
from mighty_ledger.pages import app_shell
from mighty_ledger.reads.hands import hand_saved_by
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory
from tests.relay import Relay

from .chromium import close_context
from .steps import LEAVING_PAGE, QUESTION_SETTLES_MS
from .test_live_table import asgi_server  # noqa: F401 (a fixture)
from .test_offline import (
    OUTBOX,
    go_offline,
    go_online,
    open_as_app,
    outbox_items,
    wait_until_kept,
    wait_until_settled,
)
from .test_offline_everything import wait_until_sent

pytestmark = pytest.mark.browser

PHONES = {"en": ("en-US", {"width": 390, "height": 844}), "ko": ("ko-KR", {"width": 360, "height": 740})}
WAITING = {"en": "waiting to be sent: 1", "ko": "보낼 것: 1"}
QUESTION = {"en": ("Another phone saved hand 2", "That's the hand I'm entering", "I'm entering the next hand"),
            "ko": ("다른 휴대폰에서 2번째 판을 저장했습니다", "제가 입력하던 그 판입니다", "다음 판을 입력하고 있습니다")}
MARKED_FIELDS = {"en": "see the marked fields", "ko": "표시된 칸"}
# pagat (RULES.md §9.1): Di 14 ♠ alone (no friend), made with 14
DI_ALONE = {"declarer": "Di", "contract_points": "14", "contract_trump": "S", "call_type": "none", "points": "14"}
# what a phone at the table may report on its console while its line is cut or the server asks
EXPECTED_ON_THE_CONSOLE = ("ERR_", "502", "409 (Conflict)", "400 (Bad Request)", "/live/", "/events/",
                           "htmx:sendError", *LEAVING_PAGE)  # a preview asked for as the line went


@pytest.fixture
def line(asgi_server):  # noqa: F811
    """The phones reach the server (uvicorn, streams included) through a relay (tests/relay.py):
    what goes wrong on the line is made there, where the outbox's requests pass whether a service
    worker stands in the page or not."""
    relay = Relay(int(asgi_server.url.rsplit(":", 1)[1])).start()
    yield relay
    relay.stop()


@pytest.fixture
def phone(browser, line, monkeypatch):
    """A phone in ``language`` at its size, with the real service worker (``worker``) or none, the
    outbox's wait for an answer cut to 1.5 s, and no script error."""
    monkeypatch.setattr(app_shell, "SEND_TIMEOUT_MS", 1500)
    contexts, errors = [], []

    def make(language: str, *, worker: bool = True) -> Page:
        locale, viewport = PHONES[language]
        context = browser.new_context(viewport=viewport, locale=locale, device_scale_factor=1,
                                      service_workers="allow" if worker else "block")
        context.add_cookies([{"name": "django_language", "value": language, "url": line.url}])
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" and not any(
            words in message.text for words in EXPECTED_ON_THE_CONSOLE) else None)
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


def fill_di_alone(page: Page, *, declarer: bool = True, contract: str = DI_ALONE["contract_points"]) -> None:
    if declarer:
        choose(page, "declarer", DI_ALONE["declarer"])
    number(page, "contract_points", contract)
    choose(page, "contract_trump", DI_ALONE["contract_trump"])
    choose(page, "call_type", DI_ALONE["call_type"])
    if page.locator("#field-points").count():
        number(page, "points", DI_ALONE["points"])


def session_of(hands: int = 1):
    session = SessionFactory()
    for _ in range(hands):
        HandFactory(session=session, entry=MADE_15_DIAMONDS)
    return session, f"/g/{session.group.edit_token}/s/{session.pk}/"


def line_back(page: Page, line: Relay) -> None:
    """The line is back, once the Save has met it as it was (sent by the page that left, or by the
    board when the taps' entry was still to be asked for)."""
    # a Save the page sent before the line dropped meets the relay within moments; one it held
    # back, having seen the line go, never does
    deadline = time.monotonic() + 5
    while not line.reached and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    line.heal()
    go_online(page.context)


def stayed(page: Page) -> None:
    """The page the player looks at: marked, so that a reload (which would lose the mark) shows."""
    page.evaluate("window.__stayed = true")


def still_the_same_page(page: Page) -> bool:
    return page.evaluate("window.__stayed === true")


# where a phone first showed the hand waiting: the page its Save was tapped on, or the board it went to
FIRST_SHOWN_ON = """
(() => {
  const page = location.pathname;
  new MutationObserver((changes, observer) => {
    if (!document.querySelector("[data-testid=pending-hand]")) return;
    if (!sessionStorage.getItem("first-shown-on")) sessionStorage.setItem("first-shown-on", page);
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
})();
"""


# the hand shown twice at any moment, as the board's own row and as the row waiting on the phone
SHOWN_TWICE = """
(() => {
  new MutationObserver(() => {
    if (document.querySelector("#hand-2") && document.querySelector("[data-testid=pending-hand]")) {
      sessionStorage.setItem("shown-twice", location.pathname);
    }
  }).observe(document, { childList: true, subtree: true });
})();
"""


def waiting_on_the_board(page: Page, language: str, board: str) -> None:
    """On the board at once, the hand at its end waiting (or, on a board the server drew after it
    stored the hand, its own row), and the status line's count exact."""
    expect(page).to_have_url(board)
    expect(page.locator("#hand-2, [data-testid=pending-hand]")).to_have_count(1)
    expect(page.locator("#hand-2, [data-testid=pending-hand]")).to_contain_text("Di")
    expect(page.get_by_test_id("app-status")).to_contain_text(WAITING[language])


# --- one road, with a service worker or none ----------------------------------------------------


@pytest.mark.parametrize("language", ["ko"])
def test_a_phone_without_a_service_worker_saves_three_hands_in_a_row(phone, line, language):
    session, base = session_of(0)
    page = phone(language, worker=False)
    page.goto(line.url + base)
    assert page.evaluate("navigator.serviceWorker === undefined || navigator.serviceWorker.controller === null")

    for number_of_hands in (1, 2, 3):
        page.get_by_test_id("enter-hand").click()
        fill_di_alone(page)
        page.get_by_test_id("save-hand").click()
        expect(page.locator(f"#hand-{number_of_hands}")).to_contain_text("Di")
        expect(page.get_by_test_id("pending-hand")).to_have_count(0)
        expect(page.get_by_test_id("app-status")).not_to_contain_text(WAITING[language][:-2])

    assert Hand.objects.filter(session=session).count() == 3
    assert outbox_items(page) == []


@pytest.mark.parametrize("language", ["en"])
def test_a_save_as_the_line_drops_waits_once_and_is_sent_when_it_returns_without_a_reload(
        phone, line, language):
    session, base = session_of(1)
    page = phone(language)
    open_as_app(page, line.url + base)
    wait_until_kept(page, base)
    page.goto(line.url + base + "hands/new/")
    fill_di_alone(page)
    line.break_writes("cut")

    page.get_by_test_id("save-hand").click()
    go_offline(page.context)

    waiting_on_the_board(page, language, line.url + base)
    (kept,) = outbox_items(page)
    assert kept["meant"] == 2 and kept["state"] == "waiting" and ["declarer", "Di"] in kept["fields"]
    stayed(page)

    line_back(page, line)
    # the "online" event sends it: long before the outbox's own timer would
    expect(page.locator("#hand-2")).to_contain_text("Di", timeout=5000)
    expect(page.get_by_test_id("pending-hand")).to_have_count(0)
    expect(page.get_by_test_id("app-status")).not_to_contain_text(WAITING[language][:-2])
    assert still_the_same_page(page)
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [(hand.number, hand.entry["declarer"]) for hand in hands] == [(1, "Ann"), (2, "Di")]
    assert hand_saved_by(session, kept["key"]) == hands[1]
    assert outbox_items(page) == []


def requests_gone_wrong():
    """Each way a request goes wrong, with a service worker and without, each language once with
    each: the road is the same, so a way and a language need not be tried in every pairing."""
    return [pytest.param(how, language, worker, id=f"{how}-{language}-{'service-worker' if worker else 'none'}")
            for how, languages in [("cut", "en ko"), ("cut_after", "ko en"), ("slow", "en ko"), ("5xx", "ko en")]
            for language, worker in zip(languages.split(), [True, False], strict=True)]


@pytest.mark.parametrize(("how", "language", "worker"), requests_gone_wrong())
def test_a_save_whose_request_goes_wrong_shows_at_once_and_is_stored_once(phone, line, language, how, worker):
    session, base = session_of(1)
    page = phone(language, worker=worker)
    if worker:
        open_as_app(page, line.url + base)
        wait_until_kept(page, base)
        page.context.add_init_script(FIRST_SHOWN_ON)
    page.context.add_init_script(SHOWN_TWICE)
    page.goto(line.url + base + "hands/new/")
    fill_di_alone(page)
    line.break_writes(how)

    page.get_by_test_id("save-hand").click()

    waiting_on_the_board(page, language, line.url + base)
    if worker:
        # the board the phone keeps was drawn in place, the hand waiting on it, before the board's
        # own page had loaded
        assert page.evaluate("sessionStorage.getItem('first-shown-on')") == base + "hands/new/"
    stayed(page)
    line_back(page, line)
    expect(page.locator("#hand-2")).to_contain_text("Di")
    expect(page.get_by_test_id("pending-hand")).to_have_count(0)
    assert still_the_same_page(page)
    # the board's own row came in while the answer was still on its way (slow, or lost): the row
    # waiting on the phone went in the same moment
    assert page.evaluate("sessionStorage.getItem('shown-twice')") is None
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [(hand.number, hand.entry["declarer"]) for hand in hands] == [(1, "Ann"), (2, "Di")]
    # the first try met what it was meant to, and the later ones were cut until the line was back
    assert line.reached[0] == how and set(line.reached[1:]) <= {"cut"}
    wait_until_sent(page)  # confirmed with its key, where the server had it already
    expect(page.get_by_test_id("app-status")).not_to_contain_text(WAITING[language][:-2])
    # the draft went with the Save: the form is the next hand's
    page.goto(line.url + base + "hands/new/")
    expect(page.locator("input[name=declarer]:checked")).to_have_count(0)
    expect(page.get_by_test_id("draft-notice")).to_have_count(0)


def test_a_save_the_server_answers_takes_it_out_of_the_outbox_and_clears_the_draft(phone, line):
    session, base = session_of(0)
    page = phone("en")
    open_as_app(page, line.url + base)
    page.goto(line.url + base + "hands/new/")
    fill_di_alone(page)
    page.get_by_test_id("save-hand").click()
    expect(page.locator("#hand-1")).to_contain_text("Di")
    expect(page.get_by_test_id("pending-hand")).to_have_count(0)
    wait_until_settled(page, f"() => {OUTBOX}.then(items => items.length === 0)")
    assert page.evaluate("Object.keys(localStorage).filter(name => name.startsWith('draft:'))") == []


# the phone's storage never gives back the board it keeps (Cache Storage hung, as on a phone short of
# space): the page's own reads of it wait for ever
KEPT_BOARD_NEVER_READ = """
(() => {
  const match = CacheStorage.prototype.match;
  CacheStorage.prototype.match = function (request, options) {
    return options && options.cacheName === "pages" ? new Promise(() => {}) : match.call(this, request, options);
  };
})();
"""


def test_a_save_goes_to_the_board_though_the_board_the_phone_keeps_is_never_read(phone, line):
    session, base = session_of(0)
    page = phone("en")
    open_as_app(page, line.url + base)
    wait_until_kept(page, base)
    page.context.add_init_script(KEPT_BOARD_NEVER_READ)
    page.goto(line.url + base + "hands/new/")
    fill_di_alone(page)
    page.get_by_test_id("save-hand").click()
    # not drawn in place: the board's own load shows the hand
    expect(page).to_have_url(line.url + base)
    expect(page.locator("#hand-1")).to_contain_text("Di")
    assert [hand.entry["declarer"] for hand in Hand.objects.filter(session=session)] == ["Di"]


# taps the board's "Enter a hand" the moment the Save draws the board in place, before the page
# goes there: as fast as no thumb is, so the tap always comes first
NEXT_HAND_TAPPED_ON_THE_DRAWN_BOARD = """
new MutationObserver((changes, watching) => {
  const next = document.querySelector("[data-testid=enter-hand]");
  if (next && document.querySelector("[data-testid=pending-hand]")) {
    watching.disconnect();
    next.click();
  }
}).observe(document, { childList: true, subtree: true });
"""


def test_a_tap_on_the_board_a_save_drew_goes_where_it_was_tapped(phone, line):
    session, base = session_of(0)
    page = phone("en")
    open_as_app(page, line.url + base)
    wait_until_kept(page, base)
    page.goto(line.url + base + "hands/new/")
    page.evaluate(NEXT_HAND_TAPPED_ON_THE_DRAWN_BOARD)
    fill_di_alone(page)
    page.get_by_test_id("save-hand").click()
    # the next hand's form, blank, and not the board's load over it a moment later
    declarers = page.locator("input[name=declarer]")
    expect(declarers.first).to_be_attached()
    expect(page.locator("input[name=declarer]:checked")).to_have_count(0)
    page.wait_for_timeout(1000)
    assert page.url.startswith(line.url + base + "hands/new/")
    expect(declarers.first).to_be_attached()
    assert [hand.entry["declarer"] for hand in Hand.objects.filter(session=session)] == ["Di"]


# the phone's storage is full: the outbox's write succeeds, and its transaction is refused as it
# commits (as a quota is met), which tells no request of it
STORAGE_FULL = """
(() => {
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (...args) {
    const request = put.apply(this, args);
    if (this.name === "outbox") {
      const transaction = this.transaction;
      request.addEventListener("success", () => transaction.abort());
    }
    return request;
  };
})();
"""
NOT_KEPT = {"en": "This phone could not keep it", "ko": "이 휴대폰에 저장하지 못했습니다"}


@pytest.mark.parametrize("language", ["ko"])
def test_a_save_the_phone_cannot_keep_says_so_offline_and_is_posted_once_online(phone, line, language):
    session, base = session_of(0)
    page = phone(language)
    open_as_app(page, line.url + base)
    wait_until_kept(page, base + "hands/new/")
    page.context.add_init_script(STORAGE_FULL)

    go_offline(page.context)
    page.goto(line.url + base + "hands/new/")
    fill_di_alone(page)
    page.get_by_test_id("save-hand").click()
    # said in the save bar, the taps still on the form, nothing waiting that was never kept
    expect(page.get_by_test_id("draft-notice")).to_contain_text(NOT_KEPT[language])
    expect(page.locator("input[name=declarer][value=Di]")).to_be_checked()
    assert page.url.startswith(line.url + base + "hands/new/")
    assert outbox_items(page) == []

    # with signal the same Save posts the form itself, under its request key: stored once
    line_back(page, line)
    page.get_by_test_id("save-hand").click()
    expect(page).to_have_url(line.url + base)
    expect(page.locator("#hand-1")).to_contain_text("Di")
    assert [hand.entry["declarer"] for hand in Hand.objects.filter(session=session)] == ["Di"]


# --- two phones, one hand --------------------------------------------------------------------------


# in Korean at 360 px: the question's English words are on the live form (test_live_form.py) and
# over the board (test_offline_everything.py)
@pytest.mark.parametrize("language", ["ko"])
def test_two_phones_saving_one_hand_at_once_store_it_once_and_ask_the_other_one_question(
        phone, line, language):
    session, base = session_of(1)
    phones = [phone(language), phone(language)]
    for each in phones:
        open_as_app(each, line.url + base)
        wait_until_kept(each, base)
        each.goto(line.url + base + "hands/new/")
        fill_di_alone(each)
        # the preview of these very taps is in: the Save sends its entry as it is
        expect(each.get_by_test_id("preview")).to_have_attribute("data-preview-state", "scored")

    # both taps leave before either answer comes back
    for each in phones:
        each.evaluate("document.querySelector('[data-testid=save-hand]').click()")

    title, same, next_hand = QUESTION[language]
    for each in phones:
        each.wait_for_url(line.url + base)
        expect(each.locator("#hand-2")).to_contain_text("Di")
    # the phone whose Save came second is asked once its answer is in; the other one never is
    asked = []
    for _ in range(100):
        asked = [each for each in phones if each.locator("#board-question").is_visible()]
        if asked:
            break
        phones[0].wait_for_timeout(200)
    (loser,) = asked
    question = loser.locator("#board-question")
    expect(question).to_be_visible()
    expect(question.locator("[data-question-title]")).to_have_text(title)
    expect(question.locator("[data-choice=same]")).to_have_text(same)
    expect(question.locator("[data-choice=next]")).to_have_text(next_hand)
    expect(question.get_by_test_id("saved-payments")).to_be_visible()
    # nothing behind it says a field is wrong
    assert MARKED_FIELDS[language] not in loser.locator("body").inner_text()
    assert Hand.objects.filter(session=session).count() == 2

    loser.wait_for_timeout(QUESTION_SETTLES_MS)
    question.locator("[data-choice=same]").click()
    expect(question).to_be_hidden()
    wait_until_settled(loser, f"() => {OUTBOX}.then(items => items.length === 0)")
    expect(loser.get_by_test_id("pending-hand")).to_have_count(0)
    assert Hand.objects.filter(session=session).count() == 2


def test_the_question_over_the_board_waits_before_it_takes_a_tap_and_says_so(phone, line):
    """A hand saved on a phone without signal, that another phone saved meanwhile: the server asks
    when it arrives, over the board. A tap already on its way as the question opens answers
    nothing, and the choices show it; "the next hand" saves it as the next."""
    session, base = session_of(1)
    page = phone("en")
    open_as_app(page, line.url + base)
    wait_until_kept(page, base)
    page.goto(line.url + base + "hands/new/")
    go_offline(page.context)
    fill_di_alone(page)
    page.get_by_test_id("save-hand").click()
    # on the board: the one the phone keeps is drawn in place first, and the page then goes there
    expect(page).to_have_url(line.url + base)
    expect(page.get_by_test_id("pending-hand")).to_have_count(1)
    # another phone saves the very hand first
    services.hand_record(session=session, entry={**MADE_15_DIAMONDS, "declarer": "Di", "contract": {
        "points": 14, "trump": "S"}, "partner_call": {"type": "none"}, "partners": [], "points": 14})

    go_online(page.context)
    # it opens with both choices disabled, and showing it: looked at in the page, frame by frame, as
    # the 0.6 s they wait is less than a loaded machine may take to ask twice from outside
    page.wait_for_function("""() => {
      const question = document.getElementById("board-question");
      const next = question && question.querySelector("[data-choice=next]");
      const same = question && question.querySelector("[data-choice=same]");
      return Boolean(question && question.open && next && next.disabled && same && same.getAttribute("aria-disabled") === "true");
    }""", polling="raf")
    question = page.locator("#board-question")
    expect(question).to_be_visible()
    expect(question.locator("[data-choice=next]")).to_be_enabled()
    expect(question.locator("[data-choice=same]")).not_to_have_attribute("aria-disabled", "true")
    question.locator("[data-choice=next]").click()
    expect(question).to_be_hidden()
    expect(page.locator("#hand-3")).to_contain_text("Di")
    assert [hand.number for hand in Hand.objects.filter(session=session)] == [1, 2, 3]


# --- a Save the server refuses ---------------------------------------------------------------------


@pytest.mark.parametrize("language", ["ko"])
def test_a_refused_save_left_alone_moves_no_dealer_and_the_next_form_still_asks(phone, line, language):
    session, base = session_of(1)
    page, other = phone(language), phone(language)
    open_as_app(page, line.url + base)
    wait_until_kept(page, base + "hands/new/")
    dealer = page.get_by_test_id("next-hand").locator("strong").first.inner_text()
    # without signal there is no preview: pagat's lowest bid is 13, so the server refuses a 12
    go_offline(page.context)
    page.goto(line.url + base + "hands/new/")
    fill_di_alone(page, contract="12")
    page.get_by_test_id("save-hand").click()
    # on the board: the one the phone keeps is drawn in place first, and the page then goes there
    expect(page).to_have_url(line.url + base)
    expect(page.get_by_test_id("pending-hand")).to_have_count(1)
    go_online(page.context)
    refused = page.get_by_test_id("pending-hand")
    expect(refused).to_have_attribute("data-state", "refused")

    # left alone: the next hand's form is the board's, dealt as the server says
    expect(page.get_by_test_id("next-hand").locator("strong").first).to_have_text(dealer)
    page.get_by_test_id("enter-hand").click()
    expect(page.locator(f"#hand-form input[name=dealer][value='{dealer}']")).to_be_checked()
    expect(page.locator("#hand-form input[name=number]")).to_have_value("2")
    expect(page.get_by_test_id("draft-notice")).to_have_count(0)

    # and it still hears the table: another phone saves hand 2, this form asks
    other.goto(line.url + base + "hands/new/")
    fill_di_alone(other)
    other.get_by_test_id("save-hand").click()
    expect(other.locator("#hand-2")).to_be_visible()
    expect(page.locator("#live-form-question")).to_be_visible()
    assert Hand.objects.filter(session=session).count() == 2


# --- every other form that writes ---------------------------------------------------------------------


def other_forms():
    """Every other form that writes, each with one way of going wrong, in both languages."""
    return [
        pytest.param("contract", "cut_after", "en", id="contract-cut_after-en"),
        pytest.param("complete", "slow", "ko", id="complete-slow-ko"),
        pytest.param("edit", "5xx", "en", id="edit-5xx-en"),
        pytest.param("delete", "cut", "ko", id="delete-cut-ko"),
        pytest.param("deal_miss", "cut_after", "ko", id="deal_miss-cut_after-ko"),
        pytest.param("abandon", "slow", "en", id="abandon-slow-en"),
    ]


@pytest.mark.parametrize(("form", "how", "language"), other_forms())
def test_every_form_that_writes_takes_the_same_road(phone, line, form, how, language):
    session, base = session_of(1)
    contract = None
    if form in ("complete", "abandon"):
        bid = {key: MADE_15_DIAMONDS[key] for key in ("dealer", "declarer", "contract", "partner_call")}
        contract, _ = services.contract_open(session=session, entry=bid)
    page = phone(language)
    open_as_app(page, line.url + base)
    wait_until_kept(page, base)
    if form == "contract":
        page.goto(line.url + base + "playing/new/")
        fill_di_alone(page)
        save = page.get_by_test_id("save-contract")
    elif form == "complete":
        page.goto(f"{line.url}{base}playing/{contract.pk}/complete/")
        choose(page, "partners", "Cy")
        number(page, "points", "16")
        save = page.get_by_test_id("save-hand")
    elif form == "edit":
        page.goto(line.url + base + "h/1/edit/")
        number(page, "points", "13")
        save = page.get_by_test_id("save-hand")
    elif form == "delete":
        page.goto(line.url + base + "h/1/")
        save = page.get_by_test_id("delete-hand")
    elif form == "deal_miss":
        page.goto(line.url + base + "events/new/?kind=deal_miss")
        choose(page, "shown_by", "Bo")
        save = page.get_by_test_id("save-event")
    else:
        page.goto(line.url + base)
        page.get_by_test_id("throw-in").click()
        save = page.get_by_test_id("abandon-hand")
    line.break_writes(how)

    save.click()

    expect(page).to_have_url(line.url + base)
    expect(page.get_by_test_id("app-status")).to_contain_text(WAITING[language])
    line_back(page, line)
    wait_until_sent(page)
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


# --- payments --------------------------------------------------------------------------------------


def a_payment_marked_offline(phone, line, language: str) -> tuple:
    """A session of one hand whose first transfer a phone without signal marked as paid: the
    session, the phone's page and the payment waiting in its outbox."""
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone(language)
    open_as_app(page, line.url + base)
    wait_until_kept(page, base + "payments/")
    go_offline(page.context)
    page.goto(line.url + base + "payments/")
    page.get_by_test_id("payments-owed").locator("form button[type=submit]").first.click()
    page.wait_for_function(f"{OUTBOX}.then(items => items.length > 0)")
    (waiting,) = outbox_items(page)
    return session, page, waiting


@pytest.mark.parametrize(("how", "language"), [("slow", "en"), ("5xx", "ko"), ("cut_after", "en")])
def test_a_payment_whose_request_goes_wrong_waits_on_the_card_and_is_marked_once(phone, line, how, language):
    session, base = session_of(1)
    page = phone(language)
    open_as_app(page, line.url + base + "payments/")
    line.break_writes(how)

    page.get_by_test_id("payments-owed").locator("form button[type=submit]").first.click()

    expect(page.get_by_test_id("pending-payments").locator("li")).to_have_count(1)
    expect(page.get_by_test_id("app-status")).to_contain_text(WAITING[language])
    # a second tap on the same card is the same payment, never a second one
    page.get_by_test_id("payments-owed").locator("form button[type=submit]").first.click()
    expect(page.get_by_test_id("pending-payments").locator("li")).to_have_count(1)
    line_back(page, line)
    wait_until_sent(page)
    expect(page.get_by_test_id("payments-marked").locator("li")).to_have_count(1)
    assert Payment.objects.filter(session=session).count() == 1


@pytest.mark.parametrize("language", ["ko"])
def test_offline_settle_and_payments_hide_transfers_a_deletion_or_a_waiting_hand_changes(
        phone, line, language):
    session = SessionFactory()
    for _ in range(2):
        HandFactory(session=session, entry=MADE_15_DIAMONDS)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone(language)
    open_as_app(page, line.url + base)
    for path in ("settle/", "payments/", "h/2/", "hands/new/"):
        wait_until_kept(page, base + path)

    go_offline(page.context)
    # before anything changes on this phone, the kept copies are the board's: they are shown
    page.goto(line.url + base + "settle/")
    expect(page.get_by_test_id("settle-transfers")).to_be_visible()
    expect(page.get_by_test_id("kept-settlement")).to_have_count(0)

    page.goto(line.url + base + "h/2/")
    page.get_by_test_id("delete-hand").click()
    # drawn in place, then the board's own load: a page opened before it lands would be cut by it
    expect(page.get_by_test_id("pending-delete")).to_be_visible()
    expect(page).to_have_url(line.url + base)
    for path in ("settle/", "payments/"):
        page.goto(line.url + base + path)
        expect(page.get_by_test_id("kept-settlement")).to_contain_text("1")
        expect(page.get_by_test_id("transfers-wait").first).to_be_visible()
        expect(page.locator("[data-testid=settle-transfers]:visible, [data-testid=payments-owed]:visible")
               ).to_have_count(0)
        expect(page.locator("form[action$='/payments/mark/']:visible")).to_have_count(0)

    # a hand saved offline too: two changes the settlement does not count yet
    page.goto(line.url + base + "hands/new/")
    fill_di_alone(page)
    page.get_by_test_id("save-hand").click()
    # on the board: the one the phone keeps is drawn in place first, and the page then goes there
    expect(page).to_have_url(line.url + base)
    expect(page.get_by_test_id("pending-hand")).to_have_count(1)
    page.goto(line.url + base + "settle/")
    expect(page.get_by_test_id("kept-settlement")).to_contain_text("2")


def test_an_offline_payment_copy_older_than_the_kept_board_says_so(phone, line):
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone("ko")
    open_as_app(page, line.url + base)
    wait_until_kept(page, base + "payments/")
    # the line brings the payments page no more, and a copy already on its way (the app is opened
    # twice as it installs, and each time keeps its pages) has landed before the table moves on
    line.refuse(r"/payments/(\?|$)")
    def stored_at() -> str:
        return page.evaluate("path => caches.open('pages').then(cache => cache.match(path))"
                             ".then(kept => kept.headers.get('X-Stored-At'))", base + "payments/")

    before = None
    while (now := stored_at()) != before:
        before = now
        page.wait_for_timeout(700)
    # another phone saves a hand; this one sees the board, but its payments page is not fetched again
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    page.reload()
    revision = session.__class__.objects.get(pk=session.pk).revision
    page.wait_for_function(
        "([path, revision]) => caches.open('pages').then(cache => cache.match(path))"
        ".then(kept => { window.__board = kept && kept.headers.get('X-Revision'); }) && window.__board === revision",
        arg=[base, str(revision)], polling=100)

    go_offline(page.context)
    page.goto(line.url + base + "payments/")
    expect(page.get_by_test_id("kept-settlement")).to_contain_text("이 사본은 이 폰에 보관된 점수판보다 오래되었습니다.")
    expect(page.locator("[data-testid=payments-owed]:visible")).to_have_count(0)


BEYOND = {"en": "only", "ko": "뿐"}


@pytest.mark.parametrize("language", ["en"])  # in Korean: the next test
def test_a_payment_more_than_is_still_owed_is_asked_about_on_the_card(phone, line, language):
    session, page, waiting = a_payment_marked_offline(phone, line, language)
    payer, payee, amount = waiting["entry"]["from"], waiting["entry"]["to"], Decimal(waiting["entry"]["amount"])
    # another phone marks part of the same transfer meanwhile: this phone's is now more than is owed
    services.payment_record(session=session, payer=payer, payee=payee, amount=amount - 2)

    go_online(page.context)
    # the card asks, in its own words and with what is still owed, as a Save of it did: never recorded
    # by itself, and nothing waits on the phone any more (the card's answer is a Save of its own)
    asked = page.get_by_test_id("payments").get_by_test_id("payment-beyond-owed")
    expect(asked).to_contain_text(BEYOND[language])
    wait_until_sent(page)
    assert Payment.objects.filter(session=session).count() == 1
    # what is left is owed, and marked in one tap
    page.get_by_test_id("payments-owed").locator(f"li[data-from='{payer}'][data-to='{payee}']").locator(
        "form button[type=submit]").click()
    expect(page.get_by_test_id("payments-marked").locator("li")).to_have_count(2)
    assert sorted(payment.amount for payment in Payment.objects.filter(session=session)) == sorted([amount - 2, 2])


def test_a_payment_another_phone_marked_meanwhile_is_said_and_not_added(phone, line):
    session, page, waiting = a_payment_marked_offline(phone, line, "ko")
    services.payment_record(session=session, payer=waiting["entry"]["from"], payee=waiting["entry"]["to"],
                            amount=Decimal(waiting["entry"]["amount"]))

    go_online(page.context)
    expect(page.get_by_test_id("payment-already-marked")).to_be_visible()
    wait_until_sent(page)
    assert Payment.objects.filter(session=session).count() == 1


@pytest.mark.parametrize("language", ["ko"])
def test_a_restored_draft_fills_the_preview_in(phone, line, language):
    session = SessionFactory()
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone(language)
    page.goto(line.url + base + "hands/new/")
    fill_di_alone(page)
    preview = page.get_by_test_id("preview")
    expect(preview.locator("table.payments tr")).to_have_count(5)
    page.reload()

    expect(page.get_by_test_id("draft-notice")).to_be_visible()
    # pagat: a lone declarer's 14 made: +8 for Di, −2 each for the four defenders
    expect(preview.locator("table.payments tr")).to_have_count(5)
    expect(preview.locator("tr", has=page.locator("th", has_text="Di"))).to_contain_text("+")


@pytest.mark.parametrize("language", ["en"])
def test_start_again_keeps_the_declarer_tapped_on_the_board(phone, line, language):
    session = SessionFactory()
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    page = phone(language)
    page.goto(f"{line.url}{base}hands/new/?declarer=Di")
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
