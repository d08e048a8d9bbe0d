"""What each performance mechanism buys: the `make bench` figure it holds, with it and without it.

For each mechanism, the figure of `make bench` it is there for is measured twice in the same
rounds: as the app runs, and with the mechanism switched off in this process (or in a gunicorn
beside the app's own, for the API's load), the plain path put in its place
(benchmarks/switches.py). Both against the same baseline, measured with everything on: the
bare view, the POST alone, a scoreboard from its cache (benchmarks/measure.py,
``with_and_without``). A mechanism whose figure meets its target without it holds none. Beside
each figure, a control: the same pair of measures with nothing switched off, whose two ratios
differ only by the noise of the machine.

Where a mechanism also moves a figure that has no target, that figure is printed beside it,
marked so; two more with none are measured as the app runs, without a switch: the phones that
fetch instead of applying a step, and a phone's poll after a step (its 304). The API's
throughput through HTTP moves with whatever else the two cores run, far more than the control
allows to read a mechanism from it, so beside it each server's CPU a hand is counted: its
gunicorn's processes and the PostgreSQL backends of its own database, from /proc.

The three live brokers are not switched: each is how the changes travel in one kind of
deployment (docs/operations.md), so the live fan-out's targets are measured through NOTIFY
here, beside `make bench`'s own run through Redis; the in-process broker is what the phones'
and statistics' figures here run on.
"""

from __future__ import annotations

import asyncio
import os
import re
import statistics
import time
from dataclasses import dataclass

from .django_setup import bulk_session, django_on_sqlite
from .measure import children, cpu_seconds, per_call, with_and_without
from .switches import switched_off

SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
# the control beside each figure: both sides the same app, nothing switched off (how far the noise goes)
NOTHING, CONTROL = "", "(nothing)"
API_ROUNDS = 7  # of 300 hands on each server, each beside 300 requests of the bare view
PHONE = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/126.0 Mobile Safari/537.36")


@dataclass(frozen=True)
class Held:
    """One mechanism beside one figure: the ratio with it and without it, and the figure's target."""

    mechanism: str
    figure: str
    target: str  # "≤ 3", "≥ 0.25", or "" for a figure with none
    with_it: float
    without_it: float

    def met(self, ratio: float) -> bool:
        if not self.target:
            return True
        bound = float(self.target[2:])
        return ratio <= bound if self.target.startswith("≤") else ratio >= bound

    def line(self) -> str:
        target = f"target {self.target}" if self.target else "no target"
        return (f"  {self.mechanism:<13} {self.figure:<38} {target:<14} with {self.with_it:6.2f}   "
                f"without {self.without_it:6.2f}   {self.verdict()}").rstrip()

    def verdict(self) -> str:
        if self.mechanism == CONTROL:
            return "(the noise: nothing switched off)"
        if not self.target:
            return ""
        if not self.met(self.with_it):
            return "target missed with it too"
        return "met without it: holds no target" if self.met(self.without_it) else "holds it"


def _checked(answer, status: int = 200):
    if answer.status_code != status:
        raise RuntimeError(f"{answer.request['PATH_INFO']}: {answer.status_code}, expected {status}")
    return answer


def _pair(held: list[Held], mechanism: str, figure: str, target: str, ours, baseline, **options) -> list[str]:
    named = mechanism or CONTROL
    with_it, without_it = with_and_without(f"{figure}, {named}", ours, baseline,
                                           lambda: switched_off(*filter(None, [mechanism])), **options)
    held.append(Held(named, figure, target, with_it.ratio, without_it.ratio))
    return [with_it.line(), without_it.line()]


# --- the scoreboard: a phone's first view ÷ a bare view (≤ 3) ------------------------------------


def _scoreboard(held: list[Held]) -> list[str]:
    from django.test import Client
    from django.urls import reverse

    from mighty_ledger import services

    group = services.group_create(name="Mechanisms: scoreboard")
    session = bulk_session(group, seats=SEATS, hands=500)
    url = reverse("session_board", args=[group.view_token, session.pk])
    client = Client(HTTP_USER_AGENT=PHONE)

    def scoreboard():
        _checked(client.get(url))

    def bare():
        client.get("/bench/bare/")

    lines = []
    for mechanism in (NOTHING, "drawn_once", "link_query"):
        lines += _pair(held, mechanism, "scoreboard ÷ bare view", "≤ 3", scoreboard, bare, rounds=11, calls=40)
    return lines


