"""Hand creation through the API on gunicorn + PostgreSQL, 20 clients at once, against a bare view.

Starts what it needs and stops it: a PostgreSQL database made for the run and
dropped after it, and gunicorn (gunicorn.conf.py, workers from the core count)
on a free loopback port. Twenty threads send requests over real HTTP with
http.client; each records into its own session, as twenty tables would. Rounds
alternate hands and the bare view (/bench/bare/, the same request body), and
each figure is the median over rounds of ours / bare.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADMIN_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
CLIENTS, PER_CLIENT, ROUNDS = 20, 15, 9
SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
# pagat example 1: 15 ♦ made with 16, the ace of spades called
HAND = {"dealer": "Ed", "declarer": "Ann", "contract": {"points": 15, "trump": "D"},
        "partner_call": {"type": "card", "cards": ["AS"]}, "partners": ["Cy"], "points": 16}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _request(port: int, method: str, path: str, body: dict | None = None, token: str | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    start = time.perf_counter()
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    payload = response.read()
    elapsed = time.perf_counter() - start
    connection.close()
    return response.status, payload, elapsed


def _wait_until_up(port: int, server: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn exited at start-up")
        try:
            if _request(port, "GET", "/bench/bare/")[0] == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer in time")


def _stop(server: subprocess.Popen | None) -> None:
    """Stop a server this benchmark started: SIGTERM, then kill after 30 s."""
    if server is not None and server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _burst(port: int, path: str, bodies: list[tuple[dict, str | None]], expect: int) -> tuple[float, list[float]]:
    """Every client sends PER_CLIENT requests; (requests per second, latencies)."""

    def client(body_token):
        body, token = body_token
        latencies = []
        for _ in range(PER_CLIENT):
            status, payload, elapsed = _request(port, "POST", path.format(**body), body.get("json"), token)
            if status != expect:
                raise RuntimeError(f"{path}: {status} {payload[:200]!r}")
            latencies.append(elapsed)
        return latencies

    start = time.perf_counter()
    with ThreadPoolExecutor(CLIENTS) as pool:
        latencies = [t for per_client in pool.map(client, bodies) for t in per_client]
    return len(latencies) / (time.perf_counter() - start), latencies


def _p(latencies: list[float], q: float) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@contextmanager
def database(suffix: str = "") -> Iterator[str]:
    """A PostgreSQL database made for the run, dropped after it: its URL. Raises when PostgreSQL
    does not answer at ADMIN_URL."""
    import psycopg

    admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3)
    name = f"mighty_bench_{os.getpid()}{suffix}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def _environment(database_url: str, port: int) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL",)},
        "DJANGO_SETTINGS_MODULE": "benchmarks.settings", "DATABASE_URL": database_url,
        "DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false", "SECURE_COOKIES": "false", "RATE_LIMITS_ENABLED": "false",
        "BIND": f"127.0.0.1:{port}", "GUNICORN_ACCESS_LOG": "", "LOG_LEVEL": "WARNING",
    }


def migrated(database_url: str) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
                   cwd=ROOT, env=_environment(database_url, 0), check=True)


@contextmanager
def serving(database_url: str, *, app: str = "mighty_ledger.wsgi", extra: dict[str, str] | None = None
            ) -> Iterator[tuple[int, int]]:
    """gunicorn (gunicorn.conf.py) serving ``app`` on a free loopback port, stopped after: its port,
    and its master's process id."""
    port = _free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    server = subprocess.Popen([str(gunicorn), "-c", "gunicorn.conf.py", app], cwd=ROOT,
                              env={**_environment(database_url, port), **(extra or {})},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_until_up(port, server)
        yield port, server.pid
    finally:
        _stop(server)


def group_made(port: int, name: str) -> dict:
    """A group of the five SEATS made through the API: its JSON (with its edit and view tokens)."""
    status, payload, _ = _request(port, "POST", "/api/v1/groups", {"name": name, "players": SEATS})
    if status != 201:
        raise RuntimeError(f"create group: {status} {payload[:200]!r}")
    return json.loads(payload)


def sessions_started(port: int, token: str, count: int) -> list[int]:
    """``count`` sessions of the SEATS started through the API with the group's edit ``token``: their ids."""
    sessions = []
    for _ in range(count):
        status, payload, _ = _request(port, "POST", "/api/v1/sessions",
                                      {"seats": SEATS, "preset": "pagat-standard"}, token)
        if status != 201:
            raise RuntimeError(f"start session: {status} {payload[:200]!r}")
        sessions.append(json.loads(payload)["id"])
    return sessions


def tables(port: int) -> tuple[list, list]:
    """A group with a session for each client, through the API: the bodies of the hands' bursts
    (each client on its own session), and of the bare view's."""
    token = group_made(port, "Load bench")["edit_token"]
    sessions = sessions_started(port, token, CLIENTS)
    return [({"id": sid, "json": HAND}, token) for sid in sessions], [({"json": HAND}, None)] * CLIENTS


HANDS_PATH, BARE_PATH = "/api/v1/sessions/{id}/hands", "/bench/bare/"


def unreachable() -> str | None:
    """Why PostgreSQL cannot be used at ADMIN_URL (the error's class), or None when it answers."""
    try:
        import psycopg

        psycopg.connect(ADMIN_URL, connect_timeout=3).close()
    except Exception as error:  # no server, no driver, no role: the run goes on without these figures
        return type(error).__name__
    return None


def run() -> list[str]:
    if (error := unreachable()) is not None:
        return [f"api load: skipped, PostgreSQL not reachable at {ADMIN_URL} ({error})"]
    with database() as database_url:
        migrated(database_url)
        with serving(database_url) as (port, _pid):
            hands, bare = tables(port)
            # one unmeasured round each: workers import, connect and fill their caches
            _burst(port, HANDS_PATH, hands, 201)
            _burst(port, BARE_PATH, bare, 200)
            rps, p50, p99, figures = [], [], [], []
            for _ in range(ROUNDS):
                ours = _burst(port, HANDS_PATH, hands, 201)
                base = _burst(port, BARE_PATH, bare, 200)
                figures.append((ours, base))
                rps.append(ours[0] / base[0])
                p50.append(_p(ours[1], 0.5) / _p(base[1], 0.5))
                p99.append(_p(ours[1], 0.99) / _p(base[1], 0.99))
    ours_rps = statistics.median(f[0][0] for f in figures)
    base_rps = statistics.median(f[1][0] for f in figures)
    workers = os.environ.get("WEB_CONCURRENCY") or 2 * (os.cpu_count() or 1) + 1
    return [
        f"api load ({CLIENTS} clients, gunicorn {workers} workers, PostgreSQL; "
        f"{ROUNDS} rounds of {CLIENTS * PER_CLIENT} requests each):",
        f"  hands recorded: {ours_rps:,.0f} req/s vs bare view {base_rps:,.0f} req/s, "
        f"throughput ratio {statistics.median(rps):.2f}  (target: ≥ 0.25)",
        f"  latency ratio p50 {statistics.median(p50):.2f}, p99 {statistics.median(p99):.2f} "
        f"(hands p50 {statistics.median(_p(f[0][1], 0.5) for f in figures) * 1e3:.1f} ms, "
        f"p99 {statistics.median(_p(f[0][1], 0.99) for f in figures) * 1e3:.1f} ms)",
    ]
