"""A hand as entered at the table, parsed from the HAND_JSON request shape.

Parsing only checks shape (types, known seats, card codes); whether the hand
is legal under a system is legality.py's job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .cards import CardCodeError, parse_card, parse_suit, parse_trump
from .numbers import whole
from .problems import Problem
from .seats import read_seat_list, read_seats, seat_problem
from .systems import options_of
from .words import N_, Words

# a hand's two halves at the table: what is known when the auction ends (the contract, a hand in
# progress) and what only the last trick tells (the result, which completes it)
CONTRACT_FIELDS = ("dealer", "sitting_out", "declarer", "bid", "contract", "partner_call")
RESULT_FIELDS = ("partners", "discards", "points", "defender_points", "outcome", "conceded_by", "joker_holder")

CALL_TYPES = ("card", "first_trick", "none", "player")
OUTCOMES = ("played", "conceded", "void")
SIDES = ("declarer_team", "defenders")


@dataclass(frozen=True)
class Contract:
    points: int
    trump: str

    @property
    def no_trump(self) -> bool:
        return self.trump == "NT"

    def __str__(self) -> str:
        return f"{self.points} {self.trump}"


@dataclass(frozen=True)
class PartnerCall:
    type: str
    cards: tuple[str, ...] = ()
    seat: str | None = None


@dataclass(frozen=True)
class Hand:
    seats: tuple[str, ...]
    declarer: str
    contract: Contract
    partner_call: PartnerCall
    system: str = "pagat-standard"
    options: dict = field(default_factory=dict, hash=False, compare=False)
    sitting_out: tuple[str, ...] = ()
    dealer: str | None = None
    bid: Contract | None = None
    partners: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()
    points: int | None = None
    defender_points: int | None = None
    outcome: str = "played"
    conceded_by: str | None = None
    # "partner, take this trick" instructions the declarer gave (pagat / seed 001 option)
    instructions: int = 0
    # the trump change was announced before the kitty was taken (pagat variant)
    changed_before_kitty: bool = False
    # 20 NT: the suit the declarer asked the partner to lead (informational)
    lead_suit: str | None = None
    # who held the Joker (informational; pagat 3 players: that seat deals the next hand)
    joker_holder: str | None = None

    @property
    def auction_bid(self) -> Contract:
        return self.bid or self.contract

    @cached_property
    def active(self) -> tuple[str, ...]:
        return tuple(seat for seat in self.seats if seat not in self.sitting_out)

    @cached_property
    def defenders(self) -> tuple[str, ...]:
        team = {self.declarer, *self.partners}
        return tuple(seat for seat in self.active if seat not in team)

    @property
    def alone(self) -> bool:
        return not self.partners

    @property
    def announced_no_friend(self) -> bool:
        return self.partner_call.type == "none"


def trump_problem_words(value: object) -> Words:
    """Why ``value`` is not a trump: the one sentence for every reader of bids and contracts."""
    return Words(N_("Trump must be one of S, H, D, C or NT, not {trump}."), trump=repr(value))


class _Reader:
    """Collects problems while reading a JSON object, so every mistake is reported at once."""

    def __init__(self, data: dict):
        self.data = data
        self.problems: list[Problem] = []

    def bad(self, field_name: str, code: str, message: Words) -> None:
        self.problems.append(Problem(field_name, code, message))

    def integer(self, value, field_name: str, *, required: bool = False) -> int | None:
        if value is None:
            if required:
                self.bad(field_name, "missing", Words(N_("'{field}' is required."), field=field_name))
            return None
        value = whole(value)  # 16.0 is 16; 15.5 is no number of point cards
        if isinstance(value, bool) or not isinstance(value, int):
            self.bad(
                field_name,
                "bad_type",
                Words(N_("'{field}' must be a whole number, not {value}."), field=field_name, value=repr(value)),
            )
            return None
        return value

    def seat(self, value, field_name: str, seats: tuple[str, ...], *, required: bool = False) -> str | None:
        problem = seat_problem(value, field_name, seats, required=required)
        if problem is not None:
            self.problems.append(problem)
            return None
        return value

    def seat_list(self, value, field_name: str, seats: tuple[str, ...]) -> tuple[str, ...]:
        found, problems = read_seat_list(value, field_name, seats)
        self.problems += problems
        return found

    def cards(self, value, field_name: str) -> tuple[str, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            self.bad(
                field_name,
                "bad_type",
                Words(N_("'{field}' must be a list of card codes such as \"AS\"."), field=field_name),
            )
            return ()
        result = []
        for i, item in enumerate(value):
            try:
                result.append(parse_card(item))
            except CardCodeError as error:
                self.bad(f"{field_name}[{i}]", "unknown_card", error.message)
        return tuple(result)

    def contract(self, value, field_name: str) -> Contract | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            self.bad(
                field_name,
                "bad_type",
                Words(
                    N_("'{field}' must be an object such as {{\"points\": 15, \"trump\": \"S\"}}."),
                    field=field_name,
                ),
            )
            return None
        points = self.integer(value.get("points"), f"{field_name}.points", required=True)
        trump = parse_trump(value.get("trump"))
        if trump is None:
            self.bad(f"{field_name}.trump", "bad_trump", trump_problem_words(value.get("trump")))
            return None
        if points is None:
            return None
        return Contract(points, trump)


def written_whole(entry: dict) -> dict:
    """A legal entry as it is kept: numbers a client wrote as 16.0 written 16, and a called card
    given alone (``"cards": "JOKER"``, or ``"card"``) as the list HAND_JSON shows."""

    def written(value):
        if isinstance(value, dict):
            return {key: written(item) for key, item in value.items()}
        if isinstance(value, list):
            return [written(item) for item in value]
        return whole(value)

    kept = written(entry)
    call = kept.get("partner_call")
    if isinstance(call, dict) and ("card" in call or isinstance(call.get("cards"), str)):
        called = call.get("cards", call.get("card"))
        kept["partner_call"] = {**{k: v for k, v in call.items() if k != "card"},
                                "cards": [called] if isinstance(called, str) else called}
    return kept


def entry_as_sent(entry: dict) -> dict:
    """The entry without the fields sent as null: null is a field not sent, as "options": null
    is no options. Kept, "partners": null would read as the declarer alone, and every page that
    reads a stored hand's lists would meet a null where a list belongs."""
    return {key: value for key, value in entry.items() if value is not None}


