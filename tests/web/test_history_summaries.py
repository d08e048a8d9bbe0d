"""A change in the history names the hand it changed in one line (ledger.summary): declarer and
contract, partner, and what the declarer's team took. Hands the API records as void or conceded
say so, and a partner nobody named is not 'alone'."""

from __future__ import annotations

import pytest
from django.utils import translation

from mighty_ledger.pages.templatetags.ledger import summary

ANN_15_DIAMONDS = {"dealer": "Ed", "declarer": "Ann", "contract": {"points": 15, "trump": "D"},
                   "partner_call": {"type": "card", "cards": ["AS"]}}


@pytest.mark.parametrize(("entry", "said"), [
    ({**ANN_15_DIAMONDS, "partners": ["Cy"], "points": 16}, "Ann 15♦ · Cy · took 16"),
    ({**ANN_15_DIAMONDS, "partners": [], "points": 16}, "Ann 15♦ · alone · took 16"),
    ({**ANN_15_DIAMONDS, "partner_call": {"type": "none"}, "points": 16}, "Ann 15♦ · alone · took 16"),
    # recorded over the API without points or partner: the hand was not played out
    ({**ANN_15_DIAMONDS, "outcome": "void"}, "Ann 15♦ · — · void"),
    ({**ANN_15_DIAMONDS, "outcome": "conceded", "conceded_by": "defenders"},
     "Ann 15♦ · — · conceded by the defenders"),
    ({**ANN_15_DIAMONDS, "outcome": "conceded", "conceded_by": "declarer_team", "partners": ["Cy"]},
     "Ann 15♦ · Cy · conceded by the declarer’s team"),
    # a hand stored before nulls were read as missing
    ({**ANN_15_DIAMONDS, "partners": None, "points": None, "outcome": "void"}, "Ann 15♦ · — · void"),
])
def test_a_hand_in_one_line(entry, said):
    with translation.override("en"):
        assert summary({"kind": "scored", "entry": entry}) == said


def test_in_korean_a_void_hand_is_void():
    with translation.override("ko"):
        assert summary({"kind": "scored", "entry": {**ANN_15_DIAMONDS, "outcome": "void"}}).endswith("무효")
