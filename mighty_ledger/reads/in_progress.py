"""A session's hands in progress (contracts recorded when the auction ended), as the pages and
the API pick or list them. The one being played now is ``reads.playing_now``."""

from __future__ import annotations

from django.db.models import QuerySet

from mighty_ledger.http import request_keys
from mighty_ledger.models import Contract, Session


def contract_of(session: Session, contract_id: int) -> Contract | None:
    """The session's hand in progress with this id, with the hand it became; None when the session
    has none (an id past what the database counts in included). One query."""
    try:
        return session.contracts.select_related("hand").filter(pk=contract_id).first()
    except (ValueError, OverflowError):
        return None


def contract_saved_by(session: Session, key: str) -> Contract | None:
    """The hand in progress a form's one-time key recorded, with the hand that completed it. One query."""
    row = request_keys.made_by(request_keys.contract_scope(session.pk), key, "contract", "contract__hand")
    return row.contract if row is not None else None


def session_contracts(session: Session, *, status: str | None = None) -> QuerySet[Contract]:
    """The session's hands in progress (only those with ``status``), newest first, for a page of them."""
    contracts = session.contracts.select_related("hand")
    if status is not None:
        contracts = contracts.filter(status=status)
    return contracts.order_by("-created_at", "-id")
