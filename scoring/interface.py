"""The HAND_JSON boundary: raw JSON-shaped requests in, JSON-shaped answers out.

The CLI and the HTTP API both call these, so a request means the same thing
wherever it is sent.
"""

from __future__ import annotations

import copy
from functools import lru_cache

from .auction import auction_request as check_auction
from .describe import describe
from .flow import HAND_KINDS, PreviousHand, next_hand
from .flow_rules import flow_rule
from .hand import Hand, parse_hand
from .legality import auction_problems, check
from .presets import all_presets, get_preset, resolve_system
from .problems import InvalidInput, Problem
from .redeal import deal_miss_summary, redeal_response
from .scorer import Result, score
from .seats import read_seat_list, read_seats, seat_count_problem, seat_problem
from .systems import System, options_of, system_as_options
from .words import N_, Words


def hand_and_system(data: object) -> tuple[Hand, System]:
    """Parse a hand request and resolve its system; InvalidInput lists every shape problem."""
    hand, problems = parse_hand(data)
    system = None
    # parse_hand already reports a system or options of the wrong type
    options = options_of(data)
    if isinstance(data, dict) and isinstance(data.get("system", ""), str) and isinstance(options, dict):
        try:
            system = resolve_system(data.get("system", "pagat-standard"), options)
        except InvalidInput as error:
            problems = problems + error.problems
    if problems or hand is None or system is None:
        raise InvalidInput(problems)
    return hand, system


def hand_problems(data: object):
    """(hand, system, every problem): shape first, then every legality rule and an attached auction."""
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
    return redeal_response(data)


def auction_request(data: object) -> dict:
    return check_auction(data)


def next_request(data: object) -> dict:
    """Who deals, who bids first and who sits out on the coming hand (RULES.md §10).

    Request: ``{"system", "options"?, "seats", "first_dealer"?, "previous"}`` where
    ``previous`` is null (the first hand), an event ``{"kind": "deal_miss",
    "dealer", "demander"}`` / ``{"kind": "all_pass", "dealer"}``, a summary
    ``{"kind": "scored", "dealer", "declarer", "partners", "made",
    "joker_holder"?}``, or the previous HAND_JSON hand itself (with its dealer,
    and ``joker_holder`` where the Joker's holder deals next), which is scored to
    learn whether it was made. InvalidInput for anything that does not fit,
    and for a played hand of a system whose next dealer held the Joker when
    ``joker_holder`` is not given.
    """
    if not isinstance(data, dict):
        raise InvalidInput([_problem("", "bad_type", N_("A request must be a JSON object."))])
    problems = []
    slug = data.get("system", "pagat-standard")
    if not isinstance(slug, str):
        problems.append(_problem("system", "bad_type", N_("'system' must be a preset name such as \"pagat-standard\".")))
    options = options_of(data)
    if not isinstance(options, dict):
        problems.append(_problem("options", "bad_type", N_("'options' must be a JSON object.")))
    if problems:
        raise InvalidInput(problems)
    system = resolve_system(slug, options)
    seats, problems = read_seats(data.get("seats"))
    if not problems:
        count = seat_count_problem(seats, system.players)
        problems = [count] if count is not None else []
    if problems:
        raise InvalidInput(problems)
    first_dealer = data.get("first_dealer")
    first_dealer_problem = seat_problem(first_dealer, "first_dealer", seats, required=False)
    if first_dealer_problem is not None:
        raise InvalidInput([first_dealer_problem])
    previous = data.get("previous")
    if previous is None:
        summary = None
    elif isinstance(previous, dict) and "contract" in previous:
        summary = _previous_from_hand({**previous, "system": slug, "options": options, "seats": seats})
    else:
        summary = _previous_summary(previous, seats)
    _joker_holder_given(system, summary, previous)
    _sitting_out_given(system, summary)
    try:
        state = next_hand(system, seats, summary, first_dealer=first_dealer)
    except ValueError as error:
        # every seat was checked above: what flow.py still refuses is a bug, said as it is
        raise InvalidInput([_problem("previous", "bad_previous", N_("{reason}"), reason=str(error))]) from None
    return {
        "dealer": state.dealer,
        "first_bidder": state.first_bidder,
        "sitting_out": list(state.sitting_out),
        "active": list(state.active),
    }


