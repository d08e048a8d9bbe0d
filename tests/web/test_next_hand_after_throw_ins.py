"""Who opens a redeal, and who sits it out, as the server says it (mighty_ledger.reads.next_state).

A throw-in has no declarer to go by: whoever opened it opens the redeal, with the same players
out (scoring/flow_rules.py). Who those were is what the hand before the throw-in decided, so the
board reads back past the throw-ins to it, as the engine's own session test steps them
(tests/scoring/test_flow.py::test_a_whole_session_under_pagat) and as the phone steps the ones
still waiting on it (static/js/pending.js).
"""

from __future__ import annotations

import pytest

from mighty_ledger import reads
from mighty_ledger.models import Hand
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

pytestmark = pytest.mark.django_db

SEVEN = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gil"]


def _next(session):
    state = reads.next_state(session)
    return state.dealer, state.first_bidder, state.sitting_out


def test_pagat_everyone_passes_and_the_opener_opens_again():
    session = SessionFactory(preset="pagat-standard")
    # Ed deals, Ann declares with Cy: Cy deals next, Ann opens (pagat)
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    assert _next(session) == ("Cy", "Ann", ())
    # everyone passes: the same dealer deals again, and Ann, who opened, opens again
    HandFactory(session=session, entry={"dealer": "Cy"}, kind=Hand.ALL_PASS)
    assert _next(session) == ("Cy", "Ann", ())
    HandFactory(session=session, entry={"dealer": "Cy"}, kind=Hand.ALL_PASS)
    assert _next(session) == ("Cy", "Ann", ())
    # pagat: who asked for the redeal deals it and is the first to bid
    HandFactory(session=session, entry={"dealer": "Cy", "shown_by": "Di"}, kind=Hand.DEAL_MISS)
    assert _next(session) == ("Di", "Di", ())


def test_pagat_a_throw_in_on_the_first_hand_is_opened_by_its_dealer_again():
    session = SessionFactory(preset="pagat-standard", first_dealer="Bo")
    HandFactory(session=session, entry={"dealer": "Bo"}, kind=Hand.ALL_PASS)
    assert _next(session) == ("Bo", "Bo", ())


def test_korean_7_rotation_a_redeal_keeps_the_same_players_out():
    session = SessionFactory(preset="korean-7-rotation", seats=SEVEN)
    dealer, _, out = _next(session)
    assert (dealer, out) == ("Ann", ("Bo", "Cy"))
    # Di shows a hand too weak to play: Di deals the redeal, Bo and Cy still sit out
    HandFactory(session=session, entry={"dealer": "Ann", "shown_by": "Di"}, kind=Hand.DEAL_MISS)
    assert _next(session) == ("Di", "Di", ("Bo", "Cy"))
    HandFactory(session=session, entry={"dealer": "Di"}, kind=Hand.ALL_PASS)
    assert _next(session) == ("Di", "Di", ("Bo", "Cy"))


def test_the_board_reads_no_hand_before_a_throw_in_where_the_dealer_opens(django_assert_num_queries):
    session = SessionFactory(preset="korean-standard")
    HandFactory(session=session, entry={"dealer": "Ann"}, kind=Hand.ALL_PASS)
    last = reads.last_hand(session)
    # korean 표준: the dealer opens every hand, so nothing before the throw-in is asked
    with django_assert_num_queries(0):
        state = reads.next_state(session, last)
    assert (state.dealer, state.first_bidder) == ("Ann", "Ann")


def test_the_board_reads_the_opener_of_a_throw_in_from_its_own_rows(django_assert_num_queries):
    session = SessionFactory(preset="pagat-standard")
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    for _ in range(2):
        HandFactory(session=session, entry={"dealer": "Cy"}, kind=Hand.ALL_PASS)
    rows, _ = reads.board_rows(session)  # as the board holds its latest rows
    # the rows above the throw-ins hold the hand that decided who opens: no query
    with django_assert_num_queries(0):
        state = reads.next_state(session, rows[-1], rows=rows)
    assert (state.dealer, state.first_bidder) == ("Cy", "Ann")
