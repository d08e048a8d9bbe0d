"""The hand form at the table: the live preview, a problem beside its field, editing a past hand."""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from mighty_ledger.models import Hand
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory
from tests.web.test_table import PAGAT_EXAMPLES

from .steps import (
    board_url,
    call_card,
    fill_hand,
    has_no_horizontal_scroll,
    pick_number,
    preview_payment,
    screenshot,
    signed,
    tap,
    totals_row,
)

pytestmark = pytest.mark.browser


def until_held(page, held: list, what: str) -> None:
    """Wait until a held request has reached its route (in Playwright's own time)."""
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, f"{what} was asked for"


def release(page, held: list) -> None:
    """Let the held hand_form.js go, once its request has reached the route."""
    until_held(page, held, "hand_form.js")
    held[0].continue_()


def test_a_likely_value_shows_only_once_a_tap_on_it_counts(page, live_server):
    """On a slow phone the form is there before its script: a number tapped then would be lost."""
    session = SessionFactory()
    held = []
    page.route("**/js/hand_form.js*", lambda route: held.append(route))
    page.goto(board_url(live_server, session) + "hands/new/", wait_until="commit")
    sixteen = page.locator("#field-contract_points .pick-value[data-value='16']")
    expect(sixteen).to_be_attached()
    expect(sixteen).to_be_hidden()  # in its place, so nothing moves when it shows

    release(page, held)
    sixteen.click()
    expect(page.get_by_label("Contract", exact=True)).to_have_value("16")
    expect(sixteen).to_have_attribute("aria-pressed", "true")


def test_the_preview_follows_each_tap_and_flags_an_illegal_value_by_its_field(page, live_server):
    session = SessionFactory()
    page.goto(board_url(live_server, session))
    page.get_by_role("link", name="Enter a hand").click()
    hand_form_url = page.url
    preview = page.get_by_test_id("preview")
    expect(preview).to_contain_text("The payments appear here as you fill in the hand.")

    # a seat button (a radio) is enough for the preview to answer
    tap(page, "Declarer", "Ann")
    expect(preview).to_contain_text("Still to fill in:")
    expect(preview).to_contain_text("Trump")

    # the contract starts empty (nobody chose pagat's minimum), and takes typed numbers and arrow keys
    contract = page.get_by_label("Contract", exact=True)
    expect(contract).to_have_value("")
    contract.fill("13")
    contract.press("ArrowUp")
    contract.press("ArrowUp")
    expect(contract).to_have_value("15")
    tap(page, "Trump", "♦")
    call_card(page, "AS")  # suit, then rank
    tap(page, "Partner", "Cy")
    page.get_by_label("Points", exact=True).fill("16")

    expect(preview).to_contain_text("Made")
    for seat, points in {"Ann": 10, "Bo": -5, "Cy": 5, "Di": -5, "Ed": -5}.items():
        expect(preview_payment(page, seat)).to_have_text(signed(points))
    expect(preview.get_by_role("listitem").first).to_contain_text("Contract 15 in diamonds")
    # the address carries the form's one-time key (static/js/form_key.js), nothing else changes
    assert page.url.split("?")[0] == hand_form_url.split("?")[0] and not Hand.objects.exists(), "the preview saves nothing"
    screenshot(page, "hand-form-preview")

    # pagat: bids run from 13 up; 12 is flagged beside the contract, not in a corner
    page.get_by_label("Contract", exact=True).fill("12")
    contract_problem = page.locator("#problems-contract_points")
    expect(contract_problem.get_by_role("alert")).to_be_visible()
    expect(preview).to_contain_text("cannot be saved")
    page.get_by_label("Contract", exact=True).fill("15")
    expect(contract_problem.get_by_role("alert")).to_have_count(0)
    expect(preview_payment(page, "Ann")).to_have_text("+10")

    # twenty point cards in the deck: 25 cannot have been taken
    page.get_by_label("Points", exact=True).fill("25")
    points_problem = page.locator("#problems-points")
    expect(points_problem.get_by_role("alert")).to_be_visible()
    screenshot(page, "hand-form-problem")

    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()
    expect(page.locator("#problems-points").get_by_role("alert")).to_be_visible()
    assert not Hand.objects.exists(), "an illegal hand is never saved"


