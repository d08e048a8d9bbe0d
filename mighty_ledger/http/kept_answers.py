"""The live fragments' answer, kept whole and given again before the middleware.

When a hand is saved every phone at the table fetches the board's live regions
(``GET /g/<token>/s/<id>/live/``), the same bytes for every phone on the link
(mighty_ledger/pages/views/sessions.py ``session_live``). The first phone's request
goes through Django as any other, and its answer, headers and all, is kept here under
what it depends on. Every later phone's request is answered from that copy by
``KeptAnswersMiddleware``, first in the stack: the link is checked with one small
query (a rotated link, a deleted session or group is refused at once, by the full
path), and nothing else runs, so a phone following the table costs a cache read and
that query rather than a whole request through the middleware and a view.

A phone that already holds the current revision's answer gets 304 the same way, whether
or not any phone fetched that revision: a board that applied a new hand's step (sent
inside the event, mighty_ledger/live/steps.py) holds the ETag of regions nobody drew,
and its poll costs that one query. The headers every live answer carries
besides its body and ETag (the security headers, no-store, the language) are kept from
the last one that went the full way, per language.

Only what is safe to repeat is kept: a GET of the live URL with no query string,
answered 200 (or 304) without a cookie. Anything else (another host, plain HTTP where
HTTPS is required, the database unreachable, nothing kept yet) goes the full way.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.translation import get_language_from_request

from mighty_ledger.http import link_query
from mighty_ledger.http.access import EDIT, VIEW
from mighty_ledger.http.cache import COPY_OF_A_REVISION_SECONDS, ROW_SECONDS
from mighty_ledger.models import Session

LIVE_PATH = re.compile(r"/g/(?P<token>[A-Za-z0-9_-]{1,64})/s/(?P<session>[1-9][0-9]{0,17})/live/")
# kept once for every answer: not what one answer says of its own body, nor its ETag
_NOT_SHARED = frozenset({"content-type", "content-length", "etag"})


def live_fragments_key(session: Session, right: str, token: str, language: str, before: int | None) -> str:
    """The cache key of the board's live fragments: what they depend on, and nothing of the visitor.

    The link's token is in the fragments' links, so it is in the key too, as a hash (the key is
    not a place for a capability): every phone holding the same link shares one copy.
    """
    link = hashlib.sha256(token.encode()).hexdigest()[:24]
    return ":".join(("board-fragments", session.stamp(right), link, language, str(before or "")))


def etag_of(key: str) -> str:
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def keep(response: HttpResponse, key: str) -> None:
    """Mark a view's answer to be kept whole, once the middleware has finished it."""
    response.kept_as = key


def held(request: HttpRequest, etag: str) -> bool:
    """Whether the client already holds the answer with this ETag (it sent it in If-None-Match)."""
    return etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]


class KeptAnswersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        found = (request.method == "GET" and not request.META.get("QUERY_STRING")
                 and LIVE_PATH.fullmatch(request.path_info))
        if not found:
            return self.get_response(request)
        kept = self._kept(request, found["token"], int(found["session"]))
        if kept is not None:
            return kept
        response = self.get_response(request)
        key = getattr(response, "kept_as", None)
        if key and response.status_code in (200, 304) and not response.cookies and not response.streaming:
            headers = [(name, value) for name, value in response.items() if name.lower() not in _NOT_SHARED]
            cache.set(_headers_key(get_language_from_request(request)), headers, ROW_SECONDS)
            if response.status_code == 200:
                cache.set("kept-answer:" + key, (response["Content-Type"], response.content),
                          COPY_OF_A_REVISION_SECONDS)
        return response

    def _kept(self, request: HttpRequest, token: str, session_id: int) -> HttpResponse | None:
        try:
            request.get_host()
        except DisallowedHost:
            return None  # the full way answers 400
        if settings.SECURE_SSL_REDIRECT and not request.is_secure():
            return None  # the full way redirects
        try:
            opened = link_query.session_revision(token, session_id)
        except DatabaseError:
            return None  # the full way answers 503
        if opened is None:
            return None  # the full way answers 404
        session, edit = opened
        language = get_language_from_request(request)
        key = live_fragments_key(session, EDIT if edit else VIEW, token, language, None)
        etag = etag_of(key)
        headers = cache.get(_headers_key(language))
        if headers is None:
            return None
        if held(request, etag):
            # also a revision no phone fetched: a phone that applied a hand's step holds its ETag
            response = HttpResponseNotModified()
        else:
            kept = cache.get("kept-answer:" + key)
            if kept is None:
                return None
            content_type, body = kept
            response = HttpResponse(body, content_type=content_type)
            response["Content-Length"] = str(len(body))
        for name, value in headers:
            response[name] = value
        response["ETag"] = etag
        return response


def _headers_key(language: str) -> str:
    # what the app and its middleware say with every live answer: the same for every link and
    # revision in one language (the security headers, no-store, Vary, the language)
    return "kept-headers:" + language
