"""The front door as an operator runs it: `make serve` behind deploy/Caddyfile and deploy/nginx.conf.

Real parts only: `make serve` itself (gunicorn's sync workers and the stream server, from the
same gunicorn.conf.py) on a PostgreSQL database made for this module (dropped after it) and
free loopback ports, with a second stream server beside it, as tests/servers.py's serving_app
starts them; and each proxy from its Debian package in front with TLS on a free port, as
tests/ops/proxies.py starts them: Caddy with its own internal CA, nginx with a certificate made
with openssl. Every check goes through the proxy, with the proxy's certificate verified; the
app's own port is asked only to compare headers.

The heartbeat is one second here (LIVE_HEARTBEAT_SECONDS) so that a quiet stream
can be watched across several of them. The one time bound is functional: an
event must reach an open stream within a second of the write, which a proxy that
buffers the stream would miss by a heartbeat or by minutes.

The systemd units in deploy/ are not run, only checked with `systemd-analyze verify`.

No django_db mark: these tests make their own database, so they run once, in the
SQLite pass of `make test`. Caddy and nginx come from scripts/ensure_proxies.sh;
under CI=true a missing one (or PostgreSQL) fails instead of skipping.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import queue
import re
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from django.urls import reverse

from tests.factories import MADE_15_DIAMONDS
from tests.ops.proxies import DEPLOY, Proxy, proxy_in_front
from tests.servers import REPO, App, missing, serving_app

pytestmark = pytest.mark.proxy

HEARTBEAT_SECONDS = 1
SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
# what the app sets on every page, which a proxy must pass on as it is
APP_HEADERS = ("content-security-policy", "cache-control", "referrer-policy", "x-content-type-options",
               "x-frame-options", "content-type", "strict-transport-security", "x-robots-tag")
A_YEAR = 365 * 24 * 3600


@pytest.fixture(scope="module")
def app_servers(tmp_path_factory):
    with serving_app(tmp_path_factory.mktemp("serve"), "front_door", heartbeat_seconds=HEARTBEAT_SECONDS) as app:
        yield app


# --- the two proxies ------------------------------------------------------------------------------


@dataclass
class Door:
    """One proxy in front of the app, and the group made through it."""

    proxy: Proxy
    app: App
    edit_token: str = ""
    view_token: str = ""
    streams: list[Stream] = field(default_factory=list)

    def request(self, method: str, path: str, body: dict | None = None, *, token: str | None = None,
                headers: dict | None = None) -> tuple[int, http.client.HTTPMessage, bytes]:
        sent = dict(headers or {})
        if body is not None:
            sent["Content-Type"] = "application/json"
        if token:
            sent["Authorization"] = f"Bearer {token}"
        return self.proxy.request(method, path, headers=sent,
                                  body=json.dumps(body).encode() if body is not None else None)

    def new_session(self) -> int:
        status, _, payload = self.request("POST", "/api/v1/sessions", {"seats": SEATS, "preset": "pagat-standard"},
                                          token=self.edit_token)
        assert status == 201, payload[:300]
        return json.loads(payload)["id"]

    def post_hand(self, session: int) -> tuple[int, dict, float]:
        """Record a hand through the door: its status, its answer, and when the answer arrived."""
        status, _, payload = self.request("POST", f"/api/v1/sessions/{session}/hands", dict(MADE_15_DIAMONDS),
                                          token=self.edit_token)
        return status, json.loads(payload), time.monotonic()

    def open_stream(self, session: int) -> Stream:
        stream = Stream(self, reverse("session_events", args=[self.view_token, session]))
        self.streams.append(stream)
        return stream


@dataclass(frozen=True)
class Event:
    name: str
    data: dict
    arrived: float  # time.monotonic() when its last line was read


class Stream:
    """An event stream read through the door on a thread, each event and heartbeat stamped on arrival."""

    def __init__(self, door: Door, path: str):
        self.connection = http.client.HTTPSConnection("127.0.0.1", door.proxy.port, context=door.proxy.tls,
                                                      timeout=60)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        self.events: queue.Queue[Event] = queue.Queue()
        self.heartbeats = 0
        self.ended = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        name, data = "message", ""
        try:
            while line := self.response.readline():
                text = line.decode().rstrip("\r\n")
                if text.startswith(":"):
                    self.heartbeats += 1
                elif text.startswith("event:"):
                    name = text[6:].strip()
                elif text.startswith("data:"):
                    data = text[5:].strip()
                elif text == "" and data:
                    self.events.put(Event(name, json.loads(data), time.monotonic()))
                    name, data = "message", ""
        except (OSError, ValueError, http.client.HTTPException):
            pass  # closed by close() below
        finally:
            self.ended.set()

    def next_event(self, timeout: float = 15) -> Event:
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"no event within {timeout} s (stream ended: {self.ended.is_set()})")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        self.reader.join(10)
        self.connection.close()


def _door(name: str, app: App) -> Iterator[Door]:
    """The proxy in front of the app, with a group and its links made through it as a phone would make them."""
    with proxy_in_front(name, app.web, app.streams) as proxy:
        door = Door(proxy, app)
        try:
            status, _, payload = door.request("POST", "/api/v1/groups",
                                              {"name": f"Front door {name}", "players": SEATS})
            assert status == 201, payload[:300]
            group = json.loads(payload)
            door.edit_token, door.view_token = group["edit_token"], group["view_token"]
            yield door
        finally:
            for stream in door.streams:
                stream.close()


@pytest.fixture(scope="module")
def caddy_door(app_servers):
    yield from _door("caddy", app_servers)


@pytest.fixture(scope="module")
def nginx_door(app_servers):
    yield from _door("nginx", app_servers)


@pytest.fixture(params=["caddy", "nginx"])
def door(request) -> Door:
    return request.getfixturevalue(f"{request.param}_door")


# --- through the door -----------------------------------------------------------------------------


def _app_headers(message: http.client.HTTPMessage) -> dict[str, str]:
    """The app's headers, each once, with the CSP's per-request nonce blanked out."""
    headers = {}
    for name in APP_HEADERS:
        values = message.get_all(name) or []
        assert len(values) <= 1, f"{name} arrived {len(values)} times"
        if values:
            headers[name] = re.sub(r"'nonce-[^']+'", "'nonce-…'", values[0])
    return headers


def test_a_page_arrives_with_the_apps_own_headers(door):
    session = door.new_session()
    path = reverse("session_board", args=[door.view_token, session])
    status, proxied, body = door.request("GET", path)
    assert status == 200, body[:300]
    assert b'data-live-stream="' in body

    # the same page asked of the app directly, as the proxy asks it
    direct = http.client.HTTPConnection("127.0.0.1", door.app.web_port, timeout=30)
    direct.request("GET", path, headers={"Host": f"127.0.0.1:{door.proxy.port}", "X-Forwarded-Proto": "https"})
    straight = direct.getresponse()
    straight.read()
    direct.close()

    assert _app_headers(proxied) == _app_headers(straight.msg)
    assert "default-src 'self'" in proxied["Content-Security-Policy"]
    assert "no-store" in proxied["Cache-Control"]
    assert proxied["Referrer-Policy"] == "no-referrer"
    # behind the TLS proxy (SECURE_PROXY_SSL_HEADER, as the units set it): HSTS for a year
    assert proxied["Strict-Transport-Security"] == f"max-age={A_YEAR}"
    assert proxied["X-Robots-Tag"] == "noindex, nofollow"


def test_a_long_url_is_414_in_the_error_shape_through_the_door(door):
    """gunicorn answered a request line past 4094 bytes with an HTML page of its own."""
    status, headers, body = door.request("GET", "/api/v1/sessions?q=" + "x" * 6000, token=door.view_token)
    assert status == 414 and headers["Content-Type"] == "application/json", body[:200]
    assert json.loads(body)["errors"][0]["code"] == "uri_too_long"


def test_head_on_the_live_regions_through_the_door(door):
    session = door.new_session()
    status, headers, body = door.request("HEAD", reverse("session_live", args=[door.view_token, session]))
    assert status == 200 and body == b""
    assert headers["Content-Type"].startswith("text/html")


def test_the_live_regions_arrive_alike_for_every_phone(door):
    """The first phone's fetch after a hand draws the board region; the next ones read it from the
    cache: the same bytes and the app's headers either way, and 304 to a phone that holds them,
    with production's settings behind a TLS proxy."""
    session = door.new_session()
    assert door.post_hand(session)[0] == 201
    path = reverse("session_live", args=[door.view_token, session])
    drawn = door.request("GET", path)
    later = door.request("GET", path)
    held = door.request("GET", path, headers={"If-None-Match": later[1]["ETag"]})

    assert drawn[0] == later[0] == 200 and held[0] == 304
    assert drawn[2] == later[2] and b'id="hand-1"' in later[2]
    assert _app_headers(drawn[1]) == _app_headers(later[1])
    assert "default-src 'self'" in later[1]["Content-Security-Policy"] and "no-store" in later[1]["Cache-Control"]
    assert held[1]["Content-Security-Policy"] == later[1]["Content-Security-Policy"]


