"""The transfers of a settlement marked as paid, and taken back: a session's, or a club night's (one
transfer that settles the whole night, Ed pays Cy ₩12,000 for every table at once).

Both are Payment rows, checked the same way against what is still owed (a session's settlement, or
the night's over every table: reads.nights.night_payment_room), asked about when more than that
(PaymentBeyondOwed, unless ``overpay``), and made once per one-time key. A night's row is locked,
then its tables': a payment marked at a table at the same moment is read before this one is checked.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from mighty_ledger.http.request_keys import key_made, night_payment_scope, payment_scope
from mighty_ledger.models import Night, Payment, Revision, Session
from mighty_ledger.reads import nights, payment_unit_of, stakes_of
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
from mighty_ledger.services.nights import night_locked
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


def _payments_moved_on(session: Session | None, night: Night | None = None) -> None:
    if night is None:
        # pages that show what is owed (the group's balance) are stamped with the sessions' revisions
        Session.objects.filter(pk=session.pk).update(revision=F("revision") + 1)
        session.refresh_from_db(fields=["revision"])
        announce(session, "payments_changed")
        return
    # the night's pages (its settlement, the group's balance) are stamped with the night's revision
    night.revision += 1
    night.save(update_fields=["revision"])
    if sessions := nights.night_sessions(nights.night_rounds(night)):
        # the group's stream (the night's pages follow it) hears of it; each table's own pages,
        # which it does not change, see their revision unmoved
        announce(sessions[-1], "payments_changed")


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


def _who(payer: str, payee: str, names, code: str, paid: str, was_paid: str) -> list[Problem]:
    problems = []
    if payer not in names:
        problems.append(Problem("payer", code, paid))
    if payee not in names:
        problems.append(Problem("payee", code, was_paid))
    if payer == payee and payer in names:
        problems.append(Problem("payee", "same_seat", _("A player cannot pay themselves.")))
    return problems


@transaction.atomic
def payment_record(*, session: Session | None = None, night: Night | None = None, payer: str, payee: str,
                   amount: Decimal, overpay: bool = False, idempotency_key: str | None = None,
                   by: Actor = SYSTEM) -> tuple[Payment, bool]:
    """Mark one transfer of a session's settlement, or of a club ``night``'s, as paid; returns
    (payment, created). The row and a revision say who marked it.

    Payments never change a session's totals: they settle them, so the group's balance (what is
    still owed across sessions) goes down. The payer and payee are seats of the session, or
    players of the night (seated at one of its tables, or present). One for more than the payer
    still owes the payee (or the wrong way round) raises PaymentBeyondOwed unless ``overpay`` says
    the player confirmed it; money counts in steps of the rounding unit.

    The same idempotency key with the same payment returns the first one, however long after
    (asked before what is owed, which the first one changed); with another, it is a conflict.
    """
    # as the seats were stored: "Ann " or a decomposed "Á" typed on another phone is the same player
    payer, payee = name_normalised(str(payer)), name_normalised(str(payee))
    problems = amount_problems(amount)
    if night is None:
        problems = _who(payer, payee, session.seats, "unknown_seat", _("Say who paid: one of the seats."),
                        _("Say who was paid: one of the seats.")) + problems
        if problems:
            raise InvalidInput(problems)
        session = locked(session)  # a session deleted meanwhile takes no payment: SessionGone, a 404
        scope = payment_scope(session.pk)
    else:
        night = night_locked(night)  # a night deleted meanwhile: NightGone
        # its tables' rows too: a payment being marked at one of them commits before this one reads what is owed
        list(Session.objects.live().select_for_update().filter(night_round__night=night).order_by("pk"))
        scope = night_payment_scope(night.pk)
    fingerprint = ""
    if not problems:
        fingerprint = payment_fingerprint(payer=payer, payee=payee, amount=amount)
        if (earlier := made_before("payment", scope, idempotency_key, fingerprint)) is not None:
            return earlier, False
    if night is None:
        # read under the lock: two phones marking the same transfer see each other's payment
        room = payment_room(session, payer=payer, payee=payee)
        unit, currency, steps = payment_unit(session), session.currency, _(
            "This session counts in steps of {step}: the amount must be a whole number of them.")
    else:
        rounds = nights.night_rounds(night)
        problems = _who(payer, payee, nights.night_names(night, nights.night_sessions(rounds)), "unknown_player",
                        _("Say who paid: one of the night's players."),
                        _("Say who was paid: one of the night's players.")) + problems
        if problems:
            raise InvalidInput(problems)
        room = nights.night_payment_room(night, payer=payer, payee=payee, rounds=rounds)
        (unit, _code), currency, steps = nights.night_unit(night), night.currency, _(
            "This night counts in steps of {step}: the amount must be a whole number of them.")
    if amount % room.step:
        raise invalid("amount", "not_whole", steps.format(step=format(room.step.normalize(), "f")))
    if amount > room.owed and not overpay:
        raise PaymentBeyondOwed(payer=payer, payee=payee, amount=amount, owed=room.owed)
    _payments_moved_on(session, night)
    payment = Payment.objects.create(
        group_id=(night or session).group_id, session=session, night=night, payer=payer, payee=payee,
        amount=amount, unit=unit, currency=currency if unit == Payment.MONEY else "", by=by.label,
    )
    key_made(scope=scope, key=idempotency_key, fingerprint=fingerprint, payment=payment)
    if night is None:
        revise(session=session, subject="payment", action=Revision.CREATED, by=by, after=payment_snapshot(payment))
    else:
        revise(group=night.group, subject="payment", action=Revision.CREATED, by=by, after=payment_snapshot(payment))
    return payment, True


@transaction.atomic
def payment_undo(*, payment: Payment, by: Actor = SYSTEM) -> Payment:
    """Take a payment back (marked by mistake), a session's or a night's; the row stays, undone,
    with a revision."""
    night = night_locked(payment.night) if payment.night_id is not None else None
    current = Payment.objects.select_for_update().get(pk=payment.pk)
    if current.undone_at is not None:
        raise invalid("payment", "already_undone", _("This payment was already undone."))
    before = payment_snapshot(current)
    _payments_moved_on(current.session, night)
    current.undone_at = timezone.now()
    current.save(update_fields=["undone_at"])
    where = {"group": night.group} if night is not None else {"session": current.session}
    revise(**where, subject="payment", action=Revision.DELETED, by=by, before=before, after=payment_snapshot(current))
    return current
