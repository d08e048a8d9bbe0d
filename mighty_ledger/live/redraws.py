"""Pages drawn again as the table changes, before anybody asks for them: the group's statistics.

A page like the statistics sums every hand of the group and draws a long table of it; drawn when
a phone asks, the first view after each hand costs many times a page from the cache. So the
process that serves the streams, which hears every change of the sessions its phones follow,
hands each change once to a redrawing (``mighty_ledger/pages/views/stats_redrawn.py``, given by
the project's ASGI module): it draws the pages the group has looked at lately into the shared
cache, where the next view finds them. It runs on a thread of its own, so a hand's step on the
board never waits behind it, and a change it misses (the process was busy, the database away)
only means that the next view draws the page itself, as it always could.
"""

from __future__ import annotations

import asyncio
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

    def __init__(self, redraw: Redraw, run: Callable) -> None:
        self._redraw = redraw
        self._run = run  # how the redrawing runs off the event loop (streams.on_the_redraw_thread)
        self._handed: OrderedDict[tuple, None] = OrderedDict()
        self._running: set[asyncio.Task] = set()

    def heard(self, change: Change) -> None:
        """A stream of this process heard ``change``: the first time, redraw its group's pages."""
        if change.what == RESYNC:
            return  # not a change of the table: this process's subscription came back
        key = (change.session, change.revision, change.what)
        if key in self._handed:
            return
        self._handed[key] = None
        while len(self._handed) > KEEP:
            self._handed.popitem(last=False)
        task = asyncio.ensure_future(self._run(self._redraw, change.group, change.session, change.revision,
                                                change.what))
        self._running.add(task)  # held until done: the loop keeps only a weak reference to a task
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # the class alone: a database error's text can quote the link it was looking for
            logger.warning("the group's pages were not drawn again (%s); the next view draws them",
                           type(task.exception()).__name__)
