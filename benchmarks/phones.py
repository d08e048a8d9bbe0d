"""A table of 8 phones: what one hand costs the server when every phone at the table follows it.

One hand POSTed through the API (the hand itself), then each of 8 phones getting what a live
scoreboard gets on that change. Each phone holds an open event stream, served by the ASGI app
(mighty_ledger/asgi.py, as `make serve`'s stream process serves it) with the in-process broker:
the change reaches all 8 streams, the first of them draws the hand's step on the board once
(its row, the totals, who deals next: mighty_ledger/pages/views/board_steps.py) on the streams'
thread pool, and every stream sends it inside its ``change`` event. The phones apply it and fetch
nothing. Every phone holds the edit link, as phones at the table do, and reads English.

For comparison, the way a phone catches up that missed an event or has no stream (it fetches the
board's live regions, ``/g/<token>/s/<id>/live/``, with the ETag it holds: the first phone draws
the board region in them, the others read it from the cache): the design until the steps
(26 November 2026), when every live phone fetched after every hand (3.75–4.9 × the POST).

CPU time of the whole process (the streams' pool thread draws the step; the event loop relays),
interleaved rounds, median ratio (benchmarks/measure.py): the POST and the 8 phones ÷ the POST
alone. The session has an evening's 60 hands when the rounds begin.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import time

from .django_setup import bulk_session, django_on_sqlite
from .measure import compare, per_call

PHONES = 8
SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
HANDS_BEFORE = 60
# pagat example 1: 15 ♦ made with 16, the ace of spades called
HAND = {"dealer": "Ed", "declarer": "Ann", "contract": {"points": 15, "trump": "D"},
        "partner_call": {"type": "card", "cards": ["AS"]}, "partners": ["Cy"], "points": 16}
PHONE = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/126.0 Mobile Safari/537.36")


class Phone:
    """One phone's event stream, opened on the ASGI app as a browser opens it.

    What the app sends is only collected: the phone's own reading of its events happens on the
    phone, so it is kept out of the server's figures (``Table.heard`` counts events as they come).
    """

    def __init__(self, app, path: str, query: str, table: Table) -> None:
        self.app, self.path, self.query, self.table = app, path, query, table
        self.started = asyncio.Event()
        self.leave = asyncio.Event()
        self.asked = False
        self.status = 0

    async def open(self) -> None:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
                 "scheme": "http", "path": self.path, "raw_path": self.path.encode(),
                 "query_string": self.query.encode(), "root_path": "", "headers": [(b"host", b"testserver")],
                 "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 80)}
        self.task = asyncio.create_task(self.app(scope, self._receive, self._send))
        await self.started.wait()
        if self.status != 200:
            raise RuntimeError(f"{self.path}: {self.status}, the stream should open")

    async def _receive(self):
        if not self.asked:
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.leave.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.started.set()
        elif message.get("body", b"").startswith(b"event: change"):
            self.table.heard(message["body"])

    async def close(self) -> None:
        self.leave.set()
        await self.task


class Table:
    """The phones' events as they arrive: ``until(n)`` waits for n more of them."""

    def __init__(self) -> None:
        self.count, self.wanted, self.last = 0, 0, b""
        self.arrived = asyncio.Event()

    def heard(self, event: bytes) -> None:
        self.count += 1
        self.last = event
        if self.count >= self.wanted:
            self.arrived.set()

    async def until(self, more: int) -> bytes:
        self.wanted = self.count + more
        if self.count < self.wanted:
            self.arrived.clear()
            await self.arrived.wait()
        return self.last


