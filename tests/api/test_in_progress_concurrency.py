"""Phones opening the hand in progress at the same moment: exactly one wins, the others see it.

Real threads with their own connections, released together (see test_concurrency.py);
on PostgreSQL (`make test`) the session's row lock and the partial unique index decide,
on SQLite its IMMEDIATE transactions do.
"""

import pytest

from mighty_ledger.models import Contract, Hand
from tests.factories import SessionFactory

from .test_concurrency import at_once
from .test_in_progress import ANN_15_DIAMONDS, ANN_16_NT, Api, contract_url, contracts_url

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_phones_opening_at_once_make_one_hand_in_progress():
    session = SessionFactory()
    token = session.group.edit_token
    bodies = [ANN_15_DIAMONDS, ANN_16_NT]

    responses = at_once(2, lambda i: Api(token).post(contracts_url(session), bodies[i]))

    assert sorted(r.status_code for r in responses) == [201, 409], [r.content for r in responses]
    winner = next(r.json() for r in responses if r.status_code == 201)
    loser = next(r.json() for r in responses if r.status_code == 409)
    assert loser["contract"] == winner  # the phone that lost is shown the one being played
    assert Contract.objects.filter(session=session).count() == 1


def test_six_phones_opening_at_once_make_one_hand_in_progress():
    session = SessionFactory()
    token = session.group.edit_token

    responses = at_once(6, lambda i: Api(token).post(contracts_url(session), ANN_15_DIAMONDS))

    assert sorted(r.status_code for r in responses) == [201] + [409] * 5
    assert Contract.objects.filter(session=session, status=Contract.OPEN).count() == 1


def test_two_phones_completing_at_once_record_one_hand():
    session = SessionFactory()
    token = session.group.edit_token
    contract = Api(token).post(contracts_url(session), ANN_15_DIAMONDS).json()
    body = {"version": contract["version"], "partners": ["Cy"], "points": 16}

    responses = at_once(2, lambda i: Api(token).post(contract_url(session, contract["id"], "complete"), body))

    assert sorted(r.status_code for r in responses) == [200, 409]
    assert list(Hand.objects.filter(session=session).values_list("number", flat=True)) == [1]
    session.refresh_from_db()
    assert session.totals["Ann"] == 10
