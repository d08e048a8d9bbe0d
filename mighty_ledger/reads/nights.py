"""A club night as it stands: its rounds and tables, each table's progress in the round, the
standings, where each player sits next, and one settlement for the whole night.

A round's tables are sessions (``Session.night_round``), so everything here is read from what
those sessions hold; nothing is scored again. What the night decides, and where it says so
(docs/table.md, "Club night: rounds, standings and the settlement"):

- **A round's hands.** A table of the system's size plays ``hands_per_round`` hands; a table of
  another size (a 6 where the dealer sits each hand out, beside tables of 5) plays as many as give
  each of its players the same number of hands as at the system's own size, rounded up: 12 at
  a 6 for 10 at a 5, as Skat clubs play 48 games at a four with the dealer out beside 36 at a
  three. A hand is a scored hand (a deal miss or an all-pass is dealt again, not played), and
  a table is finished when it has played them; a timed round's table is finished when the time
  is up and no hand is being played (its contract open).
- **Standings.** ``points``: each player's total over the tables they played (the sessions'
  totals, deal-miss fines included). ``per_hand``: those points over the hands they played.
  ``placement``: at each table with a hand played, one point for each player there finished
  above and half a point for each one level with (at a table of n, rank r gets n − r, players
  level share the average), summed over the tables. Ties on that figure are broken by points per
  hand (``per_hand`` and ``placement``: by points); players still level share the rank
  (1, 2, 2, 4) and are listed by name.
- **Settlement.** Every table's settlement in what the night is played for (money at the stake,
  else chips, else points), added up per player, less the payments marked on any of the night's
  tables and the night's own (a transfer for the whole night, ``Payment.night``), and settled in
  the fewest transfers among all the players: ``reads.balance`` and ``scoring.settle`` do the
  sums, as for a group's balance. A payment of the night is checked against what is left of it
  (night_payment_room), as a table's is against the table's.

One module because every read of a night starts from its rounds as ``night_rounds`` reads them
(two queries) and hands them on: a page that shows the progress, the standings and the
settlement reads the rounds once, and the rules above, which decide all three, stay together.

May import: as the rest of the read side (models, ``http``, ``scoring``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from django.db.models import Count, Max, Sum
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils import timezone

from mighty_ledger.http.access import is_row_id
from mighty_ledger.models import Contract, Group, Hand, Night, NightRound, Payment, Session
from mighty_ledger.reads import (
    SessionSettlement,
    balance,
    payment_unit_of,
    ratings,
    session_settlement,
    stakes_of,
    system_of,
)
from mighty_ledger.reads.stats import Filters
from scoring import draw
from scoring.presets import get_preset
from scoring.settle import POT, Transfer, currency_code, most_payable
from scoring.systems import System

# --- the night and its rounds ---------------------------------------------------------------


def group_night(group: Group, night_id: int) -> Night:
    """The group's live night ``night_id``; 404 for any other (another group's says nothing)."""
    if not is_row_id(night_id):
        raise Http404("No such night in this group.")
    try:
        return Night.objects.get(group=group, pk=night_id, deleted_at__isnull=True)
    except Night.DoesNotExist:
        raise Http404("No such night in this group.") from None


def group_nights(group: Group):
    """The group's live nights, newest first."""
    return Night.objects.filter(group=group, deleted_at__isnull=True).order_by("-played_on", "-id")


@dataclass(frozen=True)
class NightStamp:
    """What the night's pages show moves with: the night's own revision (a round drawn, a player
    come or gone, a swap), its tables (drawn, deleted, and their revisions, which only grow: a
    hand, a payment) and whether the latest round's time is up."""

    night: tuple  # the night's id, creation and revision
    tables: int
    tables_gone: int
    tables_moved: int
    time_up: bool

    @property
    def whole(self) -> str:
        """For a page of the night's progress and standings (the big screen, the night's page)."""
        return ":".join(map(str, (*self.night, self.tables, self.tables_gone, self.tables_moved, self.time_up)))

    @property
    def seating(self) -> str:
        """For a page of who sits where (the places): a hand at a table leaves it as it is."""
        return ":".join(map(str, (*self.night, self.tables, self.tables_gone)))