def test_editing_a_past_hand_changes_the_totals(page, live_server):
    session = SessionFactory()
    for example in PAGAT_EXAMPLES:
        HandFactory(session=session, entry=example.values[0])
    page.goto(board_url(live_server, session))
    assert totals_row(page) == ["166", "-59", "11", "-59", "-59"]

    page.locator("#hand-1").get_by_role("link", name="1", exact=True).click()
    expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()
    screenshot(page, "hand-detail")
    page.get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name="Edit hand 1")).to_be_visible()
    points = page.get_by_label("Points", exact=True)
    expect(points).to_have_value("16")

    # pagat example 2 instead of 1: 13 taken, the 15 ♦ contract is set
    points.fill("13")
    expect(page.get_by_test_id("preview")).to_contain_text("Set")
    expect(preview_payment(page, "Ann")).to_have_text("−4")
    screenshot(page, "hand-edit")
    page.get_by_role("button", name="Save").click()

    expect(page.locator(".messages")).to_contain_text("Hand 1 was changed.")
    expect(page.locator("#hand-1 td.what")).to_contain_text(re.compile("15♦"))
    # Ann loses 14 (+10 became −4), Cy 7, each defender gains 7
    expect(page.locator("#totals td strong")).to_have_text(["152", "−52", "4", "−52", "−52"])

    # nothing is silently lost: the change is in the session's history, before and after
    page.get_by_role("navigation", name="Session").get_by_role("link", name="Changes").click()
    amended = page.locator("#revisions > li").filter(has=page.locator(".before"))
    expect(amended).to_have_count(1)
    expect(amended.locator(".before")).to_contain_text("took 16")
    expect(amended.locator(".after")).to_contain_text("took 13")
    screenshot(page, "history")


def test_the_contract_and_points_are_one_tap_each_in_a_row_of_likely_values(page, live_server):
    session = SessionFactory()
    page.goto(board_url(live_server, session))
    page.get_by_role("link", name="Enter a hand").click()
    tap(page, "Declarer", "Ann")

    page.get_by_role("group", name="Contract").get_by_role("button", name="15").click()
    expect(page.get_by_label("Contract", exact=True)).to_have_value("15")
    # the points row follows the contract: 12 to 18 around 15
    points_row = page.get_by_role("group", name="Points").get_by_role("button")
    expect(points_row).to_have_text(["12", "13", "14", "15", "16", "17", "18"])

    tap(page, "Trump", "♠")
    # no call arrives chosen; Mighty under spades is ♦A
    expect(page.get_by_role("group", name="Called card").get_by_label("Mighty")).not_to_be_checked()
    page.get_by_role("group", name="Called card").get_by_label("Mighty").check()
    expect(page.get_by_role("group", name="Called card")).to_contain_text("Mighty ♦A")
    tap(page, "Partner", "Cy")
    page.get_by_role("group", name="Points").get_by_role("button", name="14").click()
    # the partner is asked for by the card: whoever held it
    expect(page.get_by_role("group", name="Partner", exact=True)).to_contain_text("Who held ♦A?")
    expect(page.get_by_test_id("preview")).to_contain_text("Set")
    expect(page.get_by_test_id("preview-summary")).to_contain_text("Ann −2 · Cy −1 · others +1")


def test_a_called_card_without_a_partner_asks_before_saving_a_secret_solo(page, live_server):
    session = SessionFactory()
    page.goto(board_url(live_server, session))
    page.get_by_role("link", name="Enter a hand").click()
    tap(page, "Declarer", "Ann")
    pick_number(page, "Contract", 13)
    tap(page, "Trump", "♥")
    page.get_by_role("group", name="Called card").get_by_label("Mighty").check()
    page.get_by_role("group", name="Points").get_by_role("button", name="14").click()
    page.get_by_test_id("save-hand").click()

    partner_problem = page.locator("#problems-partners").get_by_role("alert")
    expect(partner_problem).to_contain_text("Secret solo? (the called card was in Ann's hand or the kitty)")
    assert not Hand.objects.exists(), "a forgotten partner is never saved as a solo"

    tap(page, "Partner", "declarer alone")
    page.get_by_test_id("save-hand").click()
    expect(page.locator("#hand-1")).to_be_visible()
    assert Hand.objects.get().entry["partners"] == []


