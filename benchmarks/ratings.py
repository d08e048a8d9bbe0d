"""The ratings page of a group with 20 sessions × 500 hands, against the scoreboard of one.

After a hand the page reads and rates that hand only, going on from the ratings kept after
each session, and draws its table again: for a group that looks at its ratings, the stream
process does that as the hand comes (pages/views/stats_redrawn.py), so the first view after
it is read from the cache. A later view has nothing new to read; with nothing kept (after a
restart) 10,000 hands are rated in play order, one openskill game each. How it is measured:
benchmarks/group_pages.py.
"""

from __future__ import annotations

from .group_pages import SEATS, GroupPage, measured

RATINGS = GroupPage(
    url_name="group_ratings", name="ratings page",
    shows=lambda page: page.count('data-testid="rating"') == len(SEATS),
    seen_target="no target", rebuilt=(3, 1), redrawn=True,
)


def run() -> list[str]:
    lines, _sent = measured(RATINGS)
    return lines