def _previous_summary(previous: object, seats: tuple[str, ...]) -> PreviousHand:
    """``previous`` as an event or a summary of a hand; InvalidInput names every field that does not fit."""
    if not isinstance(previous, dict):
        raise InvalidInput([_problem(
            "previous", "bad_type",
            N_("'previous' must be null (the first hand), an event such as {{\"kind\": \"all_pass\", "
               "\"dealer\": \"Ann\"}}, a summary of the hand before, or that hand itself."))])
    problems: list[Problem] = []
    kind = previous.get("kind", "scored")
    if not isinstance(kind, str) or kind not in HAND_KINDS:
        problems.append(_problem(
            "previous.kind", "bad_previous" if isinstance(kind, str) else "bad_type",
            N_("'previous.kind' must be one of {choices}, not {value}."),
            choices=", ".join(HAND_KINDS), value=repr(kind)))
        kind = None

    def seat(name: str, *, required: bool = False) -> str | None:
        value = previous.get(name)
        problem = seat_problem(value, f"previous.{name}", seats, required=required)
        if problem is not None:
            problems.append(problem)
            return None
        return value

    def seat_list(name: str) -> tuple[str, ...]:
        found, list_problems = read_seat_list(previous.get(name), f"previous.{name}", seats)
        problems.extend(list_problems)
        return found

    dealer = seat("dealer", required=True)
    # a scored hand needs its declarer; a void one may not know it
    declarer = seat("declarer", required=kind == "scored")
    partners = seat_list("partners")
    if declarer is not None and declarer in partners:
        # as legality.partner_not_declarer says it of a hand
        problems.append(_problem(f"previous.partners[{partners.index(declarer)}]", "partner_is_declarer",
                                 N_("{seat} is the declarer and cannot also be their own partner."), seat=declarer))
    made = previous.get("made")
    if made is None and kind == "scored":
        problems.append(_problem("previous.made", "missing",
                                 N_("'previous.made' is required for a scored hand: true or false.")))
    elif made is not None and not isinstance(made, bool):
        problems.append(_problem("previous.made", "bad_type", N_("'previous.made' must be true or false.")))
        made = None
    # a deal miss names who showed the hand, as 'demander' or as the ledger's 'shown_by'
    shown_by = "demander" if "demander" in previous or "shown_by" not in previous else "shown_by"
    demander = seat(shown_by, required=kind == "deal_miss")
    sitting_out = seat_list("sitting_out")
    # a seat sitting the hand out held no cards: it declared nothing, partnered no one, showed no hand
    if declarer is not None and declarer in sitting_out:
        problems.append(_problem("previous.declarer", "declarer_sitting_out",
                                 N_("{seat} sits out this hand, so cannot be the declarer."), seat=declarer))
    problems.extend(
        _problem(f"previous.partners[{i}]", "partner_sitting_out",
                 N_("{seat} sits out this hand, so cannot be a partner."), seat=seat)
        for i, seat in enumerate(partners) if seat in sitting_out
    )
    if demander is not None and demander in sitting_out:
        problems.append(_problem(f"previous.{shown_by}", "demander_sitting_out",
                                 N_("{seat} sat the hand out and held no cards to show."), seat=demander))
    first_bidder = seat("first_bidder")
    joker_holder = seat("joker_holder")
    if problems:
        raise InvalidInput(problems)
    return PreviousHand(kind=kind, dealer=dealer, declarer=declarer, partners=partners, made=made,
                        demander=demander, sitting_out=sitting_out, first_bidder=first_bidder,
                        joker_holder=joker_holder)


def _joker_holder_given(system: System, summary: PreviousHand | None, raw: object) -> None:
    """pagat 3 players: "The holder of the joker in each hand deals the next": say who."""
    if summary is None or summary.kind not in ("scored", "void"):
        return
    if "joker_holder" not in flow_rule(system).dealer.after_hand:
        return
    if not (isinstance(raw, dict) and "joker_holder" in raw):
        raise InvalidInput(
            [
                _problem(
                    "previous.joker_holder",
                    "missing",
                    N_("In this system the player who held the Joker deals next: give 'joker_holder' "
                       "(null when nobody held it because it was buried: the deal then passes to the left)."),
                )
            ]
        )


def _sitting_out_given(system: System, summary: PreviousHand | None) -> None:
    """변형 7마: a redeal keeps the same players out, so the event must say who they were."""
    if summary is None or summary.kind not in ("deal_miss", "all_pass") or summary.sitting_out:
        return
    out = flow_rule(system).sitting_out
    moment = "after_deal_miss" if summary.kind == "deal_miss" else "after_all_pass"
    if out is not None and "previous_sitting_out" in getattr(out.seats, moment):
        raise InvalidInput([_problem(
            "previous.sitting_out", "missing",
            N_("In this system a redeal keeps the same players out: give 'sitting_out', who sat the hand out."))])


def _previous_from_hand(request: dict):
    hand, system, problems = hand_problems(request)
    if problems:
        raise InvalidInput([Problem(f"previous.{p.field}".rstrip("."), p.code, p.message) for p in problems])
    if hand.dealer is None:
        raise InvalidInput([_problem("previous.dealer", "missing", N_("The previous hand must say who dealt it."))])
    result = score(hand, system, checked=True)
    return PreviousHand(
        kind="void" if hand.outcome == "void" else "scored",
        dealer=hand.dealer,
        declarer=hand.declarer,
        partners=hand.partners,
        made=result.made,
        sitting_out=hand.sitting_out,
        joker_holder=hand.joker_holder,
    )


def _problem(field: str, code: str, template: str, **params) -> Problem:
    return Problem(field, code, Words(template, **params))


# --- the presets ------------------------------------------------------------------


def system_json(slug: str) -> dict:
    """One preset as ``GET /api/v1/systems/<slug>`` and ``python -m scoring systems`` show it:
    its options, its rules in words, its deal-miss criteria with their exact odds, and its
    table flow as data (scoring.flow_rules: what static/js/flow.js steps through offline).
    InvalidInput for an unknown slug. Each caller gets its own copy of the cached answer."""
    return copy.deepcopy(_system_json(get_preset(slug).slug))


@lru_cache(maxsize=64)
def _system_json(slug: str) -> dict:
    # cached, since counting the exact odds takes a moment
    preset = get_preset(slug)
    system = preset.system()
    return {
        "slug": preset.slug,
        "name": preset.name,
        "description": preset.description,
        "source": preset.source,
        "options": system_as_options(system),
        "rules_in_words": [
            {"title": str(section.title), "lines": [str(line) for line in section.lines]}
            for section in describe(system)
        ],
        "deal_miss": deal_miss_summary(system).as_json(),
        "flow": flow_rule(system).as_json(),
    }


def systems_response() -> list[dict]:
    """Every preset, in catalog order: the answer of ``GET /api/v1/systems``."""
    return [system_json(preset.slug) for preset in all_presets()]
