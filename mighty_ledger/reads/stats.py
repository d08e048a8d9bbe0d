"""A group's record: who bids, who makes it, who is up over the season; and the score over time.

Read side, like reads.py: typed functions returning small frozen dataclasses,
which the statistics page, the player pages and the API all render. Every
figure comes from what the services stored with each hand, in one pass over
the hands: the entry's roles (declarer, partners, sitting_out), the engine's
result (made; the doubles it applied, among them the run and the back run) and
the payments (pot shares and deal-miss fines included, so a player's points
here are exactly the session's totals). Nothing is scored again. A few queries
whatever the number of hands: the group's sessions, their live hands, and for
the score over time the running totals after each hand.
Counts add up (``Counts``): sessions into a season, and a session's first hands
with the hands after them, so the pages count each hand once
(mighty_ledger/reads/kept_counts.py).

Payments marked at the table are money changing hands after the game: they
never enter the statistics, only the group's balance (mighty_ledger/reads/balance.py).
The chart's geometry is drawn on the pages' side (mighty_ledger/pages/charts.py).

One module because the records and the one counting pass that fills them are
read together: a figure on the page is a field here and a line of the pass.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import combinations

from django.db.models import Q

from mighty_ledger.models import Group, Hand, Session
from mighty_ledger.models.nights import table_title
from mighty_ledger.reads import SessionSettlement, session_settlement
from scoring.settle import money_by_currency

TRUMPS = ("S", "H", "D", "C", "NT")


# --- what is asked ------------------------------------------------------------------------


@dataclass(frozen=True)
class Filters:
    """Which hands count: one session, sessions played since a date (and up to one: a season's
    last day), one scoring system. What a request asks for is read in reads/filters.py."""

    session_id: int | None = None
    since: datetime.date | None = None
    system: str | None = None
    until: datetime.date | None = None

    def selects(self, session: Session | SessionChoice) -> bool:
        return ((self.session_id is None or session.pk == self.session_id)
                and (self.since is None or session.played_on >= self.since)
                and (self.until is None or session.played_on <= self.until)
                and (not self.system or session.preset == self.system))

    def narrowed_to(self, season) -> Filters:
        """These filters within a season (seasons.SeasonSpan): the later start, the earlier end."""
        since = max(self.since, season.starts) if self.since else season.starts
        until = min(self.until, season.ends) if self.until and season.ends else (self.until or season.ends)
        return dataclasses.replace(self, since=since, until=until)

    def sessions(self, group: Group) -> list[Session]:
        """The group's live sessions these filters select, oldest first."""
        return [session for session in group_sessions(group) if self.selects(session)]


def group_sessions(group: Group) -> list[Session]:
    """Every live session of the group, oldest first (the filters choose among them)."""
    return list(Session.objects.filter(group=group).live().defer(*_NOT_READ)
                .select_related("night_round__night").order_by("played_on", "id"))


@dataclass(frozen=True, slots=True)
class SessionChoice:
    """A session as the pages of the group's record list, filter and stamp it: what it is, not what
    it holds (no seats, no totals). ``Filters.selects`` reads it as it reads a session."""

    pk: int
    played_on: datetime.date
    title: str
    preset: str
    created_at: datetime.datetime
    revision: int
    night_table: int | None = None
    round_number: int | None = None
    night_title: str | None = None

    @property
    def shown_title(self) -> str:
        """As Session.shown_title: a club night's table named in the reader's language."""
        if self.night_table is None or self.round_number is None:
            return self.title
        return table_title(night_title=self.night_title or "", round_number=self.round_number, table=self.night_table)


def session_choices(group: Group) -> list[SessionChoice]:
    """Every live session of the group, oldest first, as its record's pages choose among them: a
    page from its cache reads these and nothing else."""
    return [SessionChoice(*row) for row in Session.objects.filter(group=group).live()
            .order_by("played_on", "id").values_list(*_CHOICE)]


_CHOICE = ("id", "played_on", "title", "preset", "created_at", "revision",
           # a club night's table, named from these when shown (SessionChoice.shown_title)
           "night_table", "night_round__number", "night_round__night__title")
# the frozen system's options are never needed here, and are the session's biggest column
_NOT_READ = ("system_options", "overrides")


# --- what is answered ---------------------------------------------------------------------


def _share(part: int, whole: int) -> int | None:
    """A whole percentage, or None when there is nothing to divide (the page shows a dash)."""
    return round(100 * part / whole) if whole else None