def test_the_no_friend_call_hides_the_card_and_partner_pickers(page, live_server):
    session = SessionFactory()
    page.goto(board_url(live_server, session))
    page.get_by_role("link", name="Enter a hand").click()
    expect(page.get_by_role("group", name="Called card")).to_be_visible()
    tap(page, "Partner call", "no friend")
    expect(page.get_by_role("group", name="Called card")).to_be_hidden()
    expect(page.get_by_role("group", name="Partner", exact=True)).to_be_hidden()
    tap(page, "Partner call", "first trick")
    expect(page.get_by_role("group", name="Called card")).to_be_hidden()
    expect(page.get_by_role("group", name="Partner", exact=True)).to_be_visible()


def test_where_the_dealer_sits_out_the_ticked_seat_follows_the_dealer(page, live_server):
    # pagat's six players, rotation: the seat that deals takes no part in the hand
    session = SessionFactory(seats=["Ann", "Bo", "Cy", "Di", "Ed", "Fay"], preset="pagat-6p-rotation")
    page.goto(board_url(live_server, session))
    page.get_by_role("link", name="Enter a hand").click()
    page.locator("#dealer-fold > summary").click()
    sitting_out = page.get_by_role("group", name="Sitting out", exact=True)
    expect(sitting_out.get_by_label("Ann", exact=True)).to_be_checked()  # the first dealer

    tap(page, "Dealer", "Cy")

    expect(sitting_out.get_by_label("Cy", exact=True)).to_be_checked()
    expect(sitting_out.get_by_label("Ann", exact=True)).not_to_be_checked()
    expect(page.locator("#dealer-fold > summary")).to_contain_text("Sitting out: Cy")


# how many lines each label's letters take, read from where the browser drew them
LINES_OF_EACH_LABEL = """(line, labels) => labels.map(label => {
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.data.indexOf(label);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + label.length);
        return new Set([...range.getClientRects()].map(box => Math.round(box.top))).size;
    }
    return 0;
})"""


def test_the_folded_dealer_line_keeps_its_labels_whole_beside_the_longest_name(page, live_server):
    # the first seat deals and, in pagat's six, sits the hand out: the longest name, twice on one line
    longest = "Bartholomew-Featherstonehaugh"
    session = SessionFactory(seats=[longest, "Bo", "Cy", "Di", "Ed", "Fay"], preset="pagat-6p-rotation")
    page.goto(board_url(live_server, session))
    page.get_by_role("link", name="Enter a hand").click()
    summary = page.locator("#dealer-fold > summary")
    expect(summary).to_have_text(f"Dealer: {longest} · Sitting out: {longest}")

    # each label sits on one line ("Dealer:", never "Dealer" above ":"); the names wrap instead
    assert summary.evaluate(LINES_OF_EACH_LABEL, ["Dealer:", "Sitting out:"]) == [1, 1]
    assert has_no_horizontal_scroll(page)
    screenshot(page, "hand-form-longest-dealer")


def test_a_problem_in_the_folded_dealer_line_opens_it(page, live_server):
    # six seated, five play: who is knocked out sits in the dealer's folded line
    session = SessionFactory(seats=["Ann", "Bo", "Cy", "Di", "Ed", "Fay"], preset="pagat-6p-knockout")
    page.goto(board_url(live_server, session))
    page.get_by_role("link", name="Enter a hand").click()
    fold = page.locator("#dealer-fold")
    expect(fold).not_to_have_attribute("open", "")

    tap(page, "Declarer", "Ann")
    pick_number(page, "Contract", 15)
    tap(page, "Trump", "♦")
    tap(page, "Partner call", "a card")
    call_card(page, "AS")
    tap(page, "Partner", "Cy")
    pick_number(page, "Points", 16)

    expect(page.get_by_test_id("preview")).to_contain_text("see the marked fields")
    expect(fold).to_have_attribute("open", "")
    expect(fold.locator(".problems .problem").first).to_be_visible()


