"""The draw of a club night: for each round, who sits at which table and in which seat.

A night seats its players at several tables at once and draws them again each
round. The sizes come from the system (scoring.systems: ``players`` at a
table), plus the other sizes its preset family plays the same hands at: a
5-player family with a 6-player rotation preset (pagat, 003 변형 6마: the dealer
sits each hand out) may seat 16 as 5 + 5 + 6, as Doppelkopf clubs add a table
of five where the dealer sits out; a system alone at its size seats 5 + 5 + 5
and one sits the round out. Who sits a round out is whoever has missed fewest
rounds, so over a night the counts differ by at most one.

Round one is shuffled. Later rounds either mix (tables searched so that pairs
who already shared a table share one again as little as possible: a pair costs
the number of times it has met, so a third meeting costs more than a second) or
group by standings (the nearest standings together, ties in random order: a
Swiss round). Within a table the
seats are turned so that nobody keeps the seat number or the left-hand
neighbour they had. docs/table.md, "Club night: the draw", says why.

Everything is reproducible: one ``random.Random`` per round, seeded from the
night's seed and the round's number (``round_seed``), and names are sorted
before anything is drawn, so the same inputs give the same draw anywhere.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .presets import chicago, korean, pagat
from .systems import System

# the options by which one preset of a family seats a different number at the same hands
SEATING_OPTIONS = ("players", "active_players", "sit_out", "next_dealer")
# restarts of the search for the least repeated tablemates; each is a descent from a shuffle
RESTARTS = 6
# seat orders tried per table when turning the seats
SEAT_ORDERS = 24


@dataclass(frozen=True)
class TableSizes:
    """How many a table of the night seats: the system's own number, then the others it accepts."""

    own: int
    others: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not all(2 <= size <= 8 for size in self.allowed) or len(set(self.allowed)) != len(self.allowed):
            raise ValueError(f"A table seats 2 to 8 players, each size once: {self.allowed}.")

    @property
    def allowed(self) -> tuple[int, ...]:
        return (self.own, *self.others)

    @property
    def fewest_players(self) -> int:
        """Below this many present, no table can be drawn: the night says so before drawing."""
        return min(self.allowed)


