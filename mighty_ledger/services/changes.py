"""What every write shares: who made it, the revision that records it, the news that
tells the table, the session's lock, and the ways a write is refused.
"""

from __future__ import annotations

import hashlib
import json

from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from mighty_ledger.http import request_keys
from mighty_ledger.live import session_changed
from mighty_ledger.models import Group, Hand, Revision, Session
from mighty_ledger.models.changes import SYSTEM, Actor, Meant  # noqa: F401  (the services take them from here)
from scoring.problems import InvalidInput, Problem


class StaleVersion(Exception):
    """The hand changed since the client read it; carries the current hand."""

    def __init__(self, hand: Hand):
        super().__init__(f"hand {hand.number} is at version {hand.version}")
        self.hand = hand


class SavedMeanwhile(Exception):
    """Another phone saved the hand this write meant since its form was opened, or saved the same
    hand: carries that hand and the number a new hand would take now. The player is asked which
    it was; only "save mine too" (a write that means no particular hand) adds another."""

    def __init__(self, hand: Hand | None, next_number: int):
        super().__init__(f"hand {hand.number if hand else '?'} was saved meanwhile; the next is {next_number}")
        self.hand = hand
        self.next_number = next_number


class IdempotencyConflict(Exception):
    """The same idempotency key was sent before with a different body."""


class SessionGone(Http404):
    """The session was deleted (or is not of its group) while a write waited for it.

    An expected race, not a bug: pages answer it with their 404 page and the
    API with a 404 in the error shape, and nothing is half-written.
    """

    def __init__(self):
        super().__init__(_("This session was deleted meanwhile; nothing was saved."))


def invalid(field: str, code: str, message: str) -> InvalidInput:
    return InvalidInput([Problem(field, code, message)])


def revision_row(*, subject, action, by: Actor, group=None, session=None, hand=None, before=None, after=None) -> Revision:
    # the group's id from the session when no group is given: no query for the group itself
    return Revision(
        group_id=group.pk if group is not None else session.group_id, session=session, hand=hand,
        subject=subject, action=action, before=before, after=after, by=by.label,
    )


def revise(**change) -> None:
    # a new hand's revision is written with the hand (hands.append_hand)
    revision_row(**change).save(force_insert=True)


def announce(session: Session, what: str) -> None:
    """Every phone at the table hears of the change once this transaction commits."""
    session_changed(session_id=session.pk, group_id=session.group_id, revision=session.revision, what=what)


def set_deleted(row, *, deleted: bool, subject: str, group: Group, by: Actor, session=None):
    """Soft delete or restore: nothing the app deletes is gone, and a revision says who did it."""
    row.deleted_at = timezone.now() if deleted else None
    row.save(update_fields=["deleted_at"])
    revise(group=group, session=session, subject=subject, by=by,
            action=Revision.DELETED if deleted else Revision.RESTORED)
    return row


def fingerprint_of(kind: str, entry: dict) -> str:
    canonical = json.dumps({"kind": kind, "entry": entry}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def made_before(made: str, scope: str, key: str | None, fingerprint: str):
    """What ``key`` made before in ``scope`` (a ``made``: "hand", "contract" or "payment"; the one
    store of keys, http/request_keys.py), or None; the same key sent with another request is a conflict."""
    row = request_keys.made_by(scope, key, made)
    if row is None:
        return None
    if row.made_fingerprint != fingerprint:
        raise IdempotencyConflict(key)
    return getattr(row, made)


def locked(session: Session) -> Session:
    """The session as it is now, its row locked until commit: hands are numbered and summed one at a time.

    A session deleted meanwhile (or not of its group) takes no more hands: SessionGone.
    """
    try:
        return Session.objects.live().select_for_update().get(pk=session.pk, group_id=session.group_id)
    except Session.DoesNotExist:
        raise SessionGone from None
