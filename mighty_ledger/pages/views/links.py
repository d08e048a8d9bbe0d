"""How a page reaches its group and session: through the link in its URL, with the right it gives."""

from __future__ import annotations

from django.urls import reverse

from mighty_ledger.http.access import Access, access_for
from mighty_ledger.models import Session


def view_access(token: str, session_id: int | None = None) -> Access:
    return access_for(token, session_id=session_id)


def edit_access(token: str, session_id: int | None = None) -> Access:
    access = access_for(token, session_id=session_id)
    access.require_edit()
    return access


def board_url(access: Access, session: Session) -> str:
    return reverse("session_board", args=[access.token, session.pk])
