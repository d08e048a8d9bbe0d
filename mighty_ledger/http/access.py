"""Capability links: a group is reached only through its edit or view token.

Every view and API call fetches its objects through these guards, so no URL
can reach another group's data, and a view link can never change anything.
There is one way to look up a link, ``access_for``: with the session a URL
names, it reads the link and that session in one query.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404

from mighty_ledger.models import Group, Hand, Session
from mighty_ledger.models.changes import Actor

EDIT, VIEW = "edit", "view"
# tokens are 43 characters; anything longer is not a link, and is refused before a query
TOKEN_MAX_LENGTH = 64


@dataclass(frozen=True)
class Access:
    group: Group
    right: str  # EDIT or VIEW
    token: str
    # the live session the request's URL names, read with the link in the same query
    named_session: Session | None = None
    # a change made on the pages and sent later by the phone's outbox through the API
    # (static/js/outbox.js): the history says the link's page made it, as it would have online
    from_the_pages: bool = False

    @property
    def can_edit(self) -> bool:
        return self.right == EDIT

    def actor(self, channel: str = "link") -> Actor:
        return Actor.from_token(f"{self.right} {'link' if self.from_the_pages else channel}", self.token)

    def require_edit(self) -> None:
        if not self.can_edit:
            raise PermissionDenied("This is a view-only link.")

    def session(self, pk: int, *, include_deleted: bool = False) -> Session:
        if self.named_session is not None and self.named_session.pk == pk:
            return self.named_session  # live, of this group: good whether or not deleted ones count
        if not is_row_id(pk):
            raise Http404("No such session in this group.")
        sessions = Session.objects.filter(group=self.group).select_related("night_round__night")
        if not include_deleted:
            sessions = sessions.live()
        try:
            return sessions.get(pk=pk)
        except Session.DoesNotExist:
            raise Http404("No such session in this group.") from None

    def hand(self, session: Session, number: int) -> Hand:
        try:
            return Hand.objects.get(session=session, number=number)
        except (Hand.DoesNotExist, ValueError, TypeError):
            raise Http404("No such hand in this session.") from None


def access_for(token: str, *, session_id: int | None = None, include_deleted: bool = False) -> Access:
    """The group and right a token gives; 404 for an unknown token (it reveals nothing).

    With ``session_id`` (the session a URL names), that session is read in the
    same query when it is a live session of the group, and ``Access.session``
    hands it out without another query. ``include_deleted`` reaches a deleted
    group (to restore it).
    """
    if not is_link_shaped(token):
        raise Http404("Unknown link.")
    if session_id is not None and is_row_id(session_id) and not include_deleted:
        # the session the URL names, live, of a live group: at most one row, by the primary key
        # a club night's table with its round and night: its heading names it from them
        session = (Session.objects.live().select_related("group", "night_round__night")
                   .filter(Q(group__edit_token=token) | Q(group__view_token=token), pk=session_id,
                           group__deleted_at__isnull=True).first())
        if session is not None:
            return access_to(session.group, token, session)
    groups = Group.objects.all() if include_deleted else Group.objects.live()
    group = groups.filter(Q(edit_token=token) | Q(view_token=token)).first()
    if group is None:
        raise Http404("Unknown link.")
    return access_to(group, token)


def access_to(group: Group, token: str, session: Session | None = None) -> Access:
    """The access ``token`` gives, for a group (and a live session of it) read by its link."""
    return Access(group, EDIT if group.edit_token == token else VIEW, token, session)


def is_link_shaped(token: str) -> bool:
    """Whether ``token`` could be a link at all: anything else is refused before a query
    (PostgreSQL cannot even compare text holding a NUL)."""
    return bool(token) and len(token) <= TOKEN_MAX_LENGTH and "\x00" not in token


def is_row_id(pk: object) -> bool:
    # a URL's digits can exceed a 64-bit id, which SQLite cannot even compare against
    return isinstance(pk, int) and not isinstance(pk, bool) and 0 < pk < 2**63
