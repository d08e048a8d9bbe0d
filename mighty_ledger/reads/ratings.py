"""Who plays well, whatever the cards: a skill rating per player, from the hands in the order played.

Money and points say who was lucky; in Mighty a player wins or loses as a side,
and the side changes every hand. So each scored hand is one game between two
teams: the declarer's side (declarer and partners, or the declarer alone) and
the defenders (everyone playing who is not on it; a player sitting out is in
neither), the side that won ranked first. The rating is the Weng-Lin Bayesian
rating of the ``openskill`` package (Plackett-Luce, its default parameters,
every player starting at its default): nothing here is a formula of our own.
A deal miss, an all-pass, a void hand (nobody won) and a deleted hand change
nothing. The sides are those stored with each hand (``Hand.sides``, the
engine's): nothing is scored again.

Ratings do not add up like the statistics' counts: each hand moves them from
where the hands before it left them. So what is kept (in the database, through
settings.CACHES["kept"], so a restart keeps it) is the ratings after each session
of a selection, in play order, with how far each session's hands are in them. A
page that finds newer hands in the last session goes on from the ratings it
kept: after a hand at the table, one row read and one game rated. A session
whose hands were rewritten (an edit, a delete or a restore moves
``Session.replays``), or a session put before others, is rated again from the
ratings after the session before it, and every session after it.
The ratings page, the statistics and player pages and the API all read here.

Kept for the ratings' first view after a hand and after a restart, ≤ 100 × and ≤ 1,000 × a bare
view (docs/performance.md: 28 × and 35 ×; rated from scratch, as for a group never shown, 1,021 ×).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db.models import Q
from openskill.models import PlackettLuce

from mighty_ledger.http.cache import remembered
from mighty_ledger.models import Group, Hand, Session
from mighty_ledger.reads.stats import Filters

# the package's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300; every player starts at its rating()
MODEL = PlackettLuce()
MODEL_NAME = "plackett_luce"
# below this many rated hands a rating says more about the start than about the player
PROVISIONAL_BELOW = 20
CACHE_SECONDS = 30 * 24 * 3600  # brought up to date in place: this only bounds memory

# a player's rating as kept: mu, sigma, and the hands it rests on
Standing = tuple[float, float, int]
Book = dict[str, Standing]


# --- one hand, one game ---------------------------------------------------------------------


def game_of(sides: dict) -> tuple[list[str], list[str], list[int]] | None:
    """The game a stored hand was: the declarer's side, the defenders, and their ranks (0 won).
    None when it rates nobody: no sides stored (an event), or nobody won (a void hand)."""
    declarers = list(sides.get("declarers") or ())
    defenders = list(sides.get("defenders") or ())
    winners = set(sides.get("winners") or ())
    if not declarers or not defenders or not winners:
        return None
    return declarers, defenders, [0, 1] if winners == set(declarers) else [1, 0]


def rate_hands(book: Book, games: Iterable[dict]) -> Book:
    """The ratings after these hands' sides, in order, from ``book`` (left as it was)."""
    book = dict(book)
    # each player's rating goes into their next game as the package returned it: made again from
    # the book every game, it was a third of the time of rating hands from scratch (after a restart)
    rated_last: dict[str, object] = {}
    for sides in games:
        game = game_of(sides)
        if game is None:
            continue
        declarers, defenders, ranks = game
        teams = [[rated_last.get(name) or _rating(book, name) for name in team] for team in (declarers, defenders)]
        rated = MODEL.rate(teams, ranks=ranks)
        for team, new in zip((declarers, defenders), rated, strict=True):
            for name, rating in zip(team, new, strict=True):
                rated_last[name] = rating
                book[name] = (rating.mu, rating.sigma, book.get(name, (0, 0, 0))[2] + 1)
    return book


