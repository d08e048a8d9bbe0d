"""What is still owed: the payments marked against a session's settlement, and the group's
balance across sessions.

Read side, like reads.py and stats.py. The sums are the engine's
(``scoring.settle.still_owed``): unpaid amounts carry from
one session to the next, and money in different currencies, chips and points
are never added together. Payments never enter the statistics.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q

from mighty_ledger.http.access import is_row_id
from mighty_ledger.models import Night, Payment, Session
from mighty_ledger.reads import SessionSettlement, session_settlement
from scoring.settle import (
    POT,
    Transfer,
    as_counted,
    currency_code,
    minor_unit,
    most_payable,
    still_owed,
)


@dataclass(frozen=True)
class Balance:
    """What each player is up (+) or down (−) in one unit after the payments marked so far."""

    unit: str  # Payment.MONEY, CHIPS or POINTS
    currency: str
    amounts: dict[str, Decimal]
    transfers: list[Transfer]  # the fewest transfers that would square it


def group_balance(sessions: Iterable[Session], payments: Iterable[Payment]) -> list[Balance]:
    """Each session's settlement, less what was marked as paid, per unit and currency.

    The engine adds them up (scoring.settle.still_owed): unpaid amounts carry from
    one session to the next. Money in different currencies, chips and points are
    never added together.
    """
    settlements: dict[tuple[str, str], list] = defaultdict(list)
    # the parties as the sessions seat them, the pot last: with one session, its own list
    order: dict[str, None] = {}
    # what money counts in, per currency: the finest rounding unit of its sessions
    steps: dict[str, Decimal] = {}
    for session in sessions:
        order |= dict.fromkeys(session.seats)
        settlement = session_settlement(session, per_hand=False)
        unit = payment_unit_of(settlement)
        # "원" and "KRW" are one currency
        currency = currency_code(session.currency) if unit == Payment.MONEY else ""
        settlements[(unit, currency)].append(settlement.settlement)
        if unit == Payment.MONEY:
            step = Decimal(settlement.stakes.unit)
            steps[currency] = min(steps.get(currency, step), step, key=lambda unit: unit.as_tuple().exponent)
    paid: dict[tuple[str, str], list[Transfer]] = defaultdict(list)
    for payment in payments:
        key = (payment.unit, currency_code(payment.currency) if payment.unit == Payment.MONEY else "")
        paid[key].append(Transfer(payment.payer, payment.payee, payment.amount))
    balances = []
    for unit, currency in sorted({*settlements, *paid}):
        owed, transfers = still_owed(settlements[(unit, currency)], paid[(unit, currency)], order=[*order, POT])
        if owed:
            step = steps.get(currency, minor_unit(currency)) if unit == Payment.MONEY else None
            transfers = [Transfer(t.frm, t.to, as_counted(t.amount, step)) for t in transfers]
            balances.append(Balance(unit, currency, owed, transfers))
    return balances


def in_unit(balances: Iterable[Balance], unit: str, currency: str) -> Balance | None:
    """The balance in one unit (and currency, for money), or None when nothing is owed in it."""
    return next((b for b in balances if (b.unit, b.currency) == (unit, currency)), None)


def payment_unit_of(settlement: SessionSettlement) -> str:
    """The unit a settlement is paid in, as a payment records it."""
    return {"money": Payment.MONEY, "chips": Payment.CHIPS}.get(settlement.unit, Payment.POINTS)


@dataclass(frozen=True)
class Outstanding:
    """What is still owed in one session: the fewest transfers over each party's balance after
    the payments marked (one beyond what its payer owed leaves its payee owing it back).

    The one list the settlement page, the text for the chat, "this phone is me", the payments
    card and the API show; the evening's own transfers, before any payment, stay in
    ``settlement``.
    """

    settlement: SessionSettlement
    seats: tuple[str, ...]
    owed: dict[str, Decimal | int]  # each party's balance after the payments: + is owed, − owes
    transfers: list[Transfer]  # in seat order, the pot after the seats
    payments: list[Payment]  # standing, oldest first

    @property
    def unit(self) -> str:
        return self.settlement.unit

    @property
    def last_id(self) -> int:
        """The newest standing payment a card drawn from this knows of (0: none): whatever stands
        with a higher id was marked after the card was drawn."""
        return max((payment.pk for payment in self.payments), default=0)

    @property
    def evening(self) -> list[Transfer]:
        """The evening's own transfers, before any payment, in seat order."""
        return in_seat_order(self.settlement.settling_transfers, self.seats)

    def markable(self, transfer: Transfer) -> bool:
        """Between two seats: the deal-miss pot settles as a party, but nobody hands it money."""
        return transfer.frm in self.seats and transfer.to in self.seats