@dataclass(frozen=True)
class DeclarerRecord:
    hands: int = 0
    made: int = 0
    contract_points: int = 0  # the sum of the contracts bid, for the average
    no_trump: int = 0
    no_friend: int = 0  # announced no friend (partner call "none")
    no_friend_made: int = 0
    runs: int = 0

    @property
    def made_pct(self) -> int | None:
        return _share(self.made, self.hands)

    @property
    def average_contract(self) -> float | None:
        return round(self.contract_points / self.hands, 1) if self.hands else None

    @property
    def no_trump_pct(self) -> int | None:
        return _share(self.no_trump, self.hands)

    @property
    def no_friend_made_pct(self) -> int | None:
        return _share(self.no_friend_made, self.no_friend)


@dataclass(frozen=True)
class PartnerRecord:
    hands: int = 0
    made: int = 0

    @property
    def made_pct(self) -> int | None:
        return _share(self.made, self.hands)


@dataclass(frozen=True)
class DefenderRecord:
    hands: int = 0
    won: int = 0  # the contract was set
    back_runs: int = 0

    @property
    def won_pct(self) -> int | None:
        return _share(self.won, self.hands)


@dataclass(frozen=True)
class SessionLine:
    """One player's evening: points, and money when it was played for money."""

    session_id: int
    played_on: datetime.date
    title: str
    system: str
    points: int
    money: Decimal | None
    currency: str


@dataclass(frozen=True)
class PlayerStats:
    name: str
    hands: int  # scored hands played (void ones included): declarer + partner + defender
    sat_out: int
    declarer: DeclarerRecord
    partner: PartnerRecord
    defender: DefenderRecord
    points: int  # every payment, pot shares and deal-miss fines included
    biggest_win: int  # the most won in one hand, 0 if never up on a hand
    biggest_loss: int  # the most lost in one hand, as a negative number, 0 if never down
    sessions: tuple[SessionLine, ...]
    money: dict[str, Decimal]  # per currency, over the sessions played for money

    @property
    def runs(self) -> int:
        return self.declarer.runs

    @property
    def back_runs(self) -> int:
        return self.defender.back_runs

    @property
    def best_session(self) -> SessionLine | None:
        return max(self.sessions, key=lambda line: line.points, default=None)

    @property
    def worst_session(self) -> SessionLine | None:
        return min(self.sessions, key=lambda line: line.points, default=None)


@dataclass(frozen=True)
class PairStats:
    """Two players on the declarer's team together (declarer and partner, or two partners)."""

    players: tuple[str, str]
    hands: int
    made: int

    @property
    def made_pct(self) -> int | None:
        return _share(self.made, self.hands)


@dataclass(frozen=True)
class ContractStats:
    """How often one contract level was bid in one trump, and made."""

    points: int
    trump: str
    bid: int
    made: int

    @property
    def made_pct(self) -> int | None:
        return _share(self.made, self.bid)


@dataclass(frozen=True)
class SeriesPoint:
    """The running totals of a session after one of its hands (or deal-miss or all-pass event)."""

    session: int
    hand: int
    totals: dict[str, int]


@dataclass(frozen=True)
class Stats:
    players: tuple[PlayerStats, ...]  # most points first
    pairs: tuple[PairStats, ...]  # most hands together first
    contracts: tuple[ContractStats, ...]  # by level, then trump
    series: tuple[SeriesPoint, ...]  # sessions oldest first, hands in order
    sessions: tuple[Session, ...]
    systems: tuple[str, ...]  # the scoring systems whose points are added up here
    hands: int  # scored hands
    events: int  # deal misses and all-pass throw-ins
    # hands from a paper score sheet: in the points, but with no declarer or contract to count
    from_score_sheet: int = 0

    @property
    def mixed_systems(self) -> bool:
        return len(self.systems) > 1

    def player(self, name: str) -> PlayerStats | None:
        return next((p for p in self.players if p.name == name), None)

    def pairs_of(self, name: str) -> tuple[PairStats, ...]:
        return tuple(pair for pair in self.pairs if name in pair.players)

    def contract_levels(self) -> list[tuple[int, list[ContractStats | None]]]:
        """The contracts table: one row per level, one cell per trump (None: never bid)."""
        cells = {(c.points, c.trump): c for c in self.contracts}
        levels = sorted({c.points for c in self.contracts})
        return [(level, [cells.get((level, trump)) for trump in TRUMPS]) for level in levels]


# --- one pass over the stored hands -----------------------------------------------------------


@dataclass
class _Tally:
    """One player's counts; Counters, so that the counts of two sessions add up and can be cached."""

    hands: int = 0
    sat_out: int = 0
    points: int = 0
    biggest_win: int = 0
    biggest_loss: int = 0
    declarer: Counter = field(default_factory=Counter)
    partner: Counter = field(default_factory=Counter)
    defender: Counter = field(default_factory=Counter)
    session_points: Counter = field(default_factory=Counter)

    def add(self, other: _Tally) -> None:
        self.hands += other.hands
        self.sat_out += other.sat_out
        self.points += other.points
        self.biggest_win = max(self.biggest_win, other.biggest_win)
        self.biggest_loss = min(self.biggest_loss, other.biggest_loss)
        # update(), not +: a session's points may be negative, and + drops what is not positive
        for mine, theirs in ((self.declarer, other.declarer), (self.partner, other.partner),
                             (self.defender, other.defender), (self.session_points, other.session_points)):
            mine.update(theirs)


