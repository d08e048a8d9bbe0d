"""Reads the table pages share: the session's system, who deals next, and settling up.

Everything here asks `scoring` and reads what the services stored; nothing
computes a payment or re-checks a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from scoring.flow import PreviousHand, TableState, next_hand
from scoring.interface import score_hand
from scoring.settle import Transfer, chip_counts, fewest_transfers, settle_money
from scoring.systems import System, build_system

from . import services
from .models import Hand, Session


def system_of(session: Session) -> System:
    """The system frozen into the session when it started."""
    return build_system(session.system_options)


def previous_hand(session: Session, hand: Hand | None) -> PreviousHand | None:
    if hand is None:
        return None
    entry = hand.entry
    dealer = entry.get("dealer") or session.first_dealer
    if hand.kind == Hand.DEAL_MISS:
        return PreviousHand("deal_miss", dealer, demander=entry.get("shown_by") or dealer)
    if hand.kind == Hand.ALL_PASS:
        return PreviousHand("all_pass", dealer)
    made = (hand.result or {}).get("made")
    return PreviousHand(
        "void" if made is None else "scored",
        dealer,
        declarer=entry.get("declarer"),
        partners=tuple(entry.get("partners", [])),
        made=made,
        sitting_out=tuple(entry.get("sitting_out", [])),
    )


def next_state(session: Session, last_hand: Hand | None, system: System | None = None) -> TableState:
    """Who deals, bids first and sits out on the coming hand (scoring.flow decides)."""
    system = system or system_of(session)
    return next_hand(
        system, session.seats, previous_hand(session, last_hand), first_dealer=session.first_dealer
    )


def with_pot(balances: dict, pot_label: str) -> dict:
    """Fines waiting in the deal-miss pot are owed to the pot until a hand takes them."""
    missing = -sum(balances.values())
    return {**balances, pot_label: missing} if missing else dict(balances)


def hand_transfers(payments: dict) -> list[Transfer]:
    return fewest_transfers(with_pot(payments, _("pot")))


def hand_explanation(session: Session, hand: Hand) -> list:
    """How a stored hand scored, line by line, as sentences the page can translate.

    The stored result keeps plain English; scoring the entry again gives the same lines as
    translatable sentences. The stored lines stand when the engine no longer agrees with
    them (or cannot score the entry at all), so the page never shows what was not recorded.
    """
    stored = (hand.result or {}).get("explanation") or []
    if hand.kind != Hand.SCORED or not stored:
        return stored
    try:
        lines = list(score_hand(services.hand_request(session, hand.entry)).explanation)
    except Exception:  # any failure only costs the translation, never the page
        return stored
    return lines if lines == stored else stored


@dataclass(frozen=True)
class Settlement:
    totals: dict
    money: dict | None
    chips: dict | None
    transfers: list[Transfer]
    unit: str  # what the transfers count: points, money or chips


def settle(session: Session) -> Settlement:
    """The session's totals, as money or chips when it was played for them, and who pays whom."""
    totals = with_pot(session.totals, _("pot"))
    money = chips = None
    if session.stake_per_point is not None:
        money = settle_money(totals, session.stake_per_point, session.rounding_unit or Decimal(1))
        return Settlement(totals, money, None, fewest_transfers(money), "money")
    if session.chips_start is not None:
        per_point = session.chips_per_point or 1
        chips = chip_counts(session.totals, session.chips_start, per_point)
        in_chips = {seat: points * per_point for seat, points in totals.items()}
        return Settlement(totals, None, chips, fewest_transfers(in_chips), "chips")
    return Settlement(totals, money, chips, fewest_transfers(totals), "points")
