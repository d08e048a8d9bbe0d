"""Offline, the board and the hand form say who deals, who bids first and who sits out after each
deal waiting on the phone, and the number the coming hand will get, as the server says once the
deals have landed.

Two tables whose next hand hangs on more than the last deal: under pagat's six-player rotation
the dealer sits out and a throw-in is opened again by whoever opened it; under korean-7-rotation
the declarer and partner sit out the next hand, and a redeal keeps the same players out. Each
queues a deal miss, a hand and an all-pass without signal; the phone steps the engine's flow rule
through them (static/js/pending.js), and after replay the board and ``reads.next_state`` agree.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from mighty_ledger import reads
from mighty_ledger.models import Hand
from tests.factories import SessionFactory

from .steps import board_url, fill_hand, tap
from .test_offline import go_offline, go_online, open_as_app, outbox_replay, wait_until_kept
from .test_offline_everything import reload_settled, wait_until_sent

pytestmark = pytest.mark.browser

SIX = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"]
SEVEN = [*SIX, "Gil"]
ALONE = {"partner_call": {"type": "none"}, "partners": []}
WITH_ANN = {"partner_call": {"type": "card", "cards": ["AS"]}, "partners": ["Ann"]}

TABLES = [
    pytest.param(
        "pagat-6p-rotation", SIX, "Cy", {"declarer": "Fay", "contract": {"points": 14, "trump": "S"}, **ALONE, "points": 14},
        [
            # pagat 6p: Cy asked for the redeal, so Cy deals it, sits it out, and Di opens after Cy
            ("Cy", "Di", ["Cy"]),
            # the deal rotates to Di, who sits out; Fay, the declarer, opens
            ("Di", "Fay", ["Di"]),
            # everyone passed: Di deals again, and Fay, who opened the hand thrown in, opens again
            ("Di", "Fay", ["Di"]),
        ],
        id="pagat-6p-rotation",
    ),
    pytest.param(
        "korean-7-rotation", SEVEN, "Di", {"declarer": "Ed", "contract": {"points": 14, "trump": "S"}, **WITH_ANN, "points": 15},
        [
            # 003 변형 7마: Di showed the weak hand and deals; the redeal keeps Bo and Cy out
            ("Di", "Di", ["Bo", "Cy"]),
            # Ed declared with Ann: Ed deals, and both sit the next hand out; Fay opens after Ed
            ("Ed", "Fay", ["Ann", "Ed"]),
            # thrown in: the same dealer, the same two out
            ("Ed", "Fay", ["Ann", "Ed"]),
        ],
        id="korean-7-rotation",
    ),
]


def ticked(page: Page, name: str) -> list[str]:
    return page.eval_on_selector_all(f"input[name={name}]:checked", "inputs => inputs.map(input => input.value)")


def expect_next(page: Page, dealer: str, bidder: str, out: list[str]) -> None:
    card = page.get_by_test_id("next-hand")
    expect(card).to_contain_text(f"Next: {dealer} deals, {bidder} bids first.")
    expect(card).to_contain_text(f"Sitting out: {', '.join(out)}.")


@pytest.mark.parametrize(("preset", "seats", "shown_by", "hand", "after"), TABLES)
def test_the_next_hand_offline_is_the_one_the_server_says_after_replay(page, live_server, preset, seats,
                                                                        shown_by, hand, after):
    session = SessionFactory(preset=preset, seats=seats, first_dealer="Ann")
    base = f"/g/{session.group.edit_token}/s/{session.pk}/"
    open_as_app(page, board_url(live_server, session))
    for path in ("hands/new/", "events/new/?kind=deal_miss", "events/new/?kind=all_pass"):
        wait_until_kept(page, base + path)
    go_offline(page.context)

    page.get_by_role("link", name="Deal miss").click()
    tap(page, "Who showed the hand", shown_by)
    page.get_by_test_id("save-event").click()
    expect_next(page, *after[0])

    page.get_by_test_id("enter-hand").click()
    expect(page.locator("[data-hand-title]")).to_have_text("Hand 2 (waiting to be sent)")
    assert ticked(page, "dealer") == [after[0][0]]
    fill_hand(page, hand)
    page.get_by_test_id("save-hand").click()
    expect_next(page, *after[1])

    page.get_by_role("link", name="All passed").click()
    expect(page.locator(f"input[name=dealer][value={after[1][0]}]")).to_be_checked()
    page.get_by_test_id("save-event").click()
    expect_next(page, *after[2])
    dealer, bidder, out = after[2]
    # "who won the bid?" offers the seats dealt in
    picks = page.get_by_test_id("declarer-start")
    expect(picks).to_have_text([seat for seat in seats if seat not in out])

    page.get_by_test_id("enter-hand").click()
    expect(page.locator("[data-hand-title]")).to_have_text("Hand 4 (waiting to be sent)")
    assert ticked(page, "dealer") == [dealer]
    assert ticked(page, "sitting_out") == out
    expect(page.locator("#dealer-fold > summary")).to_have_text(f"Dealer: {dealer} · Sitting out: {', '.join(out)}")

    go_online(page.context)
    page.goto(board_url(live_server, session))
    outbox_replay(page)
    wait_until_sent(page)
    reload_settled(page)
    assert list(session.hands.order_by("number").values_list("kind", flat=True)) == [
        Hand.DEAL_MISS, Hand.SCORED, Hand.ALL_PASS]
    state = reads.next_state(session)
    assert (state.dealer, state.first_bidder, list(state.sitting_out)) == (dealer, bidder, out)
    expect_next(page, dealer, bidder, out)
