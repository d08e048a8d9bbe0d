"""How many tables one core carries: a hand every two minutes, eight phones following each.

What one table costs the server in those two minutes, measured in one process that is both the
web worker and the stream process: the hand POSTed through the API, its change heard by the 8
phones' event streams (opened on the ASGI app as a browser opens them, the in-process broker),
and each phone's poll of the board (a phone polls every 2 minutes while its stream is open). A
phone whose event brings the hand's step applies it and its poll is a 304; one whose event does
not fetches the board's live regions first. CPU time of the whole process, beside the bare view,
interleaved rounds (measure.compare); tables per core = 120 s ÷ that CPU.
"""

from __future__ import annotations

import asyncio
import json
import time

from .django_setup import bulk_session, django_on_sqlite
from .measure import Figure, compare

PHONES, HANDS_BEFORE, SECONDS_A_HAND = 8, 60, 120
SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
HAND = {"dealer": "Ed", "declarer": "Ann", "contract": {"points": 15, "trump": "D"},
        "partner_call": {"type": "card", "cards": ["AS"]}, "partners": ["Cy"], "points": 16}


class Stream:
    """One phone's event stream on the ASGI app; its events are only collected (``Heard``)."""

    def __init__(self, app, path: str, query: str, heard: Heard) -> None:
        self.app, self.path, self.query, self.heard = app, path, query, heard
        self.started, self.leave, self.asked = asyncio.Event(), asyncio.Event(), False

    async def open(self) -> None:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                 "scheme": "http", "path": self.path, "raw_path": self.path.encode(),
                 "query_string": self.query.encode(), "root_path": "", "headers": [(b"host", b"testserver")],
                 "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 80)}
        self.task = asyncio.create_task(self.app(scope, self._receive, self._send))
        await self.started.wait()

    async def _receive(self):
        if not self.asked:
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.leave.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message) -> None:
        if message["type"] == "http.response.start":
            if message["status"] != 200:
                raise RuntimeError(f"{self.path}: {message['status']}, the stream should open")
            self.started.set()
        elif message.get("body", b"").startswith(b"event: change"):
            self.heard.event(message["body"])

    async def close(self) -> None:
        self.leave.set()
        await self.task


class Heard:
    """The phones' events as they arrive: ``until(n)`` waits for n more and gives the last."""

    def __init__(self) -> None:
        self.count, self.wanted, self.last, self.arrived = 0, 0, b"", asyncio.Event()

    def event(self, body: bytes) -> None:
        self.count += 1
        self.last = body
        if self.count >= self.wanted:
            self.arrived.set()

    async def until(self, more: int) -> bytes:
        self.wanted = self.count + more
        if self.count < self.wanted:
            self.arrived.clear()
            await self.arrived.wait()
        return self.last


def run() -> list[Figure]:
    django_on_sqlite()
    from django.db import connections
    from django.test import Client
    from django.urls import reverse

    from mighty_ledger import services
    from mighty_ledger.asgi import application
    from mighty_ledger.live.streams import on_the_steps_thread

    group = services.group_create(name="A table of phones")
    session = bulk_session(group, seats=SEATS, hands=HANDS_BEFORE)
    token = group.edit_token
    board_url, live_url = (reverse(name, args=[token, session.pk]) for name in ("session_board", "session_live"))
    writer = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    phones = [Client(HTTP_ACCEPT_LANGUAGE="en") for _ in range(PHONES)]
    held = []  # the ETag of the live regions each phone's board holds
    for phone in phones:
        held.append(phone.get(board_url).content.decode().split('data-live-etag="', 1)[1].split('"', 1)[0]
                    .replace("&quot;", '"'))

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    heard = Heard()
    streams = [Stream(application, reverse("session_events", args=[token, session.pk]), "board=en", heard)
               for _ in range(PHONES)]
    loop.run_until_complete(asyncio.gather(*(stream.open() for stream in streams)))
    stepped = [0]

    def a_table() -> None:
        answer = writer.post(f"/api/v1/sessions/{session.pk}/hands", HAND, content_type="application/json")
        if answer.status_code != 201:
            raise RuntimeError(f"a hand: {answer.status_code} {answer.content[:200]!r}")
        news = json.loads(loop.run_until_complete(heard.until(PHONES)).split(b"data: ", 1)[1])
        step = news.get("board")
        for index, phone in enumerate(phones):
            if step is not None:
                held[index] = step["etag"]
                stepped[0] += 1
            else:  # no step in the event: the phone fetches the regions
                held[index] = phone.get(live_url, HTTP_IF_NONE_MATCH=held[index])["ETag"]
            if (poll := phone.get(live_url, HTTP_IF_NONE_MATCH=held[index]).status_code) != 304:
                raise RuntimeError(f"{live_url}: a phone's poll answered {poll}, not 304")

    def bare() -> None:
        writer.get("/bench/bare/")

    table = compare("a table", a_table, bare, rounds=7, calls=8, clock=time.process_time)
    loop.run_until_complete(asyncio.gather(*(stream.close() for stream in streams)))
    loop.run_until_complete(on_the_steps_thread(connections.close_all))  # the steps' thread's connection
    loop.close()
    how = "the hand's step in its event" if stepped[0] else "each phone fetching the board's regions"
    return [Figure(f"tables per core: a hand every {SECONDS_A_HAND // 60} minutes, {PHONES} phones following it",
                   SECONDS_A_HAND / table.ours_seconds, "≥ 2,000",
                   f"{table.ours_seconds * 1e3:.1f} ms of CPU a hand ({table.ratio:.0f} × a bare view's "
                   f"{table.baseline_seconds * 1e3:.2f} ms); {how}")]
