"""The statistics of a selection of sessions from counts kept in the database, brought up to date hand by hand.

Counts add up (``stats.Counts``): a season's are the sum of its sessions', and a
session's are those of its first hands plus those of the hands after them. And
recording a hand never touches the hands before it. So each session's counts
are kept with the last hand number they cover, and a page that finds a newer
hand reads only the hands after that number: after a hand at the table, one
row. What rewrites hands already counted (an edit, a delete or a restore, which
replays the hands after it) moves the session's ``replays`` on, and that session
is counted again from its first hand. The sum of the sessions a page shows is
kept the same way, so a page seen before adds the new hands to one cache entry
instead of adding up every session again. The statistics page, the player
pages and the API all read through here.

Kept for the statistics' first view after a hand and after a restart (docs/performance.md: 72 ×
and 81 × a bare view; counted and rated from scratch, as for a group never shown, 2,432 ×). They
are kept through Django's database cache (settings.CACHES["kept"]), which a restart leaves.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from mighty_ledger.http.cache import remembered, remembered_many
from mighty_ledger.models import Session
from mighty_ledger.reads import stats

CACHE_SECONDS = 30 * 24 * 3600  # keys brought up to date in place: this only bounds memory


@dataclass(frozen=True)
class KeptCounts:
    """Counts as kept (one session's, or the sum of a selection's), and how far each session's hands
    are in them: which replay of its hands they were counted from, and the hand number up to which
    every hand is counted (or was deleted when counted)."""

    positions: dict[int, tuple[int, int]]  # session id: (replays, through)
    counts: stats.Counts

    def hands_after(self, sessions: Sequence[Session]) -> dict[int, int] | None:
        """The hands to read to bring these counts up to date: each session with newer hands, and
        the last hand number counted. None when they cannot be: a session's hands were rewritten."""
        if any(self.positions.get(s.pk, (None,))[0] != s.replays for s in sessions):
            return None
        return {s.pk: self.positions[s.pk][1] for s in sessions if s.hand_count > self.positions[s.pk][1]}

    def moved_on(self, sessions: Sequence[Session], fresh: dict[int, stats.Counts]) -> KeptCounts:
        """These counts with the ``fresh`` counts of some of ``sessions`` added (the counts are this
        request's own copy: the cache hands out copies)."""
        positions = dict(self.positions)
        for session in sessions:
            if session.pk in fresh:
                self.counts.add(fresh[session.pk])
                # hands numbered up to the session's hand_count were committed with it, before the
                # hands were read: all of them were counted; and a later one read is counted too
                through = max(session.hand_count, fresh[session.pk].last_hand, positions.get(session.pk, (0, 0))[1])
                positions[session.pk] = (session.replays, through)
        return KeptCounts(positions, self.counts)


def _nothing_counted() -> KeptCounts:
    return KeptCounts({}, stats.Counts())


def counts_key(session: Session) -> str:
    # the creation time too: a group imported again must not find another database's counts
    return f"stats-counts:{session.pk}:{session.created_at.timestamp()}"


def selection_key(sessions: Sequence[Session]) -> str:
    sessions_counted = ";".join(f"{s.pk}:{s.created_at.timestamp()}" for s in sessions)
    return "stats-selection:" + hashlib.sha256(sessions_counted.encode()).hexdigest()


def _kept_sessions(sessions: Sequence[Session]) -> dict[int, KeptCounts]:
    """Each session's kept counts, brought up to date: one cache read, then at most one query (the
    hands after each session's last counted hand, and every hand of a session counted again or
    never), then one cache write of what moved on."""
    keys = {session.pk: counts_key(session) for session in sessions}
    return remembered_many(keys, lambda found: _sessions_moved_on(sessions, found), CACHE_SECONDS)


def _sessions_moved_on(sessions: Sequence[Session], found: dict[int, KeptCounts]) -> dict[int, KeptCounts]:
    """Each session's counts as they are now, from those ``found`` kept (by session id): a session
    whose kept counts are up to date is given back as it was found."""
    kept: dict[int, KeptCounts] = {}
    after: dict[int, int] = {}
    stale: list[Session] = []
    for session in sessions:
        known = found.get(session.pk)
        wanted = known.hands_after([session]) if known is not None else None
        if wanted is None:  # never counted, or its hands were rewritten: from its first hand
            kept[session.pk] = _nothing_counted()
            stale.append(session)
        else:
            kept[session.pk] = known
            if wanted:
                after |= wanted
                stale.append(session)
    fresh = stats.count_sessions(stale, after=after) if stale else {}
    for session in stale:
        kept[session.pk] = kept[session.pk].moved_on([session], fresh)
    return kept


def selection_counts(sessions: Sequence[Session]) -> stats.Counts:
    """The counts of these sessions together, kept as one entry and brought up to date like a
    session's; when a session of the selection was rewritten, made again from the sessions' own."""
    return remembered(selection_key(sessions), lambda kept: _selection_moved_on(sessions, kept), CACHE_SECONDS).counts


def _selection_moved_on(sessions: Sequence[Session], kept: KeptCounts | None) -> KeptCounts:
    """The selection's counts as they are now, from those ``kept`` (given back when up to date)."""
    after = kept.hands_after(sessions) if kept is not None else None
    if after == {}:
        return kept
    if after is None:
        parts = _kept_sessions(sessions)
        kept = _nothing_counted()
        for part in parts.values():
            kept.counts.add(part.counts)
            kept.positions.update(part.positions)
        return kept
    fresh = stats.count_sessions([s for s in sessions if s.pk in after], after=after)
    return kept.moved_on(sessions, fresh)


def stats_for(sessions: Sequence[Session], *, series: bool = False) -> stats.Stats:
    """The statistics of these sessions (oldest first), from their kept counts; with ``series``,
    the running totals after every hand too (not kept: one query of their own)."""
    return stats.stats_from_counts(sessions, [selection_counts(sessions)],
                                   series=stats.series_of(sessions) if series else ())
