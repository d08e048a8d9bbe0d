"""The event streams served straight from ASGI, before Django's request handling.

Django's ASGI handler gives every request its own thread for sync code (the
request_started signal alone takes one) and keeps it until the response ends:
for a stream open all evening that is a thread per phone. The streams need
none of it (no session, no CSRF, no template; the link is checked with one
query on a shared thread), so they are served here, and every other request
goes to Django unchanged. The URLs are still Django's (``session_events``,
``group_events`` in table_urls.py), found with ``resolve``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from contextlib import aclosing, suppress
from urllib.parse import parse_qs

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.urls import Resolver404, resolve

from mighty_ledger.http.middleware import DATABASE_RETRY_AFTER_SECONDS, ROBOTS, outage_notes
from mighty_ledger.live.steps import BoardFollow, BoardSteps, DrawStep
from mighty_ledger.live.streams import (
    HEADERS,
    Gone,
    events,
    on_the_steps_thread,
    open_group_stream,
    open_session_stream,
)
from mighty_ledger.live.views import group_events, session_events

logger = logging.getLogger(__name__)

_HEADERS = [(name.lower().encode(), value.encode()) for name, value in HEADERS.items()]
_SUFFIX = "/events/"
_RETRY_AFTER = str(DATABASE_RETRY_AFTER_SECONDS).encode()


def _opener(path: str, query: bytes, steps: BoardSteps | None):
    """The coroutine that opens the stream this path names, or None for any other path."""
    if not path.endswith(_SUFFIX):
        return None
    if "\x00" in path:
        return _no_such_link()  # PostgreSQL cannot even compare such text (as RequestGuardMiddleware)
    try:
        match = resolve(path)
    except Resolver404:
        return None
    if match.func is session_events:
        token = match.kwargs["token"]
        return open_session_stream(token, match.kwargs["pk"], board=_board_follow(query, steps, token))
    if match.func is group_events:
        return open_group_stream(match.kwargs["token"])
    return None


def _board_follow(query: bytes, steps: BoardSteps | None, token: str) -> BoardFollow | None:
    """``?board=<language>``: the page shows the board's latest hands in that language."""
    if steps is None:
        return None
    language = parse_qs(query.decode("latin-1")).get("board", [""])[0]
    if language not in dict(settings.LANGUAGES):
        return None
    return BoardFollow(steps, token, language)


async def _no_such_link():
    raise Gone


def with_streams(django_application, *, board_steps: DrawStep | None = None):
    """The app with the streams served first; ``board_steps`` draws a new hand's step on the board
    for the streams of pages that show it (none: those pages fetch their regions on every change)."""
    steps = BoardSteps(board_steps, on_the_steps_thread) if board_steps is not None else None

    async def application(scope, receive, send):
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            opening = _opener(scope["path"], scope.get("query_string", b""), steps)
            if opening is not None:
                await _serve(opening, receive, send, head=scope["method"] == "HEAD")
                return
        await django_application(scope, receive, send)

    return application


async def _serve(opening, receive, send, *, head: bool = False) -> None:
    try:
        stream = await opening
    except Gone:
        await _refuse(send, 404, "not_found", "No such session for this link.")
        return
    except TimeoutError:
        # the broker does not answer: the browser tries again, and the page polls meanwhile
        await _refuse(send, 503, "live_unavailable",
                      "Live updates are not available; the page refreshes on its own.")
        return
    except (OperationalError, InterfaceError) as error:
        # PostgreSQL restarting: as the web workers answer (middleware.DatabaseOutageMiddleware);
        # the pool thread's broken connection is dropped by its next close_old_connections
        outage_notes.note("stream", error)
        await _refuse(send, 503, "database_unavailable",
                      f"The ledger's database is not answering; try again in {DATABASE_RETRY_AFTER_SECONDS} seconds.")
        return
    if head:
        # what GET would answer, without its body: the link opens the stream
        stream.broker.unwatch(stream.watch)
        await send({"type": "http.response.start", "status": 200, "headers": _HEADERS})
        await send({"type": "http.response.body", "body": b""})
        return
    this = asyncio.current_task()
    listener = asyncio.create_task(_cancel_on_disconnect(receive, this))
    try:
        await send({"type": "http.response.start", "status": 200, "headers": _HEADERS})
        async with aclosing(events(stream)) as chunks:
            async for chunk in chunks:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})
    except asyncio.CancelledError:
        if not listener.done():
            raise  # the server is shutting down, not the client leaving
        this.uncancel()
    except OSError:
        pass  # the client left while a chunk was on its way
    finally:
        listener.cancel()
        with suppress(asyncio.CancelledError):
            await listener


async def _cancel_on_disconnect(receive, task: asyncio.Task) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
    task.cancel()


async def _refuse(send, status: int, code: str, message: str) -> None:
    """A stream not opened, in the error shape the API uses; a 503 says when to try again."""
    body = json.dumps({"errors": [{"field": "", "code": code, "message": message}]}).encode()
    headers = [(b"content-type", b"application/json"), (b"cache-control", b"no-store"),
               (b"x-robots-tag", ROBOTS.encode())]
    if status == 503:
        headers.append((b"retry-after", _RETRY_AFTER))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
