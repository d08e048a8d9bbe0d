"""Every page a table opens, its first view after a hand, against a bare Django view in the same run.

A group of 20 evenings × 500 hands, and a club night of two tables the day before, in a SQLite
file that also holds 1,000,000 hands of 2,000 other groups. Before each view a hand is recorded
(untimed): at tonight's table, or for the big screen at one of the night's; the view goes
through the test client (every middleware, the templates, the database), CPU time of this
thread, beside the bare view (benchmarks/urls.py): interleaved rounds, median ratio
(measure.compare). Then again as after a restart: the cache emptied and the templates to
compile before each view. The figures kept session by session in the database (the statistics'
counts and the ratings, settings.CACHES["kept"]) stay, as they do across a restart.
"""

from __future__ import annotations

import datetime
import os
import random

from .django_setup import bulk_hands, bulk_session, django_on_sqlite, other_groups
from .measure import Figure, compare

EVENINGS, HANDS = 20, 500
SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]
NIGHT_PLAYERS = [f"Player {number:02d}" for number in range(1, 11)]  # two tables of five
OTHER_GROUPS = 2_000  # of 500 hands each
AFTER_A_HAND, AFTER_A_RESTART = "≤ 100", "≤ 1,000"
if os.environ.get("BENCH_QUICK"):  # a trial of the benchmark itself, not a figure
    EVENINGS, HANDS, OTHER_GROUPS = 3, 50, 10


def run() -> list[Figure]:
    return figures(*tables())


def tables():
    """A client, the pages' addresses, and what to run before each page's view: a hand, or a
    hand and a restart."""
    django_on_sqlite()
    from django.core.cache import cache
    from django.template import engines
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    from mighty_ledger import reads, services
    from mighty_ledger.reads import nights
    from mighty_ledger.services import nights as night_services

    group = services.group_create(name="Pages bench", player_names=SEATS)
    night = night_services.night_create(group=group, players=NIGHT_PLAYERS, preset="pagat-standard", seed=47,
                                        played_on=timezone.localdate() - datetime.timedelta(days=1))
    night_services.night_round_draw(night=night)
    at_the_night = bulk_hands(nights.night_rounds(night)[-1].tables[0].session, HANDS // 2)
    evenings = [bulk_session(group, seats=SEATS, hands=HANDS) for _ in range(EVENINGS)]
    tonight = evenings[-1]
    rng = random.Random(47)

    def a_hand(at=tonight) -> None:
        at.refresh_from_db()
        state = reads.next_state(at)
        declarer, partner = rng.sample(list(state.active), 2)
        services.hand_record(session=at, entry={
            "dealer": state.dealer, "declarer": declarer, "contract": {"points": 15, "trump": "D"},
            "partner_call": {"type": "card", "cards": ["AS"]}, "partners": [partner], "points": rng.randint(8, 20)})

    for table in nights.night_rounds(night)[-1].tables[1:]:
        bulk_hands(table.session, HANDS // 2)
    a_hand()  # a revision, which the other groups' hands copy
    other_groups(group_id=group.pk, session_id=evenings[0].pk, groups=OTHER_GROUPS, hands_each=HANDS)

    token = group.edit_token
    pages = {
        "board": reverse("session_board", args=[token, tonight.pk]),
        "group": reverse("group_page", args=[token]),
        "settle": reverse("session_settle", args=[token, tonight.pk]),
        "statistics": reverse("group_stats", args=[token]),
        "ratings": reverse("group_ratings", args=[token]),
        "big screen": reverse("night_screen", args=[group.view_token, night.pk]),
    }
    client = Client()
    for url in [*pages.values(), "/bench/bare/"]:
        if (status := client.get(url).status_code) != 200:
            raise RuntimeError(f"{url} answered {status}")

    def restart(at=tonight) -> None:
        a_hand(at)
        cache.clear()
        for engine in engines.all():
            for loader in engine.engine.template_loaders:
                loader.reset()

    # the big screen's hands are played at the night's table
    hands = {name: (a_hand, restart) for name in pages}
    hands["big screen"] = (lambda: a_hand(at_the_night), lambda: restart(at_the_night))
    return client, pages, hands


def figures(client, pages: dict[str, str], hands: dict) -> list[Figure]:
    def bare() -> None:
        client.get("/bench/bare/")

    figures = []
    for name, url in pages.items():
        def view(url=url) -> None:
            client.get(url)

        after = compare(name, view, bare, rounds=5, calls=4, before_ours=hands[name][0])
        figures.append(Figure(f"{name}: first view after a hand ÷ a bare view", after.ratio, AFTER_A_HAND,
                              f"{after.ours_seconds * 1e3:.1f} ms vs {after.baseline_seconds * 1e3:.2f} ms"))
    for name, url in pages.items():
        def view(url=url) -> None:
            client.get(url)

        cold = compare(name, view, bare, rounds=3, calls=1, before_ours=hands[name][1])
        figures.append(Figure(f"{name}: first view after a restart, the cache emptied ÷ a bare view", cold.ratio,
                              AFTER_A_RESTART,
                              f"{cold.ours_seconds * 1e3:.0f} ms vs {cold.baseline_seconds * 1e3:.2f} ms"))
    return figures
