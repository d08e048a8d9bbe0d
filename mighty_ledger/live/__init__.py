"""Live updates: every page of a session hears, within a second, that a hand changed.

A write calls :func:`session_changed` inside its transaction; the change is
published only once that transaction commits (a rolled-back write says
nothing). Each process that serves event streams keeps one subscription to the
broker and fans changes out to its own watchers in memory. A change says only
which session, its new revision and what happened: pages fetch their own
fragments again through the ordinary views. The one exception is a new hand on a
board that shows the latest hands: its step on the board is drawn once per link
and language by the stream process (``steps.py``, with a drawing the project's
ASGI module hands it) and sent inside the event, so the phones fetch nothing.

Brokers (``brokers.py``): Redis pub/sub when REDIS_URL is set (`make serve`), and an
in-process broker for a single process (`make run`).

May import: the models and ``http`` (outages, masked links). Never the write side or a face:
the services call this package, not the other way round.
"""

from __future__ import annotations

from django.db import transaction

from mighty_ledger.live.brokers import LINK_ROTATED, Change, broker

__all__ = ["Change", "broker", "link_rotated", "session_changed"]


def session_changed(*, session_id: int, group_id: int, revision: int, what: str) -> None:
    """Tell every watcher of the session (and of its group) once the current transaction commits."""
    change = Change(session=session_id, group=group_id, revision=revision, what=what)
    # robust: the write has committed whatever the broker says; a watcher that missed the news
    # catches up when its page is next shown or polled
    transaction.on_commit(lambda: broker().publish(change), robust=True)


def link_rotated(*, group_id: int) -> None:
    """End, once the current transaction commits, every open stream on the group's old link: each
    stream of the group checks its own link again (streams.py), within a second."""
    change = Change(session=0, group=group_id, revision=None, what=LINK_ROTATED)
    transaction.on_commit(lambda: broker().publish(change), robust=True)
