"""Paying up for the whole club night on its settlement page: "Mark as paid" beside each transfer
still owed across the night, asked about first when it is more than is owed, and undone.

As a table's payments (payments.py), with the night in the session's place: the write is
services/night_payments.py's, checked against what the night still owes over every table; the
form's one-time key is the payment's too (``request_keys.night_payment_scope``), so a second tap,
or the same payment sent by the API, marks it once.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from mighty_ledger import services
from mighty_ledger.http.request_keys import (
    ALREADY_MARKED,
    form_key,
    night_payment_scope,
    once_per_form_key,
)
from mighty_ledger.pages.views.links import edit_access
from mighty_ledger.pages.views.nights import settle_page
from mighty_ledger.reads import nights
from mighty_ledger.reads.night_payments import night_payment_of
from mighty_ledger.services.night_payments import night_payment_record, night_payment_undo
from mighty_ledger.services.payments import PaymentBeyondOwed
from scoring.problems import InvalidInput


def _scope(request: HttpRequest, token: str, night_id: int, **_kwargs) -> str:
    """The night's payments' keys, found through the link first (as a table's: links.session_form_scope)."""
    return night_payment_scope(nights.group_night(edit_access(token).group, night_id).pk)


@require_POST
@once_per_form_key(scope=_scope)
def night_payment_mark(request: HttpRequest, token: str, night_id: int) -> HttpResponse:
    access = edit_access(token)
    night = nights.group_night(access.group, night_id)
    try:
        amount = Decimal(request.POST.get("amount", ""))
    except InvalidOperation:
        amount = Decimal(0)
    try:
        night_payment_record(night=night, payer=request.POST.get("payer", ""), payee=request.POST.get("payee", ""),
                             amount=amount, overpay=request.POST.get("overpay") == "1",
                             idempotency_key=form_key(request), by=access.actor())
    except services.IdempotencyConflict:
        messages.error(request, ALREADY_MARKED)
    except PaymentBeyondOwed as beyond:
        # asked on the page, with what is owed; confirming posts the same payment again with overpay=1
        return settle_page(request, access, night, status=409, beyond=beyond)
    except InvalidInput as error:
        for problem in error.problems:
            messages.error(request, problem.message)
    else:
        messages.success(request, _("Marked as paid for the whole night."))
    return redirect("night_settle", access.token, night.pk)


@require_POST
def night_payment_undo_view(request: HttpRequest, token: str, night_id: int, payment_id: int) -> HttpResponse:
    access = edit_access(token)
    night = nights.group_night(access.group, night_id)
    payment = night_payment_of(night, payment_id)
    if payment is None:
        raise Http404("No such payment in this night.")
    try:
        night_payment_undo(payment=payment, by=access.actor())
    except InvalidInput as error:
        for problem in error.problems:
            messages.error(request, problem.message)
    return redirect("night_settle", access.token, night.pk)
