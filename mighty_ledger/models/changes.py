"""What a write is told besides what it writes: who makes it, and which hand a new hand meant.

Plain values, here below both sides and the plumbing: the link a request came by (http.access)
names its actor, the forms say which hand they meant, the services record both.
"""

from __future__ import annotations

from dataclasses import dataclass

API_LABEL = "API"


@dataclass(frozen=True)
class Actor:
    """Which kind of link made a change, as revisions record it: "edit link", "view link" or "API".

    Never any part of the token: the history is shown to view links, and four
    characters of the edit token would be four fewer for a guesser to find.
    """

    label: str

    @classmethod
    def from_token(cls, kind: str, token: str) -> Actor:
        right, _, channel = kind.partition(" ")
        return cls(API_LABEL if channel == "api" else f"{right} link")


SYSTEM = Actor("system")


@dataclass(frozen=True)
class Meant:
    """Which hand a new-hand write meant, as the form (or client) knew the session when it was opened.

    ``number`` is the hand number it showed, which nothing moves but the player; ``seen`` is how
    many hands the session had then. Both are checked under the session's lock (hands.hand_record),
    so two phones saving one hand at the same moment are decided one after the other."""

    number: int | None = None
    seen: int | None = None