@dataclass
class Counts:
    """What one pass over hands counted. Counts add up: a season's are the sum of its sessions', a
    session's the sum of its hands' (mighty_ledger/reads/kept_counts.py keeps them and adds new hands)."""

    tallies: dict[str, _Tally] = field(default_factory=dict)
    pairs: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # hands together, made
    contracts: dict[tuple[int, str], list[int]] = field(default_factory=dict)  # bid, made
    hands: int = 0
    events: int = 0
    from_score_sheet: int = 0
    last_hand: int = 0  # the highest hand number counted (mighty_ledger/reads/kept_counts.py goes on from it)

    def tally(self, name: str) -> _Tally:
        if name not in self.tallies:
            self.tallies[name] = _Tally()
        return self.tallies[name]

    def add(self, other: Counts) -> None:
        for name, tally in other.tallies.items():
            self.tally(name).add(tally)
        for mine, theirs in ((self.pairs, other.pairs), (self.contracts, other.contracts)):
            for key, (n, m) in theirs.items():
                pair = mine.setdefault(key, [0, 0])
                pair[0] += n
                pair[1] += m
        self.hands += other.hands
        self.events += other.events
        self.from_score_sheet += other.from_score_sheet
        self.last_hand = max(self.last_hand, other.last_hand)


def session_money(session: Session) -> SessionSettlement:
    """The session's settlement from its stored totals, as every page and the API read it."""
    return session_settlement(session, per_hand=False)


def group_stats(group: Group, filters: Filters = Filters()) -> Stats:
    """Every figure of the statistics page, for the hands the filters let through.

    Three queries: the live sessions of the group the filters select, their live
    hands (roles, result and payments), and the running totals after each.
    """
    return stats_of(filters.sessions(group))


def stats_of(sessions: Sequence[Session]) -> Stats:
    """The statistics of these sessions, every hand counted from scratch (the pages and the API keep
    their counts: mighty_ledger/reads/kept_counts.py)."""
    counted = count_sessions(sessions)
    return stats_from_counts(sessions, [counted[session.pk] for session in sessions], series=series_of(sessions))


def series_of(sessions: Sequence[Session]) -> tuple[SeriesPoint, ...]:
    """The running totals after each live hand of these sessions, in order, which the score over
    time draws: one query, of the running totals only (the counts leave them out)."""
    hands = (
        Hand.objects.live()
        .filter(session_id__in=[session.pk for session in sessions])
        .order_by("session_id", "number")
        .values_list("session_id", "number", "running_totals")
    )
    order = {session.pk: i for i, session in enumerate(sessions)}
    points = [SeriesPoint(session_id, number, totals) for session_id, number, totals in hands]
    # sessions in the order asked (oldest first), which is not the order of their ids
    return tuple(sorted(points, key=lambda point: order[point.session]))


def count_sessions(sessions: Sequence[Session], *, after: Mapping[int, int] | None = None) -> dict[int, Counts]:
    """Each session's counts, from one query for the live hands of them all. ``after`` maps a
    session to the last hand number already counted: only the hands after it are counted."""
    if not sessions:
        return {}
    after = after or {}
    which = Q(session_id__in=[session.pk for session in sessions if session.pk not in after])
    for session_id, number in after.items():
        which |= Q(session_id=session_id, number__gt=number)
    # of the engine's result only what is counted: its explanation and transfers are most of its size
    columns = ["session_id", "number", "kind", "entry", "result__made", "result__doubles", "payments"]
    hands = (
        Hand.objects.live()
        .filter(which)
        .order_by("session_id", "number")
        .values_list(*columns)
    )
    return count_hands(sessions, hands)


