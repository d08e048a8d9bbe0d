"""Live updates under test: the real ASGI app, read as a browser reads an event stream."""

from __future__ import annotations

import asyncio
import json

import pytest


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(autouse=True)
def _stream_checks_keep_no_connection(monkeypatch):
    """A stream checks its link on a shared pool thread; kept for reuse (CONN_MAX_AGE), those
    connections outlive each test's event loop and keep the test database from being dropped."""
    from django.db import connections

    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)


@pytest.fixture
def asgi_app():
    from mighty_ledger.asgi import application

    return application


class EventStream:
    """One GET to the ASGI app, held open: its status, then each event as it arrives.

    No HTTP library in between: the app's own ``send`` messages are parsed as
    EventSource would parse them (``event:`` and ``data:`` lines, a blank line
    ending each event, ``:`` lines as comments).
    """

    def __init__(self, app, path: str):
        self.app, self.path = app, path
        self.messages: asyncio.Queue = asyncio.Queue()
        self.left = asyncio.Event()
        self.buffer = b""
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self.asked = False
        self.task: asyncio.Task | None = None

    async def receive(self):
        if not self.asked:
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.left.wait()
        return {"type": "http.disconnect"}

    async def send(self, message):
        await self.messages.put(message)

    async def open(self) -> int:
        path, _, query = self.path.partition("?")
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
            "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query.encode(),
            "root_path": "", "headers": [(b"host", b"127.0.0.1")],
            "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 80),
        }
        self.task = asyncio.create_task(self.app(scope, self.receive, self.send))
        start = await asyncio.wait_for(self.messages.get(), 10)
        self.status = start["status"]
        self.headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
        return self.status

    async def next_event(self, timeout: float = 5.0) -> tuple[str, dict] | None:
        """The next event (name, data), skipping heartbeats; None if none comes in ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            while b"\n\n" in self.buffer:
                block, self.buffer = self.buffer.split(b"\n\n", 1)
                fields = {}
                for line in block.decode().split("\n"):
                    if line and not line.startswith(":"):
                        name, _, value = line.partition(":")
                        fields[name] = value.strip()
                if "data" in fields:
                    return fields.get("event", "message"), json.loads(fields["data"])
            left = deadline - loop.time()
            if left <= 0:
                return None
            try:
                message = await asyncio.wait_for(self.messages.get(), left)
            except TimeoutError:
                return None
            if message["type"] == "http.response.body":
                self.buffer += message.get("body", b"")
                if not message.get("more_body"):
                    return None

    async def body(self) -> bytes:
        """The whole body of a response that ends (an error answer)."""
        chunks = []
        while True:
            message = await asyncio.wait_for(self.messages.get(), 5)
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                return b"".join(chunks)

    async def close(self) -> None:
        self.left.set()
        if self.task is not None:
            await asyncio.wait_for(self.task, 5)


@pytest.fixture
async def open_stream(asgi_app):
    """Open event streams on the real ASGI app; every one is closed (the client leaves) after the test."""
    streams: list[EventStream] = []

    async def opener(path: str) -> EventStream:
        stream = EventStream(asgi_app, path)
        streams.append(stream)
        await stream.open()
        return stream

    yield opener
    for stream in streams:
        await stream.close()
    # the process's subscription belongs to this test's event loop: end it (and its LISTEN
    # connection, which would otherwise keep the test database from being dropped)
    from asgiref.sync import sync_to_async
    from django.db import connections

    from mighty_ledger.live import broker

    await broker().close()
    # and the connection of the thread this test's writes ran on (sync_to_async's own)
    await sync_to_async(connections.close_all)()
