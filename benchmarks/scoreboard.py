"""The scoreboard of a 500-hand session as a phone first opens it, against a bare Django view.

Both through the test client (every middleware, the template engine, the
database), CPU time of this thread, interleaved rounds, median ratio.
"""

from __future__ import annotations

from .django_setup import bulk_session, django_on_sqlite
from .measure import compare

PHONE = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/126.0 Mobile Safari/537.36")


def run() -> list[str]:
    django_on_sqlite()
    from django.test import Client
    from django.urls import NoReverseMatch, reverse

    from mighty_ledger import services

    group = services.group_create(name="Scoreboard bench")
    session = bulk_session(group, seats=["Ann", "Bo", "Cy", "Di", "Ed"], hands=500)
    url = None
    for name in ("scoreboard", "session_board"):
        try:
            url = reverse(name, args=[group.view_token, session.pk])
            break
        except NoReverseMatch:
            continue
    if url is None:
        return ["scoreboard: skipped, the table app has no scoreboard URL yet"]

    client = Client(HTTP_USER_AGENT=PHONE)
    page = client.get(url)
    if page.status_code != 200:
        return [f"scoreboard: skipped, {url} answered {page.status_code}"]
    rows = page.content.decode().count('<tr id="hand-')

    def scoreboard():
        client.get(url)

    def bare():
        client.get("/bench/bare/")

    ratio = compare("scoreboard page, 500 hands, first load vs bare view", scoreboard, bare, calls=20)
    return [
        ratio.line() + "  (target: ≤ 3)",
        f"scoreboard: {len(page.content) / 1024:.0f} KiB sent to the phone ({rows} hand rows)",
    ]
