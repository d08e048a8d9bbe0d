"""A session's running totals and the deal-miss pot, replayed from its hands in order.

RULES.md §8: a deal-miss fine is paid by the dealer into a pot that the winning
team of the next scored hand takes. The pot is split evenly among the winners;
what does not divide evenly stays in the pot for the next hand, so every amount
stays a whole number and totals + pot always sum to zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class LedgerEntry:
    """What one recorded deal changes: engine payments, or a deal-miss fine."""

    kind: str  # "scored", "deal_miss" or "all_pass"
    payments: dict[str, int]
    winners: tuple[str, ...] = ()
    fine: int = 0
    dealer: str | None = None


@dataclass(frozen=True)
class LedgerStep:
    payments: dict[str, int]
    totals: dict[str, int]
    pot: int


def pot_shares(pot: int, winners: Sequence[str]) -> tuple[dict[str, int], int]:
    if not pot or not winners:
        return {}, pot
    each = pot // len(winners)
    return {seat: each for seat in winners}, pot - each * len(winners)


def replay(
    seats: Sequence[str],
    entries: Iterable[LedgerEntry],
    *,
    totals: dict[str, int] | None = None,
    pot: int = 0,
) -> list[LedgerStep]:
    """Each entry's payments (pot shares included), the totals after it and the pot after it.

    ``totals`` and ``pot`` resume from an earlier step, so appending one hand
    costs one step, not the whole session.
    """
    totals = {seat: (totals or {}).get(seat, 0) for seat in seats}
    steps = []
    for entry in entries:
        payments = dict.fromkeys(seats, 0)
        for seat, amount in entry.payments.items():
            payments[seat] += amount
        if entry.kind == "deal_miss" and entry.fine and entry.dealer:
            payments[entry.dealer] -= entry.fine
            pot += entry.fine
        elif entry.kind == "scored":
            shares, pot = pot_shares(pot, entry.winners)
            for seat, amount in shares.items():
                payments[seat] += amount
        for seat, amount in payments.items():
            totals[seat] += amount
        steps.append(LedgerStep(payments, dict(totals), pot))
    return steps
