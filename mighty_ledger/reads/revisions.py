"""A group's changes as the API lists them, and the edit a hand's history undoes. The history page
of a session is ``reads.session_history``."""

from __future__ import annotations

from django.db.models import QuerySet

from mighty_ledger.models import Group, Hand, Revision, Session


def group_revisions(group: Group, *, session: Session | None = None) -> QuerySet[Revision]:
    """Every change made to the group (to one of its sessions, when given), newest first, with
    the hand each names, for a page of them."""
    revisions = Revision.objects.filter(group=group).select_related("hand")
    return revisions.filter(session=session) if session is not None else revisions


def amended(hand: Hand, revision_id: int) -> Revision | None:
    """The edit of ``hand`` with this id, looked up through the hand the link reaches, so no URL
    reaches another group's; None when it is no edit of this hand."""
    return Revision.objects.filter(pk=revision_id, hand=hand, action=Revision.AMENDED).first()
