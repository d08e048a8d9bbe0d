"""Live updates under load: 2,000 phones watching 400 sessions while hands are posted.

Starts what it needs and stops it: a PostgreSQL database made for the run (dropped
after it), gunicorn's sync workers for the API (gunicorn.conf.py) and one uvicorn
process serving the event streams (mighty_ledger.asgi), as `make serve` runs them.
The changes travel through Redis when it answers at BENCH_REDIS_URL (what several
workers need anyway), else through PostgreSQL's NOTIFY; LIVE_BROKER=postgres
forces NOTIFY.

The watchers live in a process of their own (one asyncio loop, raw sockets) so that
reading 2,000 streams does not take the GIL from the threads that post. Times are
CLOCK_MONOTONIC, which both processes share.

- fan-out: hands posted at a steady rate, each to a watched session; for every
  watcher of that session, the time from the POST's response to its event
- memory: the stream server's RSS growth over 2,000 idle watchers, per watcher
- writes: API hand-creation throughput with the 2,000 watchers connected (and
  hearing every hand) against the same bursts without them, rounds side by side
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .api_load import (
    ADMIN_URL,
    HAND,
    _free_port,
    _p,
    _request,
    _stop,
    _wait_until_up,
    group_made,
    sessions_started,
)

ROOT = Path(__file__).resolve().parent.parent
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/15")
SESSIONS, WATCHERS = 400, 2000
RATE, SECONDS = 20, 15  # hands a second, for how long: 300 hands, 1,500 events
CLIENTS, PER_CLIENT, ROUNDS = 20, 15, 5  # the write bursts, as in api_load
if os.environ.get("BENCH_QUICK"):  # a trial of the benchmark itself, not a figure
    SESSIONS, WATCHERS, RATE, SECONDS, ROUNDS = 20, 100, 10, 2, 1


# --- the watchers' process -------------------------------------------------------------------


async def _watch(port: int, path: str, session: int, arrivals: list, hellos: list) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    event = ""
    try:
        while line := await reader.readline():
            # chunked framing (sizes, blank lines) is skipped: an event is one chunk of whole lines
            if line.startswith(b"event: "):
                event = line[7:].strip().decode()
            elif line.startswith(b"data: "):
                if event == "hello":
                    hellos.append(session)
                elif event == "change":
                    change = json.loads(line[6:])
                    arrivals.append((change["session"], change["revision"], time.monotonic()))
    finally:
        writer.close()


def _watchers(port: int, paths: list[tuple[int, str]], pipe) -> None:
    async def main():
        arrivals, hellos, tasks = [], [], []
        for start in range(0, len(paths), 200):  # a phone table at a time, not one SYN flood
            for session, path in paths[start:start + 200]:
                tasks.append(asyncio.create_task(_watch(port, path, session, arrivals, hellos)))
            while len(hellos) + sum(task.done() for task in tasks) < len(tasks):
                await asyncio.sleep(0.05)
        pipe.send(("ready", len(hellos)))
        loop = asyncio.get_running_loop()
        while True:
            command = await loop.run_in_executor(None, pipe.recv)
            if command == "arrivals":
                pipe.send(list(arrivals))
                arrivals.clear()
            elif command == "stop":
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                pipe.send("stopped")
                return

    asyncio.run(main())


# --- the servers -------------------------------------------------------------------------


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _burst(port: int, targets: list[tuple[str, str]]) -> float:
    """Every client posts PER_CLIENT hands into its own session; hands per second."""

    def client(target):
        path, token = target
        for _ in range(PER_CLIENT):
            status, payload, _ = _request(port, "POST", path, HAND, token)
            if status != 201:
                raise RuntimeError(f"{path}: {status} {payload[:200]!r}")

    start = time.perf_counter()
    with ThreadPoolExecutor(CLIENTS) as pool:
        list(pool.map(client, targets))
    return CLIENTS * PER_CLIENT / (time.perf_counter() - start)


def _steady(port: int, token: str, sessions: list[int]) -> dict[tuple[int, int], float]:
    """RATE hands a second for SECONDS, round the sessions (never two at once in one session):
    when each POST's response arrived, by (session, the revision it made)."""
    responded: dict[tuple[int, int], float] = {}
    posted = dict.fromkeys(sessions, 0)
    total = RATE * SECONDS
    start = time.monotonic()

    def post(i: int) -> None:
        session = sessions[i % len(sessions)]
        time.sleep(max(0.0, start + i / RATE - time.monotonic()))
        status, payload, _ = _request(port, "POST", f"/api/v1/sessions/{session}/hands", HAND, token)
        if status != 201:
            raise RuntimeError(f"hand: {status} {payload[:200]!r}")
        arrived = time.monotonic()
        posted[session] += 1  # one post per session in flight: its revision is its count
        responded[(session, posted[session])] = arrived

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(post, range(total)))
    return responded


