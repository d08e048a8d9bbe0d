"""One-time request keys: a write sent twice is made once, and the repeat gets the first answer.

One mechanism for both faces, :func:`write_once`:

- an API client sends ``Idempotency-Key``; the first answer (status and body) is
  kept, and the same key with the same body gets it back, as it was, for 24 hours
  (Stripe's rule), even if the hand was edited since;
- every page form that creates something renders ``partials/request_key.html``
  (a fresh random ``request_key`` per form shown) and its view is wrapped in
  ``once_per_form_key``: the first post's redirect is kept, and a double tap, a
  resent post or five posts at once all land on what the first one created.
- a form page shows its key in its address (``?key=``, static/js/form_key.js), so
  the page that Back, a reload or a restored draft brings again asks the server
  with the key it was saved with, and the hand, deal miss or contract forms answer
  "this was saved as hand 8" instead of a fresh form carrying the old values.

What a write makes and the answer kept for its key are one transaction: the key's
row is written in the same commit as the group, player, session or hand, so a
connection lost at any statement leaves both or neither, and the retry gets the
first answer or makes the thing once. While the transaction runs, the key is
held by a lock that ends with it (a PostgreSQL transaction-level advisory lock;
SQLite lets one writer in at a time): a duplicate arriving meanwhile is told so,
the API answers 409 ``request_in_progress``, a form waits a moment for the first
one's answer, and a request that died holds nothing. Keys are forgotten after
``KEPT_FOR``. Hands, contracts and payments keep their own key too
(``idempotency_key``), so none is recorded twice, even after its stored answer is forgotten.
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


class RequestInProgress(Exception):
    """The same key's first request is still being processed."""

    def __init__(self, key: str):
        super().__init__(f"the request with key {key!r} is still being processed")
        self.key = key


@dataclass(frozen=True)
class Kept:
    """The answer kept for a key: the status, and the body (API) or where the form went (pages)."""

    status: int
    body: object = None
    location: str = ""


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


def write_once(*, scope: str, key: str, fingerprint: str, write: Callable[[], tuple[T, Kept | None]],
               ) -> tuple[RequestKey | None, T | None]:
    """Run ``write`` once per ``key`` in ``scope``, and keep its answer in the same transaction.

    ``write`` returns what it did and the answer to keep (None: keep nothing, the key stays
    free, as for a form shown again with its errors). Answers ``(first, None)`` when the key
    has an answer already (the caller compares ``first.fingerprint`` with its own), else
    ``(None, what write did)``. RequestInProgress while another request holds the key.
    """
    now = timezone.now()
    with transaction.atomic():
        if not _hold(scope, key):
            raise RequestInProgress(key)
        row = RequestKey.objects.filter(scope=scope, key=key).first()
        if row is not None and row.status is not None and row.created_at >= now - KEPT_FOR:
            return row, None
        done, kept = write()
        if kept is None:
            return None, done
        answer = {"fingerprint": fingerprint, "status": kept.status, "body": kept.body,
                  "location": kept.location[:500], "created_at": now}
        if row is None:
            RequestKey.objects.create(scope=scope, key=key, **answer)
        else:  # forgotten, or a claim left by an earlier release: this answer replaces it
            RequestKey.objects.filter(pk=row.pk).update(**answer)
    if row is None:
        # the table holds one day of keys: older ones go as new ones come
        RequestKey.objects.filter(created_at__lt=now - KEPT_FOR).delete()
    return None, done


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


def _form_scope(request: HttpRequest) -> str:
    # the form's URL names the link and the session; hashed, so no link is stored in clear
    return "form:" + hashlib.sha256(request.path.encode()).hexdigest()[:64]


def _write_or_wait(request: HttpRequest, view, args, kwargs, key: str, fingerprint: str,
                   ) -> tuple[RequestKey | None, HttpResponse | None] | None:
    """The view's post made once per key (see write_once); None when the first post with the key
    is still being saved after FORM_WAIT_SECONDS."""
    def write() -> tuple[HttpResponse, Kept | None]:
        response = view(request, *args, **kwargs)
        if not _saved(request, response):
            return response, None  # shown again with its errors: the key stays free to fix them and save
        return response, Kept(status=response.status_code, location=response.get("Location", ""))

    deadline = time.monotonic() + FORM_WAIT_SECONDS
    while True:
        try:
            return write_once(scope=_form_scope(request), key=key, fingerprint=fingerprint, write=write)
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


def _used(request: HttpRequest, key: str) -> RequestKey | None:
    """The first post that saved with ``key`` on this form, if any."""
    return RequestKey.objects.filter(scope=_form_scope(request), key=key, status__isnull=False).first()


def once_per_form_key(view=None, *, saved_page=None):
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
    """
    if view is None:
        return lambda view: once_per_form_key(view, saved_page=saved_page)

    @wraps(view)
    def once(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        shown = shown_form_key(request)
        if shown is not None and saved_page is not None:
            answer = saved_page(request, shown, *args, **kwargs)
            if answer is not None:
                return answer
        if shown is not None and saved_page is None and (row := _used(request, shown)) is not None:
            return _first_answer(request, row)
        key = form_key(request)
        if key is None:
            return view(request, *args, **kwargs)
        fingerprint = _form_fingerprint(request)
        written = _write_or_wait(request, view, args, kwargs, key, fingerprint)
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
