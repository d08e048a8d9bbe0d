"""The statistics of a selection of sessions from counts kept in the cache, brought up to date hand by hand.

Counts add up (``stats.Counts``): a season's are the sum of its sessions', and a
session's are those of its first hands plus those of the hands after them. And
recording a hand never touches the hands before it. So each session's counts
are kept with the last hand number they cover, and a page that finds a newer
hand reads only the hands after that number: after a hand at the table, one
row. What rewrites hands already counted (an edit, a delete or a restore, which
replays the hands after it) moves the session's ``replays`` on, and that session
is counted again from its first hand. The statistics page, the player pages and
the API all read through here.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.cache import cache

from . import stats
from .models import Session

CACHE_SECONDS = 30 * 24 * 3600  # a key per session, brought up to date in place: this only bounds memory


@dataclass(frozen=True)
class Kept:
    """A session's counts as kept: which replay of its hands they were counted from, and how far."""

    replays: int
    through: int  # every hand numbered up to here is counted (or was deleted when counted)
    counts: stats.Counts


def counts_key(session: Session) -> str:
    # the creation time too: a group imported again must not find another database's counts
    return f"stats-counts:{session.pk}:{session.created_at.timestamp()}"


def _kept_sessions(sessions: Sequence[Session]) -> dict[int, Kept]:
    """Each session's kept counts, brought up to date: one cache read, then at most one query (the
    hands after each session's last counted hand, and every hand of a session counted again or
    never), then one cache write of what moved on."""
    keys = {session.pk: counts_key(session) for session in sessions}
    found: dict[str, Kept] = cache.get_many(list(keys.values()))
    after: dict[int, int] = {}
    stale: list[Session] = []
    for session in sessions:
        kept = found.get(keys[session.pk])
        if kept is None or kept.replays != session.replays:
            stale.append(session)
        elif session.hand_count > kept.through:
            after[session.pk] = kept.through
            stale.append(session)
    fresh = stats.count_sessions(stale, series=False, after=after) if stale else {}

    moved: dict[str, Kept] = {}
    for session in stale:
        counts = fresh[session.pk]
        if session.pk in after:
            # the kept counts are this request's own copy (the cache hands out copies)
            earlier = found[keys[session.pk]].counts
            earlier.add(counts)
            counts = earlier
        moved[keys[session.pk]] = Kept(session.replays, _through(session, counts), counts)
    if moved:
        cache.set_many(moved, CACHE_SECONDS)
    return {pk: moved.get(key) or found[key] for pk, key in keys.items()}


def _through(session: Session, counts: stats.Counts) -> int:
    # hands numbered up to the session's hand_count were committed with it, before the hands were
    # read: all of them were counted; and a later one read is counted too
    return max(session.hand_count, counts.last_hand)


def session_counts(sessions: Sequence[Session]) -> list[stats.Counts]:
    """Each session's counts, in the sessions' order, reading only the hands not counted yet."""
    kept = _kept_sessions(sessions)
    return [kept[session.pk].counts for session in sessions]


@dataclass(frozen=True)
class KeptSelection:
    """The sum of a selection's counts, and how far each session's hands are in it."""

    positions: dict[int, tuple[int, int]]  # session id: (replays, through)
    counts: stats.Counts


def selection_key(sessions: Sequence[Session]) -> str:
    sessions_counted = ";".join(f"{s.pk}:{s.created_at.timestamp()}" for s in sessions)
    return "stats-selection:" + hashlib.sha256(sessions_counted.encode()).hexdigest()


def selection_counts(sessions: Sequence[Session]) -> stats.Counts:
    """The counts of these sessions together.

    The sum is kept too, so that a page seen before reads one cache entry and
    adds the new hands to it, instead of adding up every session again; when a
    session of the selection was rewritten, the sum is made again from the
    sessions' kept counts.
    """
    key = selection_key(sessions)
    kept: KeptSelection | None = cache.get(key)
    if kept is not None and all(kept.positions[s.pk][0] == s.replays for s in sessions):
        after = {s.pk: kept.positions[s.pk][1] for s in sessions if s.hand_count > kept.positions[s.pk][1]}
        if not after:
            return kept.counts
        fresh = stats.count_sessions([s for s in sessions if s.pk in after], series=False, after=after)
        positions = dict(kept.positions)
        for session in sessions:
            if session.pk in after:
                kept.counts.add(fresh[session.pk])
                positions[session.pk] = (session.replays, max(_through(session, fresh[session.pk]), after[session.pk]))
        total = kept.counts
    else:
        parts = _kept_sessions(sessions)
        total = stats.Counts()
        for session in sessions:
            total.add(parts[session.pk].counts)
        positions = {pk: (part.replays, part.through) for pk, part in parts.items()}
    cache.set(key, KeptSelection(positions, total), CACHE_SECONDS)
    return total


def stats_for(sessions: Sequence[Session], *, series: bool = False) -> stats.Stats:
    """The statistics of these sessions (oldest first), from their kept counts; with ``series``,
    the running totals after every hand too (not kept: one query of their own)."""
    record = stats.stats_from_counts(sessions, [selection_counts(sessions)])
    return dataclasses.replace(record, series=stats.series_of(sessions)) if series else record
