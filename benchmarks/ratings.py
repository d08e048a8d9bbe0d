"""The ratings page of a group with 20 sessions × 500 hands, against the scoreboard of one.

As benchmarks/stats.py measures the statistics: through the test client, CPU
time of this thread, interleaved rounds, median ratio. The first view after a
hand at the table (recorded, untimed, before each view: the page reads and
rates that hand only, going on from the ratings kept after each session, and
counts it for the role records beside them), a later view (nothing new to
read), and the first view with nothing kept (after a restart: 10,000 hands
rated in play order, one openskill game each).
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

    group = services.group_create(name="Ratings bench")
    sessions = [bulk_session(group, seats=SEATS, hands=HANDS) for _ in range(SESSIONS)]
    tonight = sessions[-1]
    ratings_url = reverse("group_ratings", args=[group.view_token])
    board_url = reverse("session_board", args=[group.view_token, sessions[0].pk])
    tonights_board_url = reverse("session_board", args=[group.view_token, tonight.pk])

    client = Client()
    page = client.get(ratings_url)
    if page.status_code != 200 or page.content.decode().count('data-testid="rating"') != len(SEATS):
        return [f"ratings: skipped, {ratings_url} answered {page.status_code}"]

    def a_hand_at_the_table():
        services.hand_record(session=tonight, entry=MADE)
        tonight.refresh_from_db()

    def ratings():
        client.get(ratings_url)

    def ratings_from_the_first_hand():
        cache.clear()
        client.get(ratings_url)

    def scoreboard():
        client.get(board_url)

    def tonights_scoreboard():
        client.get(tonights_board_url)

    name = f"ratings page, {SESSIONS} sessions × {HANDS} hands"
    after_a_hand = compare(f"{name}, after a hand (that hand rated) vs scoreboard",
                           ratings, scoreboard, rounds=7, calls=10, before_ours=a_hand_at_the_table)
    both_after_a_hand = compare(f"{name}, after a hand vs the scoreboard after a hand",
                                ratings, tonights_scoreboard, rounds=7, calls=10,
                                before_ours=a_hand_at_the_table, before_baseline=a_hand_at_the_table)
    seen = compare(f"{name}, nothing new vs scoreboard", ratings, scoreboard, rounds=7, calls=20)
    rated = compare(f"{name}, nothing kept (every hand rated) vs scoreboard",
                    ratings_from_the_first_hand, scoreboard, rounds=3, calls=1)
    return [after_a_hand.line() + "  (target: ≤ 2)", both_after_a_hand.line() + "  (target: ≤ 2)",
            seen.line() + "  (no target)", rated.line() + "  (after a restart; no target)"]
