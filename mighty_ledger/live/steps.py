"""The board's steps a stream process sends: what a new hand changes on the board, drawn once.

When a change records a hand, every stream of a page showing the board is sent the hand's step
inside its ``change`` event (mighty_ledger/pages/views/board_steps.py draws it): the phone applies
it and fetches nothing. All the streams of this process that show the board through one link
in one language share one drawing, made on a thread of the process's own while they wait. (Each
stream process that holds phones of the table draws its own: they all hear the change at the same
moment, so a copy in the shared cache would be read by none of them.) A step that cannot be drawn (the
session moved on meanwhile, the database is away) is simply not sent: the phones fetch the board's
live regions, as they do after any other change.

It holds two targets (docs/performance.md): the Save on another phone (≤ round trip + 150 ms: a
fetch after the event would cost one more round trip) and tables per core (2,560 with it, 910
without, against ≥ 2,000).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from mighty_ledger.live.brokers import Change
from mighty_ledger.live.wire import sse

logger = logging.getLogger(__name__)

# (link token, session id, revision, language) → the step, or None
DrawStep = Callable[[str, int, int, str], dict | None]
HAND_RECORDED = "hand_recorded"  # the one change a step is drawn for: a hand added after the others
KEEP = 256  # steps a process remembers: a change reaches all its streams within moments


class BoardSteps:
    """One process's steps, each drawn once and written once for all its streams that wait for it."""

    def __init__(self, draw: DrawStep, run: Callable) -> None:
        self._draw = draw
        self._run = run  # how the drawing runs off the event loop (streams.on_the_steps_thread)
        self._written: OrderedDict[tuple, asyncio.Future] = OrderedDict()

    async def event(self, change: Change, token: str, language: str) -> bytes:
        """The ``change`` event for a page holding ``token`` in ``language``: with the hand's step
        when the change recorded one and it could be drawn, else the change alone."""
        if change.what != HAND_RECORDED or change.revision is None:
            return sse("change", change.public())
        key = (token, change.session, change.revision, language)
        written = self._written.get(key)
        if written is None:
            written = self._written[key] = asyncio.ensure_future(self._write(change, key))
            while len(self._written) > KEEP:
                self._written.popitem(last=False)
        if written.done():
            return written.result()
        # shielded: a phone that leaves while the step is drawn does not cancel it for the others
        return await asyncio.shield(written)

    async def _write(self, change: Change, key: tuple) -> bytes:
        news = change.public()
        try:
            step = await self._run(self._draw, *key)
        except Exception as error:
            # the class alone: a database error's text can quote the link it was looking for
            logger.warning("a hand's step on the board was not drawn (%s); the phones fetch the board",
                           type(error).__name__)
            step = None
        if step is not None:
            news["board"] = step
        return sse("change", news)


@dataclass(frozen=True)
class BoardFollow:
    """A stream of a page that shows the board (its latest hands): new hands' steps come in its events."""

    steps: BoardSteps
    token: str
    language: str

    async def told(self, change: Change) -> bytes:
        return await self.steps.event(change, self.token, self.language)
