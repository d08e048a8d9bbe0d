"""How a change travels from the process that wrote it to every process with a page watching.

A broker does two things: ``publish`` (sync, called after a commit from any
thread of any process) and ``watch`` (async, in the event loop of a process
that serves streams). Each serving process keeps one subscription per broker,
whatever the number of watchers, and hands each change to its own watchers
through a ``Hub`` in memory.

One broker per kind of deployment:
- ``RedisBroker``: Redis pub/sub on one channel, when REDIS_URL is set: `make serve` (its web
  workers and stream processes are processes apart) and several hosts.
- ``MemoryBroker``: the same fan-out without leaving the process, where one process both
  writes and serves the streams: `make run`.
"""

from __future__ import annotations

import asyncio
import json
import threading
import weakref
from collections import deque
from contextlib import aclosing, suppress
from dataclasses import dataclass

from django.conf import settings

from mighty_ledger.http.middleware import OutageNotes, redis_notes

CHANNEL = "mighty_ledger_live"
RESYNC = "resync"  # the subscription was lost for a while: every page checks again
# not a change of the table: a link of the group was rotated, so each stream of the group
# checks its own link again and ends if it was the old one (streams.py); told to no page
LINK_ROTATED = "link_rotated"
READY_TIMEOUT = 5.0  # seconds a new stream waits for the process's subscription
RETRY_FIRST, RETRY_MAX = 0.5, 10.0  # backoff between attempts to subscribe again
SILENCE_CHECK = 30.0  # seconds without news after which the subscription proves it is alive
PENDING_MAX = 16  # changes a slow watcher may owe; older ones are dropped (the page re-fetches anyway)


@dataclass(frozen=True, slots=True)
class Change:
    """What a watcher is told: which session, its revision now, and what happened to it."""

    session: int
    group: int
    revision: int | None
    what: str

    def encode(self) -> str:
        return json.dumps([self.session, self.group, self.revision, self.what], separators=(",", ":"))

    @classmethod
    def decode(cls, payload: str | bytes) -> Change | None:
        """The change a message carries, or None for anything else on the channel."""
        try:
            session, group, revision, what = json.loads(payload)
        except (ValueError, TypeError):
            return None
        if not (isinstance(what, str) and _is_id(group)):
            return None
        if not (_is_id(session) or (what == LINK_ROTATED and session == 0)):  # a rotation names no session
            return None
        if revision is not None and not _is_id(revision, zero=True):
            return None
        return cls(session, group, revision, what[:40])

    def public(self) -> dict:
        """What a page is sent: never the group's id, which its links do not show."""
        return {"session": self.session, "revision": self.revision, "what": self.what}


def _is_id(value: object, *, zero: bool = False) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= (0 if zero else 1)


