"""Recording a hand: scored from the session as read, written only if nothing landed since."""

import pytest

from mighty_ledger import services
from mighty_ledger.models import Hand, Revision, Session
from tests.factories import MADE_15_DIAMONDS

pytestmark = pytest.mark.django_db


def test_a_hand_lands_as_the_next_number_with_its_revision(session):
    hand, created = services.hand_record(session=session, entry=MADE_15_DIAMONDS)

    stored = Session.objects.get(pk=session.pk)
    assert created and hand.number == 1 == stored.hand_count
    assert stored.totals == hand.running_totals == hand.payments
    assert stored.revision == session.revision + 1
    assert Revision.objects.get(hand=hand).after["number"] == 1


def test_the_callers_session_is_left_as_it_was_read(session):
    before = (session.hand_count, dict(session.totals), session.revision)
    services.hand_record(session=session, entry=MADE_15_DIAMONDS)
    assert (session.hand_count, session.totals, session.revision) == before


def test_a_session_read_before_another_hand_landed_numbers_the_hand_after_it(session):
    read_early = Session.objects.get(pk=session.pk)
    first, _ = services.hand_record(session=session, entry=MADE_15_DIAMONDS)

    second, created = services.hand_record(session=read_early, entry=MADE_15_DIAMONDS)

    assert created and second.number == 2
    stored = Session.objects.get(pk=session.pk)
    assert stored.totals == second.running_totals == {
        seat: 2 * paid for seat, paid in first.payments.items()
    }
    assert (stored.hand_count, stored.revision) == (2, read_early.revision + 2)
    assert list(Hand.objects.values_list("number", flat=True)) == [1, 2]


def test_a_session_deleted_after_it_was_read_takes_no_hand(session):
    read_early = Session.objects.get(pk=session.pk)
    services.session_delete(session=session)

    with pytest.raises(services.SessionGone):
        services.hand_record(session=read_early, entry=MADE_15_DIAMONDS)
    assert not Hand.objects.exists()


@pytest.mark.postgres_only
def test_postgresql_keeps_the_statements_that_record_a_hand_prepared(session):
    from django.db import connection

    for _ in range(6):  # psycopg prepares a statement on the connection's fifth run of it
        services.hand_record(session=Session.objects.get(pk=session.pk), entry=MADE_15_DIAMONDS)

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    # the session's compare-and-swap and the hand's insert are parsed and planned once per connection
    assert any(s.lstrip().startswith('UPDATE "mighty_ledger_session"') for s in prepared), prepared
    assert any(s.lstrip().startswith('INSERT INTO "mighty_ledger_hand"') for s in prepared), prepared
