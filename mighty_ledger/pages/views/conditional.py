"""Conditional pages: a phone that already holds this state of a page gets 304 Not Modified.

Pages that phones reload all evening (the scoreboard, settlement, history, a
hand, the group page) say what they show in a stamp, usually the session's
revision (mighty_ledger.reads.session_stamp); an unchanged page then costs the
link's query and nothing more.

These pages carry capability links, so they stay ``Cache-Control: no-store``
(nothing on disk, nothing in a shared cache): the 304 serves the clients that
keep the ETag themselves, such as the live board asking again after an event.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language

from mighty_ledger.http.cache import COPY_OF_A_REVISION_SECONDS
from mighty_ledger.http.etags import held


def conditional(request: HttpRequest, stamp: str, page: Callable[[], HttpResponse]) -> HttpResponse:
    """Answer 304 when the client already holds this state of the page, else render it with its ETag.

    The stamp says what the page shows (the session's revision, the link's right);
    the language, the query and the visitor's CSRF secret (the page's forms carry
    a token for it) are added here. A page with a message waiting is always fresh.
    """
    if len(messages.get_messages(request)):
        return page()
    if "CSRF_COOKIE" not in request.META:
        # a first visit: the CSRF secret its forms will be for, which the cookie then keeps. Not
        # asked for when the cookie came with the request: each get_token masks the secret anew
        # (32 random draws), and the page's own {% csrf_token %} asks again
        get_token(request)
    parts = (stamp, get_language(), request.get_full_path(), request.META["CSRF_COOKIE"])
    etag = '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'
    request.etag = etag  # the live page's script asks again with it (templates/partials/live.html)
    if held(request, etag):
        response = HttpResponseNotModified()
    else:
        response = page()
    response["ETag"] = etag
    patch_cache_control(response, no_store=True)
    return response


# What a page drawn for everyone carries where a visitor's CSRF token goes: 64 characters of the
# token's own alphabet, so escaping leaves it alone, and the same in every worker sharing the cache.
# (Were a visitor to type it into a name, their own page would show their own token: nothing.)
CSRF_STAND_IN = hashlib.sha256(b"mighty-ledger: a visitor's CSRF token goes here").hexdigest()


def page_key(key: str) -> str:
    """Where ``page_per_revision`` keeps the page it drew for ``key``."""
    return "drawn-once:" + hashlib.sha256(key.encode()).hexdigest()


def page_per_revision(request: HttpRequest, key: str, template: str, context: Callable[[], dict]) -> HttpResponse:
    """A page the same for every visitor of a link but for its forms' CSRF token: drawn once per key.

    The page is drawn with a stand-in for the token and kept in the cache under ``key``, which
    must name everything the page shows (conditional's stamp, the language, the path); each
    visitor then gets those bytes with their own token put in. A page with a message waiting
    is the visitor's own and is drawn for them alone. ``context`` is read only to draw. One
    cached page per revision: what every phone after the first gets after a change that sends
    no step (docs/performance.md).
    """
    if len(messages.get_messages(request)):
        return render(request, template, context())
    key = page_key(key)
    body = cache.get(key)
    if body is None:
        body = render(request, template, {**context(), "csrf_token": CSRF_STAND_IN}).content
        cache.set(key, body, COPY_OF_A_REVISION_SECONDS)
    return HttpResponse(body.replace(CSRF_STAND_IN.encode(), get_token(request).encode()))
