"""A session's hands as a form or a list asks for them: the hand a form's key saved, the hand at a
number, the hands in order. The board's rows and the table flow are the package's own reads."""

from __future__ import annotations

from django.db.models import QuerySet

from mighty_ledger.http import request_keys
from mighty_ledger.models import Hand, Session


def hand_saved_by(session: Session, key: str | None) -> Hand | None:
    """The hand a form's one-time key saved: it is the hand's Idempotency-Key too, however it
    reached the server (the form, or the outbox by the API). One query."""
    row = request_keys.made_by(request_keys.hand_scope(session.pk), key, "hand")
    return row.hand if row is not None else None


def hand_numbered(session: Session, number: int) -> Hand | None:
    """The hand at ``number``, live or deleted, or None."""
    return session.hands.filter(number=number).first()


def latest_from(session: Session, number: int) -> Hand | None:
    """The latest hand numbered ``number`` or more, live or deleted, or None."""
    return session.hands.filter(number__gte=number).latest_first().first()


def session_hands(session: Session, *, include_deleted: bool = False) -> QuerySet[Hand]:
    """The session's hands and events in order (the deleted ones too, when asked), for a page of them."""
    hands = session.hands.all() if include_deleted else session.hands.live()
    return hands.in_order()
