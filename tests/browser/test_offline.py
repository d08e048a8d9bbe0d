"""The ledger in a basement: installed like an app, read without signal, hands saved once when it returns.

Offline is what a phone at the table goes through: ``set_offline`` for the page,
and every request refused by a route as well, because a service worker's own
fetches do not see ``set_offline``.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from mighty_ledger import services
from mighty_ledger.models import Contract, Hand
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .steps import (  # noqa: F401 (OUTBOX: the outbox as the other browser tests read it)
    OUTBOX,
    board_url,
    fill_hand,
    outbox_items,
    pick_number,
    screenshot,
    tap,
    totals_row,
    wait_until_settled,
)

pytestmark = pytest.mark.browser

# pagat example 2 (RULES.md §9.1): the same 15 ♦ set with 13
SET_15_DIAMONDS = {**MADE_15_DIAMONDS, "points": 13}
# pagat: bids run from 13 to 20, so the server refuses a contract of 12
BELOW_MINIMUM = {**MADE_15_DIAMONDS, "contract": {"points": 12, "trump": "D"}}


def go_offline(context: BrowserContext) -> None:
    context.set_offline(True)
    context.route("**/*", lambda route: route.abort("internetdisconnected"))


def go_online(context: BrowserContext) -> None:
    context.unroute("**/*")
    context.set_offline(False)


def open_as_app(page: Page, url: str) -> None:
    """The first visit installs the service worker; from the next page on, it answers."""
    page.goto(url)
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def wait_until_kept(page: Page, path: str) -> None:
    wait_until_settled(page, "path => caches.open('pages').then(cache => cache.match(path)).then(Boolean)", path)


def hand_form_path(session) -> str:
    return f"/g/{session.group.edit_token}/s/{session.pk}/hands/new/"


def outbox_replay(page: Page) -> None:
    """What the page does when it is seen again: ask for the outbox to be sent."""
    try:
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    except PlaywrightError as error:
        # the scoreboard reloads itself as soon as its hands are saved: it may be doing so now
        if "context was destroyed" not in str(error):
            raise


def test_the_app_installs_and_its_service_worker_answers_after_one_reload(page, live_server):
    session = SessionFactory()
    page.goto(board_url(live_server, session))
    manifest_href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.evaluate("href => fetch(href).then(response => response.json())", manifest_href)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/start"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        loaded = page.evaluate(
            "src => new Promise(done => { const image = new Image(); image.onload = () => done(image.naturalWidth);"
            " image.onerror = () => done(0); image.src = src; })", icon["src"],
        )
        assert f"{loaded}x{loaded}" == icon["sizes"], icon

    open_as_app(page, board_url(live_server, session))
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")
    errors = page.context.new_cdp_session(page).send("Page.getInstallabilityErrors")["installabilityErrors"]
    # a test browser's context is a private window, which never offers to install anything
    assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []
    expect(page.get_by_test_id("app-status")).to_contain_text("online")


def test_the_installed_icon_opens_the_group_this_phone_used_last_even_offline(page, live_server):
    session = SessionFactory()
    group_url = f"{live_server.url}/g/{session.group.edit_token}/"
    page.goto(f"{live_server.url}/start")
    expect(page).to_have_url(f"{live_server.url}/")  # no group yet: the home page

    open_as_app(page, group_url)
    page.goto(f"{live_server.url}/start")
    expect(page).to_have_url(group_url)

    go_offline(page.context)
    page.goto(f"{live_server.url}/start")
    expect(page).to_have_url(group_url)
    expect(page.get_by_test_id("app-status")).to_contain_text("offline, as of")


def test_a_view_link_keeps_its_hands_for_offline_but_asks_for_no_edit_page(page, live_server):
    """A view link has no edit pages: keeping them for offline would only be refused (403) by the server."""
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    asked = []
    page.context.on("request", lambda request: asked.append(request.url))
    path = f"/g/{session.group.view_token}/s/{session.pk}/"
    open_as_app(page, f"{live_server.url}{path}")

    wait_until_kept(page, path + "h/1/")

    assert [url for url in asked if url.endswith("/edit/")] == []


def test_a_scoreboard_opened_once_is_read_offline_marked_as_of_when(page, live_server):
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    open_as_app(page, board_url(live_server, session))
    path = f"/g/{session.group.edit_token}/s/{session.pk}/"
    for kept in ("", "settle/", "history/", "rules/"):
        wait_until_kept(page, path + kept)

    go_offline(page.context)
    page.reload()
    status = page.get_by_test_id("app-status")
    expect(status).to_contain_text("offline, as of")
    assert totals_row(page) == ["10", "-5", "5", "-5", "-5"]
    page.get_by_role("navigation", name="Session").get_by_role("link", name="Settle").click()
    expect(status).to_contain_text("offline, as of")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    screenshot(page, "offline-settle")

    # the kept copy gives way to the page itself as soon as the server answers again
    go_online(page.context)
    expect(status).not_to_contain_text("offline")
    expect(status).to_contain_text("online")


def cut_or_refused(message) -> bool:
    """A console error the test asks for: an answer cut on the way back, the server's refusal."""
    return message.type == "error" and not any(words in message.text for words in ("ERR_CONNECTION_RESET", "400"))


