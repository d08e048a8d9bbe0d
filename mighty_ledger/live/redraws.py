"""Pages drawn again as the table changes, before anybody asks for them: the group's statistics.

A page like the statistics sums every hand of the group and draws a long table of it; drawn when
a phone asks, the first view after each hand costs many times a page from the cache. So the
process that serves the streams, which hears every change of the sessions its phones follow,
hands each change once to a redrawing (``mighty_ledger/pages/views/stats_redrawn.py``, given by
the project's ASGI module): it draws the pages the group has looked at lately into the shared
cache, where the next view finds them. A look is told through the broker as changes are
(``live.group_looked_at``), so a change of a group nobody looks at costs this process nothing.
The drawing runs on a thread of its own, so a hand's step on the board never waits behind it,
and a change it misses (the process was busy, the database away) only means that the next view
draws the page itself, as it always could.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable

from mighty_ledger.live.brokers import RESYNC, Change

logger = logging.getLogger(__name__)

# (group id, session id, revision, what happened) → nothing: the group's pages drawn again into the cache
Redraw = Callable[[int, int, int | None, str], None]
KEEP = 256  # changes a process remembers having handed on: every stream of the session hears each


class Redraws:
    """One process's redrawings: each change handed on once, whichever of its streams hears it first."""

    def __init__(self, redraw: Redraw, submit: Callable, looked_at: Callable[[int], bool]) -> None:
        self._redraw = redraw
        # how the redrawing leaves the event loop: handed to its thread, never awaited
        # (streams.to_the_redraw_thread)
        self._submit = submit
        # whether a page of the group was looked at lately, as this process heard (brokers.LOOKED_AT):
        # a group nobody looks at is not even handed to the thread, whose waking costs a step's tenth
        self._looked_at = looked_at
        self._handed: OrderedDict[tuple, None] = OrderedDict()
        # groups handed on and not yet begun: a drawing reads the group as it is when it begins, so
        # the hands of a busy table (or a slow drawing) never queue more than one drawing each
        self._waiting: set[int] = set()

    def heard(self, change: Change) -> None:
        """A stream of this process heard ``change``: the first time, redraw its group's pages if
        they were looked at lately."""
        key = (change.session, change.revision, change.what)
        if key in self._handed:
            return  # another stream of this process heard it first
        self._handed[key] = None
        while len(self._handed) > KEEP:
            self._handed.popitem(last=False)
        if change.what == RESYNC or not self._looked_at(change.group):
            return  # a resync is not a change of the table: this process's subscription came back
        if change.group in self._waiting:
            return  # the drawing already waiting will read this change too
        self._waiting.add(change.group)
        self._submit(self._redrawn, change)

    def _redrawn(self, change: Change) -> None:
        self._waiting.discard(change.group)  # a change from now on is one this drawing may not see
        try:
            self._redraw(change.group, change.session, change.revision, change.what)
        except Exception as error:
            # the class alone: a database error's text can quote the link it was looking for
            logger.warning("the group's pages were not drawn again (%s); the next view draws them",
                           type(error).__name__)
