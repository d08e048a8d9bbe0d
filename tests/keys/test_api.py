"""The API's Idempotency-Key (issue 12, point 7): a hand's first answer comes back as it was for 24
hours, even after the hand was edited; a repeat that arrives while the first is being written is
told so (409 request_in_progress) instead of writing again; and after the 24 hours the hand is
still recorded once, as the services find what its key made.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from mighty_ledger import services
from mighty_ledger.http import request_keys
from mighty_ledger.models import Hand, RequestKey, Session
from tests.factories import MADE_15_DIAMONDS

from .conftest import a_day_passes, assert_error_shape, hands_url


def send(edit, session, body=MADE_15_DIAMONDS, key="phone-1-hand-1"):
    return edit.post(hands_url(session), body, **{"Idempotency-Key": key})


def test_a_replay_returns_the_first_answer_even_after_the_hand_was_edited(edit, session):
    first = send(edit, session)
    edit.client.put(f"{hands_url(session)}/1", {**MADE_15_DIAMONDS, "points": 18, "version": 1}, format="json")

    again = send(edit, session)

    assert first.status_code == 201
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()  # version 1, 16 points: as it was answered
    assert Hand.objects.get(session=session).version == 2


def test_seats_and_system_equal_to_the_sessions_do_not_make_a_repeat_different(edit, session):
    send(edit, session)

    again = send(edit, session, {**MADE_15_DIAMONDS, "seats": session.seats, "system": session.preset})

    assert again.status_code == 200
    assert Hand.objects.filter(session=session).count() == 1


def test_a_repeat_while_the_first_is_being_written_is_409_request_in_progress(edit, session, monkeypatch):
    # another transaction holds the key: the first request has not answered yet
    monkeypatch.setattr(request_keys, "_hold", lambda scope, key: False)

    response = send(edit, session)

    assert_error_shape(response, 409, "request_in_progress")
    assert response["Retry-After"] == "1"
    assert not Hand.objects.filter(session=session).exists()


def test_a_key_whose_row_holds_no_answer_and_made_nothing_is_taken_over(edit, session):
    # as an earlier release left a key it claimed in a statement of its own and never answered
    RequestKey.objects.create(scope=request_keys.hand_scope(session.pk), key="phone-1-hand-1",
                              answered_at=timezone.now() - timedelta(minutes=5))

    assert send(edit, session).status_code == 201
    assert RequestKey.objects.get(key="phone-1-hand-1").status == 201


def test_after_24_hours_the_stored_answer_is_forgotten_but_the_hand_is_not_recorded_twice(edit, session):
    send(edit, session)
    edit.client.put(f"{hands_url(session)}/1", {**MADE_15_DIAMONDS, "points": 18, "version": 1}, format="json")
    a_day_passes()

    again = send(edit, session)
    send(edit, session, key="another-hand")  # a new key clears out the day-old answers

    assert again.status_code == 200 and again.json()["version"] == 2  # the hand as it is now
    assert Hand.objects.filter(session=session).count() == 2
    assert not RequestKey.objects.filter(answered_at__lt=timezone.now() - timedelta(hours=24)).exists()


# --- the services find what a key made ------------------------------------------------------------


def test_a_resend_that_finds_its_hand_already_landed_gets_that_hand(session):
    read_early = Session.objects.get(pk=session.pk)
    first, _ = services.hand_record(session=session, entry=MADE_15_DIAMONDS, idempotency_key="hand-1")

    again, created = services.hand_record(session=read_early, entry=MADE_15_DIAMONDS, idempotency_key="hand-1")

    assert (again.pk, created) == (first.pk, False)
    assert Hand.objects.count() == 1


def test_a_retry_of_the_save_that_made_the_hand_answers_that_hand(session):
    # the answer was lost on the way back: the same key again is the same hand, not "saved meanwhile"
    first, _ = services.hand_record(session=session, entry=MADE_15_DIAMONDS, idempotency_key="k1",
                                    meant=services.Meant(number=1, seen=0))

    again, created = services.hand_record(session=session, entry=MADE_15_DIAMONDS, idempotency_key="k1",
                                          meant=services.Meant(number=1, seen=0))

    assert again == first and not created