def test_a_hand_in_progress_finished_offline_is_completed_once_back_online(page, live_server):
    session = SessionFactory()
    bid = {key: MADE_15_DIAMONDS[key] for key in ("dealer", "declarer", "contract", "partner_call")}
    contract, _ = services.contract_open(session=session, entry=bid)
    open_as_app(page, board_url(live_server, session))
    # the last trick: the hand form filled in from the contract, opened while there was signal
    page.goto(f"{live_server.url}/g/{session.group.edit_token}/s/{session.pk}/playing/{contract.pk}/complete/")
    expect(page.get_by_role("group", name="Declarer").get_by_label("Ann")).to_be_checked()

    go_offline(page.context)
    tap(page, "Partner", "Cy")
    pick_number(page, "Points", 16)
    page.get_by_test_id("save-hand").click()
    expect(page.get_by_test_id("pending-hand")).to_have_count(1)
    assert not Hand.objects.exists()

    go_online(page.context)
    outbox_replay(page)
    expect(page.locator("#hand-1")).to_be_visible()
    expect(page.get_by_test_id("pending-hand")).to_have_count(0)
    outbox_replay(page)

    contract.refresh_from_db()
    hand = Hand.objects.get(session=session)
    # the hand in progress is completed by this hand, not left playing beside a hand recorded on its own
    assert contract.status == Contract.COMPLETED and contract.hand == hand
    assert hand.entry["partners"] == ["Cy"] and hand.entry["points"] == 16
    expect(page.get_by_test_id("in-progress")).not_to_contain_text("playing now")


def test_a_hand_the_server_refuses_stays_with_its_words_until_fixed(phones, live_server):
    page = phones(console=cut_or_refused)
    session = SessionFactory()
    open_as_app(page, board_url(live_server, session))
    wait_until_kept(page, hand_form_path(session))

    go_offline(page.context)
    page.get_by_test_id("enter-hand").click()
    fill_hand(page, MADE_15_DIAMONDS)
    pick_number(page, "Contract", 12)
    page.get_by_test_id("save-hand").click()
    expect(page.get_by_test_id("pending-hand")).to_have_count(1)

    go_online(page.context)
    outbox_replay(page)
    refused = page.get_by_test_id("pending-hand")
    expect(refused).to_have_attribute("data-state", "refused")
    expect(refused.get_by_test_id("refused-message")).to_contain_text("below this system's minimum of 13")
    expect(page.get_by_test_id("app-status")).to_contain_text("refused by the server: 1")
    screenshot(page, "offline-refused")
    page.reload()
    expect(refused.get_by_test_id("refused-message")).to_contain_text("below this system's minimum of 13")
    assert not Hand.objects.exists()

    refused.get_by_role("button", name="Copy").click()
    copied = json.loads(refused.locator("textarea").input_value())
    assert copied["contract"] == {"points": 12, "trump": "D"}

    refused.get_by_role("button", name="Fix").click()
    expect(page.get_by_test_id("draft-notice")).to_contain_text("Fix the refused hand")
    expect(page.get_by_role("group", name="Declarer").get_by_label("Ann")).to_be_checked()
    pick_number(page, "Contract", 15)
    page.get_by_test_id("save-hand").click()
    expect(page.locator("#hand-1")).to_be_visible()
    expect(page.get_by_test_id("pending-hand")).to_have_count(0)
    assert Hand.objects.get(session=session).entry["contract"] == {"points": 15, "trump": "D"}