def _rating(book: Book, name: str):
    if name not in book:
        return MODEL.rating()
    mu, sigma, _hands = book[name]
    return MODEL.rating(mu=mu, sigma=sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative figure shown as "rating": the package's ordinal, mu - 3 sigma."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


# --- what is answered -----------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerRating:
    name: str
    mu: float
    sigma: float
    ordinal: float
    hands: int  # hands this player was rated on

    @property
    def provisional(self) -> bool:
        return self.hands < PROVISIONAL_BELOW


@dataclass(frozen=True)
class TrendStep:
    """The ratings after one session (ordinal per player who had played by then)."""

    session: Session
    ordinals: dict[str, float]


@dataclass(frozen=True)
class Ratings:
    players: tuple[PlayerRating, ...]  # highest rating first
    sessions: tuple[Session, ...] = ()
    books: tuple[Book, ...] = ()  # the ratings after each session, in the sessions' order

    @property
    def steps(self) -> tuple[TrendStep, ...]:
        """Session by session, oldest first: the trend (worked out only for the pages that draw it)."""
        return tuple(
            TrendStep(session, {name: ordinal(mu, sigma) for name, (mu, sigma, _) in book.items()})
            for session, book in zip(self.sessions, self.books, strict=True)
        )

    def player(self, name: str) -> PlayerRating | None:
        return next((p for p in self.players if p.name == name), None)

    @property
    def provisional_below(self) -> int:
        return PROVISIONAL_BELOW

    def trend_of(self, name: str) -> list[tuple[Session, float]]:
        """One player's rating after each session of the selection they had played by then."""
        return [(session, ordinal(*book[name][:2])) for session, book in zip(self.sessions, self.books, strict=True)
                if name in book]


def table_of(book: Book) -> tuple[PlayerRating, ...]:
    players = [PlayerRating(name, mu, sigma, ordinal(mu, sigma), hands) for name, (mu, sigma, hands) in book.items()]
    return tuple(sorted(players, key=lambda p: (-p.ordinal, p.name)))


def ratings_of(sessions: Sequence[Session], *, key: str | None = None) -> Ratings:
    """The ratings of these sessions' hands (oldest session first), from the state kept for them
    under ``key`` (by default, under the sessions themselves)."""
    kept = _kept(sessions, key if key is not None else sessions_key(sessions))
    return Ratings(table_of(kept.books[-1] if kept.books else {}), tuple(sessions), tuple(kept.books))


def ratings_from_scratch(sessions: Sequence[Session]) -> Ratings:
    """Every hand rated again from the starting rating, nothing kept (what the kept state must equal)."""
    rows = _rows(sessions, {}, [s.pk for s in sessions])
    book: Book = {}
    for session in sessions:
        book = rate_hands(book, (sides for _, sides in rows.get(session.pk, ())))
    return Ratings(table_of(book))


# --- kept, and brought up to date hand by hand ----------------------------------------------


@dataclass(frozen=True)
class Mark:
    """How far one session's hands are rated: which replay of them, up to which hand number."""

    session: int
    created: float  # a group imported again must not find another database's ratings
    replays: int
    through: int


@dataclass
class KeptRatings:
    marks: list[Mark] = field(default_factory=list)
    books: list[Book] = field(default_factory=list)  # the ratings after each session, in the marks' order


def selection_key(group: Group | int, filters: Filters) -> str:
    """One kept state per group and filters: a session added to the selection goes on from it."""
    group_id = group if isinstance(group, int) else group.pk
    described = f"{group_id}|{filters.session_id}|{filters.since}|{filters.until}|{filters.system}"
    return "ratings:" + hashlib.sha256(described.encode()).hexdigest()


def sessions_key(sessions: Sequence[Session]) -> str:
    described = ";".join(f"{s.pk}:{s.created_at.timestamp()}" for s in sessions)
    return "ratings-sessions:" + hashlib.sha256(described.encode()).hexdigest()


def ratings_for(group: Group, filters: Filters, sessions: Sequence[Session]) -> Ratings:
    """The ratings of the sessions ``filters`` selected from ``group``'s, kept under the group and
    filters: a new session in the selection is rated on from what was kept, not from the start."""
    return ratings_of(sessions, key=selection_key(group, filters))


def _kept(sessions: Sequence[Session], key: str) -> KeptRatings:
    """The ratings after each session, brought up to date: one cache read, at most one query (the
    hands after the first session that moved on), then one cache write; nothing kept for no session."""
    if not sessions:
        return KeptRatings()
    return remembered(key, lambda kept: _moved_on(sessions, kept or KeptRatings()), CACHE_SECONDS)


def _moved_on(sessions: Sequence[Session], kept: KeptRatings) -> KeptRatings:
    """The ratings after each session as they are now, from those ``kept`` (given back when up to date)."""
    start, resume = _first_changed(kept, sessions)
    if start == len(sessions) and len(kept.marks) == len(sessions):
        return kept
    after = {sessions[start].pk: kept.marks[start].through} if resume else {}
    rows = _rows(sessions, after, [s.pk for s in sessions[start + (1 if resume else 0):]]) \
        if start < len(sessions) else {}
    marks, books = kept.marks[:start], kept.books[:start]
    book = kept.books[start] if resume else (books[-1] if books else {})
    for index in range(start, len(sessions)):
        session = sessions[index]
        hands = rows.get(session.pk, [])
        book = rate_hands(book, (sides for _, sides in hands))
        # hands numbered up to hand_count were committed with it, before the hands were read:
        # all of them are rated (or are events, which rate nobody); a later one read is rated too
        through = max(session.hand_count, hands[-1][0] if hands else 0,
                      kept.marks[index].through if resume and index == start else 0)
        marks.append(Mark(session.pk, session.created_at.timestamp(), session.replays, through))
        books.append(book)
    return KeptRatings(marks, books)


def _first_changed(kept: KeptRatings, sessions: Sequence[Session]) -> tuple[int, bool]:
    """The first session whose ratings are not kept as its hands are now, and whether they can go
    on from what was kept (only newer hands) rather than from the session before it."""
    for index, session in enumerate(sessions):
        if index >= len(kept.marks):
            return index, False
        mark = kept.marks[index]
        if (mark.session, mark.created, mark.replays) != (session.pk, session.created_at.timestamp(),
                                                          session.replays):
            return index, False
        if session.hand_count > mark.through:
            return index, True
    return len(sessions), False


def _rows(sessions: Sequence[Session], after: dict[int, int], whole: list[int]) -> dict[int, list]:
    """The stored sides of scored live hands, by session, in order: one query, of the hands after a
    number for the sessions in ``after`` and every hand of the sessions in ``whole``."""
    which = Q(session_id__in=whole)
    for session_id, number in after.items():
        which |= Q(session_id=session_id, number__gt=number)
    hands = (
        Hand.objects.live()
        .filter(which, kind=Hand.SCORED)
        .order_by("session_id", "number")
        .values_list("session_id", "number", "sides")
    )
    rows: dict[int, list] = {}
    for session_id, number, sides in hands:
        rows.setdefault(session_id, []).append((number, sides))
    return rows
