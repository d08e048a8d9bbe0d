"""The stream server as `make serve` runs it (issue 21): gunicorn with uvicorn's worker over PostgreSQL
and Redis.

Started with `make serve-streams`, the very command `make serve` runs beside the
workers, on a free port. Its database is PostgreSQL reached through a relay this
test holds, so a restart can be played without touching the shared server: the
relay drops every connection and, until it is back, hangs up on new ones at once,
as PostgreSQL does while it restarts. What the server writes to its log is read
at the end for any link.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import selectors
import signal
import socket
import threading
import time

import pytest
from django.db import connection

from mighty_ledger import services
from tests.factories import MADE_15_DIAMONDS, SessionFactory
from tests.servers import free_port, serving_streams, stream_processes, throwaway_redis

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True)]


class PostgresRelay:
    """A TCP relay in front of PostgreSQL; ``down`` plays a restart, ``up`` its end."""

    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        self.accepting = True
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.accepting:
                client.close()  # "server closed the connection unexpectedly"
                continue
            server = socket.create_connection(self.target)
            with self.lock:
                self.open += [client, server]
            threading.Thread(target=self._pipe, args=(client, server), daemon=True).start()

    def _pipe(self, client: socket.socket, server: socket.socket) -> None:
        selector = selectors.DefaultSelector()
        selector.register(client, selectors.EVENT_READ, server)
        selector.register(server, selectors.EVENT_READ, client)
        try:
            while True:
                for key, _ in selector.select():
                    chunk = key.fileobj.recv(65536)
                    if not chunk:
                        return
                    key.data.sendall(chunk)
        except OSError:
            return
        finally:
            selector.close()
            for end in (client, server):
                end.close()

    def down(self) -> None:
        self.accepting = False
        with self.lock:
            for end in self.open:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
            self.open.clear()

    def up(self) -> None:
        self.accepting = True

    def stop(self) -> None:
        self.stopped = True
        self.down()
        self.listener.close()


class Stream:
    """One GET held open, read as EventSource reads it."""

    def __init__(self, port: int, path: str):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        self.status = self.response.status

    def next_event(self) -> tuple[str, dict]:
        """The next event (skipping heartbeats); the socket's timeout bounds the wait."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline().decode()
            if not line:
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line == "":
                if "data" in fields:
                    return fields.get("event", "message"), json.loads(fields["data"])
                fields = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.strip()

    def close(self) -> None:
        self.connection.close()


def answer(port: int, path: str) -> tuple[int, dict, bytes]:
    """A request expected to end: status, headers (lower-case) and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
        raw.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        received = b""
        while chunk := raw.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode().split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (h.partition(":") for h in header_lines)}
    if headers.get("transfer-encoding") == "chunked":
        body = _unchunked(body)
    return int(status_line.split()[1]), headers, body


def _unchunked(body: bytes) -> bytes:
    out = b""
    while body:
        size, _, body = body.partition(b"\r\n")
        length = int(size, 16)
        if length == 0:
            break
        out, body = out + body[:length], body[length + 2:]
    return out


@pytest.fixture
def stream_server(tmp_path, settings):
    """`make serve-streams` on a free port, over PostgreSQL through a relay and a Redis of its own,
    which this test's writes publish to; stopped after the test."""
    database = connection.settings_dict
    relay = PostgresRelay(database["HOST"] or "127.0.0.1", int(database["PORT"] or 5432))
    port = free_port()
    password = f":{database['PASSWORD']}" if database["PASSWORD"] else ""
    env = {
        key: value for key, value in os.environ.items()
        if key not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE", "WEB_CONCURRENCY", "GUNICORN_ACCESS_LOG")
    } | {
        "DATABASE_URL": f"postgres://{database['USER']}{password}@127.0.0.1:{relay.port}/{database['NAME']}",
        "SECRET_KEY": "stream-server-test-" + "x" * 40, "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false", "STREAM_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1",
    }
    log_path = tmp_path / "streams.log"
    try:
        with throwaway_redis() as redis:
            settings.REDIS_URL = env["REDIS_URL"] = redis.url
            with serving_streams(env, port, log_path) as server:
                server.port, server.relay, server.log_path = port, relay, log_path
                server.database_url, server.redis_url = env["DATABASE_URL"], redis.url
                yield server
    finally:
        relay.stop()


