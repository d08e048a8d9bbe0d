"""A club night's big screen, 8 tables × 500 hands, against a scoreboard from its cache.

The screen asks for its body (``/g/<token>/nights/<id>/screen/live/``) on each change of the
group. The body is drawn once per change of the night and kept (pages/views/night_screen.py);
while a screen follows the group's stream, the stream process draws it again as each hand comes,
before the screen asks, so the screen's first view after a hand is the link's query, the night's
stamp and a cache read.

Measured as benchmarks/group_pages.py measures the statistics: through the test client, CPU
time of this thread, interleaved rounds, median ratio (benchmarks/measure.py). A hand is
recorded at one of the eight tables in turn (untimed) before each view of ours:
- the first view after it while the screen's stream is open (the ASGI app, in-process broker): the
  hand is heard and the body drawn again on the stream process's thread (untimed) first;
- that drawing by itself, on this thread: what each hand costs the stream process;
- the first view after it with nobody following (the view draws the body);
- a later view, nothing new.
The baseline is the scoreboard of an earlier 500-hand session of the group viewed again (drawn
once, then from the cache), as benchmarks/stats.py's.
"""

from __future__ import annotations

import itertools

from .django_setup import bulk_hands, bulk_session, django_on_sqlite
from .measure import compare

TABLES, HANDS = 8, 500
PLAYERS = [f"Player {number:02d}" for number in range(1, TABLES * 5 + 1)]


def run() -> list[str]:
    django_on_sqlite()
    import asyncio
    import random

    from django.core.cache import cache
    from django.db import connections
    from django.test import Client
    from django.urls import reverse

    from mighty_ledger import reads, services
    from mighty_ledger.asgi import application
    from mighty_ledger.live.streams import on_the_redraw_thread, on_the_steps_thread
    from mighty_ledger.pages.views import night_screen
    from mighty_ledger.reads import nights
    from mighty_ledger.services import nights as night_services

    from .phones import Phone, Table

    group = services.group_create(name="A club night")
    night = night_services.night_create(group=group, players=PLAYERS, preset="pagat-standard", seed=38,
                                        hands_per_round=HANDS)
    night_services.night_round_draw(night=night)
    sessions = [bulk_hands(table.session, HANDS) for table in nights.night_rounds(night)[-1].tables]
    # the baseline: a board of the group nobody plays at meanwhile, so every view of it is from the cache
    before = bulk_session(group, seats=PLAYERS[:5], hands=HANDS, title="the night before")
    screen_url = reverse("night_screen_live", args=[group.view_token, night.pk])
    board_url = reverse("session_board", args=[group.view_token, before.pk])

    client = Client()
    first = client.get(screen_url)
    shown = first.content.decode().count('data-testid="screen-table"')
    if first.status_code != 200 or shown != TABLES:
        return [f"big screen: skipped, {screen_url} answered {first.status_code} with {shown} tables"]

    rng = random.Random(38)
    tables = itertools.cycle(sessions)

    def a_hand_at_a_table():
        session = next(tables)
        session.refresh_from_db()
        state = reads.next_state(session)
        declarer, partner = rng.sample(list(state.active), 2)
        services.hand_record(session=session, entry={
            "dealer": state.dealer, "declarer": declarer, "contract": {"points": 15, "trump": "D"},
            "partner_call": {"type": "card", "cards": ["AS"]}, "partners": [partner], "points": rng.randint(8, 20)})

    def the_screen():
        client.get(screen_url)

    def scoreboard():
        client.get(board_url)

    # the screen's stream, open on the ASGI app: the stream process hears each hand and draws again
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    heard = Table()
    phone = Phone(application, reverse("group_events", args=[group.view_token]), "", heard)
    loop.run_until_complete(phone.open())
    # the screen is looked at afresh now that its stream is open, so that its process hears it
    cache.delete_many([night_screen.looks_key(group.pk), f"night-screens-look-told:{group.pk}"])
    the_screen()

    def a_hand_followed():
        a_hand_at_a_table()
        loop.run_until_complete(heard.until(1))
        # handed to its thread as the stream heard the hand; that thread runs one thing at a time
        loop.run_until_complete(on_the_redraw_thread(lambda: None))

    name = f"big screen, {TABLES} tables × {HANDS} hands"
    followed = compare(f"{name}, after a hand at a table, its stream open (drawn again) vs scoreboard",
                       the_screen, scoreboard, rounds=7, calls=10, before_ours=a_hand_followed)
    loop.run_until_complete(phone.close())
    for on_its_thread in (on_the_steps_thread, on_the_redraw_thread):
        loop.run_until_complete(on_its_thread(connections.close_all))
    loop.close()

    def the_drawing():
        night_screen.screen_body(group, night.pk, "en")

    drawing = compare(f"{name}, drawn again after a hand vs scoreboard", the_drawing, scoreboard,
                      rounds=7, calls=10, before_ours=a_hand_at_a_table)
    unfollowed = compare(f"{name}, after a hand, drawn by the view vs scoreboard", the_screen, scoreboard,
                         rounds=7, calls=10, before_ours=a_hand_at_a_table)
    seen = compare(f"{name}, nothing new vs scoreboard", the_screen, scoreboard, rounds=7, calls=50)
    return [followed.line() + "  (target: ≤ 2)",
            drawing.line() + "  (the stream process, once per hand; no target)",
            unfollowed.line() + "  (nobody following; no target)",
            seen.line() + "  (target: ≤ 2)",
            f"big screen: {len(first.content) / 1024:.1f} KiB a body"]
