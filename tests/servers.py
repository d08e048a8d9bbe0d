"""What the tests that start real servers share: a free loopback port, waiting until the
server started on it listens (or has died), and the stream server as `make serve` starts it."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int, server: subprocess.Popen, seconds: float = 60) -> bool:
    """True once something accepts connections on ``port``; False when ``server`` exits first or
    ``seconds`` pass (the caller says why, with what it knows of the server)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                return False
            time.sleep(0.1)


@contextlib.contextmanager
def serving_streams(env: dict[str, str], port: int, log_path: Path) -> Iterator[subprocess.Popen]:
    """`make serve-streams` with ``env`` (its STREAM_BIND on ``port``), its output in ``log_path``;
    stopped, and every process it started with it, when the block ends."""
    with open(log_path, "wb") as log:
        server = subprocess.Popen(["make", "--no-print-directory", "serve-streams"], cwd=REPO, env=env,
                                  stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        if not listening(port, server):
            raise RuntimeError("the stream server did not start:\n" + log_path.read_text())
        yield server
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
