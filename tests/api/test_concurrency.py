"""Phones posting at once: hand numbers stay contiguous and no edit is lost (one key sent at once:
tests/keys/test_at_once.py).

Real threads, each with its own database connection (Django's connections are
per thread), released at the start together by a barrier. Runs on SQLite (the
default suite, where IMMEDIATE transactions make writers wait their turn) and on
PostgreSQL (`make test`, where the session row lock does).
"""

import threading

import pytest
from django.db import connection

from mighty_ledger.models import Hand
from tests.factories import HandFactory, SessionFactory

from .conftest import MADE_15_DIAMONDS, Api, hands_url

pytestmark = pytest.mark.django_db(transaction=True)


def at_once(count: int, request) -> list:
    """Run request(i) in `count` threads started together; their responses, in thread order."""
    barrier = threading.Barrier(count)
    responses: list = [None] * count

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            responses[i] = request(i)
        except Exception as error:  # reported by the assertion below, not lost in the thread
            responses[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a request never finished"
    failures = [r for r in responses if isinstance(r, Exception)]
    assert not failures, failures
    return responses


def codes(responses) -> list[int]:
    """The status codes of ``at_once``'s responses, sorted: which answer came first does not matter."""
    return sorted(response.status_code for response in responses)


def test_twenty_phones_posting_at_once_get_hands_one_to_twenty():
    session = SessionFactory()
    token = session.group.edit_token

    responses = at_once(20, lambda i: Api(token).post(hands_url(session), MADE_15_DIAMONDS))

    assert [r.status_code for r in responses] == [201] * 20, [r.content for r in responses if r.status_code != 201]
    assert sorted(r.json()["number"] for r in responses) == list(range(1, 21))
    numbers = list(Hand.objects.filter(session=session).order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, 21))
    session.refresh_from_db()
    assert session.hand_count == 20
    last = Hand.objects.get(session=session, number=20)
    # running totals were never raced: the last hand's totals are 20 times one hand's payments
    one = Hand.objects.get(session=session, number=1).payments
    assert last.running_totals == session.totals == {seat: 20 * amount for seat, amount in one.items()}


def test_two_stale_updates_at_once_give_exactly_one_409():
    session = SessionFactory()
    HandFactory(session=session)
    token = session.group.edit_token
    url = f"{hands_url(session)}/1"
    edits = [{**MADE_15_DIAMONDS, "points": 14, "version": 1}, {**MADE_15_DIAMONDS, "points": 18, "version": 1}]

    responses = at_once(2, lambda i: Api(token).put(url, edits[i]))

    assert sorted(r.status_code for r in responses) == [200, 409]
    winner = next(r for r in responses if r.status_code == 200).json()
    loser = next(r for r in responses if r.status_code == 409).json()
    # the loser is shown the winner's hand, so nothing is overwritten silently
    assert loser["hand"] == winner
    assert Hand.objects.get(session=session, number=1).version == 2
