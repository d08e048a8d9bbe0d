"""A table of 8 phones: what one hand costs the server when every phone at the table follows it.

One hand POSTed through the API (the hand itself), then each of 8 phones fetching
what static/js/live.js fetches when its stream says the session changed: the page
again with the ETag it holds (If-None-Match; the revision moved, so the whole page
comes back, 200) and then the score chart's frame, which htmx loads again when the
fresh board is swapped in (``hx-trigger="load"`` in partials/chart_board.html).
Every phone holds the edit link, as phones at the table do, and reads English.

All through the test client in this thread (every middleware, the templates, the
database), CPU time, interleaved rounds, median ratio (benchmarks/measure.py):
the POST and the 8 phones' fetches ÷ the POST alone. The session has an evening's
60 hands when the rounds begin.
"""

from __future__ import annotations

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
    chart_url = reverse("session_chart", args=[group.edit_token, session.pk])
    hands_url = f"/api/v1/sessions/{session.pk}/hands"

    writer = Client(HTTP_AUTHORIZATION=f"Bearer {group.edit_token}")
    phones = [Client(HTTP_USER_AGENT=PHONE, HTTP_ACCEPT_LANGUAGE="en") for _ in range(PHONES)]
    # each phone opened the board once: the ETag its page holds (data-live-etag)
    held = [phone.get(board_url)["ETag"] for phone in phones]
    sizes: dict[str, int] = {}

    def the_hand():
        answer = writer.post(hands_url, HAND, content_type="application/json")
        if answer.status_code != 201:
            raise RuntimeError(f"{hands_url}: {answer.status_code} {answer.content[:200]!r}")

    def page_again(index: int):
        page = phones[index].get(board_url, HTTP_IF_NONE_MATCH=held[index])
        if page.status_code != 200:
            raise RuntimeError(f"{board_url}: {page.status_code}, the phone should get the new board")
        held[index] = page["ETag"]
        sizes["page"] = len(page.content)

    def chart_again(index: int):
        chart = phones[index].get(chart_url, HTTP_HX_REQUEST="true")
        if chart.status_code != 200:
            raise RuntimeError(f"{chart_url}: {chart.status_code}")
        sizes["chart"] = len(chart.content)

    def one_phone_follows(index: int):
        page_again(index)
        chart_again(index)

    def the_table():
        the_hand()
        for index in range(PHONES):
            one_phone_follows(index)

    table = compare(f"a table of {PHONES} phones: one hand POSTed and every phone following it vs the POST alone",
                    the_table, the_hand, rounds=7, calls=8)

    # where the phones' share goes: the first phone after a hand draws the board's cached
    # fragment; the other seven read it from the cache
    first, pages, charts = [], [], []
    later = range(1, PHONES)
    for _ in range(7):
        first.append(per_call(lambda: one_phone_follows(0), 1, before=the_hand))
        pages.append(per_call(lambda: [page_again(i) for i in later], 1) / len(later))
        charts.append(per_call(lambda: [chart_again(i) for i in later], 1) / len(later))
    return [
        table.line() + "  (target: ≤ 2)",
        f"  per hand: {table.ours_seconds * 1e3:.1f} ms of CPU with the phones, {table.baseline_seconds * 1e3:.1f} ms "
        f"for the POST; the first phone after a hand {statistics.median(first) * 1e3:.1f} ms, each other phone "
        f"{statistics.median(pages) * 1e3:.1f} ms for the page ({sizes['page'] / 1024:.0f} KiB) and "
        f"{statistics.median(charts) * 1e3:.1f} ms for the chart ({sizes['chart'] / 1024:.0f} KiB)",
    ]
