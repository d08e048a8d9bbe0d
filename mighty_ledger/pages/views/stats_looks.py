"""Which pages of a group's statistics and ratings its phones looked at lately: noted by the
pages' views, read by the redrawing (stats_redrawn.py), which draws them again after each hand.

How a look is noted and told (``note_look``) and which looks a change draws again (``looks_to_draw``)
are the same for the night's big screens (night_screen.py), which keep their looks under keys of their own.
"""

from __future__ import annotations

import time

from django.core.cache import cache

from mighty_ledger.live import group_looked_at
from mighty_ledger.live.brokers import LOOK_SECONDS

LOOKED_AT_MOST = 4  # pages kept drawn again per group (pages, links, filters, languages): the last looked at
NOTED_AGAIN_SECONDS = 60  # a look noted this recently is not noted or told again: most views only read
CLAIM_SECONDS = 60  # how long a stream process's claim on a change keeps the others from drawing it


def looks_key(group_id: int) -> str:
    """Where the pages of the group's statistics and ratings looked at lately are kept."""
    return f"statistics-looked-at:{group_id}"


def told_key(group_id: int) -> str:
    """Where it is kept that the group's look was told to the stream processes, for a minute."""
    return f"statistics-look-told:{group_id}"


def looked_at(group_id: int, here: str, language: str) -> None:
    """A phone shows the group's statistics or ratings at ``here`` (the page's address, filters as understood)
    in ``language``: for the next half hour, every change of the group draws that page again."""
    note_look(group_id, (here, language), kept_at=looks_key(group_id), told_at=told_key(group_id),
              most=LOOKED_AT_MOST)


def note_look(group_id: int, look: tuple, *, kept_at: str, told_at: str, most: int) -> None:
    """``look`` (what to draw again, in which language) noted in the cache at ``kept_at`` with the time, beside
    the ``most`` - 1 latest others; the stream processes are told through the broker
    (``live.group_looked_at``) that the group is looked at, once a minute (``told_at``)."""
    looked: dict[tuple, float] = cache.get(kept_at) or {}
    now = time.time()
    if looked.get(look, 0.0) > now - NOTED_AGAIN_SECONDS:
        return
    looked[look] = now
    latest = sorted(looked.items(), key=lambda item: item[1])[-most:]
    cache.set(kept_at, dict(latest), LOOK_SECONDS)
    # told once a minute per group, and only while the cache answers: the drawings go there (and
    # with Redis away, telling the broker could cost the view a timeout for nothing)
    if cache.add(told_at, True, NOTED_AGAIN_SECONDS):
        group_looked_at(group_id)


def looks_to_draw(kept_at: str, change: str) -> list[tuple]:
    """The looks noted at ``kept_at`` in the last half hour, for the stream process that claims ``change``
    first (every stream process with a phone or a screen of the group heard it); none for the others."""
    looked = cache.get(kept_at)
    if not looked:
        return []
    if not cache.add(change, True, CLAIM_SECONDS):
        return []
    since = time.time() - LOOK_SECONDS
    return [look for look, when in looked.items() if when >= since]
