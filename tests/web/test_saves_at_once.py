"""Phones that tap Save on one hand at the same moment: the hand is stored once, and every other
phone is asked, never given a silent copy.

Real threads, each with its own database connection, released together by a barrier, on SQLite
(IMMEDIATE transactions make writers wait their turn) and on PostgreSQL (the session's row lock
does). Each phone opened its form before any of them saved, so each means hand 1.
"""

from __future__ import annotations

import pytest
from django.test import Client

from mighty_ledger.models import Hand
from tests.api.conftest import Api, hands_url
from tests.api.test_concurrency import at_once
from tests.factories import MADE_15_DIAMONDS, SessionFactory
from tests.live.test_table_pages import ANN_15_DIAMONDS, form_data, url
from tests.web.test_same_hand import opened

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 5


def one_hand_from(phones: int, name: str, entry: dict) -> tuple[list, object]:
    """``phones`` phones open the form ``name`` on a new session and tap Save on ``entry`` at once."""
    session = SessionFactory()
    clients = [Client() for _ in range(phones)]
    forms = [opened(client, session, name) for client in clients]
    return at_once(phones, lambda i: clients[i].post(url(name, session), form_data(
        entry, **forms[i], request_key=f"phone-{i}-one-time-key"))), session


@pytest.mark.parametrize("attempt", range(ROUNDS))
@pytest.mark.parametrize("phones", [2, 3])
def test_phones_saving_one_hand_at_once_store_it_once_and_ask_the_others(phones, attempt):
    responses, session = one_hand_from(phones, "hand_new", MADE_15_DIAMONDS)

    assert sorted(r.status_code for r in responses) == [302] + [409] * (phones - 1)
    assert Hand.objects.filter(session=session).count() == 1


@pytest.mark.parametrize("attempt", range(ROUNDS))
def test_two_phones_recording_the_contract_at_once_record_it_once(attempt):
    responses, session = one_hand_from(2, "contract_new", ANN_15_DIAMONDS)

    assert sorted(r.status_code for r in responses) == [302, 409]
    assert session.contracts.count() == 1


@pytest.mark.parametrize("attempt", range(ROUNDS))
def test_clients_posting_the_same_hand_number_at_once_through_the_api_record_it_once(attempt):
    session = SessionFactory()
    token = session.group.edit_token

    responses = at_once(3, lambda i: Api(token).post(hands_url(session), {**MADE_15_DIAMONDS, "number": 1}))

    assert sorted(r.status_code for r in responses) == [201, 409, 409]
    asked = [r.json() for r in responses if r.status_code == 409]
    assert all(body["hand"]["number"] == 1 and body["next_number"] == 2 for body in asked)
    assert Hand.objects.filter(session=session).count() == 1
