"""Two phones at one table, each with a form open.

- A hand form left open on one phone moves to the next hand (its number, its dealer) as soon as
  the other phone saves one, before its player taps Save, and keeps what its player tapped.
- Two phones edit the same hand: the second to save is shown both versions side by side and
  chooses; what it chose is what the server holds, and the history keeps every change made.

Served by uvicorn (tests/browser/test_live_table.py's fixture) so the event stream stays open.
"""

from __future__ import annotations

from functools import partial

import pytest
from playwright.sync_api import expect

from mighty_ledger import reads
from mighty_ledger.models import Revision
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .steps import fill_contract, fill_hand, pick_number, screenshot, tap
from .test_every_page import check
from .test_live_table import asgi_server, board, save_hand  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

# the promise: the form moves within 2 s of the other phone's save
WITHIN_MS = 2000


def _unexpected(message) -> bool:
    return (message.type == "error" and "/events/" not in message.location.get("url", "")
            and "status of 409 (Conflict)" not in message.text)


@pytest.fixture
def phones(phones):
    """Phones at the table (the conftest's), where the refused edit's 409 is expected: the browser
    reports every 4xx page on its console, and that one is the page this test wants."""
    return partial(phones, console=_unexpected)


def open_hand_form(page, server, session) -> None:
    """Tap "Enter a hand" on the board, and wait until the form hears the session's stream."""
    page.goto(board(server, session))
    with page.expect_response(lambda response: "/events/" in response.url) as stream:
        page.get_by_test_id("enter-hand").click()
    assert stream.value.status == 200
    page.wait_for_url("**/hands/new/**")


def dealer_shown(page) -> str:
    return page.locator("[data-dealer-name]").inner_text().strip()


def test_an_open_hand_form_moves_to_the_next_hand_when_another_phone_saves_one(asgi_server, phones):  # noqa: F811
    session = SessionFactory()
    saving, waiting = phones(), phones()
    open_hand_form(waiting, asgi_server, session)
    expect(waiting.get_by_role("heading", level=1)).to_have_text("Hand 1")
    first_dealer = dealer_shown(waiting)
    # the player at the waiting phone has started: Bo won the bid (and its preview is in)
    with waiting.expect_response("**/hands/preview/"):
        tap(waiting, "Declarer", "Bo")

    saving.goto(board(asgi_server, session))
    # the form moved asks for its preview again, as after a tap
    with waiting.expect_response("**/hands/preview/"):
        save_hand(saving, MADE_15_DIAMONDS)
        coming = reads.next_state(session)
        assert coming.dealer != first_dealer  # the flow moves the deal on after a hand

        expect(waiting.get_by_role("heading", level=1)).to_have_text("Hand 2", timeout=WITHIN_MS)
        expect(waiting.locator("[data-dealer-name]")).to_have_text(coming.dealer, timeout=WITHIN_MS)
    expect(waiting.get_by_test_id("live-form-notice")).to_contain_text(
        "Another phone saved hand 1: you are now entering hand 2.")
    found: list[str] = []
    check(waiting, "hand form moved", found)
    assert found == []
    screenshot(waiting, "hand-form-moved")
    assert waiting.url.endswith("/hands/new/") or "/hands/new/?" in waiting.url  # no reload, no Save
    # the taps stay, and the dealer checked is the one shown
    expect(waiting.get_by_role("group", name="Declarer", exact=True).get_by_label("Bo", exact=True)).to_be_checked()
    assert waiting.locator("input[name=dealer]:checked").get_attribute("value") == coming.dealer
    # hand 1 might be the very hand being tapped in here: Save still asks before adding a second one
    assert waiting.locator("input[name=seen_hand_count]").input_value() == "0"
    fill_hand(waiting, {**MADE_15_DIAMONDS, "declarer": "Bo"})
    expect(waiting.get_by_test_id("preview")).to_contain_text("Made")  # the last preview is in
    waiting.get_by_test_id("save-hand").click()
    expect(waiting.get_by_test_id("meanwhile")).to_contain_text("Hand 1 was just entered from another phone")
    assert session.hands.count() == 1


def test_an_untouched_form_counts_the_hand_saved_meanwhile_as_seen(asgi_server, phones):  # noqa: F811
    session = SessionFactory()
    waiting = phones()
    open_hand_form(waiting, asgi_server, session)

    HandFactory(session=session)  # another phone (any client) saves hand 1

    expect(waiting.get_by_role("heading", level=1)).to_have_text("Hand 2", timeout=WITHIN_MS)
    # nothing tapped yet, and the notice says what was saved: hand 2 here is a new hand
    expect(waiting.locator("input[name=seen_hand_count]")).to_have_value("1")


def edit_hand_one(page, server, session, points: int) -> None:
    with page.expect_response(lambda response: "/events/" in response.url):  # it hears the table
        page.goto(f"{board(server, session)}h/1/edit/")
    # its preview in before Save (an edit's preview names the hand: …/hands/preview/?number=1)
    with page.expect_response(lambda response: "/hands/preview/" in response.url):
        pick_number(page, "Points", points)


@pytest.mark.parametrize("choice", ["keep-mine", "keep-theirs", "edit-again"])
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
        "Another phone changed hand 1 meanwhile: Ann 15♦ · Cy · took 18.", timeout=WITHIN_MS)
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
    hand = session.hands.get(number=1)
    if choice == "keep-mine":
        assert second.url.endswith(f"/s/{session.pk}/")
        assert (hand.entry["points"], hand.version) == (13, 3)
    elif choice == "keep-theirs":
        assert second.url.endswith(f"/s/{session.pk}/")
        assert (hand.entry["points"], hand.version) == (18, 2)
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


def test_the_contract_form_left_open_follows_the_table_too(asgi_server, phones):  # noqa: F811
    session = SessionFactory()
    saving, waiting = phones(), phones()
    waiting.goto(board(asgi_server, session))
    with waiting.expect_response(lambda response: "/events/" in response.url) as stream:
        waiting.get_by_test_id("start-hand").click()
    assert stream.value.status == 200
    waiting.wait_for_url("**/playing/new/**")
    first_dealer = waiting.locator("input[name=dealer]:checked").get_attribute("value")

    # another phone saves a hand: the contract is for the next one, dealt by whoever deals it
    saving.goto(board(asgi_server, session))
    save_hand(saving, MADE_15_DIAMONDS)
    coming = reads.next_state(session)
    assert coming.dealer != first_dealer
    expect(waiting.get_by_test_id("live-form-notice")).to_contain_text(
        "Another phone saved hand 1", timeout=WITHIN_MS)
    expect(waiting.locator(f"input[name=dealer][value={coming.dealer}]")).to_be_checked()

    # then it records the contract: this phone is told before its player saves another
    saving.get_by_test_id("start-hand").click()
    fill_contract(saving, {**MADE_15_DIAMONDS, "dealer": coming.dealer})
    saving.get_by_test_id("save-contract").click()
    saving.wait_for_url("**/s/*/")
    expect(waiting.get_by_test_id("live-form-notice")).to_contain_text(
        "Another phone recorded the contract: Ann 15", timeout=WITHIN_MS)
    assert waiting.url.endswith("/playing/new/") or "/playing/new/?" in waiting.url  # no reload
    screenshot(waiting, "contract-form-moved")
