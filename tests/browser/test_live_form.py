"""Two phones at one table, each with a form open.

- A hand form left open on one phone asks, and does not move, when the other phone saves the
  hand it enters: it shows that hand with its payments, and "That's the hand I'm entering" closes
  it (nothing saved, its draft dropped) while "I'm entering the next hand" moves it then, keeping
  the taps. The same for the contract's form when another phone records the contract.
- Two phones edit the same hand: the second to save is shown both versions side by side and
  chooses; what it chose is what the server holds, and the history keeps every change made.

Served by uvicorn (tests/browser/test_live_table.py's fixture) so the event stream stays open.
Each case at both phone sizes and in both languages (the phone that waits speaks one of them).
"""

from __future__ import annotations

from functools import partial

import pytest
from playwright.sync_api import expect

from mighty_ledger import reads
from mighty_ledger.models import Revision
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .steps import (
    LEAVING_PAGE,
    QUESTION_SETTLES_MS,
    all_sent,
    fill_contract,
    pick_number,
    screenshot,
)
from .test_every_page import check
from .test_live_table import asgi_server, board, save_hand  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 740}
# (the waiting phone's language, its size): each language and each size in every case below
PHONES = [pytest.param("en", None, id="en-390x844"), pytest.param("ko", SMALL_PHONE, id="ko-360x740")]
WORDS = {
    "en": {"hand": "Hand {}", "saved": "Another phone saved hand {}", "contract": "Another phone recorded the contract",
           "same": "That's the hand I'm entering", "next": "I'm entering the next hand"},
    "ko": {"hand": "{}번째 판", "saved": "다른 휴대폰에서 {}번째 판을 저장했습니다", "contract": "다른 휴대폰에서 공약을 기록했습니다",
           "same": "제가 입력하던 그 판입니다", "next": "다음 판을 입력하고 있습니다"},
}


def _unexpected(message) -> bool:
    return (message.type == "error" and "/events/" not in message.location.get("url", "")
            and "status of 409 (Conflict)" not in message.text and not message.text.startswith(LEAVING_PAGE))


@pytest.fixture
def phones(phones):
    """Phones at the table (the conftest's), where the refused edit's 409 is expected: the browser
    reports every 4xx page on its console, and that one is the page this test wants."""
    return partial(phones, console=_unexpected)


def waiting_phone(phones, language: str, size):
    page = phones(language)
    if size:
        page.set_viewport_size(size)
    return page


def open_hand_form(page, server, session) -> None:
    """Tap "Enter a hand" on the board, and wait until the form hears the session's stream."""
    page.goto(board(server, session))
    with page.expect_response(lambda response: "/events/" in response.url) as stream:
        page.get_by_test_id("enter-hand").click()
    assert stream.value.status == 200
    page.wait_for_url("**/hands/new/**")


def dealer_shown(page) -> str:
    return page.locator("[data-dealer-name]").inner_text().strip()


def tap_seat(page, field: str, seat: str) -> None:
    """Tap a seat's button in a row (the same names in every language)."""
    page.locator(f"#field-{field} label").filter(has=page.locator(f"input[value='{seat}']")).click()


def the_question(page, language: str, saved: int):
    question = page.get_by_role("alertdialog")
    expect(question).to_be_visible()
    expect(question.get_by_role("heading")).to_have_text(WORDS[language]["saved"].format(saved))
    return question


@pytest.mark.parametrize(("language", "size", "choice"), [
    pytest.param("en", None, "same", id="en-390x844-same"),
    pytest.param("ko", SMALL_PHONE, "next", id="ko-360x740-next")])
