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
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language


def conditional(request: HttpRequest, stamp: str, page: Callable[[], HttpResponse]) -> HttpResponse:
    """Answer 304 when the client already holds this state of the page, else render it with its ETag.

    The stamp says what the page shows (the session's revision, the link's right);
    the language, the query and the visitor's CSRF secret (the page's forms carry
    a token for it) are added here. A page with a message waiting is always fresh.
    """
    if len(messages.get_messages(request)):
        return page()
    get_token(request)  # the CSRF secret the page's forms are for, the same one the cookie keeps
    parts = (stamp, get_language(), request.get_full_path(), request.META["CSRF_COOKIE"])
    etag = '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:32] + '"'
    request.etag = etag  # the live page's script asks again with it (templates/partials/live.html)
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponseNotModified()
    else:
        response = page()
    response["ETag"] = etag
    patch_cache_control(response, no_store=True)
    return response
