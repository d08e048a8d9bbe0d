"""Does the stored history still agree with the engine and with itself?

Each stored hand keeps the result the engine gave when it was saved. After a
rules fix, re-scoring the same entries may give something else: this finds
every such hand, and every running total that no longer matches a replay of
the stored results, without changing anything.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from mighty_ledger.models import Hand, Session
from mighty_ledger.reads import hand_ledger_entry, hand_request
from scoring.interface import score_hand
from scoring.ledger import replay
from scoring.problems import InvalidInput


@dataclass(frozen=True)
class Difference:
    session: Session
    hand_number: int | None  # None: the session's own totals or pot
    what: str

    def line(self) -> str:
        where = f"group {self.session.group_id} session {self.session.id}"
        if self.hand_number is not None:
            where += f" hand {self.hand_number}"
        return f"{where}: {self.what}"


# the parts of a result that say it in words; the rest (made, base, doubles, payments…) is what counts
WORDING = frozenset({"explanation", "warnings"})


def _as_stored(result: dict) -> dict:
    # what a JSONField gives back: tuples become lists, keys strings
    return json.loads(json.dumps(result))


def result_differences(session: Session, hands: list[Hand]) -> Iterator[Difference]:
    for hand in hands:
        if hand.kind != Hand.SCORED:
            continue
        try:
            now = _as_stored(score_hand(hand_request(session, hand.entry)).as_json())
        except InvalidInput as error:
            codes = ", ".join(sorted({p.code for p in error.problems}))
            yield Difference(session, hand.number, f"the engine now refuses this hand ({codes})")
            continue
        stored = hand.result or {}
        # what the hand decided, not how it was worded: rewording an explanation is no drift
        keys = sorted(k for k in (now.keys() | stored.keys()) - WORDING if now.get(k) != stored.get(k))
        if keys:
            yield Difference(session, hand.number, f"stored result differs from the engine's in {', '.join(keys)}")


def total_differences(session: Session, hands: list[Hand]) -> Iterator[Difference]:
    """The stored payments and running totals against a replay of the stored results (as services do)."""
    steps = replay(session.seats, (hand_ledger_entry(hand) for hand in hands))
    for hand, step in zip(hands, steps, strict=True):
        if (hand.payments, hand.running_totals, hand.pot_after) != (step.payments, step.totals, step.pot):
            yield Difference(session, hand.number, "stored payments or running totals differ from a replay")
    totals = steps[-1].totals if steps else dict.fromkeys(session.seats, 0)
    pot = steps[-1].pot if steps else 0
    if (session.totals, session.pot) != (totals, pot):
        yield Difference(session, None, f"session totals {session.totals} (pot {session.pot}) "
                                        f"but a replay gives {totals} (pot {pot})")


def differences(sessions=None) -> Iterator[Difference]:
    """Every session, deleted ones too (they can be restored), and its live hands."""
    sessions = Session.objects.order_by("id") if sessions is None else sessions
    for session in sessions.iterator(chunk_size=200):
        hands = list(session.hands.live().in_order())
        yield from result_differences(session, hands)
        yield from total_differences(session, hands)