def test_an_open_hand_form_asks_when_another_phone_saves_the_hand_it_enters(
        asgi_server, phones, language, size, choice):  # noqa: F811
    session = SessionFactory()
    saving, waiting = phones(), waiting_phone(phones, language, size)
    open_hand_form(waiting, asgi_server, session)
    words = WORDS[language]
    heading = waiting.get_by_role("heading", level=1)
    expect(heading).to_have_text(words["hand"].format(1))
    first_dealer = dealer_shown(waiting)
    # the player at the waiting phone has started: Bo won the bid (and its preview is in)
    with waiting.expect_response("**/hands/preview/"):
        tap_seat(waiting, "declarer", "Bo")

    saving.goto(board(asgi_server, session))
    save_hand(saving, MADE_15_DIAMONDS)
    coming = reads.next_state(session)
    assert coming.dealer != first_dealer  # the flow moves the deal on after a hand

    # asked, over the form: the hand saved with its payments (pagat example 1: Ann +4, Cy +2…)
    question = the_question(waiting, language, 1)
    expect(question).to_contain_text("Ann 15♦")
    payments = question.get_by_test_id("saved-payments")
    expect(payments.get_by_role("row").filter(has=waiting.get_by_role("rowheader", name="Ann"))).to_contain_text("+")
    # nothing on the form moved: its number, its title, its dealer, its taps
    expect(heading).to_have_text(words["hand"].format(1))
    expect(waiting.locator("input[name=number]")).to_have_value("1")
    assert dealer_shown(waiting) == first_dealer
    expect(waiting.locator("#field-declarer input[value=Bo]")).to_be_checked()
    # a keyboard and a screen reader are taken to the question, to its safe answer first
    expect(question.get_by_role("link", name=words["same"])).to_be_focused()
    found: list[str] = []
    check(waiting, f"hand form asks ({language})", found)
    assert found == []
    screenshot(waiting, f"hand-form-asks-{language}")

    waiting.wait_for_timeout(QUESTION_SETTLES_MS)
    if choice == "same":
        waiting.keyboard.press("Enter")  # on the focused answer
        waiting.wait_for_url("**/s/*/")
        assert session.hands.count() == 1
        # the draft of that form was dropped: the form opens empty again
        open_hand_form(waiting, asgi_server, session)
        expect(waiting.get_by_test_id("draft-notice")).to_have_count(0)
        expect(waiting.locator("#field-declarer input:checked")).to_have_count(0)
        return

    # the answer moves nothing on the form: its rows stay where the player's thumb left them
    rows_at = waiting.evaluate("window.scrollY + document.getElementById('field-declarer').getBoundingClientRect().top")
    question.get_by_role("button", name=words["next"]).click()
    expect(question).to_be_hidden()
    expect(waiting.get_by_test_id("live-form-notice")).to_be_visible()
    assert waiting.evaluate(
        "window.scrollY + document.getElementById('field-declarer').getBoundingClientRect().top") == rows_at
    # then, and only then, the form's own values move: its number, its title, and the dealer nobody corrected
    expect(heading).to_have_text(words["hand"].format(2))
    expect(heading).to_be_focused()
    expect(waiting.locator("input[name=number]")).to_have_value("2")
    expect(waiting.locator("[data-dealer-name]")).to_have_text(coming.dealer)
    expect(waiting.get_by_test_id("live-form-notice")).to_be_visible()
    # the taps stay; the count of hands seen does not move (the server still asks about a copy)
    expect(waiting.locator("#field-declarer input[value=Bo]")).to_be_checked()
    expect(waiting.locator("input[name=seen_hand_count]")).to_have_value("0")
    assert session.hands.count() == 1


@pytest.mark.parametrize(("language", "size"), PHONES[:1])
def test_an_untouched_form_asks_too_and_never_moves_the_count_it_has_seen(
        asgi_server, phones, language, size):  # noqa: F811
    session = SessionFactory()
    waiting = waiting_phone(phones, language, size)
    open_hand_form(waiting, asgi_server, session)

    HandFactory(session=session)  # another phone (any client) saves hand 1

    the_question(waiting, language, 1)
    expect(waiting.get_by_role("heading", level=1)).to_have_text(WORDS[language]["hand"].format(1))
    expect(waiting.locator("input[name=seen_hand_count]")).to_have_value("0")
    # Escape is no answer: the form would stay on a number another hand now has
    waiting.wait_for_timeout(QUESTION_SETTLES_MS)
    waiting.keyboard.press("Escape")
    expect(waiting.get_by_role("alertdialog")).to_be_visible()


def edit_hand_one(page, server, session, points: int) -> None:
    with page.expect_response(lambda response: "/events/" in response.url):  # it hears the table
        page.goto(f"{board(server, session)}h/1/edit/")
    # its preview in before Save (an edit's preview names the hand: …/hands/preview/?number=1)
    with page.expect_response(lambda response: "/hands/preview/" in response.url):
        pick_number(page, "Points", points)