# --- a table of 8 phones: a hand and every phone following it ÷ the hand alone (≤ 2) -------------


def _phones(held: list[Held]) -> list[str]:
    from django.db import connections
    from django.test import Client
    from django.urls import reverse

    from mighty_ledger import services
    from mighty_ledger.asgi import application
    from mighty_ledger.live.streams import on_the_steps_thread

    from .phones import HAND, HANDS_BEFORE, PHONES, Phone, Table

    group = services.group_create(name="Mechanisms: a table of phones")
    session = bulk_session(group, seats=SEATS, hands=HANDS_BEFORE)
    board_url = reverse("session_board", args=[group.edit_token, session.pk])
    live_url = reverse("session_live", args=[group.edit_token, session.pk])
    events_url = reverse("session_events", args=[group.edit_token, session.pk])
    writer = Client(HTTP_AUTHORIZATION=f"Bearer {group.edit_token}")
    phones = [Client(HTTP_USER_AGENT=PHONE, HTTP_ACCEPT_LANGUAGE="en") for _ in range(PHONES)]
    held_etags = [re.search(r'data-live-etag="([^"]*)"', _checked(phone.get(board_url)).content.decode())
                  .group(1).replace("&quot;", '"') for phone in phones]

    def the_hand():
        _checked(writer.post(f"/api/v1/sessions/{session.pk}/hands", HAND, content_type="application/json"), 201)

    def every_phone_fetches():
        for index, phone in enumerate(phones):
            held_etags[index] = _checked(phone.get(live_url, HTTP_IF_NONE_MATCH=held_etags[index]))["ETag"]

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    heard = Table()
    streams = [Phone(application, events_url, "board=en", heard) for _ in range(PHONES)]
    loop.run_until_complete(asyncio.gather(*(phone.open() for phone in streams)))
    posted = [0]  # hands POSTed alone since the phones last read their events

    def the_table():
        the_hand()
        event = loop.run_until_complete(heard.until(PHONES))
        if b'"board":' not in event:
            raise RuntimeError(f"a phone heard the hand without its step: {event[:200]!r}")

    def the_table_without_steps():
        # what a phone does with a change that carries no step: it fetches the board's live regions
        the_hand()
        loop.run_until_complete(heard.until(PHONES))
        every_phone_fetches()

    def the_hand_alone():
        posted[0] += 1
        the_hand()

    def forget_the_hands_alone():
        unheard, posted[0] = posted[0], 0
        loop.run_until_complete(heard.until(PHONES * unheard))

    figure, options = f"{PHONES} phones ÷ the POST alone", {
        "rounds": 11, "calls": 16, "clock": time.process_time, "before_ours": forget_the_hands_alone}
    lines = _pair(held, "steps", figure, "≤ 2", the_table, the_hand_alone,
                  ours_off=the_table_without_steps, **options)
    for mechanism in (NOTHING, "statements", "link_query"):
        lines += _pair(held, mechanism, figure, "≤ 2", the_table, the_hand_alone, **options)
    forget_the_hands_alone()
    loop.run_until_complete(asyncio.gather(*(phone.close() for phone in streams)))
    loop.run_until_complete(on_the_steps_thread(connections.close_all))
    loop.close()

    # what a phone without a stream (or that missed an event) does: no target since the steps
    def the_table_fetching():
        the_hand()
        every_phone_fetches()

    lines += _pair(held, NOTHING, f"{PHONES} phones fetching ÷ the POST alone", "", the_table_fetching,
                   the_hand, rounds=5, calls=8)
    # a phone's poll, holding the regions' ETag after a step nobody fetched: 304
    the_hand()
    stepped_to = re.search(r'data-live-etag="([^"]*)"', phones[0].get(board_url).content.decode()).group(1)
    stepped_to = stepped_to.replace("&quot;", '"')

    def poll():
        _checked(phones[0].get(live_url, HTTP_IF_NONE_MATCH=stepped_to), 304)

    lines.append(f"a phone's poll after a step (304): "
                 f"{statistics.median(per_call(poll, 50) for _ in range(5)) * 1e3:.2f} ms of CPU (no target)")
    return lines