def run() -> list[str]:
    try:
        import psycopg

        admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3)
    except Exception as error:
        return [f"live fan-out: skipped, PostgreSQL not reachable at {ADMIN_URL} ({type(error).__name__})"]
    redis_url = ""
    if os.environ.get("LIVE_BROKER", "") != "postgres":
        try:
            import redis

            redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
            redis_url = REDIS_URL
        except Exception:
            redis_url = ""

    name = f"mighty_live_bench_{os.getpid()}"
    database_url = ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"
    api_port, stream_port = _free_port(), _free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL",)},
        "DJANGO_SETTINGS_MODULE": "benchmarks.live_settings", "DATABASE_URL": database_url,
        "DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false", "SECURE_COOKIES": "false", "RATE_LIMITS_ENABLED": "false",
        "BIND": f"127.0.0.1:{api_port}", "GUNICORN_ACCESS_LOG": "", "LOG_LEVEL": "WARNING",
    }
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env["WEB_CONCURRENCY"] = "1"  # gunicorn.conf.py: several workers need Redis for the rate limits
    broker = "Redis pub/sub" if redis_url else "PostgreSQL NOTIFY"
    admin.execute(f'CREATE DATABASE "{name}"')
    log = tempfile.TemporaryFile()  # noqa: SIM115  (closed in the finally below, after the servers stop)
    api = streams = None
    watchers = None
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
                       cwd=ROOT, env=env, check=True)
        bin_dir = Path(sys.executable).parent
        # logs to a file: a pipe nobody reads fills up, and then every worker blocks on its next line
        api = subprocess.Popen([str(bin_dir / "gunicorn"), "-c", "gunicorn.conf.py", "mighty_ledger.wsgi"],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
        streams = subprocess.Popen(
            [str(bin_dir / "uvicorn"), "mighty_ledger.asgi:application", "--host", "127.0.0.1",
             "--port", str(stream_port), "--no-access-log", "--log-level", "warning", "--backlog", "4096"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
        _wait_until_up(api_port, api)

        group = group_made(api_port, "Live bench")
        token, view_token = group["edit_token"], group["view_token"]
        sessions = sessions_started(api_port, token, SESSIONS)
        # the bursts write into sessions of their own first (nobody watching), then into watched ones
        unwatched = sessions_started(api_port, token, CLIENTS)
        bursts_alone = [(f"/api/v1/sessions/{sid}/hands", token) for sid in unwatched]
        bursts_watched = [(f"/api/v1/sessions/{sid}/hands", token) for sid in sessions[:CLIENTS]]

        # the stream server warmed up: one stream opened and left, so its subscription is up
        ours, theirs = multiprocessing.get_context("fork").Pipe()
        _wait_for_stream(stream_port, f"/g/{view_token}/s/{sessions[0]}/events/")
        time.sleep(1)
        _burst(api_port, bursts_alone)  # unmeasured: workers import, connect and fill caches
        without = [_burst(api_port, bursts_alone) for _ in range(ROUNDS)]

        rss_before = _rss_kb(streams.pid)
        paths = [(sessions[i % SESSIONS], f"/g/{view_token}/s/{sessions[i % SESSIONS]}/events/")
                 for i in range(WATCHERS)]
        watchers = multiprocessing.get_context("fork").Process(target=_watchers, args=(stream_port, paths, theirs))
        watchers.start()
        if not ours.poll(120):
            raise RuntimeError("the watchers did not all connect in 120 s")
        _, connected = ours.recv()
        time.sleep(3)  # idle: every stream has said hello and waits
        rss_after = _rss_kb(streams.pid)

        responded = _steady(api_port, token, sessions)
        time.sleep(1.5)
        ours.send("arrivals")
        arrivals = ours.recv()
        latencies = [arrived - responded[(session, revision)]
                     for session, revision, arrived in arrivals if (session, revision) in responded]
        expected = len(responded) * WATCHERS // SESSIONS

        # writes while 2,000 phones hear every hand, against the same bursts with nobody watching
        with_watchers, alone = [], []
        for _ in range(ROUNDS):
            with_watchers.append(_burst(api_port, bursts_watched))
            alone.append(_burst(api_port, bursts_alone))
        ours.send("arrivals")
        ours.recv()
        ours.send("stop")
        ours.recv()
        watchers.join(30)
        watchers = None
        without += alone

        ratio = statistics.median(with_watchers) / statistics.median(without)
        per_watcher = (rss_after - rss_before) / max(connected, 1)
        late = [latency * 1e3 for latency in latencies]
        return [
            f"live fan-out ({connected:,} watchers over {SESSIONS} sessions on one uvicorn process, "
            f"{broker}; {RATE} hands/s for {SECONDS} s through gunicorn):",
            f"  POST response → event at each watcher: p50 {_p(late, 0.5):.1f} ms, p99 {_p(late, 0.99):.1f} ms, "
            f"max {max(late):.1f} ms (target: p99 ≤ 250 ms); {len(latencies):,} of {expected:,} events",
            f"  memory per idle watcher: {per_watcher:.1f} KB (stream server RSS {rss_before / 1024:.0f} → "
            f"{rss_after / 1024:.0f} MB; target: ≤ 64 KB)",
            f"  hands recorded with the watchers hearing each: {statistics.median(with_watchers):,.0f} req/s "
            f"vs {statistics.median(without):,.0f} req/s with nobody watching, "
            f"throughput ratio {ratio:.2f} (target: ≥ 0.90)",
        ]
    finally:
        if watchers is not None:
            watchers.kill()
        _servers_gone(streams, api, admin=admin, database=name, log=log, what="live fan-out")


def _servers_gone(*servers, admin, database: str, log, what: str) -> None:
    """Stop the servers a benchmark started, drop its database, and say what they logged as errors."""
    for server in servers:
        _stop(server)
    admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    admin.close()
    log.seek(0)
    # gunicorn says "Error while closing socket" at INFO when a client left mid-answer (the watchers
    # are killed at the end): not an error of the servers'
    if errors := [line for line in log.read().decode(errors="replace").splitlines()
                  if "Error" in line and "[INFO]" not in line]:
        print(f"{what}: the servers logged {len(errors)} errors, the first: {errors[0]}", file=sys.stderr)
    log.close()


def _wait_for_stream(port: int, path: str, seconds: float = 60) -> None:
    """Open one stream until its hello arrives, then leave: the server is up and subscribed."""
    import http.client

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", path)
            response = connection.getresponse()
            if response.status == 200 and b"hello" in response.read1(4096):
                connection.close()
                return
            connection.close()
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError("the stream server did not answer in time")
