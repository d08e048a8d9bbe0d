"""The auction checker (RULES.md §4.2): walk the bids and passes in order and find the first
illegal call, the winner and the winning bid.

Seats are listed clockwise and bidding goes clockwise from the first bidder (the
dealer unless told otherwise). A call is ``Call(seat, bid)`` with ``bid=None`` for
a pass.

One module because an auction is one walk: each call is checked against the
state the calls before it left (the highest bid, who passed, who may still
bid), and that state would otherwise travel between modules. The bid limits
themselves are scoring/limits.py's.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import SUIT_NAMES, parse_trump
from .hand import Contract, trump_problem_words
from .limits import limit_problems
from .numbers import whole
from .presets import resolve_system
from .problems import InvalidInput, Problem
from .seats import read_seat_list, read_seats, seat_problem
from .systems import System, options_of
from .words import N_, Words

AUCTION_CODES = (
    "not_your_turn",
    "already_passed",
    "auction_over",
    "below_minimum",
    "above_maximum",
    "suit_needs_higher_contract",
    "bid_not_higher",
    "dealer_must_bid",
    "must_bid_minimum",
)


@dataclass(frozen=True)
class Call:
    seat: str
    bid: Contract | None = None

    @property
    def passed(self) -> bool:
        return self.bid is None


@dataclass(frozen=True)
class AuctionResult:
    legal: bool
    problems: tuple[Problem, ...]
    # index of the first illegal call; the walk stops there
    first_illegal: int | None
    # the winner and the winning bid, once the auction has finished with a bid
    declarer: str | None
    bid: Contract | None
    finished: bool
    thrown_in: bool
    # the standing bid so far, and whose turn it is (None once finished)
    high_bidder: str | None = None
    high_bid: Contract | None = None
    next_seat: str | None = None
    round: int = 1

    def as_json(self) -> dict:
        def plain(bid: Contract | None):
            return None if bid is None else {"points": bid.points, "trump": bid.trump}

        return {
            "legal": self.legal,
            "errors": [problem.as_json() for problem in self.problems],
            "first_illegal": self.first_illegal,
            "declarer": self.declarer,
            "bid": plain(self.bid),
            "finished": self.finished,
            "thrown_in": self.thrown_in,
            "high_bidder": self.high_bidder,
            "high_bid": plain(self.high_bid),
            "next_seat": self.next_seat,
            "round": self.round,
        }


def bid_words(bid: Contract) -> Words:
    return Words(N_("{points} {trump}"), points=bid.points, trump=SUIT_NAMES[bid.trump])


def bid_rank(bid: Contract, system: System) -> tuple[int, int]:
    """Bids compare by this key. pagat: more points, or the same points in NT over a suit;
    suits have no order. With nt_discount (seed 003 footnote 4, 신촌, 광주) an NT bid ranks
    as one point more than its number, so NT 14 beats 15 in a suit but not 16."""
    nt = 1 if bid.no_trump else 0
    return (bid.points + (nt if system.auction.nt_discount else 0), nt)


def outbids(new: Contract, standing: Contract, system: System) -> bool:
    return bid_rank(new, system) > bid_rank(standing, system)


def _bid_limits(bid: Contract, system: System, field: str) -> Problem | None:
    """The first limit of RULES.md §4.1 a bid breaks, in the words legality uses for a contract."""
    problems = limit_problems(bid, system, what=Words(N_("A bid")), points_field=field, trump_field=field)
    return problems[0] if problems else None


def _first_bidder(seats: tuple[str, ...], dealer: str, system: System) -> str:
    if system.first_bidder == "left_of_dealer":
        # 관악 5마: the dealer bids last, so the player after the dealer opens
        return seats[(seats.index(dealer) + 1) % len(seats)]
    return dealer


class _Walk:
    """The state of an auction while its calls are read one by one."""

    def __init__(self, system: System, bidders: tuple[str, ...], dealer: str, start: str):
        self.system = system
        self.bidders = bidders
        self.dealer = dealer
        self.start = start
        self.turn = bidders.index(start)
        self.passed: set[str] = set()
        self.had_turn: set[str] = set()
        self.passes_in_a_row = 0
        self.high_bidder: str | None = None
        self.high_bid: Contract | None = None
        self.finished = False
        self.thrown_in = False
        self.round = 1

    @property
    def reenter(self) -> bool:
        # seed 001: a player who passed "can reenter the bidding later"
        return self.system.auction.reenter_after_pass

    @property
    def expected(self) -> str:
        return self.bidders[self.turn]

    def problem(self, index: int, call: Call) -> Problem | None:
        field = f"auction[{index}]"
        if self.finished:
            return Problem(
                field, "auction_over", Words(N_("The auction is over: no more calls can be made."))
            )
        if call.seat != self.expected:
            if call.seat in self.passed and not self.reenter:
                # pagat, 002, 004: a player who has passed cannot bid again
                return Problem(
                    field,
                    "already_passed",
                    Words(
                        N_("{seat} has passed and may not bid again: it is {expected}'s turn."),
                        seat=call.seat,
                        expected=self.expected,
                    ),
                )
            if call.seat not in self.bidders:
                return Problem(
                    field,
                    "not_your_turn",
                    Words(
                        N_("{seat} does not play this hand: it is {expected}'s turn."),
                        seat=call.seat,
                        expected=self.expected,
                    ),
                )
            return Problem(
                field,
                "not_your_turn",
                Words(N_("It is {expected}'s turn, not {seat}'s."), expected=self.expected, seat=call.seat),
            )
        if call.passed:
            return self._pass_problem(field, call)
        return self._bid_problem(field, call.bid)

    def _pass_problem(self, field: str, call: Call) -> Problem | None:
        rules = self.system.auction
        if (
            not rules.dealer_may_pass
            and call.seat == self.dealer
            and call.seat not in self.had_turn
        ):
            # 신촌, 대구 (seed 003): the dealer may not pass at their first turn
            return Problem(
                field,
                "dealer_must_bid",
                Words(
                    N_("{seat} is the dealer, who may not pass at their first turn in this system: "
                       "bid at least {minimum}."),
                    seat=call.seat,
                    minimum=self.system.min_bid,
                ),
            )
        others = len(self.bidders) - 1
        if (
            rules.forced_minimum
            and self.round == 1
            and self.high_bid is None
            and self.passes_in_a_row == others
        ):
            # pagat variant: if everyone else passes in the first round, the last must bid
            return Problem(
                field,
                "must_bid_minimum",
                Words(
                    N_("Everyone else has passed, so {seat} must bid at least {minimum}."),
                    seat=call.seat,
                    minimum=self.system.min_bid,
                ),
            )
        return None

    def _bid_problem(self, field: str, bid: Contract) -> Problem | None:
        limit = _bid_limits(bid, self.system, field)
        if limit is not None:
            return limit
        if self.high_bid is not None and not outbids(bid, self.high_bid, self.system):
            return Problem(
                field,
                "bid_not_higher",
                Words(
                    N_("{bid} does not beat the standing bid of {standing} by {bidder}."),
                    bid=bid_words(bid),
                    standing=bid_words(self.high_bid),
                    bidder=self.high_bidder,
                ),
            )
        return None

    def apply(self, call: Call) -> None:
        self.had_turn.add(call.seat)
        if call.passed:
            self.passed.add(call.seat)
            self.passes_in_a_row += 1
        else:
            self.high_bidder, self.high_bid = call.seat, call.bid
            self.passes_in_a_row = 0
            self.passed.discard(call.seat)
        if self._settle():
            return
        self._advance()

    def _settle(self) -> bool:
        """Finish the auction, or start the second round; True when the turn is already set."""
        everyone = len(self.bidders)
        if self.high_bid is None:
            if self.passes_in_a_row < everyone:
                return False
            if self.system.auction.all_pass == "second_round" and self.round == 1:
                # pagat variant: after five passes there is a second round of bidding
                self.round = 2
                self.passed.clear()
                self.passes_in_a_row = 0
                self.turn = self.bidders.index(self.start)
                return True
            # pagat: "the cards are thrown in and there is a redeal by the same dealer"
            self.finished = self.thrown_in = True
            return True
        if self.reenter:
            # seed 001: "The bidding continues until all players have passed a preceding bid"
            done = self.passes_in_a_row >= everyone - 1
        else:
            done = all(seat in self.passed for seat in self.bidders if seat != self.high_bidder)
        self.finished = done
        return done

    def _advance(self) -> None:
        count = len(self.bidders)
        for step in range(1, count + 1):
            candidate = (self.turn + step) % count
            if self.reenter or self.bidders[candidate] not in self.passed:
                self.turn = candidate
                return

    def result(self, problems: list[Problem], first_illegal: int | None) -> AuctionResult:
        won = self.finished and not self.thrown_in
        return AuctionResult(
            legal=not problems,
            problems=tuple(problems),
            first_illegal=first_illegal,
            declarer=self.high_bidder if won else None,
            bid=self.high_bid if won else None,
            finished=self.finished,
            thrown_in=self.thrown_in,
            high_bidder=self.high_bidder,
            high_bid=self.high_bid,
            next_seat=None if self.finished else self.expected,
            round=self.round,
        )


def check_auction(
    system: System,
    seats: tuple[str, ...],
    dealer: str,
    calls: list[Call | None],
    *,
    first_bidder: str | None = None,
    sitting_out: tuple[str, ...] = (),
    call_problems: dict[int, list[Problem]] | None = None,
) -> AuctionResult:
    """Walk ``calls`` in order and stop at the first illegal one.

    ``None`` in ``calls`` stands for a call that could not be read; its problems are in
    ``call_problems`` under its index, and the walk stops there as at an illegal call.
    """
    bidders = tuple(seat for seat in seats if seat not in sitting_out)
    start = first_bidder or _first_bidder(tuple(seats), dealer, system)
    if start not in bidders:
        # pagat 6 players: the dealer who sits out does not bid; the next player opens
        position = seats.index(start)
        start = next(
            seats[(position + step) % len(seats)]
            for step in range(1, len(seats) + 1)
            if seats[(position + step) % len(seats)] in bidders
        )
    walk = _Walk(system, bidders, dealer, start)
    for index, call in enumerate(calls):
        if call is None:
            return walk.result(list((call_problems or {}).get(index, [])), index)
        problem = walk.problem(index, call)
        if problem is not None:
            return walk.result([problem], index)
        walk.apply(call)
    return walk.result([], None)


# --- the JSON boundary -----------------------------------------------------------------


def _read_bid(value: object, field: str) -> tuple[Contract | None, list[Problem]]:
    if not isinstance(value, dict):
        return None, [
            Problem(
                field,
                "bad_call",
                Words(N_('A bid must be an object such as {{"points": 13, "trump": "S"}}.')),
            )
        ]
    points, trump = whole(value.get("points")), value.get("trump")
    problems = []
    if isinstance(points, bool) or not isinstance(points, int):
        problems.append(
            Problem(
                field,
                "bad_type",
                Words(N_("A bid's points must be a whole number, not {points}."), points=repr(points)),
            )
        )
    if parse_trump(trump) is None:
        problems.append(Problem(field, "bad_trump", trump_problem_words(trump)))
    if problems:
        return None, problems
    trump = parse_trump(trump)
    return Contract(points, trump), []


def read_call(
    value: object, index: int, seats: tuple[str, ...]
) -> tuple[Call | None, list[Problem]]:
    """One call of the request's ``auction`` list: ``{"seat", "bid"}`` or
    ``{"seat", "pass": true}``."""
    field = f"auction[{index}]"
    if not isinstance(value, dict):
        return None, [
            Problem(
                field,
                "bad_call",
                Words(N_('Each call must be an object such as {{"seat": "Ann", "pass": true}}.')),
            )
        ]
    seat = value.get("seat")
    problem = seat_problem(seat, field, seats)
    if problem is not None:
        return None, [problem]
    passed = value.get("pass") is True
    if passed == ("bid" in value and value["bid"] is not None):
        return None, [
            Problem(
                field,
                "bad_call",
                Words(N_("Each call is either a bid or a pass, not both or neither.")),
            )
        ]
    if passed:
        return Call(seat), []
    bid, problems = _read_bid(value["bid"], field)
    return (Call(seat, bid) if bid else None), problems


def auction_from_request(data: dict, system: System) -> tuple[AuctionResult | None, list[Problem]]:
    """Read seats, dealer, first_bidder, sitting_out and auction from a request and walk it.
    Problems that stop the walk altogether (no seats, no dealer) come back as the list."""
    seats, problems = read_seats(data.get("seats"))
    if problems:
        return None, problems
    dealer = data.get("dealer")
    first = data.get("first_bidder")
    named = (seat_problem(dealer, "dealer", seats), seat_problem(first, "first_bidder", seats, required=False))
    problems += [problem for problem in named if problem is not None]
    sitting_out, out_problems = read_seat_list(data.get("sitting_out"), "sitting_out", seats)
    problems += out_problems
    if len(sitting_out) >= len(seats):
        problems.append(Problem("sitting_out", "bad_seats", Words(N_("Someone must be left to bid."))))
    raw_calls = data.get("auction")
    if not isinstance(raw_calls, list):
        problems.append(
            Problem("auction", "bad_type", Words(N_("'auction' must be a list of bids and passes.")))
        )
    if problems:
        return None, problems
    if system.sit_out == "knockout":
        # pagat 6 and 7 players, 003 §3.3 6마 and §3.4 7마: everyone bids, and the declarer's call
        # knocks players out only after the auction, so a hand's knocked-out seats bid in it
        sitting_out = ()
    calls, call_problems = [], {}
    for index, raw in enumerate(raw_calls):
        call, trouble = read_call(raw, index, seats)
        calls.append(call)
        if trouble:
            call_problems[index] = trouble
    result = check_auction(
        system,
        seats,
        dealer,
        calls,
        first_bidder=first,
        sitting_out=sitting_out,
        call_problems=call_problems,
    )
    return result, []


_EMPTY = {
    "first_illegal": None,
    "declarer": None,
    "bid": None,
    "finished": False,
    "thrown_in": False,
}


def auction_request(data: object) -> dict:
    """``{"system", "options", "seats", "dealer", "first_bidder"?, "sitting_out"?, "auction"}`` →
    ``{"legal", "errors", "first_illegal", "declarer", "bid", "finished", "thrown_in", …}``."""
    if not isinstance(data, dict):
        problem = Problem("", "bad_type", Words(N_("An auction request must be a JSON object.")))
        return {"legal": False, "errors": [problem.as_json()], **_EMPTY}
    options = options_of(data)
    if not isinstance(options, dict):
        problem = Problem("options", "bad_type", Words(N_("'options' must be a JSON object.")))
        return {"legal": False, "errors": [problem.as_json()], **_EMPTY}
    try:
        system = resolve_system(data.get("system", "pagat-standard"), options)
    except InvalidInput as error:
        return {"legal": False, "errors": [p.as_json() for p in error.problems], **_EMPTY}
    result, problems = auction_from_request(data, system)
    if result is None:
        return {"legal": False, "errors": [p.as_json() for p in problems], **_EMPTY}
    return result.as_json()
