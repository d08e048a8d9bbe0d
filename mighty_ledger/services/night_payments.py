"""A club night's own payments: one transfer that settles the whole night (Ed pays Cy ₩12,000
for every table at once), marked as paid and taken back.

As a table's payments (services/payments.py), with the night in the session's place: checked
against what is still owed across the night (reads/night_payments.py: every table's
settlement less the payments marked at its tables and the night's own), asked about when it is
more than that (PaymentBeyondOwed, unless ``overpay``), and made once per one-time key in the
one store of keys (``request_keys.night_payment_scope``). The night's row is locked, and then
its tables': a payment marked at a table at the same moment is read before this one is checked.
A payment marked at a table is still checked against that table alone.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from mighty_ledger.http.request_keys import key_made, night_payment_scope
from mighty_ledger.models import Night, Payment, Revision, Session
from mighty_ledger.reads import nights
from mighty_ledger.reads.night_payments import night_payment_room
from mighty_ledger.services.changes import SYSTEM, Actor, announce, invalid, made_before, revise
from mighty_ledger.services.groups import name_normalised
from mighty_ledger.services.nights import night_locked
from mighty_ledger.services.payments import (
    amount_problems,
    payment_fingerprint,
    payment_snapshot,
    refuse_beyond_room,
)
from scoring.problems import InvalidInput, Problem


def _payments_moved_on(night: Night, sessions: list[Session]) -> None:
    # the night's pages (its settlement, the group's balance) are stamped with the night's revision
    night.revision += 1
    night.save(update_fields=["revision"])
    if sessions:
        # the group's stream (the night's pages follow it) hears of it; each table's own pages,
        # which it does not change, see their revision unmoved
        announce(sessions[-1], "payments_changed")


def _tables_locked(night: Night) -> list[Session]:
    """The night's live tables, their rows locked in id order: a payment being marked at one of
    them commits before this payment reads what is owed."""
    return list(Session.objects.live().select_for_update().filter(night_round__night=night).order_by("pk"))


@transaction.atomic
def night_payment_record(*, night: Night, payer: str, payee: str, amount: Decimal, overpay: bool = False,
                         idempotency_key: str | None = None, by: Actor = SYSTEM) -> tuple[Payment, bool]:
    """Mark one transfer of the night's settlement as paid; returns (payment, created).

    ``payer`` and ``payee`` are players of the night (seated at one of its tables, or present).
    More than the payer still owes the payee across the night, or the wrong way round, raises
    PaymentBeyondOwed unless ``overpay`` says the player confirmed it; money counts in steps of
    the night's rounding unit. The same ``idempotency_key`` with the same payment returns the
    first one, however long after; with another, IdempotencyConflict. A deleted night: NightGone.
    """
    problems = amount_problems(amount)
    # as the seats were stored: "Ann " or a decomposed "Á" typed on another phone is the same player
    payer, payee = name_normalised(str(payer)), name_normalised(str(payee))
    night = night_locked(night)
    _tables_locked(night)
    fingerprint = ""
    if not problems:
        fingerprint = payment_fingerprint(payer=payer, payee=payee, amount=amount)
        earlier = made_before("payment", night_payment_scope(night.pk), idempotency_key, fingerprint)
        if earlier is not None:
            return earlier, False
    rounds = nights.night_rounds(night)
    sessions = nights.night_sessions(rounds)
    names = nights.night_names(night, sessions)
    who = []
    if payer not in names:
        who.append(Problem("payer", "unknown_player", _("Say who paid: one of the night's players.")))
    if payee not in names:
        who.append(Problem("payee", "unknown_player", _("Say who was paid: one of the night's players.")))
    if payer == payee and payer in names:
        who.append(Problem("payee", "same_seat", _("A player cannot pay themselves.")))
    problems = who + problems
    if problems:
        raise InvalidInput(problems)
    room = night_payment_room(night, payer=payer, payee=payee, rounds=rounds)
    refuse_beyond_room(room, payer=payer, payee=payee, amount=amount, overpay=overpay, in_steps=_(
        "This night counts in steps of {step}: the amount must be a whole number of them."))
    unit, _currency = nights.night_unit(night)
    _payments_moved_on(night, sessions)
    payment = Payment.objects.create(
        group_id=night.group_id, night=night, payer=payer, payee=payee, amount=amount, unit=unit,
        currency=night.currency if unit == Payment.MONEY else "", by=by.label,
    )
    key_made(scope=night_payment_scope(night.pk), key=idempotency_key, fingerprint=fingerprint, payment=payment)
    revise(group=night.group, subject="payment", action=Revision.CREATED, by=by, after=payment_snapshot(payment))
    return payment, True


@transaction.atomic
def night_payment_undo(*, payment: Payment, by: Actor = SYSTEM) -> Payment:
    """Take a payment of the night back (marked by mistake); the row stays, undone, with a revision.
    A payment of a table is undone by services.payments.payment_undo; given one here, Http404."""
    if payment.night_id is None:
        raise Http404("No such payment in this night.")
    night = night_locked(payment.night)
    current = Payment.objects.select_for_update().get(pk=payment.pk)
    if current.undone_at is not None:
        raise invalid("payment", "already_undone", _("This payment was already undone."))
    before = payment_snapshot(current)
    _payments_moved_on(night, nights.night_sessions(nights.night_rounds(night)))
    current.undone_at = timezone.now()
    current.save(update_fields=["undone_at"])
    revise(group=night.group, subject="payment", action=Revision.DELETED, by=by,
           before=before, after=payment_snapshot(current))
    return current
