"""Streams on paper: what an open stream costs the stream process, idle, as `make serve` runs it.

Starts what it needs and stops it: a PostgreSQL database made for the run (dropped
after it), gunicorn's sync workers for the API (to make the sessions), and the
stream server exactly as `make serve` starts it (gunicorn.conf.py, SERVE_ROLE=streams,
the masking uvicorn worker, one worker, the default 15 s heartbeat). Streams are
opened from other processes, 8 to a session like the phones of a table, in two
steps (STEPS); after each step, idle, it reads the stream worker's /proc: its RSS
(the memory of a stream is the slope between the steps) and its CPU time over
IDLE_SECONDS of heartbeats (what bounds the streams one process, on one core,
can keep). These are absolute figures of this machine, for the capacity
on paper; the ratios that are targets are in live_fanout and phones.
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .api_load import ADMIN_URL, _free_port, _wait_until_up, group_made, sessions_started
from .live_fanout import _rss_kb, _servers_gone, _wait_for_stream, _watchers
from .measure import children, cpu_seconds

ROOT = Path(__file__).resolve().parent.parent
PHONES_PER_TABLE = 8
STEPS = (1000, 5000)  # open streams after each step
IDLE_SECONDS = 30  # two heartbeats of every stream
if os.environ.get("BENCH_QUICK"):  # a trial of the benchmark itself, not a figure
    STEPS, IDLE_SECONDS = (40, 200), 5


def _cpu_seconds(pid: int) -> float:
    spent = cpu_seconds(pid)
    if spent is None:
        raise RuntimeError(f"the stream worker {pid} is gone")
    return spent


def _worker_of(master: int, seconds: float = 60) -> int:
    """The one worker process gunicorn's master forked."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if pids := children(master):
            return pids[0]
        time.sleep(0.2)
    raise RuntimeError("the stream server forked no worker")


def _open(port: int, paths: list[tuple[int, str]]):
    """A process holding these streams open; returns it and its pipe once every stream said hello."""
    ours, theirs = multiprocessing.get_context("fork").Pipe()
    holder = multiprocessing.get_context("fork").Process(target=_watchers, args=(port, paths, theirs))
    holder.start()
    if not ours.poll(300):
        raise RuntimeError(f"{len(paths)} streams did not all open in 300 s")
    _, connected = ours.recv()
    if connected != len(paths):
        raise RuntimeError(f"only {connected} of {len(paths)} streams opened")
    return holder, ours


def _idle(worker: int) -> tuple[float, float]:
    """(RSS in KB, CPU seconds per second) of the stream worker over IDLE_SECONDS with nothing written."""
    time.sleep(3)  # the last hellos are out
    start_cpu, start = _cpu_seconds(worker), time.monotonic()
    time.sleep(IDLE_SECONDS)
    cpu = (_cpu_seconds(worker) - start_cpu) / (time.monotonic() - start)
    return _rss_kb(worker), cpu


def run() -> list[str]:
    try:
        import psycopg

        admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3)
    except Exception as error:
        return [f"stream capacity: skipped, PostgreSQL not reachable at {ADMIN_URL} ({type(error).__name__})"]

    name = f"mighty_streams_bench_{os.getpid()}"
    api_port, stream_port = _free_port(), _free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "LIVE_BROKER", "LIVE_HEARTBEAT_SECONDS")},
        "DJANGO_SETTINGS_MODULE": "benchmarks.settings",
        "DATABASE_URL": ADMIN_URL.rsplit("/", 1)[0] + f"/{name}",
        "DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false", "SECURE_COOKIES": "false", "RATE_LIMITS_ENABLED": "false",
        "BIND": f"127.0.0.1:{api_port}", "STREAM_BIND": f"127.0.0.1:{stream_port}", "WEB_CONCURRENCY": "1",
        "GUNICORN_ACCESS_LOG": "", "LOG_LEVEL": "WARNING",
    }
    admin.execute(f'CREATE DATABASE "{name}"')
    log = tempfile.TemporaryFile()  # noqa: SIM115  (closed in the finally below, after the servers stop)
    api = streams = None
    holders = []
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
                       cwd=ROOT, env=env, check=True)
        gunicorn = str(Path(sys.executable).with_name("gunicorn"))
        api = subprocess.Popen([gunicorn, "-c", "gunicorn.conf.py", "mighty_ledger.wsgi"],
                               cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
        # the Makefile's STREAM_SERVER, with its STREAM_ENV
        streams = subprocess.Popen(
            [gunicorn, "-c", "gunicorn.conf.py", "-k", "mighty_ledger.live.worker.StreamWorker",
             "--bind", env["STREAM_BIND"], "--workers", "1", "--backlog", "4096", "mighty_ledger.asgi:application"],
            cwd=ROOT, env={**env, "SERVE_ROLE": "streams"}, stdout=subprocess.DEVNULL, stderr=log)
        _wait_until_up(api_port, api)

        group = group_made(api_port, "Streams")
        tables = sessions_started(api_port, group["edit_token"], STEPS[-1] // PHONES_PER_TABLE)
        paths = [(sid, f"/g/{group['view_token']}/s/{sid}/events/") for sid in tables for _ in range(PHONES_PER_TABLE)]

        _wait_for_stream(stream_port, paths[0][1])
        worker = _worker_of(streams.pid)
        figures = [(0, *_idle(worker))]
        opened, opening = 0, []
        for step in STEPS:
            before = _cpu_seconds(worker)
            holders.append(_open(stream_port, paths[opened:step]))
            opening.append((_cpu_seconds(worker) - before) / (step - opened))
            opened = step
            figures.append((step, *_idle(worker)))

        (_, rss0, cpu0), (n1, rss1, cpu1), (n2, rss2, cpu2) = figures
        per_stream_kb = (rss2 - rss1) / (n2 - n1)
        cpu_per_stream = (cpu2 - cpu0) / n2  # CPU seconds per second, per idle stream
        return [
            f"stream capacity (one stream worker as make serve starts it, {PHONES_PER_TABLE} streams a table, "
            f"15 s heartbeat, idle {IDLE_SECONDS} s at each step):",
            f"  RSS {rss0 / 1024:.0f} MB with no stream, {rss1 / 1024:.0f} MB with {n1:,}, {rss2 / 1024:.0f} MB "
            f"with {n2:,}: {per_stream_kb:.1f} KB a stream",
            f"  CPU to open a stream (the link checked, hello sent): {opening[-1] * 1e3:.2f} ms; every stream "
            f"opens again about every 10 minutes",
            f"  CPU of the idle worker: {cpu0 * 100:.2f}% of a core with no stream, {cpu1 * 100:.2f}% with {n1:,}, "
            f"{cpu2 * 100:.2f}% with {n2:,}: {cpu_per_stream * 1e6:.1f} µs a second a stream "
            f"(heartbeats alone would fill a core at {1 / cpu_per_stream:,.0f} streams)" if cpu_per_stream > 0 else
            f"  CPU of the idle worker: {cpu0 * 100:.2f}%, {cpu1 * 100:.2f}%, {cpu2 * 100:.2f}% of a core",
        ]
    finally:
        for holder, pipe in holders:
            holder.kill()
            holder.join(10)
            pipe.close()
        _servers_gone(streams, api, admin=admin, database=name, log=log, what="stream capacity")
