"""What a player does on the table app, written once: tap a button, fill a number, save a hand.

Fields are found the way a player finds them, by the words on the screen: a
button inside the group its heading names ("Declarer" → "Ann"), a box by its label.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from scoring.cards import card_text

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
KEEP_SCREENSHOTS = os.environ.get("SCREENSHOTS") == "1"
PHONE = {"width": 390, "height": 844}  # a common phone, portrait
# what htmx says on the console when a page leaves while one of its requests is on its way (a Save
# takes the page elsewhere as the preview is asked for): the request was meant to go
LEAVING_PAGE = ("htmx:sendAbort", "htmx:afterRequest")
# Each step of a phone, and what a page is expected to show, may come late on a loaded machine
# (conftest.py's phones says why): Playwright's own 5 s was the one wait shorter than a Save
# on a busy run (the service worker's POST, the server, the board drawn and its files fetched).
# A wait only ends early when what is expected is there, so a passing test takes no longer.
WAIT_SECONDS = 20
# a tap within live_form.js's SETTLE_MS (600) of its question opening is taken as one already on its
# way, and answers nothing: a test answers after this, however quickly the machine got there
QUESTION_SETTLES_MS = 700

# what Playwright says when the page's own navigation cut a step short: the document it ran in went
# away ("Execution context was destroyed, most likely because of a navigation"), or a navigation
# of the test's was aborted by the page's ("net::ERR_ABORTED", "interrupted by another navigation")
CUT_BY_A_NAVIGATION = ("context was destroyed", "navigat", "active page", "interrupted", "ERR_ABORTED")

TRUMP_BUTTONS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}
TRANSFER = re.compile(r"^(\S+) pays (\S+) (\d+)(?: points?)?$")


Done = TypeVar("Done")


def through_reloads(page: Page, step: Callable[[], Done], what: str) -> Done:
    """``step``, done again each time the page's own navigation cuts it short, until WAIT_SECONDS pass.

    A board reloads itself as the actions its outbox sends land, and on a loaded machine it may
    start more than one reload before the first is done (its old document still runs, and still
    hears the service worker): a step cut that way is tried again a moment later. A fixed number of
    tries was spent within a second on a slow run."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        try:
            return step()
        except PlaywrightError as error:
            if not any(words in str(error) for words in CUT_BY_A_NAVIGATION):
                raise
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: the page was still reloading itself after {WAIT_SECONDS} s") from error
        page.wait_for_timeout(100)


# the phone's outbox, as the page's own modules import it (static/js/outbox.js): a promise of its entries
OUTBOX = "import('/static/js/outbox.js').then((outbox) => outbox.items())"


def outbox_items(page: Page) -> list[dict]:
    return page.evaluate(OUTBOX)


def wait_until_settled(page: Page, promise: str, arg=None) -> None:
    """Until the promise ``promise`` (a function of ``arg``) gives true: wait_for_function takes a
    promise itself for true, so each poll starts one and looks at what the one before gave."""
    page.wait_for_function(
        "([key, arg]) => { const seen = window.__settled = window.__settled || {};"
        f" ({promise})(arg).then(value => {{ seen[key] = value === true; }}, () => {{ seen[key] = false; }});"
        " return seen[key] === true; }",
        arg=[promise + repr(arg), arg], polling=100,
    )


def all_sent(page: Page) -> None:
    """Until the phone's outbox is empty: everything saved on it is the server's."""
    wait_until_settled(page, f"() => {OUTBOX}.then(items => items.length === 0)")


def screenshot(page: Page, name: str, *, full_page: bool = True) -> None:
    """The page as a phone shows it, in tests/artifacts/ (git-ignored), to look at: with
    SCREENSHOTS=1 only, as nobody looks at a CI run's, and the suite's 150 captures cost it about
    a tenth of its browser time. ``name`` may hold a folder ("every_page/board")."""
    if not KEEP_SCREENSHOTS:
        return
    path = ARTIFACTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=path, full_page=full_page)
    # After a full-page capture Chromium hit-tests the next tap against a stale layout
    # (a tap on the sticky Save bar reached the form behind it); a scroll refreshes it.
    page.evaluate("window.scrollTo(0, 0)")


def tap(page: Page, group: str, button: str) -> None:
    """Tap the button ``button`` among the choices headed ``group`` (a seat, a trump, a card)."""
    page.get_by_role("group", name=group, exact=True).get_by_text(button, exact=True).click()


def card_button(code: str) -> str:
    """A card as the hand form's picker writes it, sign first as everywhere: AS → ♠A."""
    return card_text(code)


def pick_number(page: Page, group: str, value: int) -> None:
    """Tap ``value`` in the row of likely values headed ``group``, or type it when the row lacks it."""
    row = page.get_by_role("group", name=group, exact=True)
    button = row.get_by_role("button", name=str(value), exact=True)
    if button.count():
        button.click()
    else:
        page.get_by_label(group, exact=True).fill(str(value))


def call_card(page: Page, code: str) -> None:
    """Call a card as a player does: the Joker by name, any other by its suit, then its rank."""
    if code == "JOKER":
        tap(page, "Called card", "Joker")
        return
    sign = card_text(code)[0]
    tap(page, "Called card", sign)
    tap(page, "Rank", code[:-1])


def fill_contract(page: Page, entry: dict) -> None:
    """Tap in what the auction decided, as a player would: the declarer, the contract, the trump
    and the partner call (the hand form's first half, and the whole of the contract form)."""
    tap(page, "Declarer", entry["declarer"])
    pick_number(page, "Contract", entry["contract"]["points"])
    tap(page, "Trump", TRUMP_BUTTONS[entry["contract"]["trump"]])
    call = entry["partner_call"]
    if call["type"] == "card":
        tap(page, "Partner call", "a card")
        for code in call["cards"]:
            call_card(page, code)
    else:
        tap(page, "Partner call", "no friend")


def fill_hand(page: Page, entry: dict) -> None:
    """Tap in one hand of HAND_JSON as a player would; the dealer is left as pre-filled."""
    fill_contract(page, entry)
    if entry["partner_call"]["type"] == "card":
        tap(page, "Partner", entry["partners"][0] if entry["partners"] else "declarer alone")
    pick_number(page, "Points", entry["points"])


def preview_payment(page: Page, seat: str):
    """The payment the live preview shows for ``seat``."""
    seat_header = page.get_by_role("rowheader", name=seat, exact=True)
    return page.get_by_test_id("preview").locator("tr", has=seat_header).locator("td")


def signed(points: int) -> str:
    """Points as the pages print them: +10, −4 (a real minus sign), 0."""
    return f"+{points}" if points > 0 else str(points).replace("-", "−")


def totals_row(page: Page) -> list[str]:
    """The scoreboard's bottom line, seat by seat, its minus signs (U+2212 on the page) as "-"."""
    return [text.strip().replace("−", "-") for text in page.locator("#totals td strong").all_inner_texts()]


def transfers(page: Page) -> list[tuple[str, str, int]]:
    """The settlement page's fewest transfers as (payer, payee, points)."""
    found = []
    # each line's words, without the buttons beside them (share, pay, mark as paid)
    for line in page.get_by_test_id("settle-transfers").locator("li > span:first-child").all_inner_texts():
        match = TRANSFER.match(line.strip())
        assert match, f"not a transfer: {line!r}"
        found.append((match[1], match[2], int(match[3])))
    return found


def has_no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def board_url(live_server, session) -> str:
    """The scoreboard through the edit link the players bookmarked."""
    return f"{live_server.url}/g/{session.group.edit_token}/s/{session.pk}/"