def test_a_static_file_arrives_with_a_year_long_cache(door):
    status, _, body = door.request("GET", reverse("session_board", args=[door.view_token, door.new_session()]))
    assert status == 200
    stylesheet = re.search(rb'href="(/static/css/app\.[0-9a-f]{12}\.css)"', body).group(1).decode()
    status, headers, css = door.request("GET", stylesheet, headers={"Accept-Encoding": "gzip"})
    assert status == 200 and css
    assert headers["Content-Type"].startswith("text/css")
    max_age = int(re.search(r"max-age=(\d+)", headers["Cache-Control"]).group(1))
    assert max_age >= A_YEAR and "immutable" in headers["Cache-Control"]


def test_a_hand_posted_through_the_door_is_recorded(door):
    session = door.new_session()
    status, hand, _ = door.post_hand(session)
    assert status == 201, hand
    status, _, payload = door.request("GET", f"/api/v1/sessions/{session}", token=door.view_token)
    assert status == 200
    assert json.loads(payload)["revision"] == 1


def test_an_open_stream_hears_a_hand_within_a_second_of_its_write(door):
    session = door.new_session()
    stream = door.open_stream(session)
    assert stream.response.status == 200
    assert stream.response.getheader("Content-Type").startswith("text/event-stream")
    hello = stream.next_event()
    assert (hello.name, hello.data) == ("hello", {"revision": 0})

    status, hand, written = door.post_hand(session)
    assert status == 201, hand
    change = stream.next_event()
    assert (change.name, change.data) == ("change", {"session": session, "revision": 1, "what": "hand_recorded"})
    # the write committed before its answer left the app; a buffering proxy holds the event back
    assert change.arrived - written < 1.0


