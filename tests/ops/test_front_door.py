"""The front door as an operator runs it: `make serve` behind deploy/Caddyfile and deploy/nginx.conf.

Real parts only: a PostgreSQL database made for this module (dropped after it),
`make serve` itself (gunicorn's sync workers and the stream server, from the same
gunicorn.conf.py) on free loopback ports, and each proxy from its Debian package
in front with TLS on a free port: Caddy with its own internal CA, nginx with a
certificate made here with openssl. Every check goes through the proxy, with the
proxy's certificate verified; the app's own port is asked only to compare headers.

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
import os
import queue
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.urls import reverse

from tests.factories import MADE_15_DIAMONDS
from tests.ops.proxies import missing, program
from tests.servers import free_port

pytestmark = pytest.mark.proxy

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
ON_CI = os.environ.get("CI", "").lower() == "true"
ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
HEARTBEAT_SECONDS = 1
SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
# what the app sets on every page, which a proxy must pass on as it is
APP_HEADERS = ("content-security-policy", "cache-control", "referrer-policy", "x-content-type-options",
               "x-frame-options", "content-type", "strict-transport-security", "x-robots-tag")
A_YEAR = 365 * 24 * 3600


class Started:
    """A server this module started, in a process group of its own, with its output in a file."""

    def __init__(self, name: str, command: list[str], log: Path, **popen):
        self.name, self.log = name, log
        with log.open("wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True, **popen)

    def running(self) -> bool:
        return self.process.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        """SIGTERM to its whole group (make, gunicorn's masters and workers), SIGKILL after 30 s."""
        if self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def _wait_for(what: str, server: Started, ready, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not server.running():
            pytest.fail(f"{server.name} exited before {what}:\n{server.output()}")
        with contextlib.suppress(OSError, ssl.SSLError, http.client.HTTPException):
            if ready():
                return
        time.sleep(0.2)
    pytest.fail(f"{server.name}: no {what} within {seconds} s:\n{server.output()}")


def _answers(port: int, host: str = "127.0.0.1", tls: ssl.SSLContext | None = None) -> bool:
    connection = (http.client.HTTPSConnection(host, port, context=tls, timeout=5) if tls
                  else http.client.HTTPConnection(host, port, timeout=5))
    try:
        connection.request("GET", "/")
        return connection.getresponse().status < 500
    finally:
        connection.close()


# --- the app, as `make serve` runs it ------------------------------------------------------------


@dataclass
class App:
    web_port: int
    stream_ports: list[int]  # two stream servers, as deploy/mighty-ledger-streams@.service runs them
    stream_logs: list[Path]  # what each wrote: uvicorn's access log names each stream it opened

    @property
    def streams(self) -> list[str]:
        return [f"127.0.0.1:{port}" for port in self.stream_ports]


@pytest.fixture(scope="module")
def app_servers(tmp_path_factory):
    try:
        import psycopg

        admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3)
    except Exception as error:
        missing(f"PostgreSQL does not answer at 127.0.0.1:5432 ({type(error).__name__})")
    make = program("make")
    name = f"mighty_front_door_{os.getpid()}_{secrets.token_hex(3)}"
    directory = tmp_path_factory.mktemp("serve")
    app = App(web_port=free_port(), stream_ports=[free_port(), free_port()],
              stream_logs=[directory / "serve.log", directory / "streams.log"])
    env = {key: value for key, value in os.environ.items()
           if key not in ("REDIS_URL", "LIVE_BROKER", "DJANGO_SETTINGS_MODULE", "MAKEFLAGS", "MFLAGS",
                          "MAKELEVEL", "DEBUG")}
    env |= {
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{name}",
        "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
        # behind the proxy, as deploy/mighty-ledger-*.service run it
        "SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https", "TRUSTED_PROXY": "true",
        "BIND": f"127.0.0.1:{app.web_port}", "STREAM_BIND": app.streams[0],
        # one sync worker: no Redis needed, the changes travel by PostgreSQL's NOTIFY
        "WEB_CONCURRENCY": "1", "STREAM_WORKERS": "1",
        "LIVE_HEARTBEAT_SECONDS": str(HEARTBEAT_SECONDS), "STATIC_ROOT": str(directory / "static"),
        "XDG_RUNTIME_DIR": str(directory),
    }
    admin.execute(f'CREATE DATABASE "{name}"')
    serve = more = None
    try:
        # -o: the venv as it is; a pyproject.toml newer than its stamp must not reinstall it mid-test
        serve = Started("make serve", [make, "--no-print-directory", "-o", ".venv/.installed", "serve"],
                        app.stream_logs[0], cwd=ROOT, env=env)
        _wait_for("web workers", serve, lambda: _answers(app.web_port))
        _wait_for("stream server", serve, lambda: _answers(app.stream_ports[0]))
        # a second stream server on a port of its own, started as serve starts the first (after
        # collectstatic, which serve has run)
        more = Started("make serve-streams", [make, "--no-print-directory", "-o", ".venv/.installed", "serve-streams"],
                       app.stream_logs[1], cwd=ROOT, env=env | {"STREAM_BIND": app.streams[1]})
        _wait_for("second stream server", more, lambda: _answers(app.stream_ports[1]))
        yield app
    finally:
        for server in (more, serve):
            if server is not None:
                server.stop()
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


# --- the two proxies ------------------------------------------------------------------------------


@dataclass
class Door:
    """One proxy in front of the app: the port it listens on with TLS, and how to trust it."""

    name: str
    port: int
    tls: ssl.SSLContext
    app: App
    access_log: Path | None = None
    edit_token: str = ""
    view_token: str = ""
    streams: list[Stream] = field(default_factory=list)

    def request(self, method: str, path: str, body: dict | None = None, *, token: str | None = None,
                headers: dict | None = None) -> tuple[int, http.client.HTTPMessage, bytes]:
        connection = http.client.HTTPSConnection("127.0.0.1", self.port, context=self.tls, timeout=30)
        sent = dict(headers or {})
        if body is not None:
            sent["Content-Type"] = "application/json"
        if token:
            sent["Authorization"] = f"Bearer {token}"
        try:
            connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=sent)
            response = connection.getresponse()
            return response.status, response.msg, response.read()
        finally:
            connection.close()

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
        self.connection = http.client.HTTPSConnection("127.0.0.1", door.port, context=door.tls, timeout=60)
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


