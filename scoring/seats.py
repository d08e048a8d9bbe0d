"""Seats at the table: the one check that a name is a seat, and the one check of the seat list.

Every reader of a request (hands, auctions, the next-dealer question, and the
ledger's own forms and services) asks here, so a wrong seat reads the same
wherever it was typed.
"""

from __future__ import annotations

from collections.abc import Sequence

from .problems import Problem
from .settle import POT
from .words import N_, Words

MIN_SEATS, MAX_SEATS = 2, 8
RESERVED_FOR_THE_POT = N_("'pot' is the name the settlement gives the deal-miss pot: a player needs another name.")


def seat_problem(value: object, field: str, seats: Sequence[str], *, required: bool = True) -> Problem | None:
    """None when ``value`` is one of ``seats`` (or absent and not required); else the Problem."""
    if value is None:
        if not required:
            return None
        return Problem(field, "missing", Words(N_("'{field}' is required: name one of the seats."), field=field))
    if isinstance(value, str) and value in seats:
        return None
    return Problem(
        field,
        "unknown_seat",
        Words(
            N_("{seat} in '{field}' is not one of the seats ({seats})."),
            seat=repr(value),
            field=field,
            seats=", ".join(seats),
        ),
    )


def read_seat_list(value: object, field: str, seats: Sequence[str]) -> tuple[tuple[str, ...], list[Problem]]:
    """A list of seats (``sitting_out``, ``partners``): each a seat, none twice; absent is empty."""
    if value is None:
        return (), []
    if not isinstance(value, list):
        return (), [Problem(field, "bad_type", Words(N_("'{field}' must be a list of seats."), field=field))]
    found: list[str] = []
    problems: list[Problem] = []
    for i, item in enumerate(value):
        problem = seat_problem(item, f"{field}[{i}]", seats)
        if problem is not None:
            problems.append(problem)
        elif item in found:
            problems.append(
                Problem(
                    f"{field}[{i}]",
                    "duplicate_seat",
                    Words(N_("{seat} is listed twice in '{field}'."), seat=item, field=field),
                )
            )
        else:
            found.append(item)
    return tuple(found), problems


def read_seats(value: object, field: str = "seats") -> tuple[tuple[str, ...], list[Problem]]:
    """The players clockwise: 2 to 8 distinct, non-empty names."""
    if not isinstance(value, list | tuple) or not value:
        return (), [
            Problem(
                field,
                "bad_seats",
                Words(N_("'seats' must list the players clockwise, such as [\"Ann\", \"Bo\", …].")),
            )
        ]
    names: list[str] = []
    problems: list[Problem] = []
    for i, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            problems.append(Problem(f"{field}[{i}]", "bad_seats", Words(N_("Every seat needs a non-empty name."))))
        elif name in names:
            problems.append(
                Problem(f"{field}[{i}]", "duplicate_seat", Words(N_("{seat} sits twice at the table."), seat=name))
            )
        elif name == POT:
            # the settlement names the deal-miss pot so: a seat of that name would be added into it
            problems.append(Problem(f"{field}[{i}]", "reserved_name", Words(RESERVED_FOR_THE_POT)))
        else:
            names.append(name)
    if not MIN_SEATS <= len(value) <= MAX_SEATS:
        problems.append(
            Problem(
                field,
                "bad_seats",
                Words(N_("Mighty is played by 2 to 8 players, not {count}."), count=len(value)),
            )
        )
    return tuple(names), problems


def seat_count_problem(seats: Sequence[str], players: int, field: str = "seats") -> Problem | None:
    """The system seats ``players``; None when that many are seated."""
    if len(seats) == players:
        return None
    return Problem(
        field,
        "wrong_player_count",
        Words(
            N_("This system is for {players} players, but {seats} seats were entered."),
            players=players,
            seats=len(seats),
        ),
    )