def count_hands(sessions: Sequence[Session], hands: Iterable[tuple]) -> dict[int, Counts]:
    """One pass over stored hand rows: session, number, kind, entry, the result's made and doubles,
    and payments."""
    counted: dict[int, Counts] = {}
    for session in sessions:
        counts = counted[session.pk] = Counts()
        for seat in session.seats:
            counts.tally(seat)  # every seated player appears, even one who only sat out
    seats_of = {session.pk: session.seats for session in sessions}

    for session_id, number, kind, entry, made, doubles, payments in hands:
        counts = counted[session_id]
        counts.last_hand = max(counts.last_hand, number)
        for seat, amount in payments.items():
            tally = counts.tally(seat)
            tally.points += amount
            tally.session_points[session_id] += amount
            if kind == Hand.SCORED:
                tally.biggest_win = max(tally.biggest_win, amount)
                tally.biggest_loss = min(tally.biggest_loss, amount)
        if kind == Hand.SCORE_SHEET:
            counts.from_score_sheet += 1
            continue
        if kind != Hand.SCORED:
            counts.events += 1
            continue
        counts.hands += 1
        # made is None for a void hand, played but not scored
        doubles = doubles or ()
        declarer = entry["declarer"]
        partners = list(entry.get("partners", []))
        out = set(entry.get("sitting_out", []))
        team = [declarer, *partners]
        contract = entry.get("contract") or {}
        trump = contract.get("trump", "")
        no_friend = (entry.get("partner_call") or {}).get("type") == "none"

        lead = counts.tally(declarer).declarer
        lead["hands"] += 1
        lead["made"] += made is True
        lead["contract_points"] += contract.get("points", 0)
        lead["no_trump"] += trump == "NT"
        lead["no_friend"] += no_friend
        lead["no_friend_made"] += no_friend and made is True
        # a run and a back run as the session's system counts them: the doubles stored with the hand
        lead["runs"] += "run" in doubles
        for seat in partners:
            counts.tally(seat).partner["hands"] += 1
            counts.tally(seat).partner["made"] += made is True
        for seat in seats_of[session_id]:
            tally = counts.tally(seat)
            if seat in out:
                tally.sat_out += 1
                continue
            tally.hands += 1
            if seat not in team:
                tally.defender["hands"] += 1
                tally.defender["won"] += made is False
                tally.defender["back_runs"] += "back_run" in doubles
        for pair in combinations(sorted(team), 2):
            together = counts.pairs.setdefault(pair, [0, 0])
            together[0] += 1
            together[1] += made is True
        if contract:
            level = counts.contracts.setdefault((contract.get("points", 0), trump), [0, 0])
            level[0] += 1
            level[1] += made is True
    return counted


def _record(cls, counter: Counter):
    return cls(**{name: counter[name] for name in (f.name for f in dataclasses.fields(cls))})


def stats_from_counts(sessions: Sequence[Session], counts: Iterable[Counts],
                      series: tuple[SeriesPoint, ...] = ()) -> Stats:
    """The statistics of these sessions from their counts (each session's, in the sessions' order),
    with the running totals hand by hand when they were read (``series_of``)."""
    total = Counts()
    for part in counts:
        total.add(part)
    money_by_session = {session.pk: session_money(session).money for session in sessions}
    players = []
    for name, tally in total.tallies.items():
        lines = tuple(
            SessionLine(
                session.pk, session.played_on, session.shown_title, session.preset,
                tally.session_points.get(session.pk, 0),
                (money_by_session[session.pk] or {}).get(name) if money_by_session[session.pk] else None,
                session.currency,
            )
            for session in sessions
            if name in session.seats
        )
        money = money_by_currency((line.currency, line.money) for line in lines if line.money is not None)
        players.append(PlayerStats(
            name=name, hands=tally.hands, sat_out=tally.sat_out,
            declarer=_record(DeclarerRecord, tally.declarer), partner=_record(PartnerRecord, tally.partner),
            defender=_record(DefenderRecord, tally.defender), points=tally.points,
            biggest_win=tally.biggest_win, biggest_loss=tally.biggest_loss,
            sessions=lines, money=money,
        ))
    players.sort(key=lambda p: (-p.points, p.name))
    return Stats(
        players=tuple(players),
        pairs=tuple(sorted((PairStats(pair, n, m) for pair, (n, m) in total.pairs.items()),
                           key=lambda p: (-p.hands, p.players))),
        contracts=tuple(sorted((ContractStats(level, trump, n, m)
                                for (level, trump), (n, m) in total.contracts.items()),
                               key=lambda c: (c.points, TRUMPS.index(c.trump) if c.trump in TRUMPS else 9))),
        series=series,
        sessions=tuple(sessions),
        systems=tuple(sorted({session.preset for session in sessions})),
        hands=total.hands,
        events=total.events,
        from_score_sheet=total.from_score_sheet,
    )


def best_and_worst_friend(stats: Stats, name: str) -> tuple[PairStats | None, PairStats | None]:
    """The partner this player makes contracts with most often, and least often (by made %, then hands)."""
    pairs = [pair for pair in stats.pairs_of(name) if pair.hands]
    if not pairs:
        return None, None
    best = max(pairs, key=lambda p: (p.made / p.hands, p.hands))
    # the same pair for both only when it is the only one (the page says "the only friend"): among
    # several that all made every contract, the worst is another of them
    others = [pair for pair in pairs if pair is not best] or [best]
    worst = min(others, key=lambda p: (p.made / p.hands, -p.hands))
    return best, worst
