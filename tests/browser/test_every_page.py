"""Every page a player can reach, in English and in Korean, on a phone (390×844): axe-core finds no
accessibility violation, every choice among several is a fieldset with a legend, every visible
thing a thumb taps (a link, a button, a choice's label, a fold's summary) is at least 44×44 CSS px
(WCAG 2.5.5) at 390 and at 360 px, and nothing scrolls sideways at 360 px.

One browser and one context per language visit them all, so the whole round stays short.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from mighty_ledger import services
from mighty_ledger.services.seasons import season_change, season_create
from tests.factories import MADE_15_DIAMONDS, SEATS, HandFactory, SessionFactory
from tests.web.test_table import PAGAT_EXAMPLES

from .chromium import close_context
from .steps import PHONE, board_url, call_card, fill_hand, has_no_horizontal_scroll, tap
from .steps import screenshot as take_screenshot
from .test_pages import UNGROUPED_CHOICES, violations

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
TAP = 44
# a choice row (trump, rank, points…) under its heading: at 360 px each of its choices is whole
CHOICE_ROWS = ".picks, .card-row"

# Every visible tap target, measured as a thumb meets it: a radio or checkbox by its label (the
# input itself is hidden behind it), anything else by its own box. Inline links inside running
# text are measured too: the issue asks for every link.
SMALL_TAP_TARGETS = """(size) => {
    const visible = (e) => {
        const r = e.getBoundingClientRect();
        const style = getComputedStyle(e);
        return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && e.closest('[hidden], [aria-hidden=true]') === null;
    };
    const targets = new Set();
    for (const e of document.querySelectorAll('a[href], button, summary, input[type=submit], select')) targets.add(e);
    for (const input of document.querySelectorAll('input[type=radio], input[type=checkbox]')) {
        const label = input.closest('label') || (input.id && document.querySelector(`label[for="${input.id}"]`));
        targets.add(label || input);
    }
    const words = (e) => (e.innerText || e.value || e.getAttribute('aria-label') || e.tagName).trim().replace(/\\s+/g, ' ').slice(0, 40);
    return [...targets].filter(visible)
        // each by its own box: a board row that opens its hand as well does not make its number's link bigger
        .map(e => [e, e.getBoundingClientRect()])
        .filter(([, r]) => r.width < size - 0.5 || r.height < size - 0.5)
        .map(([e, r]) => `${e.tagName.toLowerCase()} "${words(e)}" ${Math.round(r.width)}×${Math.round(r.height)}`);
}"""

# a choice cut by its row's edge: the row scrolls or hides it instead of wrapping
CUT_CHOICES = """(rows) => [...document.querySelectorAll(rows)].flatMap(row => {
    const box = row.getBoundingClientRect();
    return [...row.querySelectorAll('label, button, a, input:not([type=radio]):not([type=checkbox])')]
        .filter(e => e.getBoundingClientRect().width > 0)
        .filter(e => { const r = e.getBoundingClientRect(); return r.left < box.left - 0.5 || r.right > box.right + 0.5; })
        .map(e => `${(e.innerText || e.value || e.name).trim()} in ${row.className}`);
})"""


SAVED_FORM_KEY = "a-form-saved-as-hand-4"


@pytest.fixture
def table(db):
    """A group with an evening of hands and a payment, a fresh evening, and one with a contract
    being played: every page of the app has something to show."""
    evening = SessionFactory(stake_per_point=100, currency="KRW", rounding_unit=100)
    for example in PAGAT_EXAMPLES[:3]:
        HandFactory(session=evening, entry=example.values[0])
    # saved from a form whose page comes back (Back, a restored tab): it says so instead of a form
    HandFactory(session=evening, entry=PAGAT_EXAMPLES[3].values[0], idempotency_key=SAVED_FORM_KEY)
    # a payment to show, whatever these hands left owed (confirmed, as the page would ask)
    services.payment_record(session=evening, payer="Ed", payee="Ann", amount=Decimal(500), overpay=True)
    fresh = SessionFactory(group=evening.group)
    playing = SessionFactory(group=evening.group)
    contract, _ = services.contract_open(session=playing, entry={
        "dealer": "Ed", "declarer": "Ann", "contract": {"points": 15, "trump": "D"},
        "partner_call": {"type": "card", "cards": ["AS"]},
    })
    # seasons, one renamed: the seasons page with its change forms and its history (both before tonight,
    # so the statistics' default view, the current season, still holds every hand)
    season_create(group=evening.group, name="The long autumn league of 2020", starts=datetime.date(2020, 1, 1))
    winter = season_create(group=evening.group, name="Wniter", starts=datetime.date(2020, 6, 1))
    season_change(season=winter, name="Winter")
    # the widest board: eight seats on a 360-px phone
    eight = SessionFactory(group=evening.group, seats=[*SEATS, "Flo", "Gus", "Hal"], preset="chicago-8p")
    return evening, fresh, playing, contract, eight


def every_page(evening, fresh, playing, contract, eight) -> dict[str, str]:
    edit, view = evening.group.edit_token, evening.group.view_token
    s = f"/g/{edit}/s/{evening.pk}"
    p = f"/g/{edit}/s/{playing.pk}"
    return {
        "home": "/",
        "group": f"/g/{edit}/",
        "group-view-only": f"/g/{view}/",
        "session-new": f"/g/{edit}/sessions/new/",
        "board-fresh": f"/g/{edit}/s/{fresh.pk}/",
        "board": f"{s}/",
        "board-playing": f"{p}/",
        "board-eight-seats": f"/g/{edit}/s/{eight.pk}/",
        "hand-new": f"{s}/hands/new/",
        "form-saved": f"{s}/hands/new/?key={SAVED_FORM_KEY}",
        "contract-new": f"/g/{edit}/s/{fresh.pk}/playing/new/",
        "contract-complete": f"{p}/playing/{contract.pk}/complete/",
        "event-new": f"{s}/events/new/",
        "hand-detail": f"{s}/h/1/",
        "hand-edit": f"{s}/h/1/edit/",
        "history": f"{s}/history/",
        "settle": f"{s}/settle/",
        "payments": f"{s}/payments/",
        "session-rules": f"{s}/rules/",
        "stats": f"/g/{edit}/stats/",
        "stats-one-session": f"/g/{edit}/stats/?period=s{evening.pk}",
        "player": f"/g/{edit}/players/Ann/",
        "ratings": f"/g/{edit}/ratings/",
        "seasons": f"/g/{edit}/seasons/",
        "invite": f"{s}/invite/",
        "invite-edit": f"{s}/invite/?show=edit",
        "systems": "/rules/",
        "system": f"/rules/{evening.preset}/",
        "compare": "/rules/compare/",
        "redeal": "/redeal/",
        # the calculator opened from the board, with its way back
        "session-redeal": f"{s}/redeal/?system={evening.preset}&card=AS",
        "guide": "/guide/",
        "not-found": "/no-such-page/",
        "offline": "/offline/",
        # the view link asking for what only the edit link may do
        "forbidden": f"/g/{view}/sessions/new/",
    }


# the pages answered with another status than 200, on purpose
STATUS = {"forbidden": 403, "not-found": 404}


# every fold open, and the called card's ranks shown: what a player can unfold is checked too
UNFOLD = """() => {
    for (const fold of document.querySelectorAll('details')) fold.open = true;
    const spades = document.querySelector('#field-call_pick input[value=S]');
    if (spades && !spades.checked) spades.closest('label').click();
}"""


# what htmx loads after the page (the board's chart, the settlement's payments) has arrived:
# each of those swaps its own placeholder, the one element loaded that way, out of the page
LOADED = "() => document.querySelector('[hx-trigger=load]') === null && document.querySelector('.htmx-request') === null"


def check(page, name: str, found: list[str], *, screenshot: bool = False, axe: bool = True) -> None:
    """axe and the choice groups, the 44-px taps at 390 px, and at 360 px the 44-px taps again, no
    sideways scroll and no choice cut."""
    if axe:
        found += [f"{name} {problem}" for problem in violations(page)]
        found += [f"{name} {field} is not in a fieldset with a legend" for field in page.evaluate(UNGROUPED_CHOICES)]
    found += [f"{name} tap target {small}" for small in page.evaluate(SMALL_TAP_TARGETS, TAP)]
    found += [f"{name} at 390 px cuts {cut}" for cut in page.evaluate(CUT_CHOICES, CHOICE_ROWS)]
    page.set_viewport_size(NARROW)
    if screenshot:  # for review: each page on the narrowest phone
        take_screenshot(page, f"every_page/{name.replace(' ', '-')}")
    if not has_no_horizontal_scroll(page):
        found.append(f"{name} scrolls sideways at 360 px")
    # the narrowest phone squeezes links most (the board's first column): measured there too
    found += [f"{name} at 360 px tap target {small}" for small in page.evaluate(SMALL_TAP_TARGETS, TAP)]
    found += [f"{name} at 360 px cuts {cut}" for cut in page.evaluate(CUT_CHOICES, CHOICE_ROWS)]
    page.set_viewport_size(PHONE)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_page_passes_axe_has_big_tap_targets_and_fits_360_px(browser, live_server, table, language):
    context = browser.new_context(viewport=PHONE, locale=language, device_scale_factor=1)
    page = context.new_page()
    found: list[str] = []
    try:
        for name, path in every_page(*table).items():
            response = page.goto(live_server.url + path)
            if response.status != STATUS.get(name, 200):
                found.append(f"{name} ({language}) answered {response.status}")
                continue
            page.wait_for_function(LOADED)
            folds = page.evaluate("() => document.querySelector('details:not([open]), #field-call_pick') !== null")
            # axe once a page, unfolded when it folds (what a fold hides, axe skips anyway)
            check(page, f"{name} ({language})", found, screenshot=True, axe=not folds)
            if folds:
                page.evaluate(UNFOLD)
                check(page, f"{name} unfolded ({language})", found)
    finally:
        close_context(context)
    assert found == [], "\n".join(found)


# --- the hand form on a phone: the next question in view, and offline said plainly ----------------


def wait_until_above_the_save_bar(page, row: str) -> None:
    """Wait until the whole row ``row`` (a fieldset's id) is on screen and not under the sticky
    Save bar: the page scrolls smoothly, so this waits for it to come to rest, not for a time."""
    page.wait_for_function("""(row) => {
        const box = document.getElementById(row).getBoundingClientRect();
        const bar = document.querySelector('.save-bar').getBoundingClientRect();
        return box.top >= 0 && box.bottom <= bar.top;
    }""", arg=row)


def test_after_the_called_card_the_next_question_is_above_the_save_bar(page, live_server):
    session = SessionFactory()
    page.goto(board_url(live_server, session))
    page.get_by_role("group", name="New hand: who won the bid?").get_by_role("link", name="Ann").click()
    page.get_by_role("group", name="Contract").get_by_role("button", name="15").click()
    tap(page, "Trump", "♦")
    call_card(page, "KH")  # a suit, then its rank: the rows below move down as the ranks appear
    wait_until_above_the_save_bar(page, "field-partners")
    tap(page, "Partner", "Cy")
    wait_until_above_the_save_bar(page, "field-points")


def test_offline_the_preview_says_the_payments_come_when_back_online(page, live_server):
    session = SessionFactory()
    page.goto(f"{board_url(live_server, session)}hands/new/")
    placeholder = "The payments appear here as you fill in the hand."
    expect(page.get_by_test_id("preview")).to_contain_text(placeholder)
    page.context.set_offline(True)
    page.context.route("**/*", lambda route: route.abort("internetdisconnected"))
    fill_hand(page, MADE_15_DIAMONDS)
    offline = page.get_by_test_id("preview-offline")
    expect(offline).to_have_count(1)
    expect(offline).to_be_visible()
    expect(offline).to_have_text("The payments will be computed when you are back online.")
    for shown in page.get_by_text(placeholder).all():
        expect(shown).to_be_hidden()
    expect(page.get_by_test_id("preview-summary")).to_have_text("Offline: payments when back online.", use_inner_text=True)


def test_a_table_wider_than_the_phone_says_it_scrolls_and_one_that_fits_says_nothing(page, live_server):
    session = SessionFactory(stake_per_point=100, currency="KRW")
    HandFactory(session=session)
    page.set_viewport_size(NARROW)
    page.goto(f"{live_server.url}/g/{session.group.edit_token}/stats/")
    wide = page.locator("section", has=page.get_by_test_id("stats-players"))
    fits = page.locator("section", has=page.get_by_test_id("stats-pairs"))
    expect(wide.get_by_text("Swipe the table sideways to see every column.")).to_be_visible()
    expect(wide.locator(".table-scroll")).to_have_attribute("tabindex", "0")  # a keyboard can scroll it
    expect(fits.get_by_text("Swipe the table sideways to see every column.")).to_be_hidden()
    expect(fits.locator(".table-scroll")).to_have_attribute("tabindex", "-1")
