"""The event streams as Django views: a session's (every page of it) and a group's (its totals).

Under an ASGI server the stream stays open; ``mighty_ledger.asgi`` even serves
these two URLs before Django's request machinery, which would keep a thread
per open stream. Under WSGI (gunicorn's sync workers, the test server) a
worker must never be held by one page, so the view answers the hello and asks
the browser to come back in a while: the page then simply polls.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from mighty_ledger.live.streams import (
    HEADERS,
    Gone,
    events,
    group_of_link,
    one_shot,
    open_group_stream,
    open_session_stream,
    session_revision,
)

WSGI_RETRY_MS = 30_000  # the fallback's pace: the same as a page's poll without a stream


@require_GET
async def session_events(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    try:
        if not isinstance(request, ASGIRequest):
            # on the request's own thread and connection, which Django gives back when it ends
            revision = await sync_to_async(session_revision)(token, pk)
            return HttpResponse(one_shot({"revision": revision}, WSGI_RETRY_MS), headers=HEADERS)
        stream = await open_session_stream(token, pk)
    except Gone:
        raise Http404("No such session for this link.") from None
    except TimeoutError:
        return _unavailable()
    return StreamingHttpResponse(events(stream), headers=HEADERS)


@require_GET
async def group_events(request: HttpRequest, token: str) -> HttpResponse:
    try:
        if not isinstance(request, ASGIRequest):
            await sync_to_async(group_of_link)(token)
            return HttpResponse(one_shot({}, WSGI_RETRY_MS), headers=HEADERS)
        stream = await open_group_stream(token)
    except Gone:
        raise Http404("Unknown link.") from None
    except TimeoutError:
        return _unavailable()
    return StreamingHttpResponse(events(stream), headers=HEADERS)


def _unavailable() -> HttpResponse:
    # the broker does not answer: the browser tries again, and the page polls meanwhile
    return HttpResponse(status=503, headers={"Retry-After": "5"})
