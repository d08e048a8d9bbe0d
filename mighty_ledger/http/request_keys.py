"""One-time keys: a write sent twice is made once, and the repeat gets the first answer.

One store for every write, the ``RequestKey`` table: one row per key in the scope it is unique
in, holding what the key made and, for a day, the first answer to it.

- **The scope.** A write that makes a hand, a hand in progress, its completion or its throwing-in,
  or a payment is keyed by what it makes (``session:8:hands``, ``contract:3:complete``…: the
  ``*_scope`` functions below), whichever face sent it: the hand a form saved, sent again by the
  offline outbox through the API days later (static/js/outbox.js), meets its own key. Any other
  write is keyed by its face: the API's create and what the link reaches (``api:group:2:players``),
  or one form's URL (hashed: it holds a link).
- **What the key made**: the hand, contract or payment, and ``made_fingerprint``, the request as
  its service reads it (a hand as it would be stored, whether typed on the form or sent as
  JSON). The services read it (``made_by``) and write it (``key_made``) in the transaction that
  makes the thing, so a repeat gets that thing and the same key with another request is refused
  (services.IdempotencyConflict). This part stays as long as the thing (its foreign key cascades):
  a hand is never recorded twice, however late its copy comes.
- **The first answer**: its status, and the API's body (the exact bytes, as a JSON string) or
  where a form went, with ``fingerprint``, the request as that face reads it. An API client's
  repeat with the same body gets the same bytes, even if the hand was edited since (Stripe's
  rule), and with another body 422; a form's repeat lands where the first post went
  (``once_per_form_key``). An answer goes back only to the face that kept it (the API's has a
  body, a form's none); the other face asks the service, which finds what the key made. Answers
  are forgotten after ``KEPT_FOR``, and with them a key that made nothing.

Page forms: every form that creates something renders ``partials/request_key.html`` (a fresh
random ``request_key`` per form shown) and its view is wrapped in ``once_per_form_key``: a double
tap, a resent post or five posts at once all land on what the first one created. A form page
shows its key in its address (``?key=``, static/js/form_key.js), so the page that Back, a reload
or a restored draft brings again asks the server with the key it was saved with, and the hand,
deal miss or contract forms answer "this was saved as hand 8" instead of a fresh form carrying
the old values.

What a write makes and its key's row are one transaction, so a connection lost at any statement
leaves both or neither, and the retry gets the first answer or makes the thing once. While the
transaction runs, the key is held by a lock that ends with it (a PostgreSQL transaction-level
advisory lock; SQLite lets one writer in at a time): a duplicate arriving meanwhile is told so,
the API answers 409 ``request_in_progress``, a form waits a moment for the first one's answer,
and a request that died holds nothing. Two requests with one key that reach one service without
that lock (the hand a completion makes, a form's hand sent by the API at the same moment) are
decided by the session's row lock and the unique (scope, key) constraint.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import wraps
from typing import TypeVar

from django.contrib import messages
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from mighty_ledger.models import RequestKey

# Stripe keeps an idempotency key's answer for 24 hours
KEPT_FOR = timedelta(hours=24)
# how long a repeated form waits for the first post's answer before asking the player to reload
FORM_WAIT_SECONDS = 5.0

FORM_FIELD = "request_key"
# the same key sent earlier with another hand (by the API, say): nothing is saved twice, nothing overwritten
ALREADY_SAVED = _("This form was already saved with other values. Check the scoreboard, then open a new form.")
# a page brought back (Back, a restored tab) and saved again: its first save stands, nothing is added
# a payment's key sent earlier with another payment: the first stands, nothing is marked twice
ALREADY_MARKED = _("This form already marked another payment: nothing was marked twice. Check the payments below.")
ALREADY_SAVED_ONCE = _("This form was already saved: nothing was added. Open a new form for the next hand.")
# what partials/request_key.html renders (token_urlsafe(16)); anything else is no key
_FORM_KEY = re.compile(r"^[A-Za-z0-9_-]{16,64}$")

T = TypeVar("T")


# --- the scopes of the keys that make hands, hands in progress and payments ---------------------


def hand_scope(session_id: int) -> str:
    """A session's hands and events, recorded, or made by completing the hand in progress."""
    return f"session:{session_id}:hands"


def contract_scope(session_id: int) -> str:
    """A session's hands in progress, as the auction ends."""
    return f"session:{session_id}:contracts"


def payment_scope(session_id: int) -> str:
    return f"session:{session_id}:payments"


def night_payment_scope(night_id: int) -> str:
    """A club night's own payments (a transfer for the whole night), whichever face marks them."""
    return f"night:{night_id}:payments"


def completion_scope(contract_id: int) -> str:
    return f"contract:{contract_id}:complete"


def abandon_scope(contract_id: int) -> str:
    return f"contract:{contract_id}:abandon"


# --- what a key made: the services' side ------------------------------------------------------


