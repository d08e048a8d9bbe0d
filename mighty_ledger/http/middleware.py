"""What every request goes through before and after its view: hostile input refused at the door,
links kept out of caches and referrers, and a database outage answered with 503, not 500.

- ``RequestGuardMiddleware``: NUL in the path is a 404 (PostgreSQL cannot even compare
  such text); NUL in the query string or a header is a 400. An API body must be at
  most ``API_MAX_BODY_BYTES``, nested at most ``API_MAX_JSON_DEPTH`` deep (Python's
  JSON parser recurses, and a thousand levels exhaust its stack), and hold no lone
  UTF-16 surrogate (``"\\ud800"``), which PostgreSQL refuses to store. Refusals under
  /api/ come in the error shape.
  A URL longer than ``URL_MAX_BYTES`` is a 414, in the error shape under /api/
  (gunicorn's own limit, far above it, would answer with an HTML page of its own).
- ``ApiErrorShapeMiddleware``: every 4xx under /api/ in the error shape, whoever answered
  it (Django's own HTML pages: a Host not allowed, /api/ itself).
- ``HeadAsGetMiddleware``: HEAD is answered wherever GET is, as HTTP requires: the view
  runs as for GET (``require_GET`` would refuse HEAD) and the answer goes without its body.
- ``NoStoreMiddleware``: pages and API answers carry capability links (in URLs and
  in bodies), so they are ``Cache-Control: no-store`` unless a view says otherwise, and
  every answer behind a link (/g/…, the API) is ``X-Robots-Tag: noindex, nofollow``: a link
  pasted somewhere public must not make its group's pages a search result.
- ``SameOriginCsrfMiddleware``: Django's CSRF check, made to work under
  ``Referrer-Policy: no-referrer`` (see the class).
- ``NotFoundPageMiddleware``: the app's own "This page is not here" (templates/404.html) under
  DEBUG too, where Django would show its developer page (see the class).
- ``DatabaseOutageMiddleware``: while the database restarts, 503 with Retry-After,
  in the error shape for the API and as a short "try again" page for people, and one
  line in the log for the outage (``OutageNotes``), not a traceback per request.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable
from http import HTTPStatus

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.views.defaults import page_not_found

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"
LINK_PREFIX = "/g/"
ROBOTS = "noindex, nofollow"
# the request line gunicorn allowed before (limit_request_line 4094), path and query together;
# gunicorn.conf.py now lets twice that through, so that the app answers it in its own shape
URL_MAX_BYTES = 4096
# the one API operation that takes a file (api/sheet_imports.py)
API_UPLOAD_PATH = "/api/v1/imports"
OUTAGE_NOTE_SECONDS = 10.0  # while the database is away: one line in the log this often, at most
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DATABASE_RETRY_AFTER_SECONDS = 5

_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def error_response(status: int, field: str, code: str, message: str, **headers: str) -> JsonResponse:
    """HAND_JSON's error shape, for answers given before any API view runs."""
    response = JsonResponse({"errors": [{"field": field, "code": code, "message": message}]}, status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def json_deeper_than(body: bytes, limit: int) -> bool:
    """Whether a JSON text nests arrays and objects more than ``limit`` deep, without parsing it."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False  # the usual case: too few brackets to ever get there
    depth = 0
    for bracket in _BRACKETS.finditer(_STRINGS.sub(b'""', body)):
        if bracket.group() in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def has_lone_surrogate(body: bytes) -> bool:
    """Whether a JSON text carries a UTF-16 surrogate escape that is not half of a pair."""
    if not _SURROGATE_ESCAPE.search(body):
        return False
    try:
        value = json.loads(body)
    except ValueError:
        return False  # not JSON at all: the parser answers that with its own 400
    try:
        # json.loads joins a valid pair into one character; a lone half cannot be encoded
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class RequestGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refused = self.refusal(request)
        return refused if refused is not None else self.get_response(request)

    def refusal(self, request: HttpRequest) -> HttpResponse | None:
        api = request.path_info.startswith(API_PREFIX)
        if "\x00" in request.path_info:
            if api:
                return error_response(404, "", "not_found", "There is nothing at this address.")
            raise Http404("No such page.")
        query = request.META.get("QUERY_STRING", "")
        if len(request.path_info.encode()) + len(query) > URL_MAX_BYTES:
            if api:
                return error_response(414, "", "uri_too_long", f"A URL can be at most {URL_MAX_BYTES} bytes long.")
            return HttpResponse(f"A URL can be at most {URL_MAX_BYTES} bytes long.", status=414,
                                content_type="text/plain; charset=utf-8")
        if "\x00" in query or "%00" in query:
            return self.bad_request(api, "bad_character", "The query string cannot contain the NUL character.")
        if any("\x00" in value for name, value in request.META.items()
               if name.startswith("HTTP_") and isinstance(value, str)):
            return self.bad_request(api, "bad_character", "A header cannot contain the NUL character.")
        if api and request.method in BODY_METHODS:
            return self.api_body_refusal(request)
        return None

    @staticmethod
    def bad_request(api: bool, code: str, message: str) -> HttpResponse:
        if api:
            return error_response(400, "", code, message)
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")

    @staticmethod
    def api_body_refusal(request: HttpRequest) -> HttpResponse | None:
        # a spreadsheet of past hands is a file of thousands of rows, sent as a form, not JSON
        upload = (request.path_info.rstrip("/") == API_UPLOAD_PATH
                  and request.content_type == "multipart/form-data")
        limit = settings.API_MAX_UPLOAD_BYTES if upload else settings.API_MAX_BODY_BYTES
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return error_response(400, "", "bad_request", "Content-Length must be a number.")
        if length > limit:
            return error_response(413, "", "too_large", f"A request body can be at most {limit} bytes.")
        if upload:
            return None  # its parts are the parser's: not JSON, and not read whole here
        body = request.body
        if len(body) > limit:  # a chunked body has no Content-Length to check first
            return error_response(413, "", "too_large", f"A request body can be at most {limit} bytes.")
        depth = settings.API_MAX_JSON_DEPTH
        if json_deeper_than(body, depth):
            return error_response(400, "", "too_deep", f"JSON can nest arrays and objects at most {depth} deep.")
        if has_lone_surrogate(body):
            return error_response(400, "", "bad_unicode",
                                  "Text must be valid Unicode: a \\ud800-\\udfff escape must be half of a pair.")
        return None


class ApiErrorShapeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not (request.path_info.startswith(API_PREFIX) and 400 <= response.status_code < 500):
            return response
        if response.streaming or response.get("Content-Type", "").startswith("application/json"):
            return response
        try:
            phrase = HTTPStatus(response.status_code).phrase
        except ValueError:
            phrase = "Client Error"
        shaped = error_response(response.status_code, "", phrase.lower().replace(" ", "_").replace("-", "_"),
                                f"{phrase}.")
        for name, value in response.items():
            if name.lower() not in ("content-type", "content-length"):
                shaped[name] = value
        shaped.cookies = response.cookies
        return shaped


class HeadAsGetMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "HEAD":
            return self.get_response(request)
        request.method = "GET"
        try:
            response = self.get_response(request)
        finally:
            request.method = "HEAD"
        if response.streaming:
            response.streaming_content = []
        else:
            # RFC 9110 9.3.2: the headers GET would send, Content-Length included
            if "Content-Length" not in response:
                response["Content-Length"] = str(len(response.content))
            response.content = b""
        return response


class NoStoreMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Cache-Control" not in response:
            response["Cache-Control"] = "no-store"
        if request.path_info.startswith((LINK_PREFIX, API_PREFIX)):
            response["X-Robots-Tag"] = ROBOTS
        return response


class SameOriginCsrfMiddleware(CsrfViewMiddleware):
    """Django's CSRF protection for pages that send no Referer.

    Every page is ``Referrer-Policy: no-referrer`` so a link never leaks out in
    a Referer; the browser then also sends its own forms with ``Origin: null``
    and no Referer, which Django's origin and (over HTTPS) referer checks refuse.
    ``Sec-Fetch-Site`` answers the same question: a header only the browser sets,
    saying whether the request comes from this site's own pages. When it says
    ``same-origin`` the origin is taken as checked; the token is checked as ever.
    """

    @staticmethod
    def _from_own_page(request: HttpRequest) -> bool:
        return request.META.get("HTTP_SEC_FETCH_SITE") == "same-origin"

    def _origin_verified(self, request: HttpRequest) -> bool:
        if request.META.get("HTTP_ORIGIN") == "null" and self._from_own_page(request):
            return True
        return super()._origin_verified(request)

    def _check_referer(self, request: HttpRequest) -> None:
        if "HTTP_REFERER" not in request.META and self._from_own_page(request):
            return
        super()._check_referer(request)


class NotFoundPageMiddleware:
    """The app's 404 page (templates/404.html, in the reader's language, with the way home) when
    DEBUG is on as well.

    ``make run`` is how a group plays at home, and it runs with DEBUG on: there Django answers an
    unknown address, or a link that was replaced, with its developer page (every URL pattern of
    the app, "You're seeing this error because you have DEBUG = True") and never calls the 404
    handler. This answers as the handler would, for a path no pattern takes (checked before the
    view) and for a view's Http404. With DEBUG off it does nothing: Django's own handler renders
    the same template. A 500 is left to Django under DEBUG: the developer page is where its
    traceback is read. The API answers its own 404s in the error shape (ApiErrorShapeMiddleware).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.DEBUG and not request.path_info.startswith(API_PREFIX):
            try:
                resolve(request.path_info, getattr(request, "urlconf", None))
            except Resolver404 as error:
                return page_not_found(request, error)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if settings.DEBUG and isinstance(exception, Http404) and not request.path_info.startswith(API_PREFIX):
            return page_not_found(request, exception)
        return None