class Watch:
    """One open stream's mailbox: the changes it has not sent yet."""

    __slots__ = ("pending", "waiter", "__weakref__")

    def __init__(self) -> None:
        self.pending: deque[Change] = deque(maxlen=PENDING_MAX)
        self.waiter: asyncio.Future | None = None

    def put(self, change: Change) -> None:
        self.pending.append(change)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def next(self, timeout: float) -> Change | None:
        """The next change, or None when ``timeout`` seconds pass without one."""
        if not self.pending:
            loop = asyncio.get_running_loop()
            self.waiter = waiter = loop.create_future()
            # A plain timer: every open stream waits here again after each change, and
            # asyncio.timeout's context cost more than the wait. (Not asyncio.wait_for: on Python
            # 3.11 it swallows a cancellation (the phone left) that comes as a change does, and
            # the stream would go on until its next heartbeat.) A cancellation reaches ``await``.
            timer = loop.call_later(timeout, _wake, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                self.waiter = None
        return self.pending.popleft() if self.pending else None


def _wake(waiter: asyncio.Future) -> None:
    if not waiter.done():
        waiter.set_result(None)


class Hub:
    """A process's watchers by session and by group; used only in its event loop's thread.

    Weak sets: a stream that ended without saying so (a client gone before its
    first byte) drops out when its Watch is collected.
    """

    def __init__(self) -> None:
        self.by_session: dict[int, weakref.WeakSet[Watch]] = {}
        self.by_group: dict[int, weakref.WeakSet[Watch]] = {}
        self.on_links: dict[int, weakref.WeakSet[Watch]] = {}  # group → its session streams, for a rotation

    def add(self, *, session: int | None = None, group: int | None = None) -> Watch:
        watch = Watch()
        key, table = (session, self.by_session) if session is not None else (group, self.by_group)
        table.setdefault(key, weakref.WeakSet()).add(watch)
        return watch

    def on_links_of(self, watch: Watch, group: int) -> None:
        """A session's stream opened on a link of ``group``: it hears when a link of it is rotated."""
        self.on_links.setdefault(group, weakref.WeakSet()).add(watch)

    def discard(self, watch: Watch) -> None:
        for table in (self.on_links, self.by_session, self.by_group):
            for key, watches in list(table.items()):
                if watch in watches:
                    watches.discard(watch)
                    if not watches:
                        del table[key]
                    break  # a session's stream may be in on_links too

    def deliver(self, change: Change) -> None:
        if change.what == LINK_ROTATED:
            for watch in [*self.by_group.get(change.group, ()), *self.on_links.get(change.group, ())]:
                watch.put(change)
            return
        if change.what == RESYNC:
            for table in (self.by_session, self.by_group):
                for watches in list(table.values()):
                    for watch in list(watches):
                        watch.put(change)
            return
        for watch in list(self.by_session.get(change.session, ())):
            watch.put(change)
        for watch in list(self.by_group.get(change.group, ())):
            watch.put(change)

    def __len__(self) -> int:
        return sum(len(w) for w in self.by_session.values()) + sum(len(w) for w in self.by_group.values())


class Broker:
    """Publishing from anywhere, watching in this process's event loop."""

    kind = ""

    def __init__(self) -> None:
        # while its server is away: one line in the log, then one every ten seconds with the count
        self.lost = OutageNotes("live updates: %d %s(s) failed (%s); retrying")
        self.hub = Hub()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.ready: asyncio.Event | None = None
        self.listener: asyncio.Task | None = None

    def publish(self, change: Change) -> None:
        raise NotImplementedError

    async def watch(self, *, session: int | None = None, group: int | None = None) -> Watch:
        """A mailbox for one stream, once this process is surely subscribed (nothing after this is missed)."""
        await self._subscribed()
        return self.hub.add(session=session, group=group)

    def unwatch(self, watch: Watch) -> None:
        self.hub.discard(watch)

    async def close(self) -> None:
        """Stop this process's subscription (tests; a server simply exits)."""
        if self.listener is not None:
            self.listener.cancel()
            with suppress(asyncio.CancelledError):
                await self.listener
        self.loop = self.listener = self.ready = None

    async def _subscribed(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is not loop:
            # the first stream of this process, or a new event loop (each async test has its own)
            self.loop, self.hub, self.ready = loop, Hub(), asyncio.Event()
            self.listener = loop.create_task(self._listen(), name=f"live {self.kind} subscription")
        if not self.ready.is_set():
            await asyncio.wait_for(self.ready.wait(), READY_TIMEOUT)

    async def _listen(self) -> None:
        """Hold the subscription: set ``ready``, deliver changes, and subscribe again after a failure."""
        raise NotImplementedError

    async def _hold(self, subscribe) -> None:
        """Run ``subscribe`` again whenever it fails; after a gap, every watcher is told to check again."""
        delay, gap = RETRY_FIRST, False
        while True:
            try:
                async with aclosing(subscribe()) as changes:
                    async for change in changes:
                        if change is None:  # subscribed
                            self.ready.set()
                            if gap:
                                self.hub.deliver(Change(0, 0, None, RESYNC))
                            delay, gap = RETRY_FIRST, False
                        else:
                            self.hub.deliver(change)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the server went away: the streams stay open, and catch up later
                self.lost.note(f"{self.kind} subscription attempt", error)
            self.ready.clear()
            gap = True
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX)


class MemoryBroker(Broker):
    kind = "memory"

    def __init__(self, location: str = "") -> None:
        super().__init__()

    def publish(self, change: Change) -> None:
        loop, hub = self.loop, self.hub
        if loop is None or loop.is_closed():
            return  # nobody in this process has ever watched
        loop.call_soon_threadsafe(hub.deliver, change)

    async def _listen(self) -> None:
        self.ready.set()


class RedisBroker(Broker):
    kind = "redis"

    def __init__(self, location: str) -> None:
        super().__init__()
        self.url = location
        self._client = None
        self._client_lock = threading.Lock()

    def publish(self, change: Change) -> None:
        import redis

        if self._client is None:
            with self._client_lock:
                if self._client is None:
                    # a connection pool, safe to share between a worker's threads
                    self._client = redis.Redis.from_url(self.url, socket_timeout=2, socket_connect_timeout=2)
        try:
            self._client.publish(CHANNEL, change.encode())
        except (redis.RedisError, OSError) as error:
            # the write is committed; the phones catch up at their next poll
            redis_notes.note("change", error)

    async def _listen(self) -> None:
        import redis.asyncio

        async def subscribe():
            client = redis.asyncio.Redis.from_url(self.url, socket_connect_timeout=2)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    # the server's confirmation: from here on nothing published is missed
                    while (await pubsub.get_message(timeout=READY_TIMEOUT) or {}).get("type") != "subscribe":
                        pass
                    yield None
                    while True:
                        message = await pubsub.get_message(timeout=SILENCE_CHECK)
                        if message is None:
                            await pubsub.ping()
                        elif message["type"] == "message":
                            change = Change.decode(message["data"])
                            if change is not None:
                                yield change
            finally:
                await client.aclose()

        await self._hold(subscribe)


BROKERS = {"memory": MemoryBroker, "redis": RedisBroker}
_brokers: dict[tuple[str, str], Broker] = {}
_brokers_lock = threading.Lock()


def broker_choice() -> tuple[str, str]:
    """Which broker this process uses, and where: Redis if configured, else memory."""
    redis_url = getattr(settings, "REDIS_URL", "") or ""
    return ("redis", redis_url) if redis_url else ("memory", "")


def broker() -> Broker:
    kind, location = broker_choice()
    found = _brokers.get((kind, location))
    if found is None:
        with _brokers_lock:
            found = _brokers.get((kind, location))
            if found is None:
                found = _brokers[(kind, location)] = BROKERS[kind](location)
    return found
