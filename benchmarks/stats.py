"""The statistics page of a group with 20 sessions × 500 hands, against the scoreboard of one.

Both through the test client, CPU time of this thread, interleaved rounds,
median ratio (benchmarks/measure.py). Three figures: the first view after a
hand was recorded at the table (the hand is recorded, untimed, before each
view; the page reads and counts that hand only, from the counts kept per
session, and draws its body again), every later view (the body from the
cache), and the first view with nothing cached (after a restart: 10,000 hands
counted in one pass). The scoreboard is one of the group's sessions, as a
phone that does not hold it yet gets it.
"""

from __future__ import annotations

from .django_setup import bulk_session, django_on_sqlite
from .measure import compare

SESSIONS, HANDS = 20, 500
SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
MADE = {"dealer": SEATS[-1], "declarer": SEATS[0], "contract": {"points": 15, "trump": "D"},
        "partner_call": {"type": "card", "cards": ["AS"]}, "partners": [SEATS[2]], "points": 16}


def run() -> list[str]:
    django_on_sqlite()
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from mighty_ledger import services

    group = services.group_create(name="Statistics bench")
    sessions = [bulk_session(group, seats=SEATS, hands=HANDS) for _ in range(SESSIONS)]
    tonight = sessions[-1]
    stats_url = reverse("group_stats", args=[group.view_token])
    board_url = reverse("session_board", args=[group.view_token, sessions[0].pk])
    tonights_board_url = reverse("session_board", args=[group.view_token, tonight.pk])

    client = Client()
    page = client.get(stats_url)
    if f'data-testid="stats-hands">{SESSIONS * HANDS}<' not in page.content.decode():
        return [f"statistics: skipped, {stats_url} answered {page.status_code}"]

    def a_hand_at_the_table():
        services.hand_record(session=tonight, entry=MADE)
        tonight.refresh_from_db()

    def statistics():
        client.get(stats_url)

    def statistics_counted():
        cache.clear()
        client.get(stats_url)

    def scoreboard():
        client.get(board_url)

    def tonights_scoreboard():
        client.get(tonights_board_url)

    name = f"statistics page, {SESSIONS} sessions × {HANDS} hands"
    after_a_hand = compare(f"{name}, after a hand (that hand counted) vs scoreboard",
                           statistics, scoreboard, rounds=7, calls=10, before_ours=a_hand_at_the_table)
    both_after_a_hand = compare(f"{name}, after a hand vs the scoreboard after a hand",
                                statistics, tonights_scoreboard, rounds=7, calls=10,
                                before_ours=a_hand_at_the_table, before_baseline=a_hand_at_the_table)
    cached = compare(f"{name}, cached vs scoreboard", statistics, scoreboard, rounds=7, calls=20)
    counted = compare(f"{name}, nothing cached (all counted) vs scoreboard",
                      statistics_counted, scoreboard, rounds=5, calls=2)
    return [after_a_hand.line() + "  (target: ≤ 2)", both_after_a_hand.line() + "  (target: ≤ 2)", cached.line() + "  (target: ≤ 2)",
            counted.line() + "  (after a restart; no target)",
            f"statistics: {len(page.content) / 1024:.0f} KiB sent to the phone"]