def test_a_seat_sitting_the_hand_out_cannot_be_tapped_as_declarer_or_partner(page, live_server):
    # 변형 7마: two of seven sit each hand out, as the table flow says
    seats = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gil"]
    session = SessionFactory(seats=seats, preset="korean-7-rotation")
    page.goto(board_url(live_server, session))
    page.get_by_role("link", name="Enter a hand").click()
    sitting_out = page.locator("input[name=sitting_out]:checked")
    expect(sitting_out).to_have_count(2)  # the form has arrived, two seats ticked out
    out = sitting_out.evaluate_all("boxes => boxes.map(box => box.value)")
    playing = next(seat for seat in seats if seat not in out)

    for seat in out:
        expect(page.locator(f"#field-declarer input[value='{seat}']")).to_be_disabled()
        expect(page.locator(f"#field-partners input[value='{seat}']")).to_be_disabled()
    # the named player's row waits for a player call
    expect(page.locator("#field-call_seat")).to_have_count(1)
    expect(page.locator("#field-call_seat")).to_be_hidden()
    tap(page, "Partner call", "a player")
    expect(page.locator("#field-call_seat")).to_be_visible()
    tap(page, "Partner call", "a card")

    # a seat tapped first, then ticked as sitting out, is no longer the declarer
    tap(page, "Declarer", playing)
    page.locator("#dealer-fold summary").click()
    page.locator(f"#field-sitting_out input[value='{playing}'] + span").click()
    expect(page.locator(f"#field-declarer input[value='{playing}']")).not_to_be_checked()
    expect(page.locator(f"#field-declarer input[value='{playing}']")).to_be_disabled()


def test_the_dealers_line_says_the_dealer_ticked_before_the_forms_script_started(page, live_server):
    # a kept form offline: drafts.js ticks the dealer after the deals waiting on the phone, which
    # may happen before hand_form.js has arrived to hear it; the folded line still says who deals
    session = SessionFactory()
    url = f"{live_server.url}/g/{session.group.edit_token}/s/{session.pk}/hands/new/"
    held = []
    page.route("**/js/hand_form.js*", lambda route: held.append(route))

    # the page parsed, its modules held (DOMContentLoaded waits for them)
    page.goto(url, wait_until="commit")
    expect(page.locator("[data-dealer-name]")).to_have_text("Ann")
    expect(page.locator("input[name=dealer][value=Cy]")).to_be_attached()
    page.evaluate("""() => {
        const seat = document.querySelector('input[name=dealer][value=Cy]');
        seat.checked = true;
        seat.dispatchEvent(new Event('input', { bubbles: true }));
    }""")
    release(page, held)

    expect(page.locator("[data-dealer-name]")).to_have_text("Cy")


def test_a_save_tapped_as_the_preview_lands_is_taken(page, live_server):
    """The last tap's preview answers while the thumb is on Save, between down and up: the preview
    grows above the Save bar, which rests at the form's end in view, and Save stays under the
    thumb (a tap that ended beside it would be taken by nothing)."""
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    page.goto(board_url(live_server, session) + "hands/new/")
    # the last tap's preview (its points) held until the thumb is down; the others answer at once
    held = []
    last_tap = f"points={MADE_15_DIAMONDS['points']}"
    page.route("**/hands/preview/**", lambda route: held.append(route) if last_tap in (
        route.request.post_data or "") else route.continue_())
    fill_hand(page, MADE_15_DIAMONDS)
    until_held(page, held, "the last tap's preview")
    expect(page.locator("#hand-form[data-preview-current]")).to_have_count(0)

    box = page.get_by_test_id("save-hand").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    for route in held:
        with contextlib.suppress(PlaywrightError):  # one cut by a later one (hx-sync) has no one to answer
            route.continue_()
    expect(page.locator("#hand-form[data-preview-current]")).to_have_count(1)
    page.mouse.up()

    expect(page.locator("#hand-2")).to_be_visible()
    assert Hand.objects.filter(session=session).count() == 2
