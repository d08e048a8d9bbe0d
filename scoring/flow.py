"""Table flow: who deals the next hand, who bids first, and who sits it out (RULES.md §10, §8).

Seats are listed clockwise, so the next seat clockwise is the one after it in
the list, wrapping round. Everything here is a pure function of the system, the
seats and what happened on the previous hand. Which seat each rule names is data
(scoring.flow_rules), the same data the phone steps through offline; this module
says what those names mean and applies them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .flow_rules import Moments, flow_rule
from .systems import System

HandKind = Literal["scored", "void", "deal_miss", "all_pass"]
HAND_KINDS = ("scored", "void", "deal_miss", "all_pass")


@dataclass(frozen=True)
class PreviousHand:
    """What the next hand needs to know about the one before it.

    ``scored``: played (or conceded) and scored; ``declarer`` and ``made`` are known.
    ``void``: played but not scored (a renege or misburial before the partnership was
    known); the declarer is usually known, the partners perhaps not.
    ``deal_miss``: thrown in because ``demander`` showed a hand too weak to play.
    ``all_pass``: everyone passed and the cards were thrown in.
    ``first_bidder`` is who opened that hand's bidding; a redeal that has no
    declarer to go by starts with the same player again.
    """

    kind: HandKind
    dealer: str
    declarer: str | None = None
    partners: tuple[str, ...] = ()
    made: bool | None = None
    demander: str | None = None
    sitting_out: tuple[str, ...] = ()
    first_bidder: str | None = None
    # who held the Joker in that hand (pagat 3 players: its holder deals the next)
    joker_holder: str | None = None

    def __post_init__(self) -> None:
        # these are programming errors in the caller, not something a player typed
        if self.kind not in HAND_KINDS:
            raise ValueError(f"A previous hand is one of {HAND_KINDS}, not {self.kind!r}.")
        if self.kind == "scored" and (self.declarer is None or self.made is None):
            raise ValueError("A scored hand needs its declarer and whether it was made.")
        if self.kind == "deal_miss" and self.demander is None:
            raise ValueError("A deal miss needs the player who demanded it.")
        if self.declarer is not None and self.declarer in self.partners:
            raise ValueError("The declarer cannot be their own partner.")

    @property
    def has_declarer(self) -> bool:
        """A scored hand, or a void one whose declarer is known."""
        return self.kind in ("scored", "void") and self.declarer is not None


@dataclass(frozen=True)
class TableState:
    """Who deals, who bids first and who sits out on the coming hand."""

    dealer: str
    first_bidder: str
    sitting_out: tuple[str, ...] = ()
    # the seats dealt in: everyone but those sitting out (knocked-out seats are dealt in)
    active: tuple[str, ...] = ()


# --- seats -------------------------------------------------------------------


def _check_seats(system: System, seats: Sequence[str], *named: str | None) -> None:
    if len(set(seats)) != len(seats):
        raise ValueError(f"Each seat must be listed once: {list(seats)}.")
    if len(seats) != system.players:
        raise ValueError(f"This system seats {system.players} players, not {len(seats)}.")
    for seat in named:
        if seat is not None and seat not in seats:
            raise ValueError(f"{seat!r} is not one of the seats {list(seats)}.")


def _clockwise_from(seats: Sequence[str], seat: str, steps: int = 1) -> str:
    return seats[(seats.index(seat) + steps) % len(seats)]


def _clockwise_after(seats: Sequence[str], seat: str) -> list[str]:
    """Every other seat, clockwise from the one after ``seat``, then ``seat`` itself."""
    start = seats.index(seat) + 1
    return [seats[(start + i) % len(seats)] for i in range(len(seats))]


def _partners_clockwise(seats: Sequence[str], previous: PreviousHand) -> list[str]:
    """The declarer's partners, the one clockwise nearest the declarer first."""
    return [seat for seat in _clockwise_after(seats, previous.declarer) if seat in previous.partners]


# --- the rule's seat names (scoring.flow_rules.SEAT_NAMES) ---------------------------


def _moment(previous: PreviousHand | None) -> str:
    if previous is None:
        return "first_hand"
    if previous.kind == "deal_miss":
        return "after_deal_miss"
    return "after_hand" if previous.has_declarer else "after_all_pass"


@dataclass(frozen=True)
class _Table:
    """What a seat name can refer to: the seats, the previous hand, the coming hand's dealer."""

    seats: Sequence[str]
    previous: PreviousHand | None
    first_dealer: str | None = None
    dealer: str | None = None
    sitting_out_count: int = 0

    def seats_named(self, name: str) -> list[str]:
        """The seats ``name`` means here; [] when it means nobody at this moment."""
        seats, previous = self.seats, self.previous
        if name == "first_dealer":
            return [self.first_dealer] if self.first_dealer is not None else []
        if name == "first_seat":
            return [seats[0]]
        if name in ("dealer", "left_of_dealer"):
            return [self.dealer if name == "dealer" else _clockwise_from(seats, self.dealer)]
        if previous is None:
            return []
        if name == "previous_dealer":
            return [previous.dealer]
        if name == "left_of_previous_dealer":
            return [_clockwise_from(seats, previous.dealer)]
        if name == "right_of_previous_dealer":
            return [_clockwise_from(seats, previous.dealer, -1)]
        if name == "demander":
            return [previous.demander] if previous.kind == "deal_miss" else []
        if name == "joker_holder":
            return [previous.joker_holder] if previous.joker_holder is not None else []
        if name == "previous_first_bidder":
            return [previous.first_bidder] if previous.first_bidder in seats else []
        if name == "previous_sitting_out":
            return list(previous.sitting_out) if len(previous.sitting_out) == self.sitting_out_count else []
        if not previous.has_declarer:
            return []
        if name == "declarer":
            return [previous.declarer]
        if name == "partners":
            return _partners_clockwise(seats, previous)
        if name == "first_partner":
            return _partners_clockwise(seats, previous)[:1]
        if name == "first_partner_if_made":
            return _partners_clockwise(seats, previous)[:1] if previous.made else []
        raise ValueError(f"A flow rule names no seat {name!r}.")  # a bug in flow_rules

    def first_named(self, names: Sequence[str]) -> str:
        for name in names:
            found = self.seats_named(name)
            if found:
                return found[0]
        raise ValueError(f"None of {list(names)} names a seat here.")  # a bug in flow_rules


