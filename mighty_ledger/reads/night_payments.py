"""A club night's own payments as the write side checks them and the faces find them: what one
more may be without being asked about first, and the payment an address names.

The night's settlement, payments of both kinds netted, is ``reads.nights.night_settlement``.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from mighty_ledger.http.access import is_row_id
from mighty_ledger.models import Night, Payment
from mighty_ledger.reads import balance, stakes_of
from mighty_ledger.reads.nights import (
    RoundTables,
    night_rounds,
    night_sessions,
    night_unit,
)
from scoring.settle import most_payable


def night_payment_room(night: Night, *, payer: str, payee: str,
                       rounds: Sequence[RoundTables] | None = None) -> balance.PaymentRoom:
    """What one more payment of the night from ``payer`` to ``payee`` may be without being asked
    about first: the night's settlement less every payment counted for it (its own and its
    tables'), as the engine sums them (``most_payable``); in steps of the night's rounding unit
    for money, else whole chips or points. One query for the payments, two more without the
    ``rounds`` already read."""
    sessions = night_sessions(night_rounds(night) if rounds is None else rounds)
    unit, currency = night_unit(night)
    left = balance.in_unit(balance.group_balance(sessions, balance.night_payments(night, sessions)), unit, currency)
    step = Decimal(stakes_of(night).unit) if unit == Payment.MONEY else Decimal(1)
    return balance.PaymentRoom(Decimal(most_payable(left.amounts if left else {}, payer, payee)), step)


def night_payment_of(night: Night, payment_id: int) -> Payment | None:
    """The night's own payment with this id, undone or not; None for any other (one of its tables' too)."""
    if not is_row_id(payment_id):
        return None
    return night.payments.filter(pk=payment_id).first()
