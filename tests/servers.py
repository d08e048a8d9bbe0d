"""What the tests that start real servers share: a free loopback port, and waiting until the
server started on it listens (or has died)."""

from __future__ import annotations

import socket
import subprocess
import time


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