# keeping theirs is a link to the board (tests/web/test_edit_conflicts.py); what the history keeps
# and the conflict page are the same whichever is tapped
@pytest.mark.parametrize("choice", ["keep-mine", "edit-again"])
def test_the_second_phone_to_save_an_edit_chooses_between_both_versions(asgi_server, phones, choice):  # noqa: F811
    session = SessionFactory()
    HandFactory(session=session)  # pagat example 1: Ann 15♦ made with 16
    first, second = phones(), phones()
    edit_hand_one(first, asgi_server, session, 18)
    edit_hand_one(second, asgi_server, session, 13)

    first.get_by_test_id("save-hand").click()
    first.wait_for_url("**/s/*/")
    # the second phone is told before its Save
    expect(second.get_by_test_id("live-form-notice")).to_contain_text(
        "Another phone changed hand 1 meanwhile: Ann 15♦ · Cy · took 18.")
    with second.expect_response("**/h/1/edit/") as refused:
        second.get_by_test_id("save-hand").click()

    assert refused.value.status == 409
    conflict = second.get_by_test_id("edit-conflict")
    expect(conflict.get_by_test_id("mine")).to_contain_text("took 13")
    expect(conflict.get_by_test_id("theirs")).to_contain_text("took 18")
    # each with the engine's payments: Ann −4 if set with 13 (pagat example 2), +14 with 18
    ann = conflict.get_by_role("row").filter(has=second.get_by_role("rowheader", name="Ann", exact=True))
    expect(ann.locator("td")).to_have_text(["−4", "+14"])
    expect(conflict.get_by_test_id("keep-theirs")).to_have_class("button primary")
    if choice == "keep-mine":  # the page as every page is checked: axe, thumb-sized taps, 360 px
        found: list[str] = []
        check(second, "edit conflict", found)
        assert found == []
        screenshot(second, "edit-conflict")

    with second.expect_navigation():
        conflict.get_by_test_id(choice).click()
    if choice == "keep-mine":  # a correction like any other: on the board at once, the server's once sent
        all_sent(second)
    hand = session.hands.get(number=1)
    if choice == "keep-mine":
        assert second.url.endswith(f"/s/{session.pk}/")
        assert (hand.entry["points"], hand.version) == (13, 3)
    else:
        # the form again, with theirs: the taps this phone kept of its own edit are gone
        assert "/h/1/edit/" in second.url
        expect(second.get_by_label("Points", exact=True)).to_have_value("18")
        expect(second.get_by_test_id("draft-notice")).to_have_count(0)
        assert hand.version == 2
    # nothing lost from the history: the first phone's change is there whatever was chosen
    changes = [(r.before["entry"]["points"], r.after["entry"]["points"])
               for r in Revision.objects.filter(hand=hand, action=Revision.AMENDED).order_by("pk")]
    assert changes == ([(16, 18), (18, 13)] if choice == "keep-mine" else [(16, 18)])


@pytest.mark.parametrize(("language", "size"), PHONES[1:])
def test_the_contract_form_left_open_asks_too(asgi_server, phones, language, size):  # noqa: F811
    session = SessionFactory()
    saving, waiting = phones(), waiting_phone(phones, language, size)
    words = WORDS[language]
    waiting.goto(board(asgi_server, session))
    with waiting.expect_response(lambda response: "/events/" in response.url) as stream:
        waiting.get_by_test_id("start-hand").click()
    assert stream.value.status == 200
    waiting.wait_for_url("**/playing/new/**")
    first_dealer = waiting.locator("input[name=dealer]:checked").get_attribute("value")

    # another phone saves a hand: asked, and nothing moves until the answer
    saving.goto(board(asgi_server, session))
    save_hand(saving, MADE_15_DIAMONDS)
    coming = reads.next_state(session)
    assert coming.dealer != first_dealer
    question = the_question(waiting, language, 1)
    expect(waiting.locator(f"input[name=dealer][value={first_dealer}]")).to_be_checked()
    waiting.wait_for_timeout(QUESTION_SETTLES_MS)
    question.get_by_role("button", name=words["next"]).click()
    expect(waiting.locator(f"input[name=dealer][value={coming.dealer}]")).to_be_checked()
    expect(waiting.locator("input[name=number]")).to_have_value("2")

    # then it records the contract: this phone is asked before its player saves another
    saving.get_by_test_id("start-hand").click()
    fill_contract(saving, {**MADE_15_DIAMONDS, "dealer": coming.dealer})
    saving.get_by_test_id("save-contract").click()
    saving.wait_for_url("**/s/*/")
    question = waiting.get_by_role("alertdialog")
    expect(question.get_by_role("heading")).to_have_text(words["contract"])
    expect(question).to_contain_text("Ann 15")
    assert waiting.url.endswith("/playing/new/") or "/playing/new/?" in waiting.url  # no reload
    found: list[str] = []
    check(waiting, f"contract form asks ({language})", found)
    assert found == []
    screenshot(waiting, f"contract-form-asks-{language}")
    waiting.wait_for_timeout(QUESTION_SETTLES_MS)
    question.get_by_role("link", name=words["same"]).click()
    waiting.wait_for_url("**/s/*/")
    assert session.contracts.count() == 1