def night_stamp(group: Group, night_id: int, *, now: datetime | None = None) -> NightStamp:
    """The stamp of the group's live night ``night_id`` (404 for any other): one query, an aggregate
    over its rounds and tables."""
    if not is_row_id(night_id):
        raise Http404("No such night in this group.")
    row = (Night.objects.filter(pk=night_id, group=group, deleted_at__isnull=True)
           .values_list("id", "created_at", "revision")
           .annotate(tables=Count("rounds__tables"), gone=Count("rounds__tables__deleted_at"),
                     moved=Coalesce(Sum("rounds__tables__revision"), 0), ends=Max("rounds__ends_at"))
           .first())
    if row is None:
        raise Http404("No such night in this group.")
    night_id, created_at, revision, tables, gone, moved, ends = row
    time_up = ends is not None and ends <= (now or timezone.now())
    return NightStamp((night_id, created_at.timestamp(), revision), tables, gone, moved, time_up)


def night_stamped(group: Group, night_id: int, *, now: datetime | None = None) -> tuple[Night, str]:
    """The group's live night ``night_id`` (404 for any other) and its stamp (``NightStamp.whole``),
    for pages drawn once per change of the night: two queries."""
    stamp = night_stamp(group, night_id, now=now)
    return group_night(group, night_id), stamp.whole


def night_system(night: Night) -> System:
    """The night's system: its preset with its rule changes (each table freezes its own)."""
    return get_preset(night.preset).system(night.overrides)


@dataclass(frozen=True)
class Table:
    """One table of a round: its number (from 1), its session, the seats clockwise from seat 1."""

    number: int
    session: Session

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.session.seats)

    @property
    def deleted(self) -> bool:
        return self.session.deleted_at is not None


@dataclass(frozen=True)
class RoundTables:
    """A round as drawn (after any swap): its tables in order, and who sits it out."""

    round: NightRound
    tables: tuple[Table, ...]

    @property
    def number(self) -> int:
        return self.round.number

    @property
    def sitting_out(self) -> tuple[str, ...]:
        return tuple(self.round.sitting_out)

    def drawn(self, seed: int) -> draw.Round:
        """The round as scoring.draw sees it, for the rounds after it (deleted tables too: they met)."""
        return draw.Round(self.number, seed, tuple(table.seats for table in self.tables), self.sitting_out)


def night_rounds(night: Night) -> list[RoundTables]:
    """Every round of the night, oldest first, with its tables: two queries."""
    rounds = list(night.rounds.order_by("number"))
    sessions = Session.objects.filter(night_round__night=night).order_by("night_round_id", "night_table")
    by_round: dict[int, list[Table]] = defaultdict(list)
    for session in sessions:
        by_round[session.night_round_id].append(Table(session.night_table, session))
    return [RoundTables(r, tuple(by_round[r.pk])) for r in rounds]


def night_sessions(rounds: Sequence[RoundTables]) -> list[Session]:
    """The live sessions of the night's tables, round by round, table by table."""
    return [table.session for r in rounds for table in r.tables if not table.deleted]


def night_names(night: Night, sessions: Sequence[Session]) -> list[str]:
    """Everyone of the night: those seated at its tables, in seat order, then those present who
    have not played yet."""
    return [*dict.fromkeys([*(name for s in sessions for name in s.seats), *night.players])]


# --- a round's progress ---------------------------------------------------------------------


def table_target(night: Night, session: Session) -> int | None:
    """The hands this table plays in its round (None for a timed round): ``hands_per_round`` at the
    system's own size; at another size as many as give each seat the same number of hands."""
    if night.hands_per_round is None:
        return None
    own, here = night_system(night), system_of(session)
    if (here.players, here.active_players) == (own.players, own.active_players):
        return night.hands_per_round
    each = Fraction(night.hands_per_round * own.active_players, own.players)
    return math.ceil(each * here.players / here.active_players)


