"""A whole evening's stretch without signal: every action the pages offer waits on the phone, in
one outbox, and lands on the server once each, in the order it was made, when the signal is back.

Offline is simulated as in test_offline.py: ``set_offline`` for the page, and every request
refused by a route, since a service worker's own fetches do not see ``set_offline``. "The first
answers lost" lets each request reach the server, then cuts its answer, as a tunnel does.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from mighty_ledger import reads, services
from mighty_ledger.models import Contract, Hand, Payment, Revision
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .chromium import close_context
from .steps import (
    PHONE,
    all_sent,
    board_url,
    fill_contract,
    fill_hand,
    pick_number,
    screenshot,
    tap,
    through_reloads,
)
from .test_offline import (
    go_offline,
    go_online,
    open_as_app,
    outbox_items,
    outbox_replay,
    wait_until_kept,
)

pytestmark = pytest.mark.browser

# pagat example 1 (RULES.md §9.1): Ann 15 ♦ with Cy, made with 16: +10 −5 +5 −5 −5
PAGAT_EXAMPLE_1 = {"Ann": 10, "Bo": -5, "Cy": 5, "Di": -5, "Ed": -5}
# the next hand of the stretch: Di 14 ♠ alone (pagat: no friend), made with 14
DI_ALONE = {"declarer": "Di", "contract": {"points": 14, "trump": "S"}, "partner_call": {"type": "none"},
            "partners": [], "points": 14}


def lose_first_answers(context: BrowserContext) -> list[str]:
    """Every API write's first answer is cut after the server has done it; repeats get through."""
    cut: list[str] = []

    def cut_once(route: Route) -> None:
        request = route.request
        asked = f"{request.method} {request.url}"
        if request.method == "GET" or asked in cut:
            route.continue_()
            return
        cut.append(asked)
        route.fetch()  # the server does it
        route.abort("connectionreset")  # the phone never hears

    context.route("**/api/v1/**", cut_once)
    return cut


def wait_until_sent(page: Page) -> None:
    """Until the outbox is empty: the page sends it by itself once the line is back."""
    all_sent(page)


def reload_settled(page: Page) -> None:
    """Reload, once the page has done reloading itself (it does as soon as its actions land)."""
    _settled(page, page.reload)


def goto_settled(page: Page, url: str) -> None:
    """Go to ``url``, once the page has done reloading itself: the outbox is empty before the
    board's reload begins, so a busy phone may start it just as this navigation does."""
    _settled(page, lambda: page.goto(url))


def _settled(page: Page, navigate) -> None:
    def step() -> None:
        page.wait_for_load_state()
        navigate()

    through_reloads(page, step, "the page never settled")


def record_contract(page: Page) -> None:
    """The auction is over: Ann 15 ♦ calling the ♠A (the hand form's first half)."""
    page.get_by_test_id("start-hand").click()
    fill_contract(page, MADE_15_DIAMONDS)
    page.get_by_test_id("save-contract").click()


def next_dealer(page: Page) -> str:
    return page.get_by_test_id("next-hand").locator("strong").first.inner_text()


def answers_cut(message) -> bool:
    """A console error the test did not ask for: the answers it cuts are the page's own requests; an
    undo sent again after its answer was lost is answered "already undone" (400), and a correction
    "changed meanwhile" by itself (409), which the outbox knows for its own."""
    return message.type == "error" and not any(words in message.text for words in ("ERR_CONNECTION_RESET", "400", "409"))


