"""The limits of a bid or contract (RULES.md §4.1): the one owner for the auction and for legality.

A bid in the auction and a contract entered after the hand obey the same
floor, ceiling and 관악 5마 suit floor, and break them with the same words.
"""

from __future__ import annotations

from .cards import SUIT_NAMES
from .hand import Contract
from .problems import Problem
from .systems import System
from .words import N_, Words


def lowest_bid(system: System, trump: str) -> int:
    # seed 003 footnote 4, 신촌, 광주: a no-trump bid may be one under the minimum
    if trump == "NT" and system.auction.nt_discount:
        return system.min_bid - 1
    return system.min_bid


def highest_bid(system: System) -> int:
    """The highest bid the system takes: its maximum, or every point card when bids may go above it
    (신촌, 대구, 경기북)."""
    return system.total_points if system.bids_above_max else system.max_bid


def range_problem(contract: Contract, system: System, field: str, what: Words) -> Problem | None:
    """Below the minimum (or the no-trump minimum) or above the maximum."""
    low = lowest_bid(system, contract.trump)
    if contract.points < low:
        if low < system.min_bid:
            rule = Words(N_("this system's minimum of {minimum} ({low} in no trump)"), minimum=system.min_bid, low=low)
        else:
            rule = Words(N_("this system's minimum of {minimum}"), minimum=system.min_bid)
        return Problem(
            field,
            "below_minimum",
            Words(N_("{what} of {points} is below {rule}."), what=what, points=contract.points, rule=rule),
        )
    if contract.points > system.max_bid and not system.bids_above_max:
        return Problem(
            field,
            "above_maximum",
            Words(
                N_("{what} of {points} is above this system's maximum of {maximum}."),
                what=what,
                points=contract.points,
                maximum=system.max_bid,
            ),
        )
    return None


def suit_floor_problem(contract: Contract, system: System, field: str, what: Words) -> Problem | None:
    """관악 5마 (seed 003 §6.6): a trump suit needs a bid of 3 or more on its scale."""
    if contract.no_trump or contract.points >= system.min_suit_contract:
        return None
    return Problem(
        field,
        "suit_needs_higher_contract",
        Words(
            N_("{what} in {suit} needs {floor} or more in this system: {points} may only be played in no trump."),
            what=what,
            suit=SUIT_NAMES[contract.trump],
            floor=system.min_suit_contract,
            points=contract.points,
        ),
    )


def limit_problems(
    contract: Contract, system: System, *, what: Words, points_field: str, trump_field: str
) -> list[Problem]:
    """Every limit ``contract`` breaks: its range first, then the suit floor."""
    found = (
        range_problem(contract, system, points_field, what),
        suit_floor_problem(contract, system, trump_field, what),
    )
    return [problem for problem in found if problem is not None]
