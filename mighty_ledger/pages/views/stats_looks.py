"""Which pages of a group's statistics and ratings its phones looked at lately: noted by the
pages' views, read by the redrawing (stats_redrawn.py), which draws them again after each hand.
"""

from __future__ import annotations

import time

from django.core.cache import cache

from mighty_ledger.live import group_looked_at
from mighty_ledger.live.brokers import LOOK_SECONDS

LOOKED_AT_MOST = 4  # pages kept drawn again per group (pages, links, filters, languages): the last looked at
NOTED_AGAIN_SECONDS = 60  # a look noted this recently is not noted or told again: most views only read


def looks_key(group_id: int) -> str:
    """Where the pages of the group's statistics and ratings looked at lately are kept."""
    return f"statistics-looked-at:{group_id}"


def told_key(group_id: int) -> str:
    """Where it is kept that the group's look was told to the stream processes, for a minute."""
    return f"statistics-look-told:{group_id}"


def looked_at(group_id: int, here: str, language: str) -> None:
    """A phone shows the group's statistics or ratings at ``here`` (the page's address, filters as understood)
    in ``language``: for the next half hour, every change of the group draws that page again. The
    stream processes are told through the broker (``live.group_looked_at``), the pages to draw
    are kept in the cache."""
    key = looks_key(group_id)
    looked: dict[tuple[str, str], float] = cache.get(key) or {}
    now = time.time()
    if looked.get((here, language), 0.0) > now - NOTED_AGAIN_SECONDS:
        return
    looked[(here, language)] = now
    latest = sorted(looked.items(), key=lambda item: item[1])[-LOOKED_AT_MOST:]
    cache.set(key, dict(latest), LOOK_SECONDS)
    # told once a minute per group, and only while the cache answers: the drawings go there (and
    # with Redis away, telling the broker could cost the view a timeout for nothing)
    if cache.add(told_key(group_id), True, NOTED_AGAIN_SECONDS):
        group_looked_at(group_id)
