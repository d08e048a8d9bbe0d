"""How a page reaches its group and session: through the link in its URL, with the right it gives."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest
from django.urls import reverse

from mighty_ledger.http.access import Access, access_for
from mighty_ledger.models import Session


def view_access(token: str, session_id: int | None = None) -> Access:
    return access_for(token, session_id=session_id)


def edit_access(token: str, session_id: int | None = None) -> Access:
    access = access_for(token, session_id=session_id)
    access.require_edit()
    return access


def session_form_scope(scope_of: Callable[[int], str]):
    """Where a form that makes a hand, a contract or a payment keeps its one-time key: the scope
    ``scope_of`` gives its session (request_keys.hand_scope…), the API's for the same write. The
    session is found through the link first, so a key never answers through a link that cannot edit it."""

    def scope(request: HttpRequest, token: str, pk: int, **_kwargs) -> str:
        return scope_of(edit_access(token, pk).session(pk).pk)

    return scope


def board_url(access: Access, session: Session) -> str:
    return reverse("session_board", args=[access.token, session.pk])