@dataclass(frozen=True)
class Round:
    """One round's draw: each table's seats clockwise from seat 1, and who sits the round out."""

    number: int
    seed: int
    tables: tuple[tuple[str, ...], ...]
    sitting_out: tuple[str, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return (*itertools.chain.from_iterable(self.tables), *self.sitting_out)

    def place_of(self, player: str) -> tuple[int, int] | None:
        """(table, seat), both counted from 1; None when the player sits out or is absent."""
        for table, seats in enumerate(self.tables, start=1):
            if player in seats:
                return table, seats.index(player) + 1
        return None


@dataclass(frozen=True)
class Pair:
    first: str
    second: str
    times: int


@dataclass(frozen=True)
class Meetings:
    """How often each pair of players shared a table, most often first."""

    pairs: tuple[Pair, ...]

    @property
    def repeated(self) -> int:
        """Meetings after a pair's first: 0 when nobody shared a table twice."""
        return sum(pair.times - 1 for pair in self.pairs)

    @property
    def most(self) -> int:
        return max((pair.times for pair in self.pairs), default=0)

    def times(self, a: str, b: str) -> int:
        first, second = sorted((a, b))
        return next((p.times for p in self.pairs if (p.first, p.second) == (first, second)), 0)


# --- table sizes from the system ---------------------------------------------------


def preset_family(slug: str) -> tuple[System, ...]:
    """The systems of the presets in the same family (one module of scoring.presets) as ``slug``."""
    for family in (pagat, chicago, korean):
        if any(preset.slug == slug for preset in family.PRESETS):
            return tuple(preset.system() for preset in family.PRESETS)
    return ()


def _plays_the_same_hands(system: System, other: System) -> bool:
    # the same deck dealt to as many, and a sit-out known before the deal (a knockout deals a
    # different deck to everyone at the table, so it is another game, not another table size)
    return (
        other.players != system.players
        and other.deck == system.deck
        and other.active_players == system.active_players
        and other.sit_out != "knockout"
        and system.sit_out != "knockout"
    )


def table_sizes(system: System, family: Sequence[System] = ()) -> TableSizes:
    """The system's own table size, and each size at which a preset of its family plays its hands."""
    others = sorted({other.players for other in family if _plays_the_same_hands(system, other)})
    return TableSizes(system.players, tuple(others))


def seating_options(size: int, system: System, family: Sequence[System] = ()) -> dict:
    """The options that seat ``size`` at the night's system: {} for its own size, else those of the
    family's preset of that size (its sit-out rule and dealer rotation), to merge into the night's."""
    if size == system.players:
        return {}
    for other in family:
        if other.players == size and _plays_the_same_hands(system, other):
            return {name: getattr(other, name) for name in SEATING_OPTIONS}
    raise ValueError(f"The family plays no table of {size} at this system.")


def plan_tables(present: int, sizes: TableSizes) -> tuple[int, ...]:
    """The sizes of a round's tables: as many seated as possible, then as close to the system's own
    size as possible (in total, then at the worst table), the own size first."""
    if present < sizes.fewest_players:
        raise ValueError(f"{present} players cannot fill a table of {sizes.fewest_players}.")
    best: tuple | None = None
    ranges = [range(present // size + 1) for size in sizes.allowed]
    for counts in itertools.product(*ranges):
        seated = sum(count * size for count, size in zip(counts, sizes.allowed, strict=True))
        if seated > present or not any(counts):
            continue
        deviations = [abs(size - sizes.own) for count, size in zip(counts, sizes.allowed, strict=True) if count]
        key = (-seated, sum(c * abs(s - sizes.own) for c, s in zip(counts, sizes.allowed, strict=True)),
               max(deviations), counts)
        if best is None or key < best:
            best = key
    counts = best[-1]
    return tuple(size for count, size in zip(counts, sizes.allowed, strict=True) for _ in range(count))


# --- the draw ------------------------------------------------------------------------


def round_seed(seed: int, number: int) -> int:
    """The seed of round ``number`` (from 1): the night's ``random.Random(seed)``, drawn ``number`` times."""
    rng = random.Random(seed)
    value = 0
    for _ in range(number):
        value = rng.getrandbits(63)
    return value


def draw_round(
    players: Sequence[str],
    sizes: TableSizes,
    *,
    seed: int,
    history: Sequence[Round] = (),
    standings: Mapping[str, int | float | Fraction] | None = None,
) -> Round:
    """The next round (number ``len(history) + 1``) for the players present.

    Without ``standings`` the tables mix players who have met least; with them (points by
    name, higher is better, a missing name counts 0) the nearest standings sit together,
    table 1 the top. Turns to sit out count every round a player was not at a table, so one
    who arrives late plays before anyone sits out twice. Raises ValueError for a name twice or too few players:
    the night checks ``sizes.fewest_players`` first.
    """
    names = sorted(players)
    if len(set(names)) != len(names):
        raise ValueError(f"A player is listed twice: {names}.")
    number = len(history) + 1
    rng = random.Random(round_seed(seed, number))
    plan = plan_tables(len(names), sizes)
    out_count = len(names) - sum(plan)

    # who has missed fewest rounds (sat out, or not yet come) sits out first, then whoever
    # missed one longest ago (0: never)
    missed = {name: 0 for name in names}
    last_missed = {name: 0 for name in names}
    for previous in history:
        at_tables = set(itertools.chain.from_iterable(previous.tables))
        for name in names:
            if name not in at_tables:
                missed[name] += 1
                last_missed[name] = previous.number
    by_turn = sorted(names, key=lambda name: (missed[name], last_missed[name], rng.random()))
    sitting_out = tuple(sorted(by_turn[:out_count]))
    seated = [name for name in names if name not in sitting_out]

    if standings is not None:
        ranked = sorted(seated, key=lambda name: (-Fraction(standings.get(name, 0)), rng.random()))
        groups = _chunks(ranked, plan)
    else:
        groups = _mixed(seated, plan, sizes.own, history, rng)
    tables = tuple(_turn_seats(group, history, rng) for group in groups)
    return Round(number=number, seed=seed, tables=tables, sitting_out=sitting_out)


def _chunks(order: Sequence[str], plan: Sequence[int]) -> list[list[str]]:
    starts = itertools.accumulate(plan, initial=0)
    return [list(order[start : start + size]) for start, size in zip(starts, plan, strict=False)]


def _mixed(
    seated: list[str], plan: tuple[int, ...], own: int, history: Sequence[Round], rng: random.Random
) -> list[list[str]]:
    """Tables with the least weight of earlier meetings: descent by swapping two players of
    different tables (the first swap that helps), from a few shuffles, keeping the lightest.

    A seat at a table of another size than the system's weighs by the rounds the player
    already spent at one, so those tables go round like the turns to sit out.
    """
    index = {name: i for i, name in enumerate(seated)}
    n = len(seated)
    weight = [[0] * n for _ in range(n)]
    elsewhere = [0] * n
    for previous in history:
        for table in previous.tables:
            here = [index[name] for name in table if name in index]
            for a, b in itertools.combinations(here, 2):
                weight[a][b] += 1
                weight[b][a] += 1
            if len(table) != own:
                for p in here:
                    elsewhere[p] += 1
    # extra[p][t]: what seating p at table t adds on its own. Each earlier round at a table of
    # another size outweighs any change a swap makes to who meets whom, so those tables go
    # round in turn first (a 6 with the dealer out plays fewer hands each), then the mixing
    turn = 2 * max(map(sum, weight), default=0) + 1
    extra = [[turn * elsewhere[p] if size != own else 0 for size in plan] for p in range(n)]
    if not any(map(any, weight)) and not any(map(any, extra)):
        order = list(seated)
        rng.shuffle(order)
        return _chunks(order, plan)
    best: tuple[int, list[list[int]]] | None = None
    for _ in range(RESTARTS):
        order = list(range(n))
        rng.shuffle(order)
        tables = _descend(_chunks(order, plan), weight, extra)
        cost = sum(weight[a][b] for table in tables for a, b in itertools.combinations(table, 2)) + sum(
            extra[p][t] for t, table in enumerate(tables) for p in table
        )
        if best is None or cost < best[0]:
            best = (cost, tables)
        if cost == 0:
            break
    return [[seated[i] for i in table] for table in best[1]]


def _descend(tables: list[list[int]], weight: list[list[int]], extra: list[list[int]]) -> list[list[int]]:
    """Swap players between tables while a swap lowers the weight of who sits with whom, and where."""
    n = len(weight)
    where = [0] * n
    for t, table in enumerate(tables):
        for p in table:
            where[p] = t
    # with_[p][t]: the weight between p and everyone at table t (p's own weight is 0), and of p there
    with_ = [[sum(weight[p][q] for q in table) + extra[p][t] for t, table in enumerate(tables)] for p in range(n)]
    improved = True
    while improved:
        improved = False
        for p in range(n):
            for q in range(p + 1, n):
                a, b = where[p], where[q]
                if a == b:
                    continue
                before = with_[p][a] + with_[q][b]
                after = with_[p][b] - weight[p][q] + with_[q][a] - weight[q][p]
                if after >= before:
                    continue
                for x in range(n):
                    with_[x][a] += weight[x][q] - weight[x][p]
                    with_[x][b] += weight[x][p] - weight[x][q]
                tables[a][tables[a].index(p)] = q
                tables[b][tables[b].index(q)] = p
                where[p], where[q] = b, a
                improved = True
    return tables


def _turn_seats(group: list[str], history: Sequence[Round], rng: random.Random) -> tuple[str, ...]:
    """The group's seats clockwise: of a few random orders, the one where fewest players keep an
    earlier seat number or the player on their left (the first order drawn wins a tie)."""
    seat_taken: dict[tuple[str, int], int] = {}
    left_of: dict[tuple[str, str], int] = {}
    for previous in history:
        for table in previous.tables:
            for seat, name in enumerate(table):
                neighbour = table[(seat + 1) % len(table)]
                seat_taken[name, seat] = seat_taken.get((name, seat), 0) + 1
                left_of[name, neighbour] = left_of.get((name, neighbour), 0) + 1

    def cost(order: Sequence[str]) -> int:
        return sum(
            seat_taken.get((name, seat), 0) + left_of.get((name, order[(seat + 1) % len(order)]), 0)
            for seat, name in enumerate(order)
        )

    best: tuple[int, list[str]] | None = None
    for _ in range(SEAT_ORDERS if history else 1):
        order = list(group)
        rng.shuffle(order)
        value = cost(order)
        if best is None or value < best[0]:
            best = (value, order)
    return tuple(best[1])


# --- after the draw ----------------------------------------------------------------


def swap_players(drawn: Round, a: str, b: str) -> Round:
    """The organizer's swap before the round starts: ``a`` takes ``b``'s place and ``b`` takes
    ``a``'s (a seat, or sitting out). ValueError when either is not in the round."""
    missing = [name for name in (a, b) if name not in drawn.players]
    if missing or a == b:
        raise ValueError(f"Swap two different players of round {drawn.number}, not {a!r} and {b!r}.")

    def swapped(name: str) -> str:
        return b if name == a else a if name == b else name

    return Round(
        number=drawn.number,
        seed=drawn.seed,
        tables=tuple(tuple(swapped(name) for name in table) for table in drawn.tables),
        sitting_out=tuple(sorted(swapped(name) for name in drawn.sitting_out)),
    )


def meetings(rounds: Sequence[Round]) -> Meetings:
    """Each pair that shared a table over ``rounds``, with how often."""
    times: dict[tuple[str, str], int] = {}
    for drawn in rounds:
        for table in drawn.tables:
            for pair in itertools.combinations(sorted(table), 2):
                times[pair] = times.get(pair, 0) + 1
    ordered = sorted(times.items(), key=lambda item: (-item[1], item[0]))
    return Meetings(tuple(Pair(first, second, count) for (first, second), count in ordered))


def sit_out_counts(rounds: Sequence[Round]) -> dict[str, int]:
    """How many rounds each player who appears in ``rounds`` sat out, by name."""
    counts = {name: 0 for drawn in rounds for name in drawn.players}
    for drawn in rounds:
        for name in drawn.sitting_out:
            counts[name] += 1
    return dict(sorted(counts.items()))