def entry_as_kept(entry: dict) -> dict:
    """An entry as it is kept: without its nulls, and a bid given alone kept as the contract too.
    HAND_JSON lets either stand for the other and the engine reads it so, while the board, the
    statistics and the edit form read the contract. The app's services keep a legal entry so (only
    once legal: a bad bid given alone is one error at "bid", never a second at a "contract" the
    request did not send), and a group imported from an older export is kept so too."""
    kept = entry_as_sent(entry)
    if isinstance(kept.get("bid"), dict) and "contract" not in kept:
        kept["contract"] = kept["bid"]
    return kept


def parse_hand(data: object) -> tuple[Hand | None, list[Problem]]:
    """Read a HAND_JSON hand; returns the hand (None when unusable) and every shape problem."""
    if not isinstance(data, dict):
        return None, [Problem("", "bad_type", Words(N_("A hand must be a JSON object.")))]
    read = _Reader(data)

    system = data.get("system", "pagat-standard")
    if not isinstance(system, str):
        read.bad("system", "bad_type", Words(N_("'system' must be a preset name such as \"pagat-standard\".")))
        system = "pagat-standard"
    # null is no options, as an absent key; anything but an object is a mistake
    options = options_of(data)
    if not isinstance(options, dict):
        read.bad("options", "bad_type", Words(N_("'options' must be a JSON object.")))
        options = {}

    seats, seat_problems = read_seats(data.get("seats"))
    read.problems += seat_problems

    sitting_out = read.seat_list(data.get("sitting_out"), "sitting_out", seats)
    dealer = read.seat(data.get("dealer"), "dealer", seats)
    joker_holder = read.seat(data.get("joker_holder"), "joker_holder", seats, required=False)
    declarer = read.seat(data.get("declarer"), "declarer", seats, required=True)
    bid = read.contract(data.get("bid"), "bid")
    contract = read.contract(data.get("contract"), "contract")
    # absent or null alike (a form sends a field left empty as null); a contract of the wrong shape
    # has already said so
    if contract is None and bid is None and data.get("contract") is None and data.get("bid") is None:
        read.bad(
            "contract",
            "missing",
            Words(N_("'contract' is required: the points and trump the declarer played.")),
        )
    contract = contract or bid

    raw_call = data.get("partner_call", {"type": "none"} if data.get("partners") == [] else None)
    call = None
    if not isinstance(raw_call, dict):
        read.bad(
            "partner_call",
            "missing",
            Words(N_("'partner_call' is required: a card, the first trick, no friend, or a player.")),
        )
    elif raw_call.get("type") not in CALL_TYPES:
        read.bad(
            "partner_call.type",
            "bad_call",
            Words(
                N_("The partner call must be one of {choices}, not {value}."),
                choices=", ".join(CALL_TYPES),
                value=repr(raw_call.get("type")),
            ),
        )
    else:
        # HAND_JSON: "card (with cards: one code…)": a lone code is read as a list of one
        called = raw_call.get("cards", raw_call.get("card"))
        cards = read.cards([called] if isinstance(called, str) else called, "partner_call.cards")
        seat_value = raw_call.get("seat", raw_call.get("player"))
        seat = read.seat(seat_value, "partner_call.seat", seats) if raw_call["type"] == "player" else None
        call = PartnerCall(raw_call["type"], cards, seat)

    partners = read.seat_list(data.get("partners", []), "partners", seats)
    discards = read.cards(data.get("discards"), "discards")
    points = read.integer(data.get("points"), "points")
    defender_points = read.integer(data.get("defender_points"), "defender_points")
    instructions = read.integer(data.get("instructions", 0), "instructions") or 0
    if instructions < 0:
        read.bad(
            "instructions",
            "bad_type",
            Words(N_("'instructions' counts the times the partner was told to take a trick: 0 or more.")),
        )

    outcome = data.get("outcome", "played")
    if outcome not in OUTCOMES:
        read.bad(
            "outcome",
            "bad_outcome",
            Words(
                N_("The outcome must be one of {choices}, not {value}."),
                choices=", ".join(OUTCOMES),
                value=repr(outcome),
            ),
        )
        outcome = "played"
    conceded_by = data.get("conceded_by")
    if outcome == "conceded" and conceded_by not in SIDES:
        read.bad(
            "conceded_by",
            "bad_outcome",
            Words(N_("A conceded hand must say who conceded: \"declarer_team\" or \"defenders\".")),
        )
    raw_lead_suit = data.get("lead_suit")
    lead_suit = parse_suit(raw_lead_suit)
    if raw_lead_suit is not None and lead_suit is None:
        read.bad(
            "lead_suit",
            "bad_trump",
            Words(N_("The suit asked of the partner must be S, H, D or C, not {suit}."), suit=repr(raw_lead_suit)),
        )
    changed_before_kitty = data.get("changed_before_kitty", False)
    if not isinstance(changed_before_kitty, bool):
        read.bad("changed_before_kitty", "bad_type", Words(N_("'changed_before_kitty' must be true or false.")))
        changed_before_kitty = False

    if read.problems or declarer is None or contract is None or call is None:
        return None, read.problems
    return (
        Hand(
            seats=seats,
            declarer=declarer,
            contract=contract,
            partner_call=call,
            system=system,
            options=options,
            sitting_out=sitting_out,
            dealer=dealer,
            bid=bid,
            partners=partners,
            discards=discards,
            points=points,
            defender_points=defender_points,
            outcome=outcome,
            conceded_by=conceded_by if outcome == "conceded" else None,
            instructions=instructions,
            changed_before_kitty=changed_before_kitty,
            lead_suit=lead_suit,
            joker_holder=joker_holder,
        ),
        [],
    )
