"""What the tests that start real servers share: a free loopback port, a program the test needs
(skipped without it, failed under CI=true), a server started in a process group of its own and
waited for until it answers (or has died), the stream server as `make serve` starts it, and
`make serve` itself on a PostgreSQL database of its own, as tests/ops/ puts the proxies in front
of it (tests/ops/proxies.py starts those)."""

from __future__ import annotations

import contextlib
import http.client
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

REPO = Path(__file__).resolve().parents[1]
ON_CI = os.environ.get("CI", "").lower() == "true"
ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def missing(what: str) -> None:
    if ON_CI:
        pytest.fail(f"{what}, and CI needs it")
    pytest.skip(what)


def program(name: str) -> str:
    found = shutil.which(name) or next(
        (str(p) for p in (Path("/usr/sbin") / name, Path("/usr/bin") / name) if p.exists()), None)
    if found is None:
        missing(f"{name} is not installed (bash scripts/ensure_proxies.sh installs it from Debian)")
    return found


def accepts(port: int) -> bool:
    """Whether something takes a connection on 127.0.0.1:``port`` now."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def serves(port: int) -> bool:
    """Whether the app on 127.0.0.1:``port`` answers a GET / without a server error."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/")
        return connection.getresponse().status < 500
    finally:
        connection.close()


def _until(ready: Callable[[], bool], process: subprocess.Popen, seconds: float) -> bool:
    """True once ``ready()``; False when ``process`` exits first or ``seconds`` pass. A refused or
    broken connection is only "not yet"."""
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(OSError, http.client.HTTPException):
            if ready():
                return True
        if process.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def listening(port: int, server: subprocess.Popen, seconds: float = 60) -> bool:
    """True once something accepts connections on ``port``; False when ``server`` exits first or
    ``seconds`` pass (the caller says why, with what it knows of the server)."""
    return _until(lambda: accepts(port), server, seconds)


class Server:
    """A server started in a process group of its own, so that stopping it stops every process it
    started (make, gunicorn's master and workers); its output goes to ``log``."""

    def __init__(self, name: str, command: list[str], log: Path, *, cwd: Path = REPO, env: dict | None = None):
        self.name, self.log = name, log
        with log.open("wb") as out:
            self.process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def wait_for(self, what: str, ready: Callable[[], bool], seconds: float = 120) -> None:
        """Until ``ready()``; the test fails, with what the server wrote, if it exits or ``seconds`` pass first."""
        if not _until(ready, self.process, seconds):
            state = "exited" if self.process.poll() is not None else f"nothing within {seconds} s"
            pytest.fail(f"{self.name}: no {what} ({state}):\n{self.output()}")

    def stop(self, grace: float = 30) -> None:
        """SIGTERM to its whole group, SIGKILL after ``grace`` seconds."""
        if self.process.returncode is not None:  # reaped already: its group's id may be another's by now
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def stream_processes(port: int) -> dict[int, int]:
    """The stream server's processes on ``port``, its master and workers: pid → parent pid."""
    listed = subprocess.run(["ps", "-ww", "-eo", "pid=,ppid=,args="], capture_output=True, text=True).stdout
    return {int(pid): int(ppid) for pid, ppid, args in (line.split(None, 2) for line in listed.splitlines())
            if f"--bind 127.0.0.1:{port} " in args and "StreamWorker" in args}


@contextlib.contextmanager
def serving_streams(env: dict[str, str], port: int, log_path: Path) -> Iterator[subprocess.Popen]:
    """`make serve-streams` with ``env`` (its STREAM_BIND on ``port``), its output in ``log_path``;
    stopped, and every process it started with it, when the block ends."""
    server = Server("the stream server", ["make", "--no-print-directory", "serve-streams"], log_path, env=env)
    try:
        server.wait_for("listening port", lambda: accepts(port), seconds=60)
        yield server.process
    finally:
        server.stop(grace=20)


