"""The benchmark's switches (benchmarks/switches.py): each replaces what it names while it is on and
puts it back, and each plain path reads what the mechanism it stands in for reads, so that
`make bench`'s "without" figures measure the same answers reached the plain way.
"""

from __future__ import annotations

import datetime

import pytest

from benchmarks import switches
from mighty_ledger import reads, services
from mighty_ledger.http import link_query
from mighty_ledger.models import Season
from mighty_ledger.reads import seasons, stats
from tests.factories import SessionFactory

# pagat example 1: 15 ♦ made with 16, the ace of spades called
MADE = {"dealer": "Ed", "declarer": "Ann", "contract": {"points": 15, "trump": "D"},
        "partner_call": {"type": "card", "cards": ["AS"]}, "partners": ["Cy"], "points": 16}


def fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields
            if field.attname not in instance.get_deferred_fields()}


@pytest.mark.parametrize("mechanism", switches.MECHANISMS)
def test_a_switch_replaces_what_it_names_while_on_and_puts_it_back(mechanism):
    replaced = switches._replacements([mechanism])
    before = [getattr(target, attribute) for target, attribute, _plain in replaced]

    with switches.switched_off(mechanism):
        assert [getattr(target, attribute) for target, attribute, _plain in replaced] == [
            plain for _target, _attribute, plain in replaced]
    assert [getattr(target, attribute) for target, attribute, _plain in replaced] == before


def test_an_unknown_mechanism_is_refused():
    with pytest.raises(ValueError, match="no mechanism"), switches.switched_off("row_cach"):
        pass


@pytest.fixture
def session():
    session = SessionFactory(seats=["Ann", "Bo", "Cy", "Di", "Ed"])
    for _ in range(3):
        services.hand_record(session=session, entry=dict(MADE))
    session.refresh_from_db()
    return session


@pytest.mark.django_db
def test_the_link_read_the_plain_way_is_the_link_written_once(session):
    token = session.group.view_token
    group, found = link_query.group_and_session(token, session.pk)
    plain_group, plain_found = switches._orm_group_and_session(token, session.pk)
    assert (fields(plain_group), fields(plain_found)) == (fields(group), fields(found))
    assert fields(switches._orm_group(token)) == fields(link_query.group(token))
    assert switches._orm_group_and_session("no-such-link", session.pk) is None


@pytest.mark.django_db
def test_the_reads_the_plain_way_are_the_statements_written_once(session):
    group = session.group
    Season.objects.create(group=group, name="Spring", starts=datetime.date(2026, 3, 1))
    step, plain = reads.board_step(group.edit_token, session.pk), switches._orm_board_step(group.edit_token, session.pk)
    assert [fields(row) for row in plain.board.rows] == [fields(row) for row in step.board.rows]
    assert (plain.in_progress, plain.board.next, fields(plain.session)) == (
        step.in_progress, step.board.next, fields(step.session))
    assert [fields(s) for s in switches._orm_group_sessions(group)] == [fields(s) for s in stats.group_sessions(group)]
    assert switches._orm_session_choices(group) == stats.session_choices(group)
    assert switches._orm_group_seasons(group) == seasons.group_seasons(group)
