"""The event stream a page follows: server-sent events for one session, or for a whole group.

Opening a stream checks the link once (one query, on a thread, the connection
given back at once); after that the stream only relays what the broker says:
a ``hello`` with the session's revision as the check read it, then a
``change`` for each write, and a comment line as a heartbeat. A stream of a page
that shows the board also carries each new hand's step on it (steps.py). A stream ends
by itself after a while, so the browser reconnects and the link is checked
again (a deleted session stops being followed). A rotated link ends its streams at once: every
stream of the group is told, checks its own link again, and ends if it was the old one.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError, close_old_connections
from django.db.models import Q

from mighty_ledger.http.access import is_link_shaped, is_row_id
from mighty_ledger.http.middleware import ROBOTS
from mighty_ledger.live.brokers import LINK_ROTATED, Broker, Watch, broker
from mighty_ledger.live.steps import BoardFollow
from mighty_ledger.live.wire import sse
from mighty_ledger.models import Group, Session

LIFETIME = 600.0  # seconds before a stream ends and the browser reconnects (plus up to 10% jitter)
RETRY_MS = 2000  # how long the browser waits before reconnecting after a stream ends
HEADERS = {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    # nginx and similar proxies buffer responses unless told not to: events would arrive in lumps
    "X-Accel-Buffering": "no",
    # a stream is reached by a link (http/middleware.py: NoStoreMiddleware)
    "X-Robots-Tag": ROBOTS,
}
HEARTBEAT_LINE = b": keep-alive\n\n"


class Gone(Exception):
    """An unknown link, or a session that is not a live session of the link's group."""


@dataclass(frozen=True)
class Stream:
    broker: Broker
    watch: Watch
    hello: dict
    board: BoardFollow | None = None  # a page showing the board: new hands' steps in its events
    link: tuple = ()  # the check that opened it, and its arguments: made again after a rotation


def session_revision(token: str, session_id: int) -> int:
    """The session's revision if the link reaches it as a live session; else Gone. One query."""
    return session_of_link(token, session_id)[0]


def session_of_link(token: str, session_id: int) -> tuple[int, int]:
    """The session's revision and its group's id if the link reaches it as a live session; else
    Gone. One query."""
    if not (is_link_shaped(token) and is_row_id(session_id)):
        raise Gone
    found = (
        Session.objects.live()
        .filter(Q(group__edit_token=token) | Q(group__view_token=token), group__deleted_at__isnull=True,
                pk=session_id)
        .values_list("revision", "group_id")
        .first()
    )
    if found is None:
        raise Gone
    return found


def group_of_link(token: str) -> int:
    """The id of the live group the link opens; else Gone. One query."""
    if not is_link_shaped(token):
        raise Gone
    group_id = Group.objects.live().filter(Q(edit_token=token) | Q(view_token=token)).values_list(
        "id", flat=True).first()
    if group_id is None:
        raise Gone
    return group_id


def _on_fresh_connection(check: Callable, *args):
    # A stream lives for minutes, far past any request's end, where Django would give the
    # connection back: so the check takes a healthy connection and returns it at once
    # (kept for reuse within CONN_MAX_AGE, closed with CONN_MAX_AGE=0).
    close_old_connections()
    try:
        return check(*args)
    finally:
        close_old_connections()


# the board's steps are drawn one at a time on a thread of their own (steps.py): its connection stays
# open from one hand to the next, where each thread of the shared pool would keep one of its own
_STEPS_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="board-steps")


async def on_the_steps_thread(draw: Callable, *args):
    return await asyncio.get_running_loop().run_in_executor(_STEPS_THREAD, _on_fresh_connection, draw, *args)


async def checked(check: Callable, *args):
    # thread_sensitive=False: a shared pool of threads; Django's default would keep one thread
    # per open stream for as long as it is open
    return await sync_to_async(_on_fresh_connection, thread_sensitive=False)(check, *args)


async def open_session_stream(token: str, session_id: int, *, board: BoardFollow | None = None) -> Stream:
    """Subscribe first, then read the revision: a write after the read is surely heard."""
    live = broker()
    watch = await live.watch(session=session_id)
    try:
        revision, group_id = await checked(session_of_link, token, session_id)
    except BaseException:
        live.unwatch(watch)
        raise
    live.hub.on_links_of(watch, group_id)
    return Stream(live, watch, {"revision": revision}, board, link=(session_of_link, token, session_id))


async def open_group_stream(token: str) -> Stream:
    group_id = await checked(group_of_link, token)
    live = broker()
    return Stream(live, await live.watch(group=group_id), {}, link=(group_of_link, token))


async def _link_still_opens(stream: Stream) -> bool:
    """Whether the link the stream was opened on still opens it, after a link of its group was rotated."""
    try:
        await checked(*stream.link)
    except Gone:
        return False
    except DatabaseError:
        return True  # the database is away: the stream goes on, and the link is checked when it ends
    return True


async def events(stream: Stream, *, lifetime: float | None = None) -> AsyncIterator[bytes]:
    """The stream's bytes: hello, then changes and heartbeats until its lifetime is up."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + (lifetime if lifetime is not None else LIFETIME * random.uniform(1.0, 1.1))
    heartbeat = settings.LIVE_HEARTBEAT_SECONDS
    try:
        yield f"retry: {RETRY_MS}\n".encode() + sse("hello", stream.hello)
        while (left := deadline - loop.time()) > 0:
            change = await stream.watch.next(min(heartbeat, left))
            if change is None:
                yield HEARTBEAT_LINE
                continue
            if change.what == LINK_ROTATED:
                if stream.link and not await _link_still_opens(stream):
                    return  # the old link: the browser reconnects and is refused
                continue
            yield sse("change", change.public()) if stream.board is None else await stream.board.told(change)
    finally:
        stream.broker.unwatch(stream.watch)


def one_shot(hello: dict, retry_ms: int) -> bytes:
    """For a server that cannot hold a stream open (WSGI): the hello, and when to ask again."""
    return f"retry: {retry_ms}\n".encode() + sse("hello", hello)