@dataclass(frozen=True)
class TableProgress:
    table: Table
    hands: int  # scored hands played so far
    target: int | None  # hands the table plays this round; None in a timed round
    playing: bool  # a hand is being played (its contract is open)
    finished: bool


@dataclass(frozen=True)
class RoundProgress:
    number: int
    tables: tuple[TableProgress, ...]
    sitting_out: tuple[str, ...]
    ends_at: datetime | None

    @property
    def finished(self) -> bool:
        return all(table.finished for table in self.tables)

    @property
    def unfinished(self) -> tuple[int, ...]:
        return tuple(t.table.number for t in self.tables if not t.finished)


def scored_counts(sessions: Sequence[Session]) -> dict[int, int]:
    """The live scored hands of each session, by id: one query."""
    rows = (Hand.objects.live().filter(session_id__in=[s.pk for s in sessions], kind=Hand.SCORED)
            .values("session_id").annotate(count=Count("id")).values_list("session_id", "count"))
    return dict(rows)


def rounds_progress(night: Night, rounds: Sequence[RoundTables], *, now: datetime | None = None) -> list[RoundProgress]:
    """How far each table of each of ``rounds`` has played: two queries (the hands counted, the
    contracts open). A deleted table has nothing left to play."""
    live = night_sessions(rounds)
    counts = scored_counts(live)
    open_at = set(Contract.objects.open().filter(session_id__in=[s.pk for s in live])
                  .values_list("session_id", flat=True))
    now = now or timezone.now()
    progress = []
    for drawn in rounds:
        time_up = drawn.round.ends_at is not None and now >= drawn.round.ends_at
        tables = []
        for table in drawn.tables:
            hands, playing = counts.get(table.session.pk, 0), table.session.pk in open_at
            target = table_target(night, table.session)
            if table.deleted:
                finished = True
            elif target is not None:
                finished = hands >= target
            else:
                finished = time_up and not playing
            tables.append(TableProgress(table, hands, target, playing, finished))
        progress.append(RoundProgress(drawn.number, tuple(tables), drawn.sitting_out, drawn.round.ends_at))
    return progress


def round_progress(night: Night, drawn: RoundTables, *, now: datetime | None = None) -> RoundProgress:
    """How far each table of one round has played: two queries."""
    return rounds_progress(night, [drawn], now=now)[0]


def current_progress(night: Night, rounds: Sequence[RoundTables] | None = None) -> RoundProgress | None:
    """The latest round's progress; None before the first draw."""
    rounds = night_rounds(night) if rounds is None else rounds
    return round_progress(night, rounds[-1]) if rounds else None


@dataclass(frozen=True)
class NightOverview:
    """The night with every round drawn so far, each table's progress, and where everyone sits in
    the latest round: four queries."""

    night: Night
    rounds: tuple[RoundTables, ...]
    progress: tuple[RoundProgress, ...]  # one per round, in order
    places: dict[str, Place]

    @property
    def current(self) -> RoundProgress | None:
        return self.progress[-1] if self.progress else None


def night_overview(night: Night) -> NightOverview:
    rounds = night_rounds(night)
    return NightOverview(night, tuple(rounds), tuple(rounds_progress(night, rounds)), night_places(rounds))


# --- where each player sits next ------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """Where a player is in a round: a table and seat (both from 1) and its session, or sitting out."""

    round: int
    table: int | None = None
    seat: int | None = None
    session_id: int | None = None

    @property
    def sitting_out(self) -> bool:
        return self.table is None