# --- dealer ------------------------------------------------------------------


def next_dealer(
    system: System,
    seats: Sequence[str],
    previous: PreviousHand | None,
    first_dealer: str | None = None,
) -> str:
    """Who deals the coming hand: the first seat the rule names (scoring.flow_rules).

    The first dealer is chosen at the table (pagat: at random); without one the
    first seat deals.
    """
    if previous is None:
        _check_seats(system, seats, first_dealer)
    else:
        _check_seats(system, seats, previous.dealer, previous.declarer, previous.demander, previous.joker_holder)
    table = _Table(seats, previous, first_dealer=first_dealer)
    return table.first_named(flow_rule(system).dealer.at(_moment(previous)))


# --- sitting out ---------------------------------------------------------------


def dealer_sits_out(system: System) -> bool:
    """The seat that deals sits the hand out: pagat 6 players ("the dealer deals cards to the
    other five and takes no further part in the hand", and under the other method the one
    who deals is the one who sits out) and 003 §3.3.1 ("이전 판에 프렌드가 된 사람이 딜러가
    되어 카드를 분배한 다음 그 판을 쉰다")."""
    out = flow_rule(system).sitting_out
    return out is not None and out.count == 1 and out.seats == Moments.every("dealer")


def sitting_out_next(
    system: System, seats: Sequence[str], dealer: str, previous: PreviousHand | None
) -> tuple[str, ...]:
    """Who sits the coming hand out, in seat order; () when everyone is dealt in.

    The seats the rule names at this moment (scoring.flow_rules), then the seats
    clockwise after the dealer, up to the number who must sit out.
    """
    _check_seats(system, seats, dealer)
    rule = flow_rule(system).sitting_out
    if rule is None:
        return ()
    table = _Table(seats, previous, dealer=dealer, sitting_out_count=rule.count)
    chosen = [seat for name in rule.seats.at(_moment(previous)) for seat in table.seats_named(name)]
    for seat in _clockwise_after(seats, dealer):
        if len(chosen) >= rule.count:
            break
        if seat not in chosen:
            chosen.append(seat)
    out = set(chosen[: rule.count])
    return tuple(seat for seat in seats if seat in out)


# --- first bidder ----------------------------------------------------------------


def first_bidder(
    system: System,
    seats: Sequence[str],
    dealer: str,
    previous: PreviousHand | None,
    *,
    sitting_out: Sequence[str] | None = None,
) -> str:
    """Who opens the bidding: the rule's seat, or the next seat clockwise that is playing.

    ``sitting_out`` defaults to ``sitting_out_next`` for the same hand.
    """
    if sitting_out is None:
        sitting_out = sitting_out_next(system, seats, dealer, previous)
    else:
        _check_seats(system, seats, dealer, *sitting_out)
    table = _Table(seats, previous, dealer=dealer)
    seat = table.first_named(flow_rule(system).first_bidder.at(_moment(previous)))
    return next(s for s in [seat, *_clockwise_after(seats, seat)] if s not in sitting_out)


# --- what a throw-in passes on ------------------------------------------------------

# the names that mean what the previous hand itself was dealt with, not what happened in it
_CARRIED = frozenset({"previous_first_bidder", "previous_sitting_out"})


def needs_the_hand_before(system: System, previous: PreviousHand) -> bool:
    """Whether the coming hand depends on who opened, or who sat out, ``previous``.

    A throw-in has no declarer to go by: whoever opened it opens the redeal, with the same
    players out (scoring.flow_rules). Who those were is what the hand before it decided, so
    the caller then gives ``previous`` its ``first_bidder`` and ``sitting_out`` from
    ``next_hand`` after that hand; the phone steps queued throw-ins the same way.
    """
    rule = flow_rule(system)
    when = _moment(previous)
    names = set(rule.first_bidder.at(when))
    if rule.sitting_out is not None:
        names |= set(rule.sitting_out.seats.at(when))
    return bool(names & _CARRIED)


# --- together --------------------------------------------------------------------


def next_hand(
    system: System,
    seats: Sequence[str],
    previous: PreviousHand | None,
    *,
    first_dealer: str | None = None,
) -> TableState:
    """Dealer, first bidder and who sits out for the coming hand."""
    dealer = next_dealer(system, seats, previous, first_dealer)
    out = sitting_out_next(system, seats, dealer, previous)
    return TableState(
        dealer=dealer,
        first_bidder=first_bidder(system, seats, dealer, previous, sitting_out=out),
        sitting_out=out,
        active=tuple(seat for seat in seats if seat not in out),
    )