def run() -> list[str]:
    django_on_sqlite()
    from django.db import connections
    from django.test import Client
    from django.urls import reverse

    from mighty_ledger import services
    from mighty_ledger.asgi import application
    from mighty_ledger.live.streams import on_the_steps_thread

    group = services.group_create(name="A table of phones")
    session = bulk_session(group, seats=SEATS, hands=HANDS_BEFORE)
    board_url = reverse("session_board", args=[group.edit_token, session.pk])
    live_url = reverse("session_live", args=[group.edit_token, session.pk])
    events_url = reverse("session_events", args=[group.edit_token, session.pk])
    hands_url = f"/api/v1/sessions/{session.pk}/hands"
    writer = Client(HTTP_AUTHORIZATION=f"Bearer {group.edit_token}")
    sizes: dict[str, int] = {}

    def the_hand():
        answer = writer.post(hands_url, HAND, content_type="application/json")
        if answer.status_code != 201:
            raise RuntimeError(f"{hands_url}: {answer.status_code} {answer.content[:200]!r}")

    def etag_on(board: str) -> str:
        """The ETag of the live regions a board page names (data-live-etag): what its phone holds."""
        return re.search(r'data-live-etag="([^"]*)"', board).group(1).replace("&quot;", '"')

    # --- the phones as they follow the table: the step inside the event -----------------------
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    heard = Table()
    streams = [Phone(application, events_url, "board=en", heard) for _ in range(PHONES)]
    loop.run_until_complete(asyncio.gather(*(phone.open() for phone in streams)))

    async def every_phone_hears():
        event = await heard.until(PHONES)
        if b'"board":' not in event:
            raise RuntimeError(f"a phone heard the hand without its step: {event[:200]!r}")
        sizes["step"] = len(event)

    def the_table():
        the_hand()
        loop.run_until_complete(every_phone_hears())

    posted = [0]  # hands POSTed alone since the phones last read their events

    def the_hand_alone():
        posted[0] += 1
        the_hand()

    def forget_the_hands_alone():
        # the hands POSTed alone were heard by the streams too: their events are read here, untimed
        unheard = posted[0]
        posted[0] = 0

        loop.run_until_complete(heard.until(PHONES * unheard))

    table = compare(f"a table of {PHONES} phones: one hand POSTed and every phone following it vs the POST alone",
                    the_table, the_hand_alone, rounds=7, calls=8, clock=time.process_time,
                    before_ours=forget_the_hands_alone)
    forget_the_hands_alone()
    loop.run_until_complete(asyncio.gather(*(phone.close() for phone in streams)))
    # the steps' thread holds a connection of its own (Django's are a thread's): closed there, so
    # none outlives the figures
    loop.run_until_complete(on_the_steps_thread(connections.close_all))
    loop.close()

    # --- for comparison: phones that fetch the live regions (a missed event, no stream) ---------
    phones = [Client(HTTP_USER_AGENT=PHONE, HTTP_ACCEPT_LANGUAGE="en") for _ in range(PHONES)]
    # each phone opened the board once: the ETag of the fragments its page names (data-live-etag)
    held = []
    for phone in phones:
        held.append(etag_on(phone.get(board_url).content.decode()))

    def one_phone_fetches(index: int):
        fragments = phones[index].get(live_url, HTTP_IF_NONE_MATCH=held[index])
        if fragments.status_code != 200:
            raise RuntimeError(f"{live_url}: {fragments.status_code}, the phone should get the new regions")
        held[index] = fragments["ETag"]
        sizes["fragments"] = len(fragments.content)

    def the_table_fetching():
        the_hand()
        for index in range(PHONES):
            one_phone_fetches(index)

    # a phone's poll after a step, holding the ETag the step gave it: no phone fetched
    # the regions, and the view answers 304 from the link's query alone
    the_hand()
    stepped_to = etag_on(phones[0].get(board_url).content.decode())

    def poll():
        return phones[0].get(live_url, HTTP_IF_NONE_MATCH=stepped_to)

    if poll().status_code != 304:
        raise RuntimeError(f"{live_url}: a phone holding the regions' ETag should get 304")
    poll_seconds = statistics.median(per_call(poll, 50) for _ in range(5))

    fetching = compare(f"  the same {PHONES} phones each fetching the live regions instead (a missed event, no stream)",
                       the_table_fetching, the_hand, rounds=5, calls=8)
    return [
        table.line() + "  (target: ≤ 2)",
        f"  per hand: {table.ours_seconds * 1e3:.1f} ms of CPU with the phones, {table.baseline_seconds * 1e3:.1f} ms "
        f"for the POST; each phone's event {sizes['step'] / 1024:.1f} KiB (the hand's step on the board)",
        fetching.line() + f" (the regions {sizes['fragments'] / 1024:.0f} KiB)",
        f"  a phone's poll (every 2 minutes with its stream open, 30 s without): 304 in {poll_seconds * 1e3:.2f} ms "
        "of CPU",
    ]
