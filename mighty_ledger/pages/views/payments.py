"""Settling up on the page: what is still owed with "Mark as paid", and undoing a mark.

Reads through ``mighty_ledger.reads.balance``, writes through the services; the card is one
partial (partials/share_payments.html) whether drawn in the settlement page or after a post.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from mighty_ledger import services
from mighty_ledger.http.access import Access, access_for
from mighty_ledger.http.request_keys import (
    ALREADY_MARKED,
    form_key,
    once_per_form_key,
    payment_scope,
)
from mighty_ledger.models import Session
from mighty_ledger.pages.views.links import session_form_scope
from mighty_ledger.reads import balance
from scoring.problems import InvalidInput


def _in_settle_page(request: HttpRequest, access: Access, session: Session) -> bool:
    """The card is drawn inside the settlement page, whose one list of transfers already carries
    each "Mark as paid": the card then shows the payments marked, not the list again."""
    if not request.htmx:
        return False
    here = (request.htmx.current_url_abs_path or "").split("?")[0]
    return here == reverse("session_settle", args=[access.token, session.pk])


def payments_context(access: Access, session: Session, request: HttpRequest | None = None) -> dict:
    """What is still owed (the settlement page's own list), each transfer with its "Mark as paid",
    and the payments to undo."""
    outstanding = balance.session_outstanding(session)
    return {"access": access, "session": session, "settlement": outstanding.settlement,
            "owed_listed_above": request is not None and _in_settle_page(request, access, session),
            "unit": outstanding.unit, "outstanding": outstanding, "payments": outstanding.payments,
            "drawn_after": outstanding.last_id,
            # one "mark as paid" per transfer, each a payment of its own: the card drawn again after a
            # post must not give every form the key that post spent (partials/request_key.html)
            "one_key_per_form": True}


@require_GET
def session_payments(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """Mark-as-paid buttons for what is still owed (a partial for htmx, else a page). Asked about one
    payment (``payer``, ``payee``, ``amount``, ``drawn_after``: one the server refused as more than
    is owed, static/js/pending.js), the card says so as a Save of it would have, and asks again."""
    access = access_for(token, session_id=pk)
    session = access.session(pk)
    template = "partials/share_payments.html" if request.htmx else "table/payments.html"
    context = payments_context(access, session, request)
    payer, payee, amount = (request.GET.get(name, "") for name in ("payer", "payee", "amount"))
    if payer in session.seats and payee in session.seats and (asked := _amount(amount)) > 0:
        room = balance.payment_room(session, payer=payer, payee=payee)
        if asked > room.owed:
            beyond = services.PaymentBeyondOwed(payer=payer, payee=payee, amount=asked, owed=room.owed)
            context |= _beyond_owed(session, beyond, request.GET.get("drawn_after"))
    return render(request, template, context)


def _amount(value: str) -> Decimal:
    try:
        amount = Decimal(value)
    except InvalidOperation:
        return Decimal(0)
    return amount if amount.is_finite() else Decimal(0)


def _beyond_owed(session: Session, beyond, drawn_after: str | None) -> dict:
    """The card's words for a payment beyond what is owed: marked on another phone since the card was
    drawn (say so, ask nothing), or more than is owed (ask, with what is owed)."""
    already = balance.marked_since(session, after=_whole(drawn_after), payer=beyond.payer, payee=beyond.payee,
                                   amount=beyond.amount)
    return {"already": already} if already is not None else {"beyond": beyond}


def _whole(value: str | None) -> int:
    """A whole number a form sent back, or 0 (a card drawn before forms carried it)."""
    # a payment's id: eighteen digits at most (a longer one is no id, and int() refuses thousands)
    return int(value) if value and value.isascii() and value.isdigit() and len(value) <= 18 else 0


def _back(request: HttpRequest, access: Access, session: Session) -> HttpResponse:
    if request.htmx:
        return render(request, "partials/share_payments.html", payments_context(access, session, request))
    return redirect(reverse("session_payments", args=[access.token, session.pk]))


@require_POST
@once_per_form_key(scope=session_form_scope(payment_scope))
def payment_mark(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = access_for(token, session_id=pk)
    access.require_edit()
    session = access.session(pk)
    try:
        amount = Decimal(request.POST.get("amount", ""))
    except InvalidOperation:
        amount = Decimal(0)
    try:
        # the form's one-time key is the payment's too: the outbox may send it by the API
        services.payment_record(session=session, payer=request.POST.get("payer", ""),
                                payee=request.POST.get("payee", ""), amount=amount,
                                overpay=request.POST.get("overpay") == "1", idempotency_key=form_key(request),
                                by=access.actor())
    except services.IdempotencyConflict:
        # this form's key already marked another payment (sent by the API): nothing is marked twice
        messages.error(request, ALREADY_MARKED)
    except services.PaymentBeyondOwed as beyond:
        template = "partials/share_payments.html" if request.htmx else "table/payments.html"
        # asked inline, with what is owed; confirming posts the same payment again with overpay=1
        return render(request, template, payments_context(access, session, request)
                      | _beyond_owed(session, beyond, request.POST.get("drawn_after")))
    except InvalidInput as error:
        for problem in error.problems:
            messages.error(request, problem.message)
        if request.htmx:
            return render(request, "partials/share_payments.html",
                          {**payments_context(access, session, request), "problems": error.problems}, status=400)
    return _back(request, access, session)


@require_POST
def payment_undo(request: HttpRequest, token: str, pk: int, payment_id: int) -> HttpResponse:
    access = access_for(token, session_id=pk)
    access.require_edit()
    session = access.session(pk)
    payment = balance.payment_of(session, payment_id)
    if payment is None:
        raise Http404("No such payment in this session.")
    try:
        services.payment_undo(payment=payment, by=access.actor())
    except InvalidInput as error:
        for problem in error.problems:
            messages.error(request, problem.message)
    return _back(request, access, session)