def _open_when_back(port: int, path: str) -> Stream:
    """After an outage: the broker subscribes again with backoff; a new stream opens once it has."""
    deadline = time.monotonic() + 60
    while True:
        stream = Stream(port, path)
        if stream.status == 200 or time.monotonic() > deadline:
            return stream
        stream.close()
        time.sleep(0.5)


def test_the_stream_server_survives_a_nul_a_database_restart_and_logs_no_link(stream_server):
    session = SessionFactory()
    token = session.group.edit_token
    path = f"/g/{token}/s/{session.pk}/events/"
    port = stream_server.port

    watching = Stream(port, path)
    assert watching.status == 200
    assert watching.next_event() == ("hello", {"revision": session.revision})
    group_page = Stream(port, f"/g/{session.group.view_token}/events/")  # a view link, on the group's stream
    assert group_page.status == 200 and group_page.next_event() == ("hello", {})
    group_page.close()

    # a NUL in the path: 404 in the error shape, not PostgreSQL's refusal as a 500
    for nul_path in ("/g/%00/events/", f"/g/%00/s/{session.pk}/events/", f"/g/{token}%00/events/"):
        status, headers, body = answer(port, nul_path)
        assert status == 404, body
        assert json.loads(body)["errors"][0]["code"] == "not_found"

    stream_server.relay.down()
    status, headers, body = answer(port, path)
    assert status == 503, body
    assert int(headers["retry-after"]) >= 1
    assert json.loads(body)["errors"][0]["code"] in ("database_unavailable", "live_unavailable")
    stream_server.relay.up()

    # the stream opened before the outage carries on (its broker, Redis, never went away): the next hand
    after = _open_when_back(port, path)
    assert after.status == 200
    assert after.next_event()[0] == "hello"
    hand, _ = services.hand_record(session=session, entry=MADE_15_DIAMONDS)
    for stream in (watching, after):
        event, change = stream.next_event()
        while change["what"] == "resync":
            event, change = stream.next_event()
        assert (event, change["what"], change["session"]) == ("change", "hand_recorded", session.pk)
    for stream in (watching, after):
        stream.close()

    os.killpg(stream_server.pid, signal.SIGTERM)
    stream_server.wait(timeout=20)
    written = stream_server.log_path.read_text()
    assert f"/g/***/s/{session.pk}/events/" in written and "/g/***/events/" in written  # logged, masked
    assert token not in written and session.group.view_token not in written


def test_a_worker_whose_master_was_killed_exits_and_lets_the_port_go(stream_server, tmp_path):
    """issue 36: the orphaned worker kept the port, and `make serve-streams` could not start again."""
    port = stream_server.port
    session = SessionFactory()
    watching = Stream(port, f"/g/{session.group.view_token}/s/{session.pk}/events/")
    assert watching.next_event()[0] == "hello"  # a phone holds a stream open on the worker
    processes = stream_processes(port)
    (master,) = [pid for pid, parent in processes.items() if parent not in processes]

    os.kill(master, signal.SIGKILL)
    killed = time.monotonic()
    while stream_processes(port) and time.monotonic() - killed < 10:
        time.sleep(0.1)
    assert not stream_processes(port), "the worker outlived its master"
    assert time.monotonic() - killed < 5
    with pytest.raises(EOFError):
        watching.next_event()  # its stream ended with it: the phone reconnects elsewhere

    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env |= {"DATABASE_URL": stream_server.database_url, "SECRET_KEY": "stream-server-test-" + "x" * 40,
            "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "false", "STREAM_BIND": f"127.0.0.1:{port}",
            "WEB_CONCURRENCY": "1"}
    env["REDIS_URL"] = stream_server.redis_url
    with serving_streams(env, port, tmp_path / "again.log"):
        again = Stream(port, f"/g/{session.group.view_token}/s/{session.pk}/events/")
        assert again.status == 200 and again.next_event()[0] == "hello"
        again.close()