def made_by(scope: str, key: str | None, made: str, *related: str) -> RequestKey | None:
    """``key``'s row in ``scope`` when it made a ``made`` ("hand", "contract" or "payment"),
    read with it (and ``related``, as select_related names them) in one query; else None."""
    if not key:
        return None
    return (RequestKey.objects.select_related(made, *related)
            .filter(scope=scope, key=key, **{f"{made}__isnull": False}).first())


def key_made(*, scope: str, key: str | None, fingerprint: str, **made) -> None:
    """Record that ``key`` made ``made`` (``hand=``, ``contract=`` or ``payment=``), from a request
    whose service fingerprint is ``fingerprint``; called in the transaction that made it.

    The key's row may be there already with nothing made (a payment form's "more than owed?"
    question was its first answer): it takes what was made. One that made something is never met:
    the service looked for it (``made_by``) under the session's lock, or at the session's revision
    that making it would have moved on, and a second row fails the unique constraint.
    """
    if not key:
        return
    taken = RequestKey.objects.filter(scope=scope, key=key, hand=None, contract=None, payment=None).update(
        made_fingerprint=fingerprint, **made)
    if not taken:
        RequestKey.objects.create(scope=scope, key=key, made_fingerprint=fingerprint, **made)


# --- the first answer: the faces' side ------------------------------------------------------------


class RequestInProgress(Exception):
    """The same key's first request is still being processed."""

    def __init__(self, key: str):
        super().__init__(f"the request with key {key!r} is still being processed")
        self.key = key


@dataclass(frozen=True)
class KeptAnswer:
    """The answer kept for a key: the status, and the body (API) or where the form went (pages)."""

    status: int
    body: object = None
    location: str = ""


API, FORM = "api", "form"


def _answered_by(row: RequestKey) -> str:
    # the API keeps the bytes it answered; a form keeps no body, only where it went
    return API if row.body is not None else FORM


def _answer_of(row: RequestKey | None, face: str, now) -> RequestKey | None:
    """``row`` when it holds an answer ``face`` gave within KEPT_FOR, else None."""
    if row is None or row.status is None or row.answered_at is None or row.answered_at < now - KEPT_FOR:
        return None
    return row if _answered_by(row) == face else None


# one statement, on PostgreSQL only: the lock is the transaction's, so it ends with its commit, its
# rollback or its connection, and a request that died never leaves its key held
_HOLD = "SELECT pg_try_advisory_xact_lock(%s::bigint)"


def _hold(scope: str, key: str) -> bool:
    """Hold ``key`` in ``scope`` until this transaction ends; False while another transaction holds it."""
    if connection.vendor != "postgresql":
        return True  # SQLite's writers wait their turn (transaction_mode IMMEDIATE): none is ever beside another
    digest = hashlib.sha256(f"{scope}\n{key}".encode()).digest()
    with connection.cursor() as cursor:
        cursor.execute(_HOLD, [int.from_bytes(digest[:8], "big", signed=True)])
        return cursor.fetchone()[0]


_ANSWER = ("fingerprint", "status", "body", "location", "answered_at")


def write_once(*, scope: str, key: str, fingerprint: str, face: str,
               write: Callable[[], tuple[T, KeptAnswer | None]]) -> tuple[RequestKey | None, T | None]:
    """Run ``write`` once per ``key`` in ``scope``, and keep its answer in the same transaction.

    ``write`` returns what it did and the answer to keep (None: keep nothing, the key stays
    free, as for a form shown again with its errors). Answers ``(first, None)`` when ``face``
    (API or FORM) answered the key already (the caller compares ``first.fingerprint`` with its
    own), else ``(None, what write did)``. An answer the other face kept stays the key's: this
    one is given, not kept. RequestInProgress while another request holds the key.
    """
    now = timezone.now()
    with transaction.atomic():
        if not _hold(scope, key):
            raise RequestInProgress(key)
        row = RequestKey.objects.filter(scope=scope, key=key).first()
        if (first := _answer_of(row, face, now)) is not None:
            return first, None
        done, kept = write()
        if kept is None or _answer_of(row, API if face == FORM else FORM, now) is not None:
            return None, done
        answer = RequestKey(scope=scope, key=key, fingerprint=fingerprint, status=kept.status, body=kept.body,
                            location=kept.location[:500], answered_at=now)
        # one statement whether or not the key has a row: the service may have written it just now
        # with what it made, which stays; an answer forgotten, or never given, is replaced
        RequestKey.objects.bulk_create([answer], update_conflicts=True, unique_fields=["scope", "key"],
                                       update_fields=_ANSWER)
    if row is None:
        _forget_old_answers(now)
    return None, done


def _forget_old_answers(now) -> None:
    """The table holds one day of answers: older ones go as new keys come, and a key that made
    nothing goes with its answer."""
    old = RequestKey.objects.filter(answered_at__lt=now - KEPT_FOR)
    old.filter(hand=None, contract=None, payment=None).delete()
    old.update(fingerprint="", status=None, body=None, location="", answered_at=None)


# --- page forms ------------------------------------------------------------------------------


def new_form_key() -> str:
    return secrets.token_urlsafe(16)


