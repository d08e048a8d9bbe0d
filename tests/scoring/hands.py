"""Helpers that build HAND_JSON hands the way a table would enter them."""

from __future__ import annotations

FIVE = ["Ann", "Bo", "Cy", "Di", "Ed"]


def hand(
    contract: str,
    points: int | None = None,
    *,
    system: str = "pagat-standard",
    seats=None,
    declarer: str = "Ann",
    partners=("Cy",),
    call: dict | None = None,
    **extra,
) -> dict:
    """``hand("16 NT", 18)``: a contract as a table says it, and the declarer's team's points."""
    number, trump = contract.split()
    request = {
        "system": system,
        "seats": list(seats or FIVE),
        "declarer": declarer,
        "contract": {"points": int(number), "trump": trump},
        "partner_call": call or ({"type": "card", "cards": ["JOKER"]} if partners else {"type": "none"}),
        "partners": list(partners),
    }
    if points is not None:
        request["points"] = points
    request.update(extra)
    return request