@dataclass
class App:
    """`make serve` on free loopback ports, with a second stream server beside serve's own."""

    web_port: int
    stream_ports: list[int]  # two stream servers, as deploy/mighty-ledger-streams@.service runs them
    stream_logs: list[Path]  # what each wrote: uvicorn's access log names each stream it opened

    @property
    def web(self) -> str:
        return f"127.0.0.1:{self.web_port}"

    @property
    def streams(self) -> list[str]:
        return [f"127.0.0.1:{port}" for port in self.stream_ports]


@contextlib.contextmanager
def serving_app(directory: Path, label: str, *, heartbeat_seconds: int) -> Iterator[App]:
    """`make serve` (gunicorn's sync workers and the stream server, from the same gunicorn.conf.py)
    with production's settings behind a TLS proxy, on a PostgreSQL database made for it and dropped
    after it, and a second stream server started as serve starts the first; its files in ``directory``."""
    try:
        import psycopg

        admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3)
    except Exception as error:
        missing(f"PostgreSQL does not answer at 127.0.0.1:5432 ({type(error).__name__})")
    # -o: the venv as it is; a pyproject.toml newer than its stamp must not reinstall it mid-test
    make = [program("make"), "--no-print-directory", "-o", ".venv/.installed"]
    name = f"mighty_{label}_{os.getpid()}_{secrets.token_hex(3)}"
    app = App(web_port=free_port(), stream_ports=[free_port(), free_port()],
              stream_logs=[directory / "serve.log", directory / "streams.log"])
    env = {key: value for key, value in os.environ.items()
           if key not in ("REDIS_URL", "LIVE_BROKER", "DJANGO_SETTINGS_MODULE", "MAKEFLAGS", "MFLAGS",
                          "MAKELEVEL", "DEBUG")}
    started = contextlib.ExitStack()
    redis = started.enter_context(throwaway_redis())
    env |= {
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{name}", "REDIS_URL": redis.url,
        "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
        # behind the proxy, as deploy/mighty-ledger-*.service run it
        "SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https", "TRUSTED_PROXY": "true",
        "BIND": app.web, "STREAM_BIND": app.streams[0],
        # one sync worker, one stream worker: the changes travel through Redis between them
        "WEB_CONCURRENCY": "1", "STREAM_WORKERS": "1",
        "LIVE_HEARTBEAT_SECONDS": str(heartbeat_seconds), "STATIC_ROOT": str(directory / "static"),
        "XDG_RUNTIME_DIR": str(directory),
    }
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        serve = Server("make serve", [*make, "serve"], app.stream_logs[0], env=env)
        started.callback(serve.stop)
        serve.wait_for("web workers", lambda: serves(app.web_port))
        serve.wait_for("stream server", lambda: serves(app.stream_ports[0]))
        # after collectstatic, which serve has run
        more = Server("make serve-streams", [*make, "serve-streams"], app.stream_logs[1],
                      env=env | {"STREAM_BIND": app.streams[1]})
        started.callback(more.stop)
        more.wait_for("second stream server", lambda: serves(app.stream_ports[1]))
        yield app
    finally:
        started.close()
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


# --- a real Redis: the live broker of `make serve`, and what the outage tests stop and start -----


def own_clock() -> dict[str, str]:
    """This environment without libfaketime, for the programs a run with the clock moved does not
    test: redis-server stops at start under it, and nginx's timers lag under load."""
    return {key: value for key, value in os.environ.items() if key not in ("LD_PRELOAD", "FAKETIME")}


class RedisServer:
    """A throwaway redis-server on 127.0.0.1; ``stop`` and ``start`` play an outage and its end."""

    def __init__(self, executable: str):
        self.executable = executable
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.executable, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=own_clock(),
        )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@contextlib.contextmanager
def throwaway_redis() -> Iterator[RedisServer]:
    """A redis-server on a free loopback port, stopped after the block (skipped without one;
    under CI=true that is a failure)."""
    server = RedisServer(program("redis-server"))
    server.start()
    try:
        yield server
    finally:
        server.stop()