def night_places(rounds: Sequence[RoundTables]) -> dict[str, Place]:
    """Each player of the latest round: their table and seat, or sitting out. A player who came
    after it was drawn is not in it, and waits for the next."""
    if not rounds:
        return {}
    latest = rounds[-1]
    places = {name: Place(latest.number) for name in latest.sitting_out}
    for table in latest.tables:
        if table.deleted:
            continue
        for seat, name in enumerate(table.seats, start=1):
            places[name] = Place(latest.number, table.number, seat, table.session.pk)
    return places


# --- standings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    name: str
    points: int  # the sum of the player's totals at the night's tables
    hands: int  # scored hands the player played in
    score: int | Fraction  # what the night ranks by: points, points per hand or placement points
    rank: int
    present: bool  # among the players present now (one who left keeps their standing)

    @property
    def per_hand(self) -> Fraction:
        return Fraction(self.points, self.hands) if self.hands else Fraction(0)


@dataclass(frozen=True)
class Standings:
    option: str  # Night.POINTS, PER_HAND or PLACEMENT
    rows: tuple[StandingRow, ...]  # ranked

    def of(self, name: str) -> StandingRow | None:
        return next((row for row in self.rows if row.name == name), None)


def hands_played(sessions: Sequence[Session]) -> dict[tuple[int, str], int]:
    """Scored hands each seat played in, by (session id, name): one query, and a second only for
    tables where someone sits hands out (read from the sides the engine stored)."""
    counts = scored_counts(sessions)
    played = {(s.pk, name): counts.get(s.pk, 0) for s in sessions for name in s.seats}
    rotating = {s.pk: s.seats for s in sessions if system_of(s).active_players < system_of(s).players}
    if rotating:
        for session_id, sides in (Hand.objects.live().filter(session_id__in=list(rotating), kind=Hand.SCORED)
                                  .values_list("session_id", "sides")):
            playing = {*sides.get("declarers", ()), *sides.get("defenders", ())}
            for name in rotating[session_id]:
                if name not in playing:
                    played[session_id, name] -= 1
    return played


def placement_points(totals: dict[str, int]) -> dict[str, Fraction]:
    """One point for each player at the table finished above, half for each one level with."""
    return {name: sum((Fraction(1) if mine > theirs else Fraction(1, 2) if mine == theirs else Fraction(0))
                      for other, theirs in totals.items() if other != name)
            for name, mine in totals.items()}


def night_standings(night: Night, rounds: Sequence[RoundTables] | None = None) -> Standings:
    """Every player of the night, ranked by the night's option (the module's docstring says how):
    two queries beside the rounds (three when a table sits hands out)."""
    rounds = night_rounds(night) if rounds is None else rounds
    sessions = night_sessions(rounds)
    played = hands_played(sessions)
    names = night_names(night, sessions)
    points = dict.fromkeys(names, 0)
    hands = dict.fromkeys(names, 0)
    placed = dict.fromkeys(names, Fraction(0))
    for session in sessions:
        totals = {name: session.totals.get(name, 0) for name in session.seats}
        for name, total in totals.items():
            points[name] += total
            hands[name] += played[session.pk, name]
        if any(played[session.pk, name] for name in session.seats):
            for name, value in placement_points(totals).items():
                placed[name] += value

    def per_hand(name: str) -> Fraction:
        return Fraction(points[name], hands[name]) if hands[name] else Fraction(0)

    if night.standings == Night.PER_HAND:
        score, tie = per_hand, points.__getitem__
    elif night.standings == Night.PLACEMENT:
        score, tie = placed.__getitem__, points.__getitem__
    else:
        score, tie = points.__getitem__, per_hand
    order = sorted(names, key=lambda name: (-score(name), -tie(name), name))
    rows, rank, level = [], 0, None
    for position, name in enumerate(order, start=1):
        if (score(name), tie(name)) != level:
            rank, level = position, (score(name), tie(name))
        value = score(name)
        if isinstance(value, Fraction) and value.denominator == 1:
            value = int(value)
        rows.append(StandingRow(name, points[name], hands[name], value, rank, name in night.players))
    return Standings(night.standings, tuple(rows))


