"""The stream server comes back by itself, and the proxies send it streams again at once (issue 36).

`make serve` on a PostgreSQL database of this module's, with a second stream server beside it
(`make serve-streams`), as tests/servers.py's serving_app starts them, and four proxies from
deploy/ (tests/ops/proxies.py): Caddy and nginx in front of serve's stream
server alone, and Caddy and nginx in front of both. Phones follow tables through each. Then the
stream master that serve started is killed outright (SIGKILL, as the OOM killer does): its worker
must let the port go, serve must start the server again, and every phone must have its stream
back within 5 s of the server's return, a table that hashes to it served by it again.

The systemd units do the same for a server run by systemd: their restart settings are read here
(systemd itself is not run in a test; tests/ops/test_front_door.py has `systemd-analyze verify`).
"""

from __future__ import annotations

import configparser
import contextlib
import http.client
import json
import os
import signal
import ssl
import threading
import time
from pathlib import Path

import pytest

from tests.ops.proxies import DEPLOY, proxy_in_front
from tests.servers import accepts, serving_app, stream_processes

pytestmark = pytest.mark.proxy

SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
BACK_WITHIN_SECONDS = 5.0
TABLES_PER_PROXY = 6


def _wait(what: str, until, seconds: float, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while not until():
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} within {seconds} s:\n" + log.read_text(errors="replace")[-3000:])
        time.sleep(0.05)


def _stream_master(port: int) -> int:
    processes = stream_processes(port)
    masters = [pid for pid, parent in processes.items() if parent not in processes]
    assert len(masters) == 1, processes
    return masters[0]


@pytest.fixture(scope="module")
def serving(tmp_path_factory):
    with serving_app(tmp_path_factory.mktemp("serve"), "come_back", heartbeat_seconds=1) as app, \
            contextlib.ExitStack() as proxies:
        in_front = [(f"{name} in front of {len(streams)}",
                     proxies.enter_context(proxy_in_front(name, app.web, streams)))
                    for name in ("caddy", "nginx") for streams in (app.streams[:1], app.streams)]
        yield {"proxies": in_front, "first": app.stream_ports[0], "log": app.stream_logs[0]}


def _group(proxy) -> str:
    status, _, body = proxy.request("POST", "/api/v1/groups", headers={"Content-Type": "application/json"},
                                    body=json.dumps({"name": f"Back {proxy.name}", "players": SEATS}).encode())
    assert status == 201, body[:300]
    return json.loads(body)["edit_token"]


def _table(proxy, edit: str) -> str:
    """A new table of the group, as the path its phones follow."""
    status, _, body = proxy.request("POST", "/api/v1/sessions", headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {edit}"},
        body=json.dumps({"seats": SEATS, "preset": "pagat-standard"}).encode())
    assert status == 201, body[:300]
    return f"/g/{edit}/s/{json.loads(body)['id']}/events/"


class Phone(threading.Thread):
    """A page following a table: its stream opened again as soon as it ends, as EventSource does
    (a browser waits the stream's retry, 2 s; this phone 0.2 s, so that the proxy is measured)."""

    def __init__(self, label: str, proxy, path: str):
        super().__init__(daemon=True)
        self.label, self.proxy, self.path = label, proxy, path
        self.hellos: list[float] = []  # when each stream opened (time.monotonic)
        self.ends: list[float] = []  # when each ended
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            connection = http.client.HTTPSConnection("127.0.0.1", self.proxy.port, context=self.proxy.tls, timeout=10)
            try:
                connection.request("GET", self.path, headers={"Accept": "text/event-stream"})
                response = connection.getresponse()
                if response.status == 200:
                    while line := response.readline():
                        if line.startswith(b"event: hello"):
                            self.hellos.append(time.monotonic())
                        if self.stopped.is_set():
                            break
                else:
                    response.read()
            except (OSError, ssl.SSLError, http.client.HTTPException):
                pass
            finally:
                connection.close()
                self.ends.append(time.monotonic())
            time.sleep(0.2)  # not stopped.wait(0.2): a timed wait does not end under libfaketime


def _opened(phone: Phone) -> str:
    """How a stream server's access log names one of the phone's streams opening."""
    return f'"GET /g/***/s/{phone.path.split("/s/")[1]} HTTP/1.1" 200'


