"""2,000 phones following 400 tables on one stream process, while hands are posted.

Served as `make serve` serves it (serving.py): gunicorn's sync workers for the API, one uvicorn
process for the event streams, PostgreSQL, the changes through Redis. Each phone follows its
table's board (``?board=en``: a new hand's step comes in its event). The phones live in a process
of their own (one asyncio loop, raw sockets), so reading 2,000 streams takes no CPU from the
servers' side of the clock; both processes read CLOCK_MONOTONIC.

- memory: the stream process's RSS growth over the 2,000 open, idle streams, per stream;
- fan-out: hands posted at a steady rate, each to a followed table; for every phone of that
  table, the time from the POST's answer to its event.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import time
from concurrent.futures import ThreadPoolExecutor

from .measure import Figure
from .serving import (
    BIN,
    env_log,
    free_port,
    hand,
    production,
    request,
    sessions,
    started,
    stop,
    web,
)

TABLES, PHONES = 400, 2000
RATE, SECONDS = 20, 15  # hands a second, for how long: 300 hands, 1,500 events
if os.environ.get("BENCH_QUICK"):  # a trial of the benchmark itself, not a figure
    TABLES, PHONES, RATE, SECONDS = 20, 100, 10, 2


async def _follow(port: int, path: str, table: int, arrivals: list, hellos: list) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    event = ""
    try:
        while line := await reader.readline():
            # chunked framing (sizes, blank lines) is skipped: an event is one chunk of whole lines
            if line.startswith(b"event: "):
                event = line[7:].strip().decode()
            elif line.startswith(b"data: ") and event == "hello":
                hellos.append(table)
            elif line.startswith(b"data: ") and event == "change":
                change = json.loads(line[6:])
                arrivals.append((change["session"], change["revision"], time.monotonic()))
    finally:
        writer.close()


def _phones(port: int, paths: list[tuple[int, str]], pipe) -> None:
    async def main():
        arrivals, hellos, tasks = [], [], []
        for start in range(0, len(paths), 200):  # a few tables at a time, not one SYN flood
            tasks += [asyncio.create_task(_follow(port, path, table, arrivals, hellos))
                      for table, path in paths[start:start + 200]]
            while len(hellos) + sum(task.done() for task in tasks) < len(tasks):
                await asyncio.sleep(0.05)
        pipe.send(len(hellos))
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # until asked
        pipe.send(list(arrivals))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def _steady(port: int, token: str, tables: list[int]) -> dict[tuple[int, int], float]:
    """RATE hands a second for SECONDS round the tables (one at a time in each): when each POST's
    answer came, by (session, the revision it made)."""
    answered: dict[tuple[int, int], float] = {}
    posted = dict.fromkeys(tables, 0)
    start = time.monotonic()

    def post(index: int) -> None:
        table = tables[index % len(tables)]
        time.sleep(max(0.0, start + index / RATE - time.monotonic()))
        hand(port, token, table)
        posted[table] += 1  # its revision is its count of hands: one POST a table in flight
        answered[(table, posted[table])] = time.monotonic()

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(post, range(RATE * SECONDS)))
    return answered


def run() -> list[Figure]:
    servers, follow = [], None
    with production("streams") as env:
        try:
            api_port, stream_port = free_port(), free_port()
            servers.append(web(env, api_port))
            servers.append(streams := started(
                [str(BIN / "uvicorn"), "mighty_ledger.asgi:application", "--host", "127.0.0.1", "--port",
                 str(stream_port), "--no-access-log", "--log-level", "warning", "--backlog", "4096"],
                {key: value for key, value in env.items() if key != "LOG"}, stream_port, env_log(env)))
            status, group = request(api_port, "POST", "/api/v1/groups",
                                    {"name": "Streams", "players": ["Ann", "Bo", "Cy", "Di", "Ed"]})
            if status != 201:
                raise RuntimeError(f"a group: {status}")
            token = group["edit_token"]
            tables = sessions(api_port, token, TABLES)
            for table in tables[:10]:
                hand(api_port, token, table)  # the workers warmed: imported, connected
            time.sleep(1)
            rss_before = _rss_kb(streams.pid)
            ours, theirs = multiprocessing.get_context("fork").Pipe()
            paths = [(tables[index % TABLES], f"/g/{token}/s/{tables[index % TABLES]}/events/?board=en")
                     for index in range(PHONES)]
            follow = multiprocessing.get_context("fork").Process(target=_phones, args=(stream_port, paths, theirs))
            follow.start()
            if not ours.poll(120):
                raise RuntimeError("the phones did not all connect in 120 s")
            connected = ours.recv()
            time.sleep(3)  # idle: every stream has said hello and waits
            rss_after = _rss_kb(streams.pid)
            already = {table: 1 for table in tables[:10]}
            answered = {(table, revision + already.get(table, 0)): when
                        for (table, revision), when in _steady(api_port, token, tables).items()}
            time.sleep(1.5)
            ours.send("arrivals")
            arrivals = ours.recv()
            follow.join(30)
        finally:
            if follow is not None and follow.is_alive():
                follow.kill()
            for server in reversed(servers):
                stop(server)
    late = sorted((arrived - answered[(table, revision)]) * 1e3
                  for table, revision, arrived in arrivals if (table, revision) in answered)
    expected = len(answered) * PHONES // TABLES
    p99 = late[min(len(late) - 1, round(0.99 * (len(late) - 1)))] if len(late) == expected else float("inf")
    return [
        Figure(f"memory per open stream, {connected:,} streams on one stream process (KB)",
               (rss_after - rss_before) / max(connected, 1), "≤ 64",
               f"RSS {rss_before / 1024:.0f} → {rss_after / 1024:.0f} MB"),
        Figure(f"live fan-out at {PHONES:,} phones: the POST's answer → each phone's event, p99 (ms)", p99,
               "≤ 250", f"{len(late):,} of {expected:,} events; p50 {late[len(late) // 2]:.1f} ms; "
               f"{RATE} hands a second, Redis"),
    ]
