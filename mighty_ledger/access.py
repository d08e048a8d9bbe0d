"""Capability links: a group is reached only through its edit or view token.

Every view and API call fetches its objects through these guards, so no URL
can reach another group's data, and a view link can never change anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
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
    group = groups.filter(edit_token=token).first()
    if group is not None:
        return Access(group, EDIT, token)
    group = groups.filter(view_token=token).first()
    if group is not None:
        return Access(group, VIEW, token)
    raise Http404("Unknown link.")


def access_for_edit(token: str) -> Access:
    access = access_for(token)
    access.require_edit()
    return access