def _welcome(door: Door) -> Door:
    """A group and its links, made through the door as a phone would make them."""
    status, _, payload = door.request("POST", "/api/v1/groups", {"name": f"Front door {door.name}", "players": SEATS})
    assert status == 201, payload[:300]
    group = json.loads(payload)
    door.edit_token, door.view_token = group["edit_token"], group["view_token"]
    return door


@contextlib.contextmanager
def _serving(door: Door, proxy: Started, ready_check):
    try:
        _wait_for("TLS answer", proxy, ready_check, seconds=60)
        yield _welcome(door)
    finally:
        for stream in door.streams:
            stream.close()
        proxy.stop()


@pytest.fixture(scope="module")
def caddy_door(app_servers, tmp_path_factory):
    caddy = program("caddy")
    directory = tmp_path_factory.mktemp("caddy")
    port = free_port()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(directory),
        # Caddy's certificates and its internal CA stay in this directory
        "XDG_DATA_HOME": str(directory / "data"), "XDG_CONFIG_HOME": str(directory / "config"),
        "MIGHTY_SITE": "127.0.0.1", "MIGHTY_TLS": "internal", "MIGHTY_CADDY_ADMIN": "off",
        "MIGHTY_HTTPS_PORT": str(port), "MIGHTY_HTTP_PORT": str(free_port()),
        "MIGHTY_WEB": f"127.0.0.1:{app_servers.web_port}", "MIGHTY_STREAMS": " ".join(app_servers.streams),
    }
    proxy = Started("caddy", [caddy, "run", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
                    directory / "caddy.log", env=env, cwd=directory)
    root = directory / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    door = Door("caddy", port, ssl.create_default_context(), app_servers)

    def ready() -> bool:
        if not root.exists():
            return False
        door.tls = ssl.create_default_context(cafile=str(root))
        return _answers(port, tls=door.tls)

    with _serving(door, proxy, ready) as served:
        yield served


NGINX_MAIN = """\
# the main context a Debian host's /etc/nginx/nginx.conf gives; the site is deploy/nginx.conf
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log warn;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    client_body_temp_path {directory}/tmp/body;
    proxy_temp_path {directory}/tmp/proxy;
    fastcgi_temp_path {directory}/tmp/fastcgi;
    uwsgi_temp_path {directory}/tmp/uwsgi;
    scgi_temp_path {directory}/tmp/scgi;
    include {directory}/mighty-ledger.conf;
}}
"""


@pytest.fixture(scope="module")
def nginx_door(app_servers):
    nginx, envsubst, openssl = program("nginx"), program("envsubst"), program("openssl")
    # not under pytest's private directory: nginx's workers, which drop root's rights, keep
    # their temporary files here
    directory = Path(tempfile.mkdtemp(prefix="mighty-nginx-"))
    try:
        door = _nginx_site(directory, app_servers, envsubst, openssl)
        proxy = Started("nginx", [nginx, "-p", str(directory), "-c", str(directory / "nginx.conf"),
                                  "-e", str(directory / "error.log"), "-g", "daemon off;"],
                        directory / "nginx.log", cwd=directory)
        with _serving(door, proxy, lambda: _answers(door.port, tls=door.tls)) as served:
            yield served
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _nginx_site(directory: Path, app_servers: App, envsubst: str, openssl: str) -> Door:
    """deploy/nginx.conf filled in with envsubst as its header says, in a main context of its own."""
    directory.chmod(0o755)
    (directory / "tmp").mkdir()
    (directory / "tmp").chmod(0o777)
    certificate, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(certificate)], check=True, capture_output=True)
    port = free_port()
    site = {
        "MIGHTY_SERVER_NAME": "127.0.0.1", "MIGHTY_HTTPS_PORT": f"127.0.0.1:{port}",
        "MIGHTY_HTTP_PORT": f"127.0.0.1:{free_port()}",
        "MIGHTY_WEB": f"127.0.0.1:{app_servers.web_port}", "MIGHTY_STREAMS": app_servers.streams[0],
        "MIGHTY_TLS_CERT": str(certificate), "MIGHTY_TLS_KEY": str(key),
        "MIGHTY_ACCESS_LOG": str(directory / "access.log"), "MIGHTY_ERROR_LOG": str(directory / "site-error.log"),
    }
    # exactly the operator's command from the file's header
    header = (DEPLOY / "nginx.conf").read_text()
    names = re.search(r"envsubst '([^']+)'", header).group(1)
    assert set(names.replace("$", "").split()) == set(site), "the header's envsubst names every variable"
    filled = subprocess.run([envsubst, names], input=header, capture_output=True, text=True, check=True,
                            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **site}).stdout
    assert not [line for line in filled.splitlines() if "${" in line and not line.lstrip().startswith("#")]
    # the second stream server, a line of its own as the file says
    first = re.search(rf"^    server {re.escape(app_servers.streams[0])}[^;\n]*;\n", filled, re.M).group(0)
    filled = filled.replace(first, first + first.replace(app_servers.streams[0], app_servers.streams[1]))
    (directory / "mighty-ledger.conf").write_text(filled)
    (directory / "nginx.conf").write_text(NGINX_MAIN.format(directory=directory))
    return Door("nginx", port, ssl.create_default_context(cafile=str(certificate)), app_servers,
                access_log=directory / "access.log")


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
    direct.request("GET", path, headers={"Host": f"127.0.0.1:{door.port}", "X-Forwarded-Proto": "https"})
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
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and f"/g/***/s/{session}/" not in nginx_door.access_log.read_text():
        time.sleep(0.1)
    written = nginx_door.access_log.read_text()
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
    (tmp_path / unit).write_text((DEPLOY / unit).read_text().replace("/srv/mighty-ledger", str(ROOT)))
    checked = subprocess.run([analyze, "verify", str(tmp_path / started_as)], capture_output=True, text=True,
                             timeout=60)
    # an unknown key or a missing program is only a warning to systemd: none is allowed here
    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr
