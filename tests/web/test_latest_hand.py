"""Who deals next were the latest hand deleted: the board and the forms carry it (the
"latest-hand" block, partials/latest_hand.html), so a phone without signal that deletes or
corrects that hand says who deals next as the server will once the change reaches it
(static/js/pending.js; tests/browser/test_offline_everything.py plays it in Chromium).

Each case plays hands, reads the block from the pages, deletes the latest hand on the server
and checks that the server now says what the block said."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from mighty_ledger import reads, services
from mighty_ledger.models import Hand
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

pytestmark = pytest.mark.django_db

SEVEN = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gil"]
BO_WITH_DI = {"dealer": "Cy", "declarer": "Bo", "contract": {"points": 14, "trump": "S"},
              "partner_call": {"type": "card", "cards": ["AH"]}, "partners": ["Di"], "points": 15}
ALL_PASS = (Hand.ALL_PASS, {"dealer": "Cy"})
SCORED = (Hand.SCORED, MADE_15_DIAMONDS)

CASES = {
    "after-the-first-hand": ("pagat-standard", None, [SCORED]),
    "two-hands": ("pagat-standard", None, [SCORED, (Hand.SCORED, BO_WITH_DI)]),
    "an-all-pass-after-a-hand": ("pagat-standard", None, [SCORED, ALL_PASS]),
    "a-deal-miss-after-all-passes": ("pagat-standard", None, [SCORED, ALL_PASS, ALL_PASS,
                                                              (Hand.DEAL_MISS, {"dealer": "Cy", "shown_by": "Di"})]),
    "seven-seats-a-redeal-after-a-deal-miss": ("korean-7-rotation", SEVEN, [
        (Hand.DEAL_MISS, {"dealer": "Ann", "shown_by": "Di"}), (Hand.ALL_PASS, {"dealer": "Di"})]),
}


def latest_block(html: str) -> dict | None:
    found = re.search(r'<script id="latest-hand" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1)) if found else None


@pytest.mark.parametrize(("preset", "seats", "hands"), list(CASES.values()), ids=list(CASES))
def test_the_pages_say_who_deals_next_without_the_latest_hand_as_the_server_then_does(client, preset, seats, hands):
    session = SessionFactory(preset=preset, **({"seats": seats} if seats else {}))
    for kind, entry in hands:
        HandFactory(session=session, entry=entry, kind=kind)
    token = session.group.edit_token
    pages = [reverse(name, args=[token, session.pk]) for name in ("session_board", "hand_new", "event_new",
                                                                  "contract_new")]
    blocks = [latest_block(client.get(page).content.decode()) for page in pages]
    assert all(block == blocks[0] for block in blocks), blocks
    latest = blocks[0]
    assert (latest["number"], latest["kind"]) == (len(hands), hands[-1][0])

    services.hand_delete(hand=session.hands.get(number=len(hands)))

    state = reads.next_state(session)
    assert latest["before"] == {"dealer": state.dealer, "first_bidder": state.first_bidder,
                                "sitting_out": list(state.sitting_out)}


def test_a_fresh_session_has_no_latest_hand(client):
    session = SessionFactory()
    page = client.get(reverse("session_board", args=[session.group.edit_token, session.pk])).content.decode()
    assert latest_block(page) is None


def test_the_block_follows_the_board_live(client):
    # it is in the live regions: a phone that follows the table holds the latest hand's, not the first's
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    live = reverse("session_live", args=[session.group.edit_token, session.pk])
    assert latest_block(client.get(live).content.decode())["number"] == 1
    HandFactory(session=session, entry=BO_WITH_DI)
    assert latest_block(client.get(live).content.decode())["number"] == 2
