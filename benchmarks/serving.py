"""The app served for real, for the benchmarks that need it: a PostgreSQL database and a Redis made
for the run, gunicorn as `make serve` starts it, all on loopback ports, stopped and dropped after."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
ADMIN_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def request(port: int, method: str, path: str, body: dict | None = None, token: str | None = None):
    """(status, the answer's JSON or bytes) of one request to 127.0.0.1:``port``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        payload = response.read()
    finally:
        connection.close()
    if response.getheader("Content-Type", "").startswith("application/json"):
        payload = json.loads(payload)
    return response.status, payload


def started(command: list[str], env: dict, port: int, log, seconds: float = 60) -> subprocess.Popen:
    """``command`` started, once it takes connections on ``port``."""
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log,
                              start_new_session=True)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"{command[0]} exited at start-up")
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        time.sleep(0.2)
    raise RuntimeError(f"{command[0]} did not answer in {seconds:.0f} s")


def stop(server: subprocess.Popen | None) -> None:
    """SIGTERM to the server's process group, SIGKILL after 30 s."""
    if server is None or server.poll() is not None:
        return
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


@contextlib.contextmanager
def production(label: str) -> Iterator[dict]:
    """The environment of `make serve` on a PostgreSQL database and a Redis of the run's own, migrated
    and with its static files collected; both gone after the block. Raises when PostgreSQL or
    redis-server is missing."""
    import psycopg

    admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3)
    name = f"mighty_bench_{label}_{os.getpid()}"
    directory = Path(tempfile.mkdtemp(prefix=f"mighty-{label}-"))
    redis_port = free_port()
    log = (directory / "servers.log").open("wb")
    env = {key: value for key, value in os.environ.items() if key not in ("LIVE_BROKER", "DJANGO_SETTINGS_MODULE")}
    env |= {"DJANGO_SETTINGS_MODULE": "benchmarks.settings",
            "DATABASE_URL": f"{ADMIN_URL.rsplit('/', 1)[0]}/{name}", "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
            "DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "false", "SECURE_COOKIES": "false", "RATE_LIMITS_ENABLED": "false",
            "GUNICORN_ACCESS_LOG": "", "LOG_LEVEL": "WARNING", "STATIC_ROOT": str(directory / "static")}
    admin.execute(f'CREATE DATABASE "{name}"')
    redis = None
    try:
        redis = started([shutil.which("redis-server") or "/usr/bin/redis-server", "--port", str(redis_port),
                         "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], env, redis_port, log)
        for step in (["migrate", "--no-input", "-v", "0"], ["collectstatic", "--no-input", "-v", "0"]):
            subprocess.run([sys.executable, "manage.py", *step], cwd=ROOT, env=env, check=True)
        yield env | {"LOG": log}
    finally:
        stop(redis)
        log.close()
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
        shutil.rmtree(directory, ignore_errors=True)


def web(env: dict, port: int) -> subprocess.Popen:
    """gunicorn's sync workers as `make serve` starts them (gunicorn.conf.py), on ``port``."""
    env = {key: value for key, value in env.items() if key != "LOG"} | {"BIND": f"127.0.0.1:{port}"}
    return started([str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "mighty_ledger.wsgi"], env, port, env_log(env))


def env_log(env: dict):
    return env.get("LOG") or subprocess.DEVNULL


def a_table(port: int, *, hands: int, name: str = "Bench") -> tuple[dict, int]:
    """A group of five made through the API with one session of ``hands`` hands: (the group, the session's id)."""
    seats = ["Ann", "Bo", "Cy", "Di", "Ed"]
    status, group = request(port, "POST", "/api/v1/groups", {"name": name, "players": seats})
    if status != 201:
        raise RuntimeError(f"a group: {status} {group!r:.200}")
    session = sessions(port, group["edit_token"], 1)[0]
    for _ in range(hands):
        hand(port, group["edit_token"], session)
    return group, session


def sessions(port: int, token: str, count: int) -> list[int]:
    made = []
    for _ in range(count):
        status, session = request(port, "POST", "/api/v1/sessions",
                                  {"seats": ["Ann", "Bo", "Cy", "Di", "Ed"], "preset": "pagat-standard"}, token)
        if status != 201:
            raise RuntimeError(f"a session: {status} {session!r:.200}")
        made.append(session["id"])
    return made


# pagat example 1: 15 ♦ made with 16, the ace of spades called
HAND = {"dealer": "Ed", "declarer": "Ann", "contract": {"points": 15, "trump": "D"},
        "partner_call": {"type": "card", "cards": ["AS"]}, "partners": ["Cy"], "points": 16}


def hand(port: int, token: str, session: int) -> None:
    status, answer = request(port, "POST", f"/api/v1/sessions/{session}/hands", HAND, token)
    if status != 201:
        raise RuntimeError(f"a hand: {status} {answer!r:.200}")
