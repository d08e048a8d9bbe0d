"""The link's query, written once per database, reads what the ORM reads (mighty_ledger/http/link_query.py).

Run on SQLite and on PostgreSQL (`make test`): dates, decimals and JSON come back through each
backend's own converters, so the models a view gets are the ones a queryset would have made.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.http import Http404
from django.utils import timezone

from mighty_ledger import services
from mighty_ledger.http import link_query
from mighty_ledger.http.access import EDIT, VIEW, access_for
from mighty_ledger.models import Group, Session
from tests.factories import SessionFactory

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


@pytest.fixture
def session():
    return SessionFactory(stake_per_point=Decimal("0.50"), currency="EUR", rounding_unit=Decimal("0.10"),
                          title="Friday")


def test_the_group_and_session_read_back_as_the_orm_reads_them(session):
    group, found = link_query.group_and_session(session.group.view_token, session.pk)

    assert fields(found) == fields(Session.objects.get(pk=session.pk))
    assert fields(group) == fields(Group.objects.get(pk=session.group.pk))
    assert found.group is group  # held, as select_related would: no second query
    assert isinstance(found.played_on, type(timezone.localdate())) and found.stake_per_point == Decimal("0.50")
    assert found.seats == session.seats and isinstance(found.system_options, dict)


@pytest.mark.parametrize(("link", "right"), [("edit_token", EDIT), ("view_token", VIEW)])
def test_either_link_opens_its_group_with_its_right(session, django_assert_num_queries, link, right):
    with django_assert_num_queries(1):
        access = access_for(getattr(session.group, link), session_id=session.pk)
        assert access.session(session.pk) == session
    assert access.right == right


def test_what_the_query_refuses(session):
    other = SessionFactory()
    assert link_query.group_and_session(session.group.edit_token, other.pk) is None  # another group's session
    assert link_query.group_and_session("no-such-link", session.pk) is None
    services.session_delete(session=session)
    assert link_query.group_and_session(session.group.edit_token, session.pk) is None
    with pytest.raises(Http404):
        access_for(session.group.edit_token, session_id=session.pk).session(session.pk)


def test_a_deleted_group_is_reached_only_to_be_restored(session):
    Group.objects.filter(pk=session.group.pk).update(deleted_at=timezone.now())
    assert link_query.group(session.group.edit_token) is None
    assert link_query.group(session.group.edit_token, include_deleted=True).pk == session.group.pk
    with pytest.raises(Http404):
        access_for(session.group.edit_token)
