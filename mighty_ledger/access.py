"""Capability links: a group is reached only through its edit or view token.

Every view and API call fetches its objects through these guards, so no URL
can reach another group's data, and a view link can never change anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import Q
from django.http import Http404

from .models import Group, Hand, Session
from .services import Actor

EDIT, VIEW = "edit", "view"


@dataclass(frozen=True)
class Access:
    group: Group
    right: str  # EDIT or VIEW
    token: str

    @property
    def can_edit(self) -> bool:
        return self.right == EDIT

    def actor(self, channel: str = "link") -> Actor:
        return Actor.from_token(f"{self.right} {channel}", self.token)

    def require_edit(self) -> None:
        if not self.can_edit:
            raise PermissionDenied("This is a view-only link.")

    def session(self, pk: int, *, include_deleted: bool = False) -> Session:
        sessions = Session.objects.filter(group=self.group)
        if not include_deleted:
            sessions = sessions.live()
        try:
            return sessions.get(pk=pk)
        except (Session.DoesNotExist, ValueError, TypeError):
            raise Http404("No such session in this group.") from None

    def hand(self, session: Session, number: int) -> Hand:
        try:
            return Hand.objects.get(session=session, number=number)
        except (Hand.DoesNotExist, ValueError, TypeError):
            raise Http404("No such hand in this session.") from None


def access_for(token: str, *, include_deleted: bool = False) -> Access:
    """The group and right a token gives; 404 for an unknown token (it reveals nothing)."""
    if not token or len(token) > 64:
        raise Http404("Unknown link.")
    groups = Group.objects.all() if include_deleted else Group.objects.live()
    # one query for either link: tokens are unique, and an edit token never equals a view token
    try:
        group = groups.get(Q(edit_token=token) | Q(view_token=token))
    except Group.DoesNotExist:
        raise Http404("Unknown link.") from None
    return Access(group, EDIT if group.edit_token == token else VIEW, token)


def access_for_edit(token: str) -> Access:
    access = access_for(token)
    access.require_edit()
    return access


def access_to_session(token: str, pk: int) -> tuple[Access, Session]:
    """The link's right and one of its group's live sessions, in one query (the scoreboard's hot path)."""
    if not token or len(token) > 64:
        raise Http404("Unknown link.")
    try:
        # get(), not first(): tokens are unique, and first() would also make the query sort
        session = (
            Session.objects.live()
            .select_related("group")
            .get(Q(group__edit_token=token) | Q(group__view_token=token), group__deleted_at__isnull=True, pk=pk)
        )
    except Session.DoesNotExist:
        # an unknown link and another group's session look the same: neither reveals anything
        raise Http404("No such session for this link.") from None
    group = session.group
    return Access(group, EDIT if group.edit_token == token else VIEW, token), session


@dataclass(frozen=True)
class BoardStamp:
    """What identifies one state of a session's scoreboard, read without loading the session."""

    session_id: int
    created_at: str
    revision: int
    right: str


def board_stamp(token: str, pk: int) -> BoardStamp:
    """The link's right and the session's revision, or 404, in the cheapest query there is.

    Phones reload the scoreboard all evening and it is served from the cache, so
    checking the link is most of the cost of a reload: this is plain SQL because
    compiling the same join through the ORM cost more than the rest of the page.
    """
    if not token or len(token) > 64:
        raise Http404("Unknown link.")
    with connection.cursor() as cursor:
        cursor.execute(_BOARD_STAMP, [pk, token, token])
        row = cursor.fetchone()
    if row is None:
        # an unknown link and another group's session look the same: neither reveals anything
        raise Http404("No such session for this link.")
    revision, created_at, edit_token = row
    return BoardStamp(pk, str(created_at), revision, EDIT if edit_token == token else VIEW)


_BOARD_STAMP = f"""
    SELECT s.revision, s.created_at, g.edit_token
    FROM {Session._meta.db_table} s JOIN {Group._meta.db_table} g ON g.id = s.group_id
    WHERE s.id = %s AND s.deleted_at IS NULL AND g.deleted_at IS NULL
      AND (g.edit_token = %s OR g.view_token = %s)
"""
