"""Numbers in and out: how a request's numbers are read (a client that counts in floats writes 16
as 16.0), and how a payment or a score is written for people (+3, 0, −3)."""

from __future__ import annotations

from fractions import Fraction

MINUS = "−"  # U+2212, the minus sign a reader sees: a hyphen is narrower than the plus beside it


def whole(value: object) -> object:
    """16.0 as 16; anything else (15.5, "16", a bool, None) as sent, for the caller to judge."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def signed(value) -> str:
    """+3, 0, −3: a payment, a score or a card's worth as people read it, the sign always shown
    but for zero; a fraction of a point (a deal miss's worths) as ½ or 1/3."""
    if value == 0:
        return "0"
    sign = "+" if value > 0 else MINUS
    magnitude = abs(value)
    if isinstance(magnitude, Fraction):
        whole_part, part = divmod(magnitude, 1)
        if not part:
            return f"{sign}{whole_part}"
        part_text = "½" if part == Fraction(1, 2) else f"{part.numerator}/{part.denominator}"
        return f"{sign}{whole_part or ''}{part_text}"
    return f"{sign}{magnitude}"
