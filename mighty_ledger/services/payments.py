"""The transfers of a settlement marked as paid, and taken back.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from mighty_ledger.http.request_keys import key_made, payment_scope
from mighty_ledger.models import Payment, Revision, Session
from mighty_ledger.reads import payment_unit_of, stakes_of
from mighty_ledger.reads.balance import payment_room
from mighty_ledger.services.changes import (
    SYSTEM,
    Actor,
    announce,
    fingerprint_of,
    invalid,
    locked,
    made_before,
    revise,
)
from mighty_ledger.services.groups import name_normalised
from scoring.problems import InvalidInput, Problem


class PaymentBeyondOwed(Exception):
    """More than the payer still owes the payee, or the wrong way round (``owed`` 0): the group
    page would then say the reverse of the truth, so the player is asked before it is recorded."""

    def __init__(self, *, payer: str, payee: str, amount: Decimal, owed: Decimal):
        super().__init__(f"{payer} owes {payee} {owed}, not {amount}")
        self.payer, self.payee, self.amount, self.owed = payer, payee, amount, owed


def payment_unit(session: Session) -> str:
    """What a session's settlement counts, so what its payments count: money, chips or points."""
    return payment_unit_of(stakes_of(session))


def _payments_moved_on(session: Session) -> None:
    # pages that show what is owed (the group's balance) are stamped with the sessions' revisions
    Session.objects.filter(pk=session.pk).update(revision=F("revision") + 1)
    session.refresh_from_db(fields=["revision"])
    announce(session, "payments_changed")


def payment_snapshot(payment) -> dict:
    """A payment as its revisions keep it (a night's names its night)."""
    snapshot = {"payer": payment.payer, "payee": payment.payee, "amount": str(payment.amount),
                "unit": payment.unit, "currency": payment.currency, "undone": payment.undone_at is not None}
    return snapshot if payment.night_id is None else {**snapshot, "night": payment.night_id}


def amount_problems(amount: Decimal) -> list[Problem]:
    """What is wrong with an amount paid, as the column keeps it (10 digits, 2 decimals)."""
    if not isinstance(amount, Decimal) or not amount.is_finite() or amount <= 0:
        return [Problem("amount", "not_positive", _("The amount must be more than 0."))]
    if amount >= Decimal(10) ** 10 or amount.normalize().as_tuple().exponent < -2:
        return [Problem("amount", "bad_amount", _("The amount can have at most 10 digits and 2 decimals."))]
    return []


def payment_fingerprint(*, payer: str, payee: str, amount: Decimal) -> str:
    """The payment a one-time key made, as a repeat must ask for it again."""
    return fingerprint_of("payment", {"payer": payer, "payee": payee, "amount": format(amount.normalize(), "f")})


def refuse_beyond_room(room, *, payer: str, payee: str, amount: Decimal, overpay: bool, in_steps: str) -> None:
    """A payment checked against what is still owed (``room``, a session's or a night's): a part of
    the settlement's step is refused (``in_steps`` says so, with ``{step}``), more than is owed or the
    wrong way round raises PaymentBeyondOwed unless ``overpay`` says the player confirmed it."""
    if amount % room.step:
        raise invalid("amount", "not_whole", in_steps.format(step=format(room.step.normalize(), "f")))
    if amount > room.owed and not overpay:
        raise PaymentBeyondOwed(payer=payer, payee=payee, amount=amount, owed=room.owed)


@transaction.atomic
def payment_record(*, session: Session, payer: str, payee: str, amount: Decimal, overpay: bool = False,
                   idempotency_key: str | None = None, by: Actor = SYSTEM) -> tuple[Payment, bool]:
    """Mark one transfer of the settlement as paid; returns (payment, created). The row and a
    revision say who marked it.

    Payments never change a session's totals: they settle them, so the group's
    balance (what is still owed across sessions) goes down. One for more than
    the payer still owes the payee (or the wrong way round) raises
    PaymentBeyondOwed unless ``overpay`` says the player confirmed it.

    The same idempotency key with the same payment returns the first one, however long after
    (asked before what is owed, which the first one changed); with another, it is a conflict.
    """

    problems = []
    seats = session.seats
    # as the seats were stored: "Ann " or a decomposed "Á" typed on another phone is the same player
    payer, payee = name_normalised(str(payer)), name_normalised(str(payee))
    if payer not in seats:
        problems.append(Problem("payer", "unknown_seat", _("Say who paid: one of the seats.")))
    if payee not in seats:
        problems.append(Problem("payee", "unknown_seat", _("Say who was paid: one of the seats.")))
    if payer == payee and payer in seats:
        problems.append(Problem("payee", "same_seat", _("A player cannot pay themselves.")))
    problems.extend(amount_problems(amount))
    if problems:
        raise InvalidInput(problems)
    session = locked(session)  # a session deleted meanwhile takes no payment: SessionGone, a 404
    fingerprint = payment_fingerprint(payer=payer, payee=payee, amount=amount)
    if (earlier := made_before("payment", payment_scope(session.pk), idempotency_key, fingerprint)) is not None:
        return earlier, False
    # read under the lock: two phones marking the same transfer see each other's payment
    room = payment_room(session, payer=payer, payee=payee)
    refuse_beyond_room(room, payer=payer, payee=payee, amount=amount, overpay=overpay, in_steps=_(
        "This session counts in steps of {step}: the amount must be a whole number of them."))
    unit = payment_unit(session)
    _payments_moved_on(session)
    payment = Payment.objects.create(
        group_id=session.group_id, session=session, payer=payer, payee=payee, amount=amount, unit=unit,
        currency=session.currency if unit == Payment.MONEY else "", by=by.label,
    )
    key_made(scope=payment_scope(session.pk), key=idempotency_key, fingerprint=fingerprint, payment=payment)
    revise(session=session, subject="payment", action=Revision.CREATED, by=by, after=payment_snapshot(payment))
    return payment, True


@transaction.atomic
def payment_undo(*, payment, by: Actor = SYSTEM):
    """Take a payment back (marked by mistake); the row stays, undone, with a revision."""

    current = Payment.objects.select_for_update().get(pk=payment.pk)
    if current.undone_at is not None:
        raise invalid("payment", "already_undone", _("This payment was already undone."))
    before = payment_snapshot(current)
    _payments_moved_on(current.session)
    current.undone_at = timezone.now()
    current.save(update_fields=["undone_at"])
    revise(session=current.session, subject="payment", action=Revision.DELETED, by=by,
            before=before, after=payment_snapshot(current))
    return current