def test_a_half_filled_hand_survives_a_reload(page, live_server):
    session = SessionFactory()
    page.goto(board_url(live_server, session))
    page.get_by_test_id("enter-hand").click()
    tap(page, "Declarer", "Bo")
    tap(page, "Trump", "♠")
    page.reload()

    expect(page.get_by_test_id("draft-notice")).to_contain_text("The hand you had started is back.")
    expect(page.get_by_role("group", name="Declarer").get_by_label("Bo")).to_be_checked()
    expect(page.get_by_role("group", name="Trump").get_by_label("♠")).to_be_checked()

    page.get_by_role("button", name="Start again").click()
    expect(page.get_by_role("group", name="Declarer").get_by_label("Bo")).not_to_be_checked()


def a_new_version_is_out(page: Page, monkeypatch) -> None:
    """The server now serves another version of the app, and ``page`` checks for it (as a phone
    does on its next visit)."""
    from mighty_ledger.pages.views import app

    real_version = app._version
    monkeypatch.setattr(app, "_version", lambda *args: "next-" + real_version(*args))
    page.evaluate("navigator.serviceWorker.getRegistration().then(registration => registration.update())")


def test_a_new_version_waits_for_the_player_instead_of_taking_over_mid_hand(page, live_server, monkeypatch):
    session = SessionFactory()
    open_as_app(page, board_url(live_server, session))
    page.get_by_test_id("enter-hand").click()
    tap(page, "Declarer", "Ann")

    a_new_version_is_out(page, monkeypatch)
    status = page.get_by_test_id("app-status")
    expect(status).to_contain_text("update available")
    # the hand being entered is untouched: the new version has not taken the page
    expect(page.get_by_role("group", name="Declarer").get_by_label("Ann")).to_be_checked()
    assert page.evaluate("navigator.serviceWorker.getRegistration().then(registration => !!registration.waiting)")

    status.get_by_role("button", name="Reload").click()
    page.wait_for_function("navigator.serviceWorker.getRegistration().then(registration => !registration.waiting)")
    expect(status).not_to_contain_text("update available")
    expect(page.get_by_role("group", name="Declarer").get_by_label("Ann")).to_be_checked()  # the draft
    # the new version keeps its own static files and drops the old version's
    page.wait_for_function("caches.keys().then(names => names.filter(name => name.startsWith('static-'))"
                           ".join() === names.filter(name => name.startsWith('static-next-')).join()"
                           " && names.some(name => name.startsWith('static-next-')))")


def test_an_update_taken_elsewhere_is_no_longer_offered(page, live_server, monkeypatch):
    """Two pages of the app offer the new version; Reload on one takes it, and the other stops
    offering it (its Reload would tell a worker that no longer waits)."""
    session = SessionFactory()
    open_as_app(page, board_url(live_server, session))
    other = page.context.new_page()
    other.goto(board_url(live_server, session))
    a_new_version_is_out(page, monkeypatch)
    for phone in (page, other):
        expect(phone.get_by_test_id("app-status")).to_contain_text("update available")

    page.get_by_test_id("app-status").get_by_role("button", name="Reload").click()
    expect(other.get_by_test_id("app-status")).not_to_contain_text("update available")
    expect(other.get_by_test_id("app-status").get_by_role("button", name="Reload")).to_be_hidden()


def test_offline_a_half_filled_hand_is_not_queued_and_says_what_is_missing(page, live_server):
    session = SessionFactory()
    open_as_app(page, board_url(live_server, session))
    wait_until_kept(page, hand_form_path(session))

    go_offline(page.context)
    page.get_by_test_id("enter-hand").click()
    tap(page, "Declarer", "Ann")
    page.get_by_test_id("save-hand").click()
    notice = page.get_by_test_id("draft-notice")
    expect(notice).to_contain_text("Fill in first:")
    expect(notice).to_contain_text("Points")
    assert outbox_items(page) == []
    # and the taps so far are still there after a reload without a connection
    page.reload()
    expect(page.get_by_role("group", name="Declarer").get_by_label("Ann")).to_be_checked()
