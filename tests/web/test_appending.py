"""A new hand's three writes (four with its one-time key), all or nothing: the session moves on only
from the revision the hand was scored against (services.hands.append_hand)."""

from __future__ import annotations

import copy

import pytest
from django.forms.models import model_to_dict

from mighty_ledger import services
from mighty_ledger.models import Hand, RequestKey, Revision, Session
from mighty_ledger.services.changes import revision_row
from mighty_ledger.services.hands import append_hand
from tests.factories import MADE_15_DIAMONDS, SessionFactory

pytestmark = pytest.mark.django_db

# what differs between two writes of the same hand: the rows' own ids and when they were written
NOT_COMPARED = {"id", "hand", "created_at", "updated_at"}


def a_new_hand(session: Session) -> tuple[Session, int, Hand, Revision]:
    """The session moved on by one hand, the revision it was read at, the hand and its revision,
    as hand_record prepares them."""
    scored = services.scored_hand(session, dict(MADE_15_DIAMONDS))
    hand = Hand(session=session, number=session.hand_count + 1, kind=Hand.SCORED, entry=scored.entry,
                result=scored.result, explanation=scored.explanation, sides=scored.sides,
                payments=scored.result["payments"], running_totals=scored.result["payments"])
    moved = copy.copy(session)
    moved.hand_count, moved.totals, moved.revision = hand.number, hand.running_totals, session.revision + 1
    revision = revision_row(session=moved, hand=hand, subject="hand", action=Revision.CREATED,
                            by=services.SYSTEM, after={"number": hand.number})
    return moved, session.revision, hand, revision


def stored(hand_id: int) -> tuple[dict, dict, dict, dict | None]:
    hand = Hand.objects.get(pk=hand_id)
    session = Session.objects.get(pk=hand.session_id)
    revision = Revision.objects.get(hand_id=hand_id)
    key = RequestKey.objects.filter(hand_id=hand_id).first()

    def fields(row):
        return {k: v for k, v in model_to_dict(row).items() if k not in NOT_COMPARED}
    return (fields(hand), fields(revision), {k: getattr(session, k) for k in ("hand_count", "totals", "pot", "revision")},
            key and {**fields(key), "scope": key.scope.replace(str(session.pk), "")})


def test_a_hand_is_written_with_its_revision_and_moves_the_session_on():
    session = SessionFactory()
    moved, read_at, hand, revision = a_new_hand(session)

    assert append_hand(moved, read_at, hand, revision)

    hand_row, revision_row_, session_row, _ = stored(hand.pk)
    assert hand_row["number"] == 1 and hand_row["payments"] == hand.payments and hand_row["deleted_at"] is None
    assert revision_row_["action"] == Revision.CREATED and revision_row_["after"] == {"number": 1}
    assert session_row == {"hand_count": 1, "totals": hand.running_totals, "pot": 0, "revision": read_at + 1}


def test_nothing_is_written_when_the_session_moved_on_or_was_deleted():
    session = SessionFactory()
    moved, read_at, hand, revision = a_new_hand(session)
    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))  # another phone was quicker

    assert not append_hand(moved, read_at, hand, revision)
    assert hand.pk is None and Hand.objects.count() == 1

    current = Session.objects.get(pk=session.pk)
    services.session_delete(session=current)
    moved, read_at, hand, revision = a_new_hand(current)
    assert not append_hand(moved, read_at, hand, revision)
    assert Hand.objects.count() == 1 and Session.objects.get(pk=session.pk).revision == current.revision