def test_a_whole_stretch_offline_lands_once_each_in_order_when_the_signal_is_back(phones, live_server):
    page = phones(console=answers_cut)
    session = SessionFactory()
    for _ in range(2):
        HandFactory(session=session, entry=MADE_15_DIAMONDS)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    open_as_app(page, board_url(live_server, session))
    # what the table may open without signal, kept while there was one
    for path in ("hands/new/", "events/new/?kind=deal_miss", "playing/new/", "payments/",
                 "h/1/", "h/1/edit/", "h/2/", "h/2/edit/"):
        wait_until_kept(page, base + path)

    go_offline(page.context)
    pending = page.get_by_test_id("pending-hand")

    # a transfer of the settlement marked as paid, while the kept payments are the board's (once a
    # hand waits on this phone, they wait for the server: kept_settlement.js)
    page.goto(f"{live_server.url}{base}payments/")
    page.get_by_test_id("payments-owed").get_by_role("button", name="Mark as paid").first.click()
    expect(page.get_by_test_id("pending-payments")).to_contain_text("pending")
    page.goto(f"{live_server.url}{base}")

    # a deal miss: Bo showed the hand, so Bo deals again (pagat)
    page.get_by_role("link", name="Deal miss").click()
    tap(page, "Who showed the hand", "Bo")
    page.get_by_test_id("save-event").click()
    expect(pending).to_have_count(1)
    expect(pending.first).to_contain_text("miss")
    expect(page.get_by_test_id("next-hand")).to_contain_text("Bo deals")

    # the contract, recorded when the auction ends; then its result, from the board's pending contract
    record_contract(page)
    contract_card = page.get_by_test_id("pending-contract")
    expect(contract_card).to_contain_text("Ann 15")
    contract_card.get_by_test_id("complete-pending").click()
    expect(page.get_by_role("group", name="Declarer").get_by_label("Ann")).to_be_checked()
    expect(page.locator("input[name=dealer][value=Bo]")).to_be_checked()
    tap(page, "Partner", "Cy")
    pick_number(page, "Points", 16)
    page.get_by_test_id("save-hand").click()
    expect(pending).to_have_count(2)
    expect(contract_card).to_contain_text("result entered")

    # a new hand: the form deals it to Cy, the partner of the hand before (pagat), as the server will
    page.get_by_test_id("enter-hand").click()
    expect(page.locator("input[name=dealer][value=Cy]")).to_be_checked()
    fill_hand(page, DI_ALONE)
    page.get_by_test_id("save-hand").click()
    expect(pending).to_have_count(3)

    # a correction of hand 1: the defenders had 4 more points than written (16 → 13)
    page.locator("#hand-1 th a").click()
    page.get_by_test_id("edit-hand").click()
    pick_number(page, "Points", 13)
    page.get_by_test_id("save-hand").click()
    expect(page.get_by_test_id("pending-edit")).to_contain_text("corrected")

    # hand 2 deleted, then brought back from its pending row
    page.locator("#hand-2 th a").click()
    page.get_by_test_id("delete-hand").click()
    expect(page.get_by_test_id("pending-delete")).to_contain_text("deleted")
    page.get_by_test_id("restore-pending").click()
    expect(page.get_by_test_id("pending-restore")).to_contain_text("restored")
    expect(page).to_have_url(f"{live_server.url}{base}")

    # still offline, the phone reloads: everything still waits, the board shows it where it lands
    page.goto(f"{live_server.url}{base}")
    page.reload()
    expect(pending).to_have_count(3)
    expect(page.get_by_test_id("pending-edit")).to_be_visible()
    expect(page.get_by_test_id("pending-restore")).to_be_visible()
    expect(page.get_by_test_id("app-status")).to_contain_text("waiting to be sent: 8")
    offline_next = next_dealer(page)
    screenshot(page, "offline-everything-pending")
    assert Hand.objects.filter(session=session).count() == 2
    assert not Contract.objects.exists() and not Payment.objects.exists()

    cut = lose_first_answers(page.context)
    go_online(page.context)
    for _ in range(3):
        outbox_replay(page)
    wait_until_sent(page)
    expect(pending).to_have_count(0)
    outbox_replay(page)
    reload_settled(page)
    expect(page.get_by_test_id("app-status")).not_to_contain_text("waiting")

    assert len(cut) == 8, cut  # every write had its first answer cut
    hands = list(Hand.objects.filter(session=session).order_by("number"))
    assert [(hand.number, hand.kind) for hand in hands] == [
        (1, "scored"), (2, "scored"), (3, "deal_miss"), (4, "scored"), (5, "scored")]
    assert hands[2].entry["shown_by"] == "Bo"
    # the contract is completed by hand 4, not left playing beside it
    (contract,) = Contract.objects.filter(session=session)
    assert contract.status == Contract.COMPLETED and contract.hand == hands[3]
    assert hands[3].entry["dealer"] == "Bo" and hands[3].payments == PAGAT_EXAMPLE_1
    assert hands[4].entry["declarer"] == "Di" and hands[4].entry["dealer"] == "Cy"
    assert hands[0].entry["points"] == 13 and hands[0].version == 2
    assert hands[1].deleted_at is None
    # once each, in the order the table made them
    changes = [(revision.subject, revision.action, revision.hand.number if revision.hand else None)
               for revision in Revision.objects.filter(session=session).order_by("id")][3:]
    assert changes == [
        ("payment", "created", None),
        ("hand", "created", 3),  # the deal miss
        ("contract", "created", None), ("hand", "created", 4), ("contract", "amended", 4),  # completed by hand 4
        ("hand", "created", 5),
        ("hand", "amended", 1),
        ("hand", "deleted", 2), ("hand", "restored", 2),
    ]
    (payment,) = Payment.objects.filter(session=session)
    assert payment.undone_at is None
    # the phone said who deals next, offline, as the server says it now
    assert offline_next == reads.next_state(session).dealer
    expect(page.get_by_test_id("in-progress")).not_to_contain_text("playing now")


