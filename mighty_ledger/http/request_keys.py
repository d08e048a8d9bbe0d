"""One-time request keys: a write sent twice is made once, and the repeat gets the first answer.

One mechanism for both faces:

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

A key is claimed in its own committed statement before the write starts, so a
duplicate that arrives while the first is still being processed sees it: the
API answers 409 ``request_in_progress``, a form waits a moment for the first
one's answer. A request that fails gives its key back. Keys are forgotten after
``KEPT_FOR``; a request that died holding one (a killed worker) loses it after
``ABANDONED_AFTER``. Hands, contracts and payments keep their own key too
(``idempotency_key``), so none is recorded twice, even after its stored answer is forgotten.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from datetime import timedelta
from functools import wraps

from django.contrib import messages
from django.db import IntegrityError, models, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# Stripe keeps an idempotency key's answer for 24 hours
KEPT_FOR = timedelta(hours=24)
# gunicorn kills a request after 30 s (gunicorn.conf.py): one processing for longer than this has died
ABANDONED_AFTER = timedelta(seconds=60)
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


class RequestKey(models.Model):
    """A key a form or an API client sent with a write, and the first answer to it."""

    # what the key is unique in: one form's URL (hashed: it holds a link), or one session's API hands
    scope = models.CharField(max_length=80)
    key = models.CharField(max_length=200)
    # what the first request said (API: the hand as it would be stored), so a different body is refused
    fingerprint = models.CharField(max_length=64, blank=True)
    # the first answer; no status while the first request is still being processed
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.JSONField(null=True, blank=True)
    location = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        app_label = "mighty_ledger"
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="request_key_unique_in_scope")]

    def __str__(self) -> str:
        return f"{self.scope} {self.key}"


class RequestInProgress(Exception):
    """The same key's first request is still being processed."""

    def __init__(self, key: str):
        super().__init__(f"the request with key {key!r} is still being processed")
        self.key = key


@dataclass(frozen=True)
class Claim:
    """A key this request holds (``replay`` False: go on, then ``settle`` or ``release``),
    or the first request's stored answer (``replay`` True)."""

    row: RequestKey
    replay: bool

    def settle(self, *, status: int, body=None, location: str = "") -> None:
        """Keep this request's answer for the repeats."""
        RequestKey.objects.filter(pk=self.row.pk).update(status=status, body=body, location=location[:500])

    def release(self) -> None:
        """This request failed: the key is free for a retry."""
        RequestKey.objects.filter(pk=self.row.pk, status__isnull=True).delete()


def claim(*, scope: str, key: str, fingerprint: str = "") -> Claim:
    """Hold ``key`` for this request, or find the first request's answer; RequestInProgress while
    the first one is still running."""
    for _attempt in range(3):
        now = timezone.now()
        try:
            with transaction.atomic():
                row = RequestKey.objects.create(scope=scope, key=key, fingerprint=fingerprint, created_at=now)
        except IntegrityError:
            row = RequestKey.objects.filter(scope=scope, key=key).first()
            if row is None:
                continue  # released a moment ago: claim it again
        else:
            # the table holds one day of keys: older ones go as new ones come
            RequestKey.objects.filter(created_at__lt=now - KEPT_FOR).delete()
            return Claim(row, replay=False)
        forgotten = row.created_at < now - KEPT_FOR
        abandoned = row.status is None and row.created_at < now - ABANDONED_AFTER
        if forgotten or abandoned:
            # take it over, unless another repeat just did
            taken = RequestKey.objects.filter(pk=row.pk, created_at=row.created_at).update(
                created_at=now, status=None, body=None, location="", fingerprint=fingerprint,
            )
            if taken:
                row.refresh_from_db()
                return Claim(row, replay=False)
            continue
        if row.status is None:
            raise RequestInProgress(key)
        return Claim(row, replay=True)
    raise RequestInProgress(key)


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


def _claim_or_wait(scope: str, key: str, fingerprint: str) -> Claim | None:
    deadline = time.monotonic() + FORM_WAIT_SECONDS
    while True:
        try:
            return claim(scope=scope, key=key, fingerprint=fingerprint)
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
        held = _claim_or_wait(_form_scope(request), key, fingerprint)
        if held is None:
            response = render(request, "still_saving.html", status=409)
            response["Retry-After"] = "2"
            return response
        if held.replay:
            if saved_page is not None:
                messages.info(request, ALREADY_SAVED_ONCE)
                return _first_answer(request, held.row)
            if held.row.fingerprint == fingerprint:
                return _first_answer(request, held.row)
            return view(request, *args, **kwargs)
        try:
            response = view(request, *args, **kwargs)
        except BaseException:
            held.release()
            raise
        if _saved(request, response):
            held.settle(status=response.status_code, location=response.get("Location", ""))
        else:
            held.release()
        return response

    return once
