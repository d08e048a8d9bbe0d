"""Capability links: one lookup, through the link's group, for every page and API call."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied
from django.http import Http404

from mighty_ledger import services
from mighty_ledger.http.access import access_for
from mighty_ledger.models import Session
from tests.factories import SessionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def session():
    return SessionFactory(
        stake_per_point=Decimal("12.50"), currency="KRW", rounding_unit=Decimal("100.00"),
        played_on=date(2026, 11, 21), title="Thursday",
    )


def test_a_link_brings_the_session_its_url_names_in_the_same_query(session, django_assert_num_queries):
    with django_assert_num_queries(1):
        access = access_for(session.group.edit_token, session_id=session.pk)
        named = access.session(session.pk)
    stored = Session.objects.get(pk=session.pk)
    assert (named.pk, named.title, named.stake_per_point, named.totals) == (
        stored.pk, stored.title, stored.stake_per_point, stored.totals)
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


def test_a_deleted_session_is_reached_only_to_restore_it(session):
    services.session_delete(session=session)
    access = access_for(session.group.edit_token)

    assert access.session(session.pk, include_deleted=True).pk == session.pk


@pytest.mark.parametrize("token", ["not-a-token", "", "x" * 65, "abc\x00def"])
def test_an_unknown_link_is_unknown(session, token):
    with pytest.raises(Http404, match="Unknown link"):
        access_for(token, session_id=session.pk)


def test_a_view_link_cannot_edit(session):
    with pytest.raises(PermissionDenied):
        access_for(session.group.view_token).require_edit()
