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
from contextlib import aclosing, suppress

from django.urls import Resolver404, resolve

from .streams import HEADERS, Gone, events, open_group_stream, open_session_stream
from .views import group_events, session_events

_HEADERS = [(name.lower().encode(), value.encode()) for name, value in HEADERS.items()]
_SUFFIX = "/events/"


def _opener(path: str):
    """The coroutine that opens the stream this path names, or None for any other path."""
    if not path.endswith(_SUFFIX):
        return None
    try:
        match = resolve(path)
    except Resolver404:
        return None
    if match.func is session_events:
        return open_session_stream(match.kwargs["token"], match.kwargs["pk"])
    if match.func is group_events:
        return open_group_stream(match.kwargs["token"])
    return None


def with_streams(django_application):
    async def application(scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "GET":
            opening = _opener(scope["path"])
            if opening is not None:
                await _serve(opening, receive, send)
                return
        await django_application(scope, receive, send)

    return application


async def _serve(opening, receive, send) -> None:
    try:
        stream = await opening
    except Gone:
        await _plain(send, 404, b"No such session for this link.")
        return
    except TimeoutError:
        await _plain(send, 503, b"Live updates are not available; the page refreshes on its own.",
                     [(b"retry-after", b"5")])
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


async def _plain(send, status: int, body: bytes, headers: list | None = None) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), *(headers or [])]})
    await send({"type": "http.response.body", "body": body})