def in_seat_order(transfers: Iterable[Transfer], seats: Sequence[str]) -> list[Transfer]:
    """Transfers by payer, then payee, as they sit at the table (the pot after every seat):
    PostgreSQL's jsonb keeps no key order, so the stored totals cannot give it."""
    place = {seat: index for index, seat in enumerate(seats)}
    return sorted(transfers, key=lambda t: (place.get(t.frm, len(seats)), place.get(t.to, len(seats))))


def session_outstanding(session: Session, settlement: SessionSettlement | None = None) -> Outstanding:
    """The session's settlement less its standing payments, as the engine nets them (still_owed):
    one query, the payments, beside the settlement (pass the one the page already read)."""
    settlement = settlement or session_settlement(session, per_hand=False)
    standing = list(session.payments.standing())
    paid = [Transfer(payment.payer, payment.payee, payment.amount) for payment in standing]
    # seats first and the pot last, as the settlement lists them: the same seats give the same list
    owed, transfers = still_owed([settlement.settlement], paid, order=[*session.seats, POT])
    # money to the rounding unit's places, chips and points whole
    unit = Decimal(settlement.stakes.unit) if settlement.unit == "money" else None
    counted = [Transfer(transfer.frm, transfer.to, as_counted(transfer.amount, unit)) for transfer in transfers]
    return Outstanding(settlement, tuple(session.seats), owed, in_seat_order(counted, session.seats), standing)


def marked_since(session: Session, *, after: int, payer: str, payee: str, amount: Decimal) -> Payment | None:
    """The transfer a card still offers (``amount`` from ``payer`` to ``payee``), marked as paid
    after the card, which knew of payments up to ``after``, was drawn: another phone marked it.
    A part of it marked meanwhile is not the transfer: what is left is asked about as usual."""
    return session.payments.standing().filter(pk__gt=after, payer=payer, payee=payee, amount=amount).last()


def standing_payments(sessions: Sequence[Session]) -> list[Payment]:
    """The payments still counted for these sessions, in one query."""
    return list(Payment.objects.standing().filter(session_id__in=[s.pk for s in sessions]))


def night_payments(night, sessions: Sequence[Session]) -> list[Payment]:
    """The payments still counted for a club night: its own (``Payment.night``) and those marked
    on its live tables (``sessions``), oldest first, in one query."""
    return list(Payment.objects.standing().filter(Q(night=night) | Q(session_id__in=[s.pk for s in sessions])))


def group_payments(group_id: int, sessions: Sequence[Session]) -> list[Payment]:
    """The payments still counted in the group's balance, in one query: these sessions' and every
    club night's of the group. A night's payment settles its tables, which stay the group's
    sessions even when the night is deleted (services.nights.night_delete), so it stays too."""
    return list(Payment.objects.standing().filter(
        Q(session_id__in=[s.pk for s in sessions]) | Q(night__isnull=False, group_id=group_id)))


def session_payments(session: Session) -> list[Payment]:
    """The payments still counted for one session, for its settlement, in one query."""
    return list(session.payments.standing())


def payment_of(settled: Session | Night, payment_id: int) -> Payment | None:
    """The payment with this id of a session, or a night's own, undone or not; None for any other
    (another session's, or one of the night's tables')."""
    if not is_row_id(payment_id):
        return None
    return settled.payments.filter(pk=payment_id).first()


@dataclass(frozen=True)
class PaymentRoom:
    """What one more payment from a payer to a payee may be without being asked about first."""

    owed: Decimal  # the most the payer can pay the payee and only square debts (0: the wrong way round)
    step: Decimal  # what the settlement counts in: its rounding unit for money, else whole chips or points


def payment_room(session: Session, *, payer: str, payee: str) -> PaymentRoom:
    """The session's settlement less its standing payments, as the engine sums them (still_owed)."""
    settlement = session_settlement(session, per_hand=False)
    paid = [Transfer(payment.payer, payment.payee, payment.amount) for payment in session.payments.standing()]
    owed, _ = still_owed([settlement.settlement], paid)
    step = Decimal(settlement.stakes.unit) if settlement.unit == "money" else Decimal(1)
    return PaymentRoom(Decimal(most_payable(owed, payer, payee)), step)
