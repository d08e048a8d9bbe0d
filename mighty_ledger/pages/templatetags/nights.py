"""A club night's figures as its pages write them: a standing's score in the night's option."""

from __future__ import annotations

from fractions import Fraction

from django import template

from mighty_ledger.models import Night
from scoring.numbers import MINUS, signed

register = template.Library()


@register.filter
def night_score(score, option: str) -> str:
    """Points as the board writes them (+12, −3); points per hand to two decimals (+1.25), as a
    fraction of a point is no card's worth; placement points as counted, a half as ½ (7½)."""
    if option == Night.PER_HAND:
        shown = f"{float(score):+.2f}"
        return "0.00" if shown in ("+0.00", "-0.00") else shown.replace("-", MINUS)
    if option == Night.PLACEMENT:
        return signed(Fraction(score)).lstrip("+")
    return signed(score)
