"""A line between the phones and the server, in front of a test's server on 127.0.0.1: it passes
every request as it is, after ``delay`` each way if asked (every byte, the pages, the API and the
event streams alike), or does to the phone's writes what a table's line does.

A browser's network emulation does not reach a service worker's requests, nor a request a page
makes through one, nor an open event stream; a relay sees them all. Each connection carries one
request (the relay asks the server to close it after its answer), so each write is seen alone.

What a write can meet (``break_writes``): ``cut`` before it reaches the server, ``cut_after`` the
server has it (the answer is lost), ``slow`` (the server has it, the answer never comes), ``5xx`` (a
proxy's 502 in the server's place). After the first, every write is cut until ``heal``. A page
the line never brings (``refuse``) is cut whatever asks for it, the service worker included.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
import time

WRITES = {b"POST", b"PUT", b"PATCH", b"DELETE"}


def closing(head: bytes) -> bytes:
    """An HTTP head that says its connection closes after this request or answer."""
    head = re.sub(rb"(?im)^connection:[^\r\n]*\r\n", b"", head)
    return head[:-2] + b"Connection: close\r\n\r\n"


class Relay:
    def __init__(self, upstream_port: int, *, delay: float = 0.0) -> None:
        self.upstream_port = upstream_port
        self.delay = delay  # seconds, each way
        self.reached: list[str] = []  # what each broken write met
        self._how: str | None = None
        self._path = re.compile(b"")
        self._refused: re.Pattern | None = None
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._server: asyncio.base_events.Server | None = None
        self.port = 0

    # --- the test's side -------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Relay:
        self._thread.start()
        self._ready.wait(10)
        return self

    def stop(self) -> None:
        async def close() -> None:
            if self._server is not None:
                self._server.close()
            running = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)
        asyncio.run_coroutine_threadsafe(close(), self._loop).result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    def break_writes(self, how: str, path: str = r"^/api/") -> None:
        self.reached = []
        self._path = re.compile(path.encode())
        self._how = how

    def refuse(self, path: str) -> None:
        self._refused = re.compile(path.encode())

    def heal(self) -> None:
        self._how = None

    # --- the line ----------------------------------------------------------------------------

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    def _fate(self, method: bytes, path: bytes) -> str:
        if self._refused is not None and self._refused.search(path):
            return "cut"
        if self._how is None or method not in WRITES or not self._path.search(path):
            return "pass"
        fate = self._how if not self.reached else "cut"
        self.reached.append(fate)
        return fate

    async def _serve(self, client_reader: asyncio.StreamReader, client: asyncio.StreamWriter) -> None:
        try:
            await self._relay(client_reader, client)
        except (ConnectionError, OSError, asyncio.CancelledError):
            client.transport.abort()

    async def _relay(self, client_reader: asyncio.StreamReader, client: asyncio.StreamWriter) -> None:
        try:
            head = await client_reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            client.close()
            return
        method, path = (head.split(b" ", 2) + [b"", b""])[:2]
        fate = self._fate(method, path)
        if fate == "cut":
            client.transport.abort()
            return
        if fate == "5xx":
            client.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: 24\r\n"
                         b"Connection: close\r\n\r\n<h1>502 Bad Gateway</h1>")
            await client.drain()
            client.close()
            return
        try:
            server_reader, server = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            client.transport.abort()
            return
        to_server = asyncio.ensure_future(self._pipe(client_reader, server, closing(head)))
        if fate == "pass":
            # the answer says the connection closes too: the phone's next request comes on a new one
            try:
                answer = await server_reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError as cut:
                answer = cut.partial
            await self._pipe(server_reader, client, closing(answer) if answer.endswith(b"\r\n\r\n") else answer)
        else:
            # the server has it; its answer is read and lost (cut_after), or held (slow)
            with contextlib.suppress(ConnectionError):
                await server_reader.read()
            if fate == "cut_after":
                client.transport.abort()
            else:
                with contextlib.suppress(ConnectionError):
                    await client_reader.read()  # until the phone gives up on it
                client.close()
        to_server.cancel()
        server.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, first: bytes = b"") -> None:
        """Bytes from one side to the other, each chunk ``delay`` after it was read, in order."""
        due: asyncio.Queue = asyncio.Queue()

        async def deliver() -> None:
            while True:
                at, chunk = await due.get()
                if chunk is None:
                    break
                wait = at - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(chunk)
                await writer.drain()

        delivering = asyncio.ensure_future(deliver())
        try:
            if first:
                due.put_nowait((time.monotonic() + self.delay, first))
            while chunk := await reader.read(65536):
                due.put_nowait((time.monotonic() + self.delay, chunk))
            due.put_nowait((0, None))
            await delivering
            if writer.can_write_eof():
                writer.write_eof()
        except (ConnectionError, asyncio.CancelledError):
            delivering.cancel()
        finally:
            with contextlib.suppress(Exception):
                writer.close()
