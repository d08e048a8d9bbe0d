"""The statistics page of a group with 20 sessions × 500 hands, against the scoreboard of one.

The page reads and counts the new hand only, from the counts kept per session, and draws its
body again; a later view is the body from the cache; with nothing cached (after a restart)
10,000 hands are counted in one pass. How it is measured: benchmarks/group_pages.py.
"""

from __future__ import annotations

from .group_pages import HANDS, SESSIONS, GroupPage, measured

STATISTICS = GroupPage(
    url_name="group_stats", name="statistics page",
    shows=lambda page: f'data-testid="stats-hands">{SESSIONS * HANDS}<' in page,
    seen_target="target: ≤ 2", rebuilt=(5, 2), redrawn=True,
)


def run() -> list[str]:
    lines, sent = measured(STATISTICS)
    if sent is not None:
        lines.append(f"statistics: {len(sent) / 1024:.0f} KiB sent to the phone")
    return lines