class DatabaseOutageMiddleware:
    """503 while the database cannot be reached; Django drops the broken connection after the request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        outage_notes.note("request", exception)
        return database_unavailable(request)


class OutageNotes:
    """One line in the log when a server the app needs goes away, then one every OUTAGE_NOTE_SECONDS
    while it stays away, with the count of what went without it meanwhile: a ten-second database
    outage under load wrote a traceback for each of 380 requests, which said nothing the first did not."""

    def __init__(self, line: str = "database unavailable: %d %s(s) answered 503 (%s)") -> None:
        self.line = line  # what is said: the count, what was counted, and why
        self.lock = threading.Lock()
        self.last = float("-inf")
        self.unsaid = 0

    def note(self, what: str, error: Exception) -> None:
        with self.lock:
            self.unsaid += 1
            now = time.monotonic()
            if now - self.last < OUTAGE_NOTE_SECONDS:
                return
            count, self.unsaid, self.last = self.unsaid, 0, now
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        logger.warning(self.line, count, what, reason)


# one per process: every thread's requests count toward the same line
outage_notes = OutageNotes()
# Redis (the cache, the live broker): the pages are served without it meanwhile
redis_notes = OutageNotes("redis unavailable: %d %s(s) went without it (%s)")


class QuietOutage(logging.Filter):
    """Drops django.request's "Service Unavailable: <path>" line for each 503 the outage answers:
    ``OutageNotes`` says it once."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == "django.request" and getattr(record, "status_code", None) == 503)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    seconds = str(DATABASE_RETRY_AFTER_SECONDS)
    if request.path_info.startswith(API_PREFIX):
        return error_response(503, "", "database_unavailable",
                              f"The ledger's database is not answering; try again in {seconds} seconds.",
                              Retry_After=seconds)
    response = render(request, "try_again.html", {"seconds": DATABASE_RETRY_AFTER_SECONDS}, status=503)
    response["Retry-After"] = seconds
    return response