# --- the statistics and ratings: the first view after a hand ÷ a scoreboard from its cache (≤ 2) -


def _group_pages(held: list[Held]) -> list[str]:
    from django.core.cache import cache
    from django.db import connections
    from django.test import Client
    from django.urls import reverse

    from mighty_ledger import services
    from mighty_ledger.asgi import application
    from mighty_ledger.live.streams import on_the_redraw_thread, on_the_steps_thread
    from mighty_ledger.pages.views.stats_looks import looks_key, told_key

    from .group_pages import HANDS, MADE, SESSIONS
    from .phones import Phone, Table

    group = services.group_create(name="Mechanisms: the group's pages")
    sessions = [bulk_session(group, seats=SEATS, hands=HANDS) for _ in range(SESSIONS)]
    tonight = sessions[-1]
    client = Client()
    board_url = reverse("session_board", args=[group.view_token, sessions[0].pk])
    pages = {name: reverse(name, args=[group.view_token]) for name in ("group_stats", "group_ratings")}

    def the_statistics():
        _checked(client.get(pages["group_stats"]))

    def the_ratings():
        _checked(client.get(pages["group_ratings"]))

    def scoreboard():
        _checked(client.get(board_url))

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    heard = Table()
    phone = Phone(application, reverse("session_events", args=[group.edit_token, tonight.pk]), "board=en", heard)
    loop.run_until_complete(phone.open())
    # the group looks at both pages now that a phone's stream is open, so that its process hears it
    cache.delete_many([looks_key(group.pk), told_key(group.pk)])
    the_statistics()
    the_ratings()

    def a_hand_followed():
        services.hand_record(session=tonight, entry=MADE)
        tonight.refresh_from_db()
        loop.run_until_complete(heard.until(1))
        loop.run_until_complete(on_the_redraw_thread(lambda: None))  # the drawing handed on as it was heard

    lines, options = [], {"rounds": 7, "calls": 10, "before_ours": a_hand_followed}
    for mechanism in (NOTHING, "redraws", "drawn_once", "statements"):
        lines += _pair(held, mechanism, "statistics after a hand ÷ scoreboard", "≤ 2", the_statistics,
                       scoreboard, **options)
    for mechanism in (NOTHING, "redraws", "drawn_once"):
        lines += _pair(held, mechanism, "ratings after a hand ÷ scoreboard", "≤ 2", the_ratings, scoreboard,
                       **options)
    loop.run_until_complete(phone.close())
    for on_its_thread in (on_the_steps_thread, on_the_redraw_thread):
        loop.run_until_complete(on_its_thread(connections.close_all))
    loop.close()
    for mechanism in (NOTHING, "drawn_once", "statements"):
        lines += _pair(held, mechanism, "statistics seen before ÷ scoreboard", "≤ 2", the_statistics, scoreboard,
                       rounds=7, calls=20)
    return lines


# --- the API under load: hand POSTs ÷ bare view, gunicorn + PostgreSQL (≥ 0.25) ------------------