@pytest.fixture
def phone(phones):
    """The conftest's phone, whose console may say 409 once: the side-by-side page answers with it."""
    return phones(console=None)


def test_a_correction_another_phone_overtook_waits_as_a_conflict_and_opens_side_by_side(phone, live_server):
    page = phone
    session = SessionFactory()
    hand = HandFactory(session=session, entry=MADE_15_DIAMONDS)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    open_as_app(page, board_url(live_server, session))
    for path in ("h/1/", "h/1/edit/"):
        wait_until_kept(page, base + path)

    go_offline(page.context)
    page.locator("#hand-1 th a").click()
    page.get_by_test_id("edit-hand").click()
    pick_number(page, "Points", 13)
    page.get_by_test_id("save-hand").click()
    expect(page.get_by_test_id("pending-edit")).to_be_visible()
    # meanwhile another phone, with signal, corrects the same hand: the declarer's team took 18
    services.hand_amend(hand=hand, entry={**MADE_15_DIAMONDS, "points": 18}, version=1)

    go_online(page.context)
    outbox_replay(page)
    conflict = page.get_by_test_id("pending-action")
    expect(conflict).to_have_attribute("data-state", "conflict")
    expect(page.get_by_test_id("app-status")).to_contain_text("changed on another phone: 1")
    outbox_replay(page)  # never sent again by itself
    reload_settled(page)
    expect(conflict).to_have_attribute("data-state", "conflict")
    hand.refresh_from_db()
    assert (hand.entry["points"], hand.version) == (18, 2)

    # opened, the edit page has this phone's taps at the version they were made on: the server
    # shows both versions, each with the engine's payments, and the player chooses
    conflict.get_by_test_id("open-conflict").click()
    expect(page.get_by_label("Points", exact=True)).to_have_value("13")
    page.get_by_test_id("save-hand").click()
    side_by_side = page.get_by_test_id("edit-conflict")
    expect(side_by_side.get_by_test_id("mine")).to_contain_text("took 13")
    expect(side_by_side.get_by_test_id("theirs")).to_contain_text("took 18")
    assert outbox_items(page) == []
    hand.refresh_from_db()
    assert (hand.entry["points"], hand.version) == (18, 2)


