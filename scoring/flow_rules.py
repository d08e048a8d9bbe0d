"""The table-flow rule of a system as data: who deals, who bids first, who sits out (RULES.md §10, §8).

``flow_rule(system)`` reads the options ``next_dealer``, ``first_bidder``,
``sit_out``, ``deal_miss.next_dealer`` and the seat counts, and says once, as
plain data, what ``scoring.flow`` does with them. ``scoring.flow`` interprets
this data, and so does the phone (static/js/flow.js) when it steps through
hands queued offline, so the rule has one owner: the lists below.

The shape (``FlowRule.as_json()``, the ``flow`` of ``python -m scoring systems``)::

    {"players": 6,
     "dealer":       {"first_hand": [...], "after_hand": [...], "after_deal_miss": [...], "after_all_pass": [...]},
     "first_bidder": {... the same four moments ...},
     "sitting_out":  null, or {"count": 1, ... the same four moments ...}}

The moment is what came before the coming hand: nothing (``first_hand``), a
hand whose declarer is known (``after_hand``: scored, or void with its
declarer), a deal miss, or a throw-in with no declarer to go by
(``after_all_pass``: everyone passed, or a void hand whose declarer is unknown).

Each moment lists seat names (``SEAT_NAMES``). For the dealer and the first
bidder the first name that names a seat decides; the first bidder then moves
clockwise past anyone sitting out. For sitting out every name counts, in
order, the seats clockwise after the dealer fill in up to ``count``, and the
first ``count`` sit out. ``sitting_out`` is null when nobody is known to sit
out before the deal (everyone plays, or a knockout decided after it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .systems import System

MOMENTS = ("first_hand", "after_hand", "after_deal_miss", "after_all_pass")

# every name a rule may use, and which seat (or seats) it means
SEAT_NAMES = {
    # the first hand
    "first_dealer": "the first dealer, chosen at the table",
    "first_seat": "the first seat listed",
    # the previous hand
    "previous_dealer": "who dealt the previous hand",
    "left_of_previous_dealer": "the seat clockwise after the previous dealer",
    "right_of_previous_dealer": "the seat clockwise before the previous dealer",
    "declarer": "the previous declarer",
    "first_partner": "the previous declarer's partner nearest clockwise (none when alone)",
    "first_partner_if_made": "that partner, only when the previous contract was made",
    "partners": "every partner of the previous declarer, clockwise from the declarer",
    "demander": "who demanded the deal miss",
    "joker_holder": "who held the Joker in the previous hand (none when it lay buried)",
    "previous_first_bidder": "who opened the previous bidding",
    "previous_sitting_out": "who sat the previous hand out, when it names all of them",
    # the coming hand, once its dealer is known
    "dealer": "the coming hand's dealer",
    "left_of_dealer": "the seat clockwise after the coming hand's dealer",
}


@dataclass(frozen=True)
class Moments:
    """The seat names to try at each moment."""

    first_hand: tuple[str, ...]
    after_hand: tuple[str, ...]
    after_deal_miss: tuple[str, ...]
    after_all_pass: tuple[str, ...]

    def at(self, moment: str) -> tuple[str, ...]:
        return getattr(self, moment)

    def as_json(self) -> dict:
        return {moment: list(self.at(moment)) for moment in MOMENTS}

    @classmethod
    def every(cls, *names: str) -> Moments:
        return cls(names, names, names, names)


@dataclass(frozen=True)
class SittingOut:
    count: int
    seats: Moments

    def as_json(self) -> dict:
        return {"count": self.count, **self.seats.as_json()}


@dataclass(frozen=True)
class FlowRule:
    players: int
    dealer: Moments
    first_bidder: Moments
    sitting_out: SittingOut | None

    def as_json(self) -> dict:
        return {
            "players": self.players,
            "dealer": self.dealer.as_json(),
            "first_bidder": self.first_bidder.as_json(),
            "sitting_out": None if self.sitting_out is None else self.sitting_out.as_json(),
        }

    def names(self) -> set[str]:
        """Every seat name the rule uses."""
        groups = [self.dealer, self.first_bidder] + ([self.sitting_out.seats] if self.sitting_out else [])
        return {name for group in groups for moment in MOMENTS for name in group.at(moment)}


# --- from the options ----------------------------------------------------------------

# after a hand whose declarer is known, by the option next_dealer
_DEALER_AFTER_HAND = {
    # pagat, seed 004: the partner deals next, or the declarer who played alone
    "partner": ("first_partner", "declarer"),
    # 003 표준 5마: the dealer is the previous declarer
    "declarer": ("declarer",),
    # 003 변형 6마 local rule: the partner deals (and sits out) only when the declarer's side
    # won; a void hand was won by nobody, so the declarer deals
    "partner_if_made": ("first_partner_if_made", "declarer"),
    "rotation": ("left_of_previous_dealer",),
    "previous_dealer": ("previous_dealer",),
    # pagat 3 players: "The holder of the joker in each hand deals the next." Nobody held it
    # when it lay in the kitty, or it was not entered: the deal rotates
    "joker_holder": ("joker_holder", "left_of_previous_dealer"),
}

# after a deal miss, by the option deal_miss.next_dealer
_DEALER_AFTER_DEAL_MISS = {
    # pagat: "a new deal by the player who asked for the redeal"; 003 3.2.2 likewise
    "demander": ("demander",),
    "next": ("left_of_previous_dealer",),
    "previous": ("right_of_previous_dealer",),
    "same": ("previous_dealer",),
}

# the opening seat after a hand whose declarer is known, by the option first_bidder
_BIDDER_AFTER_HAND = {
    # pagat: "the bidding is begun by whoever was the declarer in the previous hand"
    "declarer": ("declarer",),
    # 001: "the first partner on the previous hand ... starts the bidding"
    "partner": ("first_partner", "declarer"),
    # 003 3.2.1: the auction starts from the dealer
    "dealer": ("dealer",),
}

# a throw-in has no declarer to go by: whoever opened it opens the redeal
_SAME_OPENER = ("previous_first_bidder", "dealer")


def _dealer(system: System) -> Moments:
    after_hand = system.next_dealer
    if system.sit_out == "previous_result":
        # pagat 6 players: "if the declarer's side wins the declarer's partner deals next and
        # sits out: if the declarer's side loses the declarer deals and sits out"
        after_hand = "partner_if_made"
    return Moments(
        # the first dealer is chosen at the table (pagat: at random); without one the first seat deals
        first_hand=("first_dealer", "first_seat"),
        after_hand=_DEALER_AFTER_HAND[after_hand],
        after_deal_miss=_DEALER_AFTER_DEAL_MISS[system.deal_miss.next_dealer],
        # pagat: after all pass "there is a redeal by the same dealer"; a void hand with no
        # declarer is thrown in the same way
        after_all_pass=("previous_dealer",),
    )


def _first_bidder(system: System) -> Moments:
    if system.first_bidder == "left_of_dealer":
        # 003 관악 5마: "the dealer calls last", so the seat after the dealer opens, from the first hand on
        return Moments.every("left_of_dealer")
    if system.deal_miss.next_dealer == "demander":
        # pagat: the player who asked for the redeal "is also the first to bid"
        after_deal_miss = ("demander",)
    elif system.first_bidder == "dealer":
        after_deal_miss = ("dealer",)
    else:
        after_deal_miss = _SAME_OPENER
    return Moments(
        # pagat, 001: "the dealer at the first hand" starts the bidding
        first_hand=("dealer",),
        after_hand=_BIDDER_AFTER_HAND[system.first_bidder],
        after_deal_miss=after_deal_miss,
        after_all_pass=("dealer",) if system.first_bidder == "dealer" else _SAME_OPENER,
    )


def _sitting_out(system: System) -> SittingOut | None:
    count = system.players - system.active_players
    if system.sit_out in ("none", "knockout") or count == 0:
        # knockout: the declarer's call decides after the deal, so nobody is known yet
        return None
    if system.sit_out in ("dealer", "previous_result"):
        # pagat 6 players: "the dealer deals cards to the other five and takes no further
        # part"; under previous_result the previous hand has already decided who deals
        return SittingOut(count, Moments.every("dealer"))
    # declarer_and_partner (003 변형 7마): the previous declarer and partner; a redeal keeps
    # the same players out
    return SittingOut(
        count,
        Moments(
            first_hand=(),
            after_hand=("declarer", "partners"),
            after_deal_miss=("previous_sitting_out",),
            after_all_pass=("previous_sitting_out",),
        ),
    )


@lru_cache(maxsize=256)
def flow_rule(system: System) -> FlowRule:
    """The system's table-flow rule as data (systems are frozen, so each is worked out once)."""
    return FlowRule(
        players=system.players,
        dealer=_dealer(system),
        first_bidder=_first_bidder(system),
        sitting_out=_sitting_out(system),
    )
