"""Table flow: who deals the next hand, who bids first, and who sits it out (RULES.md §10, §8).

Seats are listed clockwise, so the next seat clockwise is the one after it in
the list, wrapping round. Everything here is a pure function of the system, the
seats and what happened on the previous hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

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


def _first_partner(seats: Sequence[str], previous: PreviousHand) -> str:
    """The partner clockwise nearest the declarer, or the declarer when alone."""
    partners = [
        seat for seat in _clockwise_after(seats, previous.declarer) if seat in previous.partners
    ]
    return partners[0] if partners else previous.declarer


# --- dealer ------------------------------------------------------------------


def next_dealer(
    system: System,
    seats: Sequence[str],
    previous: PreviousHand | None,
    first_dealer: str | None = None,
) -> str:
    """Who deals the coming hand.

    The first dealer is chosen at the table (pagat: at random); without one the
    first seat deals.
    """
    if previous is None:
        _check_seats(system, seats, first_dealer)
        return first_dealer if first_dealer is not None else seats[0]
    _check_seats(system, seats, previous.dealer, previous.declarer, previous.demander, previous.joker_holder)
    if previous.kind == "deal_miss":
        return _deal_miss_dealer(system, seats, previous)
    if not previous.has_declarer:
        # pagat: after all pass "there is a redeal by the same dealer"; a void hand with
        # no declarer is thrown in the same way
        return previous.dealer
    rule = system.next_dealer
    if system.sit_out == "previous_result":
        # pagat 6 players: "if the declarer's side wins the declarer's partner deals next
        # and sits out: if the declarer's side loses the declarer deals and sits out"
        rule = "partner_if_made"
    if rule == "partner":
        # pagat, seed 004: the partner deals next, or the declarer who played alone
        return _first_partner(seats, previous)
    if rule == "declarer":
        # 003 표준 5마: the dealer is the previous declarer
        return previous.declarer
    if rule == "partner_if_made":
        # 003 변형 6마 local rule: the partner deals (and sits out) only when the
        # declarer's side won; a void hand was won by nobody, so the declarer deals
        return _first_partner(seats, previous) if previous.made else previous.declarer
    if rule == "joker_holder":
        # pagat 3 players: "The holder of the joker in each hand deals the next." Nobody
        # held it when it lay in the kitty, or it was not entered: the deal rotates.
        if previous.joker_holder is not None:
            return previous.joker_holder
        return _clockwise_from(seats, previous.dealer)
    if rule == "rotation":
        return _clockwise_from(seats, previous.dealer)
    return previous.dealer  # previous_dealer


def _deal_miss_dealer(system: System, seats: Sequence[str], previous: PreviousHand) -> str:
    rule = system.deal_miss.next_dealer
    if rule == "demander":
        # pagat: "a new deal by the player who asked for the redeal"; 003 3.2.2 likewise
        return previous.demander
    if rule == "next":
        return _clockwise_from(seats, previous.dealer)
    if rule == "previous":
        return _clockwise_from(seats, previous.dealer, -1)
    return previous.dealer  # same


# --- sitting out ---------------------------------------------------------------


def dealer_sits_out(system: System) -> bool:
    """The seat that deals sits the hand out: pagat 6 players ("the dealer deals cards to the
    other five and takes no further part in the hand", and under the other method the one
    who deals is the one who sits out) and 003 §3.3.1 ("이전 판에 프렌드가 된 사람이 딜러가
    되어 카드를 분배한 다음 그 판을 쉰다")."""
    return system.sit_out in ("dealer", "previous_result") and system.players - system.active_players == 1


def sitting_out_next(
    system: System, seats: Sequence[str], dealer: str, previous: PreviousHand | None
) -> tuple[str, ...]:
    """Who sits the coming hand out, in seat order; () when everyone is dealt in.

    ``dealer`` and ``previous_result``: the dealer (pagat 6 players: "the dealer deals
    cards to the other five and takes no further part"; under previous_result the
    previous hand has already decided who deals). ``declarer_and_partner`` (003 변형
    7마): the previous declarer and partner. Short of the number who must sit out,
    the seats clockwise after the dealer fill in. ``knockout``: the declarer's call
    decides after the deal, so nobody is known yet.
    """
    _check_seats(system, seats, dealer)
    count = system.players - system.active_players
    if system.sit_out in ("none", "knockout") or count == 0:
        return ()
    if system.sit_out in ("dealer", "previous_result"):
        chosen = [dealer]
    elif previous is not None and previous.has_declarer:
        chosen = [
            previous.declarer,
            *(s for s in _clockwise_after(seats, previous.declarer) if s in previous.partners),
        ]
    elif previous is not None and len(previous.sitting_out) == count:
        # a redeal: the same players sit out again
        chosen = list(previous.sitting_out)
    else:
        chosen = []
    for seat in _clockwise_after(seats, dealer):
        if len(chosen) >= count:
            break
        if seat not in chosen:
            chosen.append(seat)
    out = set(chosen[:count])
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
    seat = _opening_seat(system, seats, dealer, previous)
    return next(s for s in [seat, *_clockwise_after(seats, seat)] if s not in sitting_out)


def _opening_seat(
    system: System, seats: Sequence[str], dealer: str, previous: PreviousHand | None
) -> str:
    rule = system.first_bidder
    if rule == "left_of_dealer":
        # 003 관악 5마: "the dealer calls last", so the seat after the dealer opens, from
        # the first hand on
        return _clockwise_from(seats, dealer)
    if previous is None:
        # pagat, 001: "the dealer at the first hand" starts the bidding
        return dealer
    if previous.kind == "deal_miss" and system.deal_miss.next_dealer == "demander":
        # pagat: the player who asked for the redeal "is also the first to bid"
        return previous.demander
    if rule == "dealer":
        # 003 3.2.1: the auction starts from the dealer
        return dealer
    if previous.has_declarer:
        if rule == "declarer":
            # pagat: "the bidding is begun by whoever was the declarer in the previous hand"
            return previous.declarer
        # 001: "the first partner on the previous hand ... starts the bidding"
        return _first_partner(seats, previous)
    # a throw-in has no declarer to go by: whoever opened it opens the redeal
    return previous.first_bidder if previous.first_bidder in seats else dealer


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