def test_a_quiet_stream_stays_open_across_heartbeats_and_hears_the_next_hand(door):
    session = door.new_session()
    stream = door.open_stream(session)
    assert stream.next_event().name == "hello"
    deadline = time.monotonic() + 20 * HEARTBEAT_SECONDS
    while stream.heartbeats < 3 and time.monotonic() < deadline and not stream.ended.is_set():
        time.sleep(HEARTBEAT_SECONDS / 4)
    assert stream.heartbeats >= 3, "the heartbeats pass through the proxy one by one"
    assert not stream.ended.is_set()

    status, hand, _ = door.post_hand(session)
    assert status == 201, hand
    assert stream.next_event().data["revision"] == 1


def test_every_phone_of_a_table_reaches_the_same_stream_server(door):
    """Each stream's address picks its stream server: the phones of a table on one link are all
    served by one process, which draws each new hand's step once for them; the tables spread over
    both servers."""
    tables = [door.new_session() for _ in range(16)]
    phones = {session: [Stream(door, reverse("session_events", args=[door.view_token, session]) + "?board=en")
                        for _ in range(3)] for session in tables}
    door.streams.extend(stream for streams in phones.values() for stream in streams)
    for streams in phones.values():
        for stream in streams:
            assert stream.next_event().name == "hello"

    def opened_on_each_server() -> dict[int, list[int]]:
        # uvicorn's access log names each stream as it opens, its link masked: "/g/***/s/<id>/events/"
        served = [log.read_text(errors="replace") for log in door.app.stream_logs]
        return {session: [text.count(f"/s/{session}/events/") for text in served] for session in tables}

    deadline = time.monotonic() + 10
    where = opened_on_each_server()
    while any(sum(counts) < 3 for counts in where.values()) and time.monotonic() < deadline:
        time.sleep(0.1)
        where = opened_on_each_server()
    for session, counts in where.items():
        assert sorted(counts) == [0, 3], f"the phones of session {session} opened {counts} streams on each server"
    assert all(any(counts[server] for counts in where.values()) for server in (0, 1)), where


def test_the_nginx_access_log_never_shows_a_link(nginx_door):
    session = nginx_door.new_session()
    status, _, _ = nginx_door.request("GET", reverse("session_board", args=[nginx_door.view_token, session]))
    assert status == 200
    # nginx writes a line when the request ends
    access_log = nginx_door.proxy.directory / "access.log"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and f"/g/***/s/{session}/" not in access_log.read_text():
        time.sleep(0.1)
    written = access_log.read_text()
    assert f"/g/***/s/{session}/" in written
    assert nginx_door.view_token not in written and nginx_door.edit_token not in written



@pytest.mark.parametrize(("unit", "started_as"), [
    ("mighty-ledger-web.service", "mighty-ledger-web.service"),
    ("mighty-ledger-streams@.service", "mighty-ledger-streams@8001.service"),  # a template: one per port
])
def test_the_systemd_units_pass_systemd_analyze(unit, started_as, tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        missing("systemd-analyze is not installed: deploy/*.service are not checked here")
    # the units run the code from /srv/mighty-ledger (their header); here, from this checkout
    (tmp_path / unit).write_text((DEPLOY / unit).read_text().replace("/srv/mighty-ledger", str(REPO)))
    checked = subprocess.run([analyze, "verify", str(tmp_path / started_as)], capture_output=True, text=True,
                             timeout=60)
    # an unknown key or a missing program is only a warning to systemd: none is allowed here
    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr
