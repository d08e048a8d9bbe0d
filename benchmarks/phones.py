"""A table of 8 phones: what one hand costs the server when every phone at the table follows it.

One hand POSTed through the API (the hand itself), then each of 8 phones fetching
what static/js/live.js fetches when its stream says the session changed: the board's
live fragments (``/g/<token>/s/<id>/live/``: the hand in progress, the rows, totals and
next dealer, the chart drawn) with the ETag it holds (If-None-Match; the revision moved,
so they come back, 200). They are the same bytes for every phone on the link: the first
phone after the hand draws them (only the new rows: the others were drawn before), the
others get that answer kept whole, before the middleware (mighty_ledger/http/kept_answers.py).
Every phone holds
the edit link, as phones at the table do, and reads English.

Before the fragments (25 November 2026) a phone asked its whole page again and htmx then
loaded the chart's frame: 29–35 × the POST (docs/performance.md).

All through the test client in this thread (every middleware, the templates, the
database), CPU time, interleaved rounds, median ratio (benchmarks/measure.py):
the POST and the 8 phones' fetches ÷ the POST alone. The session has an evening's
60 hands when the rounds begin.
"""

from __future__ import annotations

import re
import statistics

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


def run() -> list[str]:
    django_on_sqlite()
    from django.test import Client
    from django.urls import reverse

    from mighty_ledger import services

    group = services.group_create(name="A table of phones")
    session = bulk_session(group, seats=SEATS, hands=HANDS_BEFORE)
    board_url = reverse("session_board", args=[group.edit_token, session.pk])
    live_url = reverse("session_live", args=[group.edit_token, session.pk])
    hands_url = f"/api/v1/sessions/{session.pk}/hands"

    writer = Client(HTTP_AUTHORIZATION=f"Bearer {group.edit_token}")
    phones = [Client(HTTP_USER_AGENT=PHONE, HTTP_ACCEPT_LANGUAGE="en") for _ in range(PHONES)]
    # each phone opened the board once: the ETag of the fragments its page names (data-live-etag)
    held = []
    for phone in phones:
        page = phone.get(board_url).content.decode()
        held.append(re.search(r'data-live-etag="([^"]*)"', page).group(1).replace("&quot;", '"'))
    sizes: dict[str, int] = {}

    def the_hand():
        answer = writer.post(hands_url, HAND, content_type="application/json")
        if answer.status_code != 201:
            raise RuntimeError(f"{hands_url}: {answer.status_code} {answer.content[:200]!r}")

    def one_phone_follows(index: int):
        fragments = phones[index].get(live_url, HTTP_IF_NONE_MATCH=held[index])
        if fragments.status_code != 200:
            raise RuntimeError(f"{live_url}: {fragments.status_code}, the phone should get the new regions")
        held[index] = fragments["ETag"]
        sizes["fragments"] = len(fragments.content)

    def the_table():
        the_hand()
        for index in range(PHONES):
            one_phone_follows(index)

    table = compare(f"a table of {PHONES} phones: one hand POSTed and every phone following it vs the POST alone",
                    the_table, the_hand, rounds=7, calls=8)

    # where the phones' share goes: the first phone after a hand draws the fragments; the other
    # seven read them from the cache
    first, later_phones = [], []
    later = range(1, PHONES)
    for _ in range(7):
        first.append(per_call(lambda: one_phone_follows(0), 1, before=the_hand))
        later_phones.append(per_call(lambda: [one_phone_follows(i) for i in later], 1) / len(later))
    return [
        table.line() + "  (target: ≤ 2)",
        f"  per hand: {table.ours_seconds * 1e3:.1f} ms of CPU with the phones, {table.baseline_seconds * 1e3:.1f} ms "
        f"for the POST; the first phone after a hand {statistics.median(first) * 1e3:.1f} ms (it draws the "
        f"fragments, {sizes['fragments'] / 1024:.0f} KiB), each other phone {statistics.median(later_phones) * 1e3:.2f} ms "
        f"(the first phone's answer, kept)",
    ]