def night_ratings(night: Night) -> dict[str, ratings.PlayerRating]:
    """Each player's rating over every hand of the group, as the ratings page has it (the night's
    hands moving it), read from the state kept for the group."""
    filters = Filters()
    rated = ratings.ratings_for(night.group, filters, filters.sessions(night.group))
    return {player.name: player for player in rated.players}


# --- one settlement for the night -----------------------------------------------------------


@dataclass(frozen=True)
class TableSettlement:
    round: int
    table: Table
    settlement: SessionSettlement
    outstanding: balance.Outstanding

    @property
    def points(self) -> dict[str, int]:
        return {seat: self.table.session.totals.get(seat, 0) for seat in self.table.seats}

    @property
    def amounts(self) -> dict[str, object]:
        """Each seat's result in what the table settles in: money at the stake, chips won or lost, or points."""
        settlement = self.settlement
        if settlement.money is not None:
            return {seat: settlement.money.get(seat, 0) for seat in self.table.seats}
        if settlement.chips is not None:
            return {seat: settlement.chips[seat] - settlement.stakes.chips_start for seat in self.table.seats}
        return self.points


@dataclass(frozen=True)
class NightSettlement:
    unit: str  # Payment.MONEY, CHIPS or POINTS: what the night is played for
    currency: str
    totals: dict[str, object]  # each player's result over every table in ``unit``, before payments
    pot: object  # deal-miss fines still in the pots of the tables
    outstanding: list[Transfer]  # the fewest transfers among all the players, net of payments
    payments: list[Payment]  # standing: the night's own and those on any of its tables, oldest first
    tables: tuple[TableSettlement, ...]


def night_unit(night: Night) -> tuple[str, str]:
    """What the night settles in, as a payment records it, and its currency code (money only)."""
    unit = payment_unit_of(stakes_of(night))
    return unit, (currency_code(night.currency) if unit == Payment.MONEY else "")


def night_payment_room(night: Night, *, payer: str, payee: str,
                       rounds: Sequence[RoundTables] | None = None) -> balance.PaymentRoom:
    """What one more payment of the night from ``payer`` to ``payee`` may be without being asked
    about first: the night's settlement less every payment counted for it (its own and its
    tables'), as the engine sums them (``most_payable``); in steps of the night's rounding unit
    for money, else whole chips or points."""
    sessions = night_sessions(night_rounds(night) if rounds is None else rounds)
    unit, currency = night_unit(night)
    left = balance.in_unit(balance.group_balance(sessions, balance.night_payments(night, sessions)), unit, currency)
    step = Decimal(stakes_of(night).unit) if unit == Payment.MONEY else Decimal(1)
    return balance.PaymentRoom(Decimal(most_payable(left.amounts if left else {}, payer, payee)), step)


def night_settlement(night: Night, rounds: Sequence[RoundTables] | None = None) -> NightSettlement:
    """Every table's settlement added up per player and settled among all of them, net of the
    payments marked on the night's tables and of the night's own; with each table's own
    settlement beside it. One query for the payments, and one per table for its own."""
    rounds = night_rounds(night) if rounds is None else rounds
    sessions = night_sessions(rounds)
    unit, currency = night_unit(night)
    payments = balance.night_payments(night, sessions)
    before = balance.in_unit(balance.group_balance(sessions, []), unit, currency)
    after = balance.in_unit(balance.group_balance(sessions, payments), unit, currency)
    totals = before.amounts if before else {}
    tables = []
    for r in rounds:
        for table in r.tables:
            if not table.deleted:
                settlement = session_settlement(table.session, per_hand=False)
                tables.append(TableSettlement(r.number, table, settlement,
                                              balance.session_outstanding(table.session, settlement)))
    return NightSettlement(unit, currency, {name: totals.get(name, 0) for name in night_names(night, sessions)},
                           totals.get(POT, 0), after.transfers if after else [], payments, tuple(tables))
