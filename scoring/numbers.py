"""How a request's numbers are read: a client that counts in floats writes 16 as 16.0."""

from __future__ import annotations


def whole(value: object) -> object:
    """16.0 as 16; anything else (15.5, "16", a bool, None) as sent, for the caller to judge."""
    return int(value) if isinstance(value, float) and value.is_integer() else value
