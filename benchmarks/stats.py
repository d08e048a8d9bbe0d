"""The statistics page of a group with 20 sessions × 500 hands, against the scoreboard of one.

Both through the test client, CPU time of this thread, interleaved rounds,
median ratio (benchmarks/measure.py). Each session's counts are cached under
its revision, so three figures: the first view after a hand was recorded (that
session counted again, the other 19 from the cache), every later view (all from
the cache), and the first view with nothing cached (after a restart: 10,000
hands counted in one pass).
"""

from __future__ import annotations

from .django_setup import bulk_session, django_on_sqlite
from .measure import compare

SESSIONS, HANDS = 20, 500
SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]


def run() -> list[str]:
    django_on_sqlite()
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from mighty_ledger import services
    from mighty_ledger.views.stats import counts_key, stats_key

    group = services.group_create(name="Statistics bench")
    sessions = [bulk_session(group, seats=SEATS, hands=HANDS) for _ in range(SESSIONS)]
    stats_url = reverse("group_stats", args=[group.view_token])
    board_url = reverse("session_board", args=[group.view_token, sessions[-1].pk])

    client = Client()
    page = client.get(stats_url)
    if f'data-testid="stats-hands">{SESSIONS * HANDS}<' not in page.content.decode():
        return [f"statistics: skipped, {stats_url} answered {page.status_code}"]

    def statistics_after_a_hand():
        # what a new revision of the last session's hands does: its counts and the season's are not found
        cache.delete_many([counts_key(sessions[-1]), stats_key(sessions)])
        client.get(stats_url)

    def statistics_counted():
        cache.clear()
        client.get(stats_url)

    def statistics_cached():
        client.get(stats_url)

    def scoreboard():
        client.get(board_url)

    name = f"statistics page, {SESSIONS} sessions × {HANDS} hands"
    after_a_hand = compare(f"{name}, after a hand (one session counted) vs scoreboard",
                           statistics_after_a_hand, scoreboard, rounds=7, calls=10)
    cached = compare(f"{name}, cached vs scoreboard", statistics_cached, scoreboard, rounds=7, calls=20)
    counted = compare(f"{name}, nothing cached (all counted) vs scoreboard",
                      statistics_counted, scoreboard, rounds=5, calls=2)
    return [after_a_hand.line() + "  (target: ≤ 2)", cached.line() + "  (target: ≤ 2)",
            counted.line() + "  (after a restart; no target)",
            f"statistics: {len(page.content) / 1024:.0f} KiB sent to the phone"]