def test_two_phones_that_saved_hands_offline_are_asked_and_keep_both_numbered_as_they_reach_the_server(
        browser, live_server):
    session = SessionFactory()
    phones = []
    for _ in range(2):
        context = browser.new_context(viewport=PHONE, locale="en-US")
        context.set_default_timeout(20_000)
        phone = context.new_page()
        open_as_app(phone, board_url(live_server, session))
        wait_until_kept(phone, f"/g/{session.group.edit_token}/s/{session.pk}/hands/new/")
        go_offline(context)
        phones.append(phone)
    try:
        for phone, entry in zip(phones, (MADE_15_DIAMONDS, DI_ALONE), strict=True):
            phone.get_by_test_id("enter-hand").click()
            fill_hand(phone, entry)
            phone.get_by_test_id("save-hand").click()
            expect(phone.get_by_test_id("pending-hand")).to_have_count(1)

        # the second phone finds signal first: its hand is hand 1, and it says so
        go_online(phones[1].context)
        outbox_replay(phones[1])
        wait_until_sent(phones[1])
        expect(phones[1].get_by_test_id("app-status")).to_contain_text("saved as hand 1")
        # the first phone meant hand 1 too: the server asks (issue 35), and this player keeps theirs
        # as the next hand, saved as hand 2
        go_online(phones[0].context)
        asked = phones[0].get_by_test_id("pending-hand")
        expect(asked).to_have_attribute("data-state", "conflict")
        question = phones[0].locator("#board-question")
        expect(question).to_contain_text("Another phone saved hand 1")
        expect(question.locator("[data-choice=next]")).to_be_enabled()
        question.locator("[data-choice=next]").click()
        wait_until_sent(phones[0])
        expect(phones[0].get_by_test_id("app-status")).to_contain_text("saved as hand 2")
        hands = list(Hand.objects.filter(session=session).order_by("number"))
        assert [hand.entry["declarer"] for hand in hands] == ["Di", "Ann"]
        for phone in phones:
            reload_settled(phone)
            expect(phone.locator("#hand-1")).to_contain_text("Di")
            expect(phone.locator("#hand-2")).to_contain_text("Ann")
    finally:
        for phone in phones:
            close_context(phone.context)


def test_the_hand_in_progress_thrown_in_offline_then_an_all_pass_land_in_that_order(page, live_server):
    session = SessionFactory()
    bid = {key: MADE_15_DIAMONDS[key] for key in ("dealer", "declarer", "contract", "partner_call")}
    contract, _ = services.contract_open(session=session, entry=bid)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    open_as_app(page, board_url(live_server, session))
    wait_until_kept(page, base + "events/new/?kind=all_pass")

    go_offline(page.context)
    page.get_by_test_id("throw-in").click()
    page.get_by_test_id("abandon-hand").click()
    expect(page.get_by_test_id("pending-in-progress")).to_contain_text("thrown in")
    expect(page.get_by_test_id("abandon-hand")).to_be_hidden()
    page.get_by_role("link", name="All passed").click()
    page.get_by_test_id("save-event").click()
    expect(page.get_by_test_id("pending-hand")).to_contain_text("pass")
    expect(page.get_by_test_id("app-status")).to_contain_text("waiting to be sent: 2")

    go_online(page.context)
    outbox_replay(page)
    wait_until_sent(page)
    contract.refresh_from_db()
    assert contract.status == Contract.ABANDONED and contract.hand is None
    assert [hand.kind for hand in Hand.objects.filter(session=session)] == ["all_pass"]


def test_payments_marked_and_undone_offline_land_once_each_though_their_answers_are_lost(phones, live_server):
    page = phones(console=answers_cut)
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)  # pagat example 1: Bo, Di and Ed pay 5 each
    marked, _ = services.payment_record(session=session, payer="Bo", payee="Ann", amount=Decimal(5))
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    open_as_app(page, board_url(live_server, session))
    wait_until_kept(page, base + "payments/")

    go_offline(page.context)
    page.goto(f"{live_server.url}{base}payments/")
    # Bo's payment was a mistake; Di's is marked, then undone as well before the signal is back
    page.get_by_test_id("payments-marked").get_by_role("button", name="Undo").click()
    expect(page.get_by_test_id("pending-unpay")).to_contain_text("payment undone")
    owed = page.get_by_test_id("payments-owed").locator("li", has_text="Di pays")
    owed.get_by_role("button", name="Mark as paid").click()
    waiting = page.get_by_test_id("pending-payments")
    expect(waiting).to_contain_text("Di paid")
    waiting.get_by_role("button", name="Undo").click()
    expect(waiting).to_contain_text("payment undone")
    expect(page.get_by_test_id("app-status")).to_contain_text("waiting to be sent: 3")

    cut = lose_first_answers(page.context)
    go_online(page.context)
    for _ in range(3):
        outbox_replay(page)
    wait_until_sent(page)
    assert len(cut) == 3, cut
    payments = list(Payment.objects.filter(session=session).order_by("pk"))
    assert [(payment.payer, payment.undone_at is not None) for payment in payments] == [("Bo", True), ("Di", True)]
    assert payments[0] == marked


