"""A group page read from what it keeps (the statistics, the ratings), against the scoreboard of
one session, in a group of 20 sessions × 500 hands: the shared part of benchmarks/stats.py and
benchmarks/ratings.py.

Both through the test client, CPU time of this thread, interleaved rounds, median ratio
(benchmarks/measure.py): the first view after a hand at the table (recorded, untimed, before
each view), against a scoreboard from its cache and against the scoreboard's own first view
after that hand; a later view with nothing new; and the first view with nothing kept (after a
restart).

A page the stream process draws again as each hand comes (``redrawn``: the statistics) is also
measured as a table plays: a phone follows tonight's board through an open event stream (the
ASGI app, in-process broker); the hand is heard and the group's pages drawn again (untimed, on
the stream process's own thread) before the view. That drawing is measured by itself too, on
this thread: what each hand costs the stream process, whatever the number of views.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .django_setup import bulk_session, django_on_sqlite
from .measure import compare

SESSIONS, HANDS = 20, 500
SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
MADE = {"dealer": SEATS[-1], "declarer": SEATS[0], "contract": {"points": 15, "trump": "D"},
        "partner_call": {"type": "card", "cards": ["AS"]}, "partners": [SEATS[2]], "points": 16}


@dataclass(frozen=True)
class GroupPage:
    """What to measure: the page's URL name, what it reads as, and how its first view is told apart."""

    url_name: str
    name: str  # "statistics page"
    shows: Callable[[str], bool]  # the page drew what it should (else the figures are skipped)
    seen_target: str  # the target of a later view, or "no target"
    rebuilt: tuple[int, int]  # rounds and calls of the view with nothing kept (it is slow)
    redrawn: bool = False  # drawn again by the stream process after each change, once looked at


def measured(page: GroupPage) -> tuple[list[str], bytes | None]:
    """The page's figures, and what its first view sent (None when it did not draw)."""
    django_on_sqlite()
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from mighty_ledger import services

    group = services.group_create(name=f"{page.name} bench")
    sessions = [bulk_session(group, seats=SEATS, hands=HANDS) for _ in range(SESSIONS)]
    tonight = sessions[-1]
    page_url = reverse(page.url_name, args=[group.view_token])
    board_url = reverse("session_board", args=[group.view_token, sessions[0].pk])
    tonights_board_url = reverse("session_board", args=[group.view_token, tonight.pk])

    client = Client()
    first = client.get(page_url)
    if first.status_code != 200 or not page.shows(first.content.decode()):
        return [f"{page.name}: skipped, {page_url} answered {first.status_code}"], None

    def a_hand_at_the_table():
        services.hand_record(session=tonight, entry=MADE)
        tonight.refresh_from_db()

    def the_page():
        client.get(page_url)

    def the_page_from_nothing():
        cache.clear()
        client.get(page_url)

    def scoreboard():
        client.get(board_url)

    def tonights_scoreboard():
        client.get(tonights_board_url)

    name = f"{page.name}, {SESSIONS} sessions × {HANDS} hands"
    after_a_hand = compare(f"{name}, after a hand (that hand read) vs scoreboard",
                           the_page, scoreboard, rounds=7, calls=10, before_ours=a_hand_at_the_table)
    both_after_a_hand = compare(f"{name}, after a hand vs the scoreboard after a hand",
                                the_page, tonights_scoreboard, rounds=7, calls=10,
                                before_ours=a_hand_at_the_table, before_baseline=a_hand_at_the_table)
    seen = compare(f"{name}, nothing new vs scoreboard", the_page, scoreboard, rounds=7, calls=20)
    rounds, calls = page.rebuilt
    rebuilt = compare(f"{name}, nothing kept vs scoreboard", the_page_from_nothing, scoreboard,
                      rounds=rounds, calls=calls)
    lines = [seen.line() + f"  ({page.seen_target})", rebuilt.line() + "  (after a restart; no target)"]
    if not page.redrawn:
        return [after_a_hand.line() + "  (target: ≤ 2)", both_after_a_hand.line() + "  (target: ≤ 2)",
                *lines], first.content
    followed, alike, drawing = _redrawn_as_the_table_plays(page, group, tonight, a_hand_at_the_table, the_page,
                                                           scoreboard)
    return [followed.line() + "  (target: ≤ 2)", alike.line() + "  (target: ≤ 2)",
            drawing.line() + "  (the stream process, once per hand; no target)",
            after_a_hand.line() + "  (drawn by the view: nobody looked in the last half hour; no target)",
            both_after_a_hand.line(), *lines], first.content


def _redrawn_as_the_table_plays(page, group, tonight, a_hand_at_the_table, the_page, scoreboard):
    """The first view after a hand while a phone follows tonight's board (the page drawn again
    as the hand came), and that drawing by itself."""
    import asyncio

    from django.core.cache import cache
    from django.db import connections
    from django.urls import reverse

    from mighty_ledger.asgi import application
    from mighty_ledger.live.streams import on_the_redraw_thread, on_the_steps_thread
    from mighty_ledger.pages.views.stats_looks import looks_key, told_key
    from mighty_ledger.pages.views.stats_redrawn import redrawn

    from .phones import Phone, Table

    name = f"{page.name}, {SESSIONS} sessions × {HANDS} hands"
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    heard = Table()
    events_url = reverse("session_events", args=[group.edit_token, tonight.pk])
    phone = Phone(application, events_url, "board=en", heard)
    loop.run_until_complete(phone.open())
    # the group looks at the page afresh now that a phone's stream is open, so that its process hears it
    cache.delete_many([looks_key(group.pk), told_key(group.pk)])
    the_page()

    def a_hand_followed():
        a_hand_at_the_table()
        loop.run_until_complete(heard.until(1))
        # handed to its thread as the stream heard the hand; that thread runs one thing at a time
        loop.run_until_complete(on_the_redraw_thread(lambda: None))

    a_hand_followed()
    if _drawn_by_the_view(the_page):
        raise RuntimeError(f"{page.name}: the stream process did not draw the page again after a hand")
    followed = compare(f"{name}, after a hand at a table following it vs scoreboard",
                       the_page, scoreboard, rounds=7, calls=10, before_ours=a_hand_followed)
    # the same, with the scoreboard (of another evening: still from its cache) viewed right after
    # a hand too: in one process the drawing thread has just run beside the view, which a web
    # worker in a process of its own does not see
    followed_alike = compare(f"{name}, after a hand at a table following it vs scoreboard, each after a hand",
                             the_page, scoreboard, rounds=7, calls=10, before_ours=a_hand_followed,
                             before_baseline=a_hand_followed)
    loop.run_until_complete(phone.close())
    # the threads of the steps and of the redrawing hold a connection each (Django's are a
    # thread's): closed there, so none outlives the figures
    for on_its_thread in (on_the_steps_thread, on_the_redraw_thread):
        loop.run_until_complete(on_its_thread(connections.close_all))
    loop.close()

    def the_drawing():
        redrawn(group.pk, tonight.pk, tonight.revision, "hand_recorded")

    drawing = compare(f"{name}, drawn again after a hand vs scoreboard",
                      the_drawing, scoreboard, rounds=7, calls=10, before_ours=a_hand_at_the_table)
    return followed, followed_alike, drawing


def _drawn_by_the_view(the_page) -> bool:
    """Whether the view drew the page itself (rather than read what was drawn before it)."""
    from django.template.base import Template

    drew = []
    render = Template.render

    def noticed(template, context):
        drew.append(template.name)
        return render(template, context)

    Template.render = noticed
    try:
        the_page()
    finally:
        Template.render = render
    return bool(drew)
