"""The HAND_JSON boundary: raw JSON-shaped requests in, JSON-shaped answers out.

The CLI and the HTTP API both call these, so a request means the same thing
wherever it is sent.
"""

from __future__ import annotations

from .hand import Hand, parse_hand
from .presets import resolve_system
from .problems import InvalidInput
from .scorer import Result, score
from .systems import System


def hand_and_system(data: object) -> tuple[Hand, System]:
    """Parse a hand request and resolve its system; InvalidInput lists every shape problem."""
    hand, problems = parse_hand(data)
    system = None
    # parse_hand already reports options that are not an object
    if isinstance(data, dict) and isinstance(data.get("options") or {}, dict):
        try:
            system = resolve_system(data.get("system", "pagat-standard"), data.get("options") or {})
        except InvalidInput as error:
            problems = problems + error.problems
    if problems or hand is None or system is None:
        raise InvalidInput(problems)
    return hand, system


def hand_problems(data: object):
    """(hand, system, every problem): shape first, then every legality rule and an attached auction."""
    from .legality import auction_problems, check

    try:
        hand, system = hand_and_system(data)
    except InvalidInput as error:
        return None, None, error.problems
    return hand, system, check(hand, system) + auction_problems(data, hand, system)


def score_hand(data: object) -> Result:
    hand, system, problems = hand_problems(data)
    if problems:
        raise InvalidInput(problems)
    return score(hand, system, checked=True)


def score_request(data: object) -> dict:
    """HAND_JSON hand → HAND_JSON result; InvalidInput (the error shape) when illegal or malformed."""
    return score_hand(data).as_json()


def check_request(data: object) -> dict:
    """HAND_JSON hand → {"legal": bool, "errors": [...]}; never raises for bad input."""
    _, _, problems = hand_problems(data)
    return {"legal": not problems, "errors": [p.as_json() for p in problems]}


def redeal_request(data: object) -> dict:
    from .redeal import redeal_response

    return redeal_response(data)


def auction_request(data: object) -> dict:
    from .auction import auction_request as check_auction

    return check_auction(data)