def test_a_deal_miss_corrected_offline_that_another_phone_changed_opens_with_both(phone, live_server):
    page = phone
    session = SessionFactory()
    miss, _ = services.hand_record(session=session, entry={"dealer": "Ann", "shown_by": "Bo"}, kind=Hand.DEAL_MISS)
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    open_as_app(page, board_url(live_server, session))
    wait_until_kept(page, base + "h/1/edit/")

    go_offline(page.context)
    page.goto(f"{live_server.url}{base}h/1/edit/")
    tap(page, "Who showed the hand", "Cy")
    page.get_by_test_id("save-event").click()
    expect(page.get_by_test_id("pending-edit")).to_be_visible()
    services.hand_amend(hand=miss, entry={"dealer": "Ann", "shown_by": "Di"}, version=1)

    go_online(page.context)
    outbox_replay(page)
    conflict = page.get_by_test_id("pending-action")
    expect(conflict).to_have_attribute("data-state", "conflict")
    conflict.get_by_test_id("open-conflict").click()
    expect(page.locator("input[name=shown_by][value=Cy]")).to_be_checked()
    page.get_by_test_id("save-event").click()
    expect(page.get_by_test_id("stale")).to_contain_text("deal miss by Di")
    miss.refresh_from_db()
    assert (miss.entry["shown_by"], miss.version) == ("Di", 2)


# hand 2 of the next test: Bo 14 ♠ with Di; pagat deals the next hand to the partner
BO_WITH_DI = {"dealer": "Cy", "declarer": "Bo", "contract": {"points": 14, "trump": "S"},
              "partner_call": {"type": "card", "cards": ["AH"]}, "partners": ["Di"], "points": 15}


def test_the_latest_hand_deleted_or_corrected_offline_moves_who_deals_next_as_the_server_will(page, live_server):
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)  # Ann with Cy: Cy deals hand 2
    HandFactory(session=session, entry=BO_WITH_DI)  # Bo with Di: Di deals hand 3
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    open_as_app(page, board_url(live_server, session))
    for path in ("hands/new/", "h/2/", "h/2/edit/"):
        wait_until_kept(page, base + path)
    assert next_dealer(page) == "Di"

    go_offline(page.context)
    # hand 2 was entered by mistake: the next hand is dealt as it would have been after hand 1
    page.locator("#hand-2 th a").click()
    page.get_by_test_id("delete-hand").click()
    expect(page.get_by_test_id("pending-delete")).to_contain_text("deleted")
    expect(page.get_by_test_id("next-hand")).to_contain_text("Cy deals")
    page.get_by_test_id("enter-hand").click()
    expect(page.locator("input[name=dealer][value=Cy]")).to_be_checked()
    page.go_back()

    # brought back from its pending row: Di deals again
    page.get_by_test_id("restore-pending").click()
    expect(page.get_by_test_id("pending-restore")).to_contain_text("restored")
    expect(page.get_by_test_id("next-hand")).to_contain_text("Di deals")

    # corrected: Bo's partner was Ed, who deals next
    page.locator("#hand-2 th a").click()
    page.get_by_test_id("edit-hand").click()
    tap(page, "Partner", "Ed")
    page.get_by_test_id("save-hand").click()
    expect(page.get_by_test_id("pending-edit")).to_contain_text("corrected")
    expect(page.get_by_test_id("next-hand")).to_contain_text("Ed deals")
    # the board drawn in place while the Save's page goes there: reloaded once it has arrived
    page.wait_for_url(board_url(live_server, session))
    page.reload()
    expect(page.get_by_test_id("next-hand")).to_contain_text("Ed deals")

    go_online(page.context)
    outbox_replay(page)
    wait_until_sent(page)
    reload_settled(page)
    hand = Hand.objects.get(session=session, number=2)
    assert hand.deleted_at is None and hand.entry["partners"] == ["Ed"]
    # what the phone said offline is what the server says now
    assert reads.next_state(session).dealer == "Ed"
    expect(page.get_by_test_id("next-hand")).to_contain_text("Ed deals")