def _hello(phone: Phone) -> bool:
    connection = http.client.HTTPSConnection("127.0.0.1", phone.proxy.port, context=phone.proxy.tls, timeout=10)
    try:
        connection.request("GET", phone.path, headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        return response.status == 200 and any(response.readline().startswith(b"event: hello") for _ in range(3))
    finally:
        connection.close()


def test_a_killed_stream_server_is_back_and_followed_within_five_seconds(serving):
    everyone: list[Phone] = []
    groups = {label: _group(proxy) for label, proxy in serving["proxies"]}
    for label, proxy in serving["proxies"]:
        everyone += [Phone(label, proxy, _table(proxy, groups[label])) for _ in range(TABLES_PER_PROXY)]
    for phone in everyone:
        phone.start()
    try:
        _wait("stream for every phone", lambda: all(phone.hellos for phone in everyone), 30, serving["log"])
        # each proxy follows a table of the server killed below: one in front of both hashes each
        # table's address to either server, a coin toss a table, and once sent all six to the other
        for label, proxy in serving["proxies"]:
            followed = [phone for phone in everyone if phone.label == label]
            while not any(_opened(phone) in serving["log"].read_text(errors="replace") for phone in followed):
                assert len(followed) < 40, f"{label}: none of {len(followed)} tables reached the first stream server"
                phone = Phone(label, proxy, _table(proxy, groups[label]))
                phone.start()
                followed.append(phone)
                everyone.append(phone)
                _wait("stream for the new table", lambda phone=phone: phone.hellos, 30, serving["log"])
        first = serving["first"]
        served_before = serving["log"].read_text(errors="replace")
        master = _stream_master(first)
        workers = [pid for pid, parent in stream_processes(first).items() if parent == master]

        os.kill(master, signal.SIGKILL)
        killed = time.monotonic()
        # its worker lets the port go within seconds, and serve starts a new master on it
        _wait("end of the orphaned worker", lambda: not set(workers) & set(stream_processes(first)), 10,
              serving["log"])
        _wait("stream server started again",
              lambda: stream_processes(first) and _stream_master(first) != master and accepts(first), 60,
              serving["log"])
        back = time.monotonic()
        # a table it served before, opened anew 3 s after its return, is its own again (the
        # proxies in front of both servers sent it to the other meanwhile, for as long as it was
        # passed over)
        time.sleep(3)
        mark = len(serving["log"].read_text(errors="replace"))
        theirs = [phone for phone in everyone if _opened(phone) in served_before]
        for phone in theirs:
            assert _hello(phone), f"{phone.label}: {phone.path[-14:]} has no stream"
        time.sleep(max(0.0, back + BACK_WITHIN_SECONDS + 0.5 - time.monotonic()))
        served_after = serving["log"].read_text(errors="replace")[mark:]
        assert not [f"{phone.label}: {phone.path[-14:]}" for phone in theirs if _opened(phone) not in served_after]

        # a phone whose stream ended with the server has a new one (from it, or from the other)
        cut = [phone for phone in everyone if any(end > killed for end in phone.ends)]
        assert {phone.label for phone in cut} == {label for label, _ in serving["proxies"]}
        late = {f"{phone.label}: {phone.path[-14:]}": [round(hello - back, 2) for hello in phone.hellos
                                                       if hello > killed]
                for phone in cut if not any(killed < hello <= back + BACK_WITHIN_SECONDS for hello in phone.hellos)}
        assert not late, f"no stream within {BACK_WITHIN_SECONDS} s of the server's return (after it): {late}"

    finally:
        for phone in everyone:
            phone.stopped.set()


def _unit(name: str) -> configparser.ConfigParser:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read_string((DEPLOY / name).read_text())
    return unit


@pytest.mark.parametrize("name", ["mighty-ledger-web.service", "mighty-ledger-streams@.service"])
def test_systemd_restarts_a_killed_master_with_its_workers_as_a_group(name):
    unit = _unit(name)
    # every process of the unit is stopped with it: no worker is left holding the port
    assert unit["Service"].get("KillMode", "control-group") == "control-group"
    # whatever ended it (a SIGKILL, the OOM killer, a clean exit), it is started again a second later
    assert unit["Service"]["Restart"] == "always"
    assert float(unit["Service"]["RestartSec"]) <= 1


def test_the_stream_server_is_never_given_up_on():
    assert _unit("mighty-ledger-streams@.service")["Unit"]["StartLimitIntervalSec"] == "0"
