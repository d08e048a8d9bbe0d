"""rows.py writes and reads exactly what the ORM would: same values in, same model out."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.http import Http404
from django.utils import timezone

from mighty_ledger import rows, services
from mighty_ledger.access import access_for
from mighty_ledger.models import Hand, Revision, Session
from tests.factories import MADE_15_DIAMONDS, SessionFactory

pytestmark = pytest.mark.django_db


def _fields(obj, *, leave=("id",)) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields if f.attname not in leave}


@pytest.fixture
def session():
    return SessionFactory(
        stake_per_point=Decimal("12.50"), currency="KRW", rounding_unit=Decimal("100.00"),
        played_on=date(2026, 11, 21), title="Thursday",
    )


FIVE_MINUTES_AGO = timezone.now() - timedelta(minutes=5)


def _hand(session, number: int) -> Hand:
    return Hand(
        session=session, number=number, entry={"declarer": "Ann", "note": "한 판", "cards": ["AS", "JOKER"]},
        result={"payments": {"Ann": 40, "Bo": -10}, "made": True, "nothing": None}, payments={"Ann": 40},
        running_totals={"Ann": 40}, pot_after=3, idempotency_key=None,
        created_at=FIVE_MINUTES_AGO,
    )


def test_a_hand_inserted_in_plain_sql_reads_back_as_one_saved_by_the_orm(session):
    by_orm, by_sql = _hand(session, 1), _hand(session, 2)
    by_orm.save(force_insert=True)
    rows.insert(by_sql)
    assert by_sql.pk is not None and not by_sql._state.adding
    stored_orm, stored_sql = Hand.objects.get(number=1), Hand.objects.get(number=2)
    leave = ("id", "number", "updated_at")
    assert _fields(stored_sql, leave=leave) == _fields(stored_orm, leave=leave)
    assert stored_sql.idempotency_key is None  # NULL, so the unique key constraint leaves it alone
    assert stored_sql.updated_at is not None  # auto_now, as save() sets it


def test_a_revision_with_no_hand_is_stored_with_nulls(session):
    revision = rows.insert(Revision(group_id=session.group_id, session=session, subject="session",
                                    action=Revision.CREATED, after={"seats": session.seats}, by="edit link …abcd"))
    stored = Revision.objects.get(pk=revision.pk)
    assert (stored.hand_id, stored.before, stored.after) == (None, None, {"seats": session.seats})


def test_a_session_read_in_plain_sql_equals_the_orm_s_read(session):
    fetched = rows.fetch_one(Session, "id = %s", [session.pk])
    assert _fields(fetched, leave=()) == _fields(Session.objects.get(pk=session.pk), leave=())
    assert isinstance(fetched.stake_per_point, Decimal) and isinstance(fetched.played_on, date)
    assert fetched.system_options["players"] == 5
    assert fetched._state.db == "default" and not fetched._state.adding


def test_no_matching_row_is_none(session):
    assert rows.fetch_one(Session, "id = %s AND deleted_at IS NULL", [session.pk + 1000]) is None


def test_a_locked_read_returns_the_same_session(session):
    assert rows.fetch_one(Session, "id = %s", [session.pk], lock=True).pk == session.pk


def test_an_update_writes_only_the_named_columns(session):
    session.totals = {"Ann": 7}
    session.title = "changed in memory only"
    assert _append(_hand(session, 1), _revision_of(session), session, session.revision) is True
    stored = Session.objects.get(pk=session.pk)
    assert (stored.totals, stored.title) == ({"Ann": 7}, "Thursday")


def test_a_row_to_update_that_is_gone_takes_nothing(session):
    gone = Session.objects.get(pk=session.pk)
    Session.objects.filter(pk=session.pk).delete()
    assert _append(_hand(gone, 1), _revision_of(gone), gone, gone.revision) is False
    assert not Hand.objects.exists() and not Revision.objects.filter(subject="hand").exists()


def test_inserting_a_row_that_already_has_a_key_is_refused(session):
    with pytest.raises(ValueError, match="already has a primary key"):
        rows.insert(session)


def test_a_deleted_session_takes_no_more_hands(session):
    services.session_delete(session=session)
    with pytest.raises(Session.DoesNotExist):
        services.hand_record(session=session, entry=MADE_15_DIAMONDS)
    assert not Hand.objects.exists()


def _revision_of(session) -> Revision:
    return Revision(group_id=session.group_id, session=session, subject="hand", action=Revision.CREATED,
                    after={"number": 1}, by="api …abcd")


def _append(hand, revision, session, read_at) -> bool:
    return rows.insert_if_updated(hand, revision, "hand", update_of=session,
                                  names=("hand_count", "totals", "revision"),
                                  only_if="revision = %s AND deleted_at IS NULL", params=[read_at])


def test_a_hand_with_its_session_update_and_revision_is_written_as_three_separate_writes_would(session):
    hand, revision = _hand(session, 1), _revision_of(session)
    read_at = session.revision
    session.hand_count, session.totals, session.revision = 1, {"Ann": 40}, read_at + 1

    assert _append(hand, revision, session, read_at) is True

    stored_hand = Hand.objects.get(pk=hand.pk)
    assert _fields(stored_hand, leave=("id", "updated_at")) == _fields(hand, leave=("id", "updated_at"))
    stored_revision = Revision.objects.get(pk=revision.pk)
    assert stored_revision.hand_id == hand.pk == revision.hand_id
    assert (stored_revision.after, stored_revision.by, stored_revision.created_at) == (
        {"number": 1}, "api …abcd", revision.created_at)
    stored_session = Session.objects.get(pk=session.pk)
    assert (stored_session.hand_count, stored_session.totals, stored_session.revision) == (1, {"Ann": 40}, read_at + 1)
    assert stored_session.title == "Thursday"


def test_a_session_that_moved_on_since_it_was_read_takes_nothing(session):
    read_at = session.revision
    Session.objects.filter(pk=session.pk).update(revision=read_at + 1)  # another hand landed meanwhile
    session.totals = {"Ann": 999}

    assert _append(_hand(session, 1), _revision_of(session), session, read_at) is False
    assert not Hand.objects.exists() and not Revision.objects.filter(subject="hand").exists()
    assert Session.objects.get(pk=session.pk).totals != {"Ann": 999}


def test_a_deleted_session_takes_nothing(session):
    Session.objects.filter(pk=session.pk).update(deleted_at=timezone.now())

    assert _append(_hand(session, 1), _revision_of(session), session, session.revision) is False
    assert not Hand.objects.exists()


def test_a_link_brings_the_session_its_url_names_in_the_same_query(session, django_assert_num_queries):
    with django_assert_num_queries(1):
        access = access_for(session.group.edit_token, session_id=session.pk)
        named = access.session(session.pk)
    assert _fields(named, leave=()) == _fields(Session.objects.get(pk=session.pk), leave=())
    assert access.group == session.group and access.can_edit


@pytest.mark.parametrize("whose", ["another group's", "deleted", "unknown"])
def test_a_link_with_a_session_it_cannot_reach_still_finds_its_group(session, whose):
    session_id = {
        "another group's": SessionFactory().pk,
        "deleted": services.session_delete(session=SessionFactory(group=session.group)).pk,
        "unknown": session.pk + 1000,
    }[whose]
    access = access_for(session.group.view_token, session_id=session_id)
    assert access.named_session is None and access.group == session.group and not access.can_edit
    with pytest.raises(Http404):
        access.session(session_id)


def test_an_unknown_link_with_a_session_is_still_unknown(session):
    with pytest.raises(Http404, match="Unknown link"):
        access_for("not-a-token", session_id=session.pk)