def _api_load(held: list[Held]) -> list[str]:
    import psycopg

    from .api_load import (
        ADMIN_URL,
        BARE_PATH,
        CLIENTS,
        HANDS_PATH,
        PER_CLIENT,
        _burst,
        database,
        migrated,
        serving,
        tables,
        unreachable,
    )

    if (error := unreachable()) is not None:
        return [f"mechanisms, api load: skipped, PostgreSQL not reachable at {ADMIN_URL} ({error})"]
    lines, figure = [], "API hand POSTs ÷ bare view"
    # each server on a database of its own, so that the CPU of its PostgreSQL backends is told apart
    with (database() as with_url, database("_plain") as plain_url,
          psycopg.connect(ADMIN_URL, autocommit=True) as admin):
        for url in (with_url, plain_url):
            migrated(url)
        for mechanism in (NOTHING, "append", "link_query"):
            named = mechanism or CONTROL
            with (serving(with_url) as (port, pid),
                  serving(plain_url, app="benchmarks.off_wsgi", extra={"BENCH_SWITCHED_OFF": mechanism}) as (
                      off, off_pid)):
                hands, bare = tables(port)
                sides = {"with": (port, _Served(pid, with_url, admin), hands),
                         "without": (off, _Served(off_pid, plain_url, admin), tables(off)[0])}
                for at, _served, bodies in sides.values():  # not counted: workers import, connect, fill caches
                    _burst(at, HANDS_PATH, bodies, 201)
                _burst(port, BARE_PATH, bare, 200)
                ratios: dict[str, list[float]] = {"with": [], "without": []}
                cpu: dict[str, list[float]] = {"with": [], "without": []}
                for index in range(API_ROUNDS):
                    for side in ("with", "without") if index % 2 == 0 else ("without", "with"):
                        at, served, bodies = sides[side]
                        before = served.cpu()
                        hands_per_second = _burst(at, HANDS_PATH, bodies, 201)[0]
                        cpu[side].append(served.spent_since(before) / (CLIENTS * PER_CLIENT))
                        # then the bare view (on the app's own server) it is divided by
                        ratios[side].append(hands_per_second / _burst(port, BARE_PATH, bare, 200)[0])
            with_it, without_it = (statistics.median(ratios[side]) for side in ("with", "without"))
            cpu_with, cpu_without = (statistics.median(cpu[side]) * 1e3 for side in ("with", "without"))
            held.append(Held(named, figure, "≥ 0.25", with_it, without_it))
            held.append(Held(named, "API: CPU a hand, app and database (ms)", "", cpu_with, cpu_without))
            lines.append(f"{figure} (throughput), {named}: {with_it:.2f} with, {without_it:.2f} without; "
                         f"without ÷ with, round by round: "
                         f"{statistics.median(b / a for a, b in zip(*ratios.values(), strict=True)):.2f}; "
                         f"CPU a hand (gunicorn and its PostgreSQL backends): {cpu_with:.2f} ms with, "
                         f"{cpu_without:.2f} ms without")
    return lines


class _Served:
    """A gunicorn's processes and its database's PostgreSQL backends: the CPU they have spent."""

    def __init__(self, master: int, database_url: str, admin) -> None:
        self.master, self.database, self.admin = master, database_url.rsplit("/", 1)[1], admin

    def cpu(self) -> dict[int, float]:
        """Seconds of CPU by process: the master, its workers, the backends serving its database."""
        backends = [pid for (pid,) in self.admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database])]
        spent = {pid: cpu_seconds(pid) for pid in [self.master, *children(self.master), *backends]}
        return {pid: seconds for pid, seconds in spent.items() if seconds is not None}

    def spent_since(self, before: dict[int, float]) -> float:
        return sum(seconds - before.get(pid, 0.0) for pid, seconds in self.cpu().items())


# --- the brokers: the live fan-out through NOTIFY, beside make bench's through Redis --------------


def _notify() -> list[str]:
    from . import live_fanout

    chosen = os.environ.get("LIVE_BROKER")
    os.environ["LIVE_BROKER"] = "postgres"
    try:
        return live_fanout.run()
    finally:
        if chosen is None:
            os.environ.pop("LIVE_BROKER")
        else:
            os.environ["LIVE_BROKER"] = chosen


def run() -> list[str]:
    django_on_sqlite()
    held: list[Held] = []
    lines = ["mechanisms: each figure with the mechanism and with it switched off (benchmarks/switches.py), "
             "against the same baseline, rounds side by side"]
    for part in (_scoreboard, _phones, _group_pages, _api_load):
        lines += part(held)
    lines += ["mechanisms, the brokers: the live fan-out through PostgreSQL NOTIFY (make bench's own run: Redis)",
              *_notify()]
    lines += ["mechanisms, what each buys (median ratios; the baseline with everything on):",
              *(row.line() for row in held)]
    return lines