def form_key(request: HttpRequest) -> str | None:
    """The one-time key a posted form carries, or None (an old page, a hand-made post)."""
    key = request.POST.get(FORM_FIELD, "") if request.method == "POST" else ""
    return key if _FORM_KEY.match(key) else None


def shown_form_key(request: HttpRequest) -> str | None:
    """The key a form page was opened with (``?key=``: Back, a reload, a restored draft), or None."""
    key = request.GET.get("key", "") if request.method == "GET" else ""
    return key if _FORM_KEY.match(key) else None


def _form_fingerprint(request: HttpRequest) -> str:
    """What the form said: a repeat says the same; the same key with other values is a new post."""
    said = sorted((name, values) for name, values in request.POST.lists()
                  if name not in (FORM_FIELD, "csrfmiddlewaretoken"))
    return hashlib.sha256(repr(said).encode()).hexdigest()


def _form_scope(request: HttpRequest, *args, **kwargs) -> str:
    # the form's URL names the link and the session; hashed, so no link is stored in clear
    return "form:" + hashlib.sha256(request.path.encode()).hexdigest()[:64]


def _write_or_wait(request: HttpRequest, view, args, kwargs, scope: str, key: str, fingerprint: str,
                   ) -> tuple[RequestKey | None, HttpResponse | None] | None:
    """The view's post made once per key (see write_once); None when the first post with the key
    is still being saved after FORM_WAIT_SECONDS."""
    def write() -> tuple[HttpResponse, KeptAnswer | None]:
        response = view(request, *args, **kwargs)
        if not _saved(request, response):
            return response, None  # shown again with its errors: the key stays free to fix them and save
        return response, KeptAnswer(status=response.status_code, location=response.get("Location", ""))

    deadline = time.monotonic() + FORM_WAIT_SECONDS
    while True:
        try:
            return write_once(scope=scope, key=key, fingerprint=fingerprint, face=FORM, write=write)
        except RequestInProgress:
            if time.monotonic() > deadline:
                return None
            time.sleep(0.05)


def _saved(request: HttpRequest, response: HttpResponse) -> bool:
    # a saved form redirects; an htmx form (payments) answers its partial, and 400 when refused
    if response.status_code in (301, 302, 303):
        return bool(response.get("Location"))
    return bool(getattr(request, "htmx", False)) and response.status_code == 200


def _first_answer(request: HttpRequest, row: RequestKey) -> HttpResponse:
    if row.location:
        return HttpResponseRedirect(row.location)
    # an htmx form's first answer was a partial: the page is reloaded to show what it saved
    response = HttpResponse(status=204)
    response["HX-Refresh"] = "true"
    return response


def _used(scope: str, key: str) -> RequestKey | None:
    """The first post that saved with ``key`` on this form, if any."""
    return _answer_of(RequestKey.objects.filter(scope=scope, key=key).first(), FORM, timezone.now())


def once_per_form_key(view=None, *, saved_page=None, scope=_form_scope):
    """Make a form's post happen once per ``request_key``: a repeat gets where the first one went.

    Only a post that saved (a redirect, or an htmx partial) keeps its key; a
    form shown again with its errors gives the key back, so fixing it and
    saving works.

    ``saved_page(request, key, *args, **kwargs)`` marks a form whose key is spent
    once it saved (a hand, a deal miss, a contract: what a second copy would
    double). Its page opened again with a used key (``?key=``) is what the
    function answers ("saved as hand 8"), and a post with a used key lands where
    the first one went, whatever it says: a page brought back by Back must not
    save its hand twice. Without it, the same key with other values is a post of
    its own (a group page restored with an old key still adds the next player).

    ``scope(request, *args, **kwargs)`` is where the key is kept: the form's own URL, or for a
    form that makes a hand, a contract or a payment, the scope its service keys it in
    (pages/views/links.py ``session_form_scope``), where the API's copy of the same write finds it.
    """
    if view is None:
        return lambda view: once_per_form_key(view, saved_page=saved_page, scope=scope)

    @wraps(view)
    def once(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        shown = shown_form_key(request)
        if shown is not None and saved_page is not None:
            answer = saved_page(request, shown, *args, **kwargs)
            if answer is not None:
                return answer
        used = shown is not None and saved_page is None and _used(scope(request, *args, **kwargs), shown)
        if used:
            return _first_answer(request, used)
        key = form_key(request)
        if key is None:
            return view(request, *args, **kwargs)
        fingerprint = _form_fingerprint(request)
        written = _write_or_wait(request, view, args, kwargs, scope(request, *args, **kwargs), key, fingerprint)
        if written is None:
            response = render(request, "still_saving.html", status=409)
            response["Retry-After"] = "2"
            return response
        first, response = written
        if first is None:
            return response
        if saved_page is not None:
            messages.info(request, ALREADY_SAVED_ONCE)
            return _first_answer(request, first)
        if first.fingerprint == fingerprint:
            return _first_answer(request, first)
        return view(request, *args, **kwargs)

    return once
