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

from . import rows
from .models import Group, Hand, Session
from .services import Actor

EDIT, VIEW = "edit", "view"


@dataclass(frozen=True)
class Access:
    group: Group
    right: str  # EDIT or VIEW
    token: str
    # the live session the request's URL names, read with the link in the same query
    named_session: Session | None = None

    @property
    def can_edit(self) -> bool:
        return self.right == EDIT

    def actor(self, channel: str = "link") -> Actor:
        return Actor.from_token(f"{self.right} {channel}", self.token)

    def require_edit(self) -> None:
        if not self.can_edit:
            raise PermissionDenied("This is a view-only link.")

    def session(self, pk: int, *, include_deleted: bool = False) -> Session:
        if self.named_session is not None and self.named_session.pk == pk:
            return self.named_session  # live, of this group: good whether or not deleted ones count
        if not _is_row_id(pk):
            raise Http404("No such session in this group.")
        where = _SESSION_OF_GROUP if include_deleted else f"{_SESSION_OF_GROUP} AND deleted_at IS NULL"
        # plain SQL (rows.py): every hand recorded goes through here
        session = rows.fetch_one(Session, where, [pk, self.group.pk])
        if session is None:
            raise Http404("No such session in this group.")
        return session

    def hand(self, session: Session, number: int) -> Hand:
        try:
            return Hand.objects.get(session=session, number=number)
        except (Hand.DoesNotExist, ValueError, TypeError):
            raise Http404("No such hand in this session.") from None


def access_for(token: str, *, include_deleted: bool = False, session_id: int | None = None) -> Access:
    """The group and right a token gives; 404 for an unknown token (it reveals nothing).

    With ``session_id`` (an API URL's), that session is read in the same query
    when it is a live session of the group, and ``Access.session`` hands it out.
    """
    if not token or len(token) > 64:
        raise Http404("Unknown link.")
    # one query for either link: tokens are unique, and an edit token never equals a view token;
    # plain SQL (rows.py) because every API call and page starts here
    named_session = None
    if session_id is not None and _is_row_id(session_id) and not include_deleted:
        found = rows.fetch_one_with(Group, Session, on=_NAMED_SESSION, where=_LIVE_GROUP_BY_LINK,
                                    params=[session_id, token, token])
        group, named_session = found if found is not None else (None, None)
    else:
        where = _GROUP_BY_LINK if include_deleted else f"{_GROUP_BY_LINK} AND deleted_at IS NULL"
        group = rows.fetch_one(Group, where, [token, token])
    if group is None:
        raise Http404("Unknown link.")
    return Access(group, EDIT if group.edit_token == token else VIEW, token, named_session)


def _is_row_id(pk: object) -> bool:
    # a URL's digits can exceed a 64-bit id, which SQLite cannot even compare against
    return isinstance(pk, int) and not isinstance(pk, bool) and 0 < pk < 2**63


_GROUP_BY_LINK = "(edit_token = %s OR view_token = %s)"
_LIVE_GROUP_BY_LINK = "(main.edit_token = %s OR main.view_token = %s) AND main.deleted_at IS NULL"
_NAMED_SESSION = "joined.group_id = main.id AND joined.id = %s AND joined.deleted_at IS NULL"
_SESSION_OF_GROUP = "id = %s AND group_id = %s"


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
