"""A body larger than the app takes is answered 413 by the proxy itself (issue 49), never passed on:
deploy/Caddyfile and deploy/nginx.conf as they ship (tests/ops/proxies.py), in front of an upstream
played here that counts what reaches it. Under /api/ the answer is the API's error shape, as the
app's own 413 is; a body within the limit reaches the app.

The upload is sent as a browser or curl sends one, reading while it writes: the proxy answers as
soon as it has the headers, and a client that waited to finish writing 51 MB before reading could
meet a connection the proxy has already closed.
"""

from __future__ import annotations

import contextlib
import json
import re
import select
import socket
import ssl
import threading
import time

import pytest
from django.conf import settings

from tests.ops.proxies import DEPLOY, Proxy, proxy_in_front

pytestmark = pytest.mark.proxy

LIMIT = settings.API_MAX_UPLOAD_BYTES
MB = 1024 * 1024
CHUNKED = re.compile(rb"(?i)\r\ntransfer-encoding:\s*chunked")


class CountingUpstream:
    """The app's place: reads each request whole, answers 200, and counts the requests it got."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.bodies: list[int] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(client,), daemon=True).start()

    def _answer(self, client: socket.socket) -> None:
        with client, contextlib.suppress(OSError):
            client.settimeout(10)
            received = b""
            while b"\r\n\r\n" not in received:
                chunk = client.recv(65536)
                if not chunk:
                    return
                received += chunk
            head, body = received.split(b"\r\n\r\n", 1)
            length = int(re.search(rb"(?i)content-length:\s*(\d+)", head).group(1))
            while len(body) < length:
                chunk = client.recv(65536)
                if not chunk:
                    return
                body += chunk
            self.bodies.append(len(body))
            client.sendall(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n'
                           b'Connection: close\r\n\r\n{}')

    def stop(self) -> None:
        self.listener.close()


def upload(proxy: Proxy, path: str, size: int) -> tuple[int, str, bytes]:
    """POST ``size`` bytes, writing while nothing has come back and reading what does, on one
    non-blocking socket: the status, the Content-Type and the body."""
    raw = socket.create_connection(("127.0.0.1", proxy.port), timeout=30)
    with proxy.tls.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
        tls.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
                    f"Content-Length: {size}\r\nConnection: close\r\n\r\n".encode())
        tls.setblocking(False)
        block, sent, answer = b"x" * 65536, 0, b""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                chunk = tls.recv(65536)
            except ssl.SSLWantReadError:
                chunk = None  # nothing yet (or only TLS's own records, such as a session ticket)
            except OSError:
                break  # reset: whatever came before it is the answer
            else:
                if not chunk:
                    break  # closed once it answered
                answer += chunk
                if _whole(answer):
                    break  # nginx reads on what is left of the body for 5 s before it closes
                continue
            if sent < size and not answer:
                try:
                    sent += tls.send(block[:size - sent])
                    continue
                except (ssl.SSLWantWriteError, ssl.SSLWantReadError):
                    pass
                except OSError:
                    sent = size  # the proxy closed its side: its answer is waiting
            select.select([tls], [tls] if sent < size and not answer else [], [], 1)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head, f"{path}: no answer after {sent} of {size} bytes"
    status = int(head.split(b" ", 2)[1])
    content_type = re.search(rb"(?i)\r\ncontent-type:\s*([^\r]*)", head)
    if CHUNKED.search(head):
        body = _unchunked(body)
    return status, content_type.group(1).decode() if content_type else "", body


def _whole(answer: bytes) -> bool:
    """The answer's head and all of the body it announces have come (by its length, or its chunks' end)."""
    head, parted, body = answer.partition(b"\r\n\r\n")
    if not parted:
        return False
    length = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", head)
    if length:
        return len(body) >= int(length.group(1))
    return bool(CHUNKED.search(head)) and body.endswith(b"0\r\n\r\n")


def _unchunked(body: bytes) -> bytes:
    out = b""
    while body:
        size, _, body = body.partition(b"\r\n")
        if not int(size, 16):
            break
        out, body = out + body[:int(size, 16)], body[int(size, 16) + 2:]
    return out


def test_both_proxies_are_set_to_the_apps_limit():
    assert LIMIT == 6 * MB
    assert re.search(r"^\s*client_max_body_size 6m;", (DEPLOY / "nginx.conf").read_text(), re.M)
    caddy = (DEPLOY / "Caddyfile").read_text()
    assert re.search(r"^\s*max_size 6MiB$", caddy, re.M) and f"> {LIMIT}" in caddy


@pytest.mark.parametrize("proxy_name", ["caddy", "nginx"])
def test_an_upload_over_the_limit_is_413_from_the_proxy_in_the_apps_words(proxy_name):
    upstream = CountingUpstream()
    try:
        with proxy_in_front(proxy_name, upstream.address, [upstream.address]) as proxy:
            api = upload(proxy, "/api/v1/imports", 51 * MB)
            just_over = upload(proxy, "/api/v1/imports", LIMIT + 1)
            page = upload(proxy, "/g/some-link/import/", 51 * MB)
            within = upload(proxy, "/api/v1/imports", LIMIT)
    finally:
        upstream.stop()

    for status, content_type, body in (api, just_over):
        assert (status, content_type) == (413, "application/json"), (status, content_type, body[:300])
        assert json.loads(body) == {"errors": [{"field": "", "code": "too_large",
                                                "message": f"A request body can be at most {LIMIT} bytes."}]}
    assert page[0] == 413 and b"errors" not in page[2], page
    assert within[0] == 200
    assert upstream.bodies == [LIMIT], "only the body within the limit reached the app"
