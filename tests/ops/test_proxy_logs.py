"""No link in anything the shipped proxies write, whatever their upstreams do (issue 36).

Each proxy is started from deploy/ as it ships (tests/ops/proxies.py), in front of upstreams
played here: one that refuses connections (nothing listens), one that times out (the connection
is never taken: a listening socket whose queue is full), one that hangs once it has the request
(the phone gives up first), and one that resets the connection once it has the request. Through
it go the requests a phone sends with its links: a page, both event streams, the API with a
Bearer link, and a Referer naming a link. Then every file the proxy wrote, and every answer it
gave, is searched for the links' tokens: none may be there, though the failures were logged.
"""

from __future__ import annotations

import contextlib
import http.client
import secrets
import socket
import ssl
import struct
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.ops.proxies import proxy_in_front

pytestmark = pytest.mark.proxy

PHONE_GIVES_UP_SECONDS = 1.5


class Upstream:
    """A server on a loopback port that fails in one way."""

    def __init__(self, failure: str):
        self.failure = failure
        self.stopped = threading.Event()
        self.held: list[socket.socket] = []
        self.listener: socket.socket | None = None
        if failure == "refused":
            with socket.socket() as probe:  # a port nothing listens on
                probe.bind(("127.0.0.1", 0))
                self.port = probe.getsockname()[1]
            return
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        if failure == "timeout":
            # a queue never taken from, filled until a connection is no longer answered: the
            # kernel then drops every further SYN and the proxy's connect times out
            self.listener.listen(0)
            while True:
                try:
                    self.held.append(socket.create_connection(("127.0.0.1", self.port), timeout=0.5))
                except TimeoutError:
                    return
        self.listener.listen(64)
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._fail, args=(client,), daemon=True).start()

    def _fail(self, client: socket.socket) -> None:
        with contextlib.suppress(OSError):
            client.settimeout(10)
            client.recv(65536)  # the request
            if self.failure == "reset":
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                client.close()
                return
            self.held.append(client)  # "hang": never a byte back
            self.stopped.wait(30)

    def stop(self) -> None:
        self.stopped.set()
        for held in [*self.held, *filter(None, [self.listener])]:
            with contextlib.suppress(OSError):
                held.close()


def _phone_requests(edit: str, view: str) -> list[tuple[str, str, dict]]:
    """What phones send with their links: pages, both streams, the API with a Bearer link."""
    return [
        ("GET", f"/g/{edit}/", {}),
        ("GET", f"/g/{view}/s/7/", {"Referer": f"https://127.0.0.1/g/{edit}/s/7/"}),
        ("GET", f"/g/{view}/events/", {"Accept": "text/event-stream"}),
        ("GET", f"/g/{edit}/s/7/events/?board=ko", {"Accept": "text/event-stream"}),
        ("POST", f"/g/{edit}/s/7/hands/new/", {"Content-Type": "application/x-www-form-urlencoded"}),
        ("GET", "/api/v1/sessions/7", {"Authorization": f"Bearer {edit}"}),
        ("POST", "/api/v1/sessions", {"Authorization": f"Bearer {view}", "Content-Type": "application/json"}),
    ]


@pytest.mark.parametrize("failure", ["refused", "timeout", "hang", "reset"])
@pytest.mark.parametrize("proxy_name", ["caddy", "nginx"])
def test_no_link_is_written_whatever_the_upstream_does(proxy_name, failure):
    edit, view = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    web, streams = Upstream(failure), Upstream(failure)
    answers: list[str] = []

    def ask(request: tuple[str, str, dict]) -> None:
        method, path, headers = request
        try:
            status, sent, body = proxy.request(method, path, headers=headers,
                                               body=b"{}" if method == "POST" else None,
                                               timeout=PHONE_GIVES_UP_SECONDS if failure == "hang" else 30)
            answers.append(f"{status} {sent} {body.decode(errors='replace')}")
        except (TimeoutError, OSError, ssl.SSLError, http.client.HTTPException):
            answers.append("gave up")

    try:
        with proxy_in_front(proxy_name, web.address, [streams.address]) as proxy:
            try:
                with ThreadPoolExecutor(8) as pool:
                    list(pool.map(ask, _phone_requests(edit, view)))
            finally:
                # the hung upstreams let go first: the proxy then ends what it still holds, and says so
                web.stop()
                streams.stop()
                proxy.stop()
            written = proxy.written()
    finally:
        web.stop()
        streams.stop()

    assert len(answers) == len(_phone_requests(edit, view))
    if failure != "hang":
        assert all(answer.startswith(("502", "503", "504")) for answer in answers), answers
    # the failures were written down, with the links masked
    assert "/g/***/" in written, written[-3000:]
    for token in (edit, view):
        assert token not in written, f"{proxy_name} wrote a link when its upstream {failure}"
        assert not any(token in answer for answer in answers)
