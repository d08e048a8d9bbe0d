"""Writes that are safe to repeat (issue 12, points 7 and 8).

An Idempotency-Key's first answer comes back as it was for 24 hours, even after
the hand was edited; a repeat that arrives while the first is being written is
told so (409 request_in_progress) instead of writing again. Deleting a deleted
hand or restoring a live one changes nothing, and If-Match (or "version") makes
a delete or restore conditional.
"""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from mighty_ledger import services
from mighty_ledger.http import request_keys
from mighty_ledger.http.request_keys import RequestKey
from mighty_ledger.models import Hand, Revision, Session
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .conftest import Api, assert_error_shape


def hands_url(session) -> str:
    return f"/api/v1/sessions/{session.pk}/hands"


def send(edit, session, body=MADE_15_DIAMONDS, key="phone-1-hand-1"):
    return edit.post(hands_url(session), body, **{"Idempotency-Key": key})


# --- point 7: the first answer, as it was -------------------------------------------------------------


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


def test_the_same_key_with_another_hand_is_still_422(edit, session):
    send(edit, session)

    assert_error_shape(send(edit, session, {**MADE_15_DIAMONDS, "points": 17}), 422, "idempotency_key_reused")


def test_a_repeat_while_the_first_is_being_written_is_409_request_in_progress(edit, session, monkeypatch):
    # another transaction holds the key: the first request has not answered yet
    monkeypatch.setattr(request_keys, "_hold", lambda scope, key: False)

    response = send(edit, session)

    assert_error_shape(response, 409, "request_in_progress")
    assert response["Retry-After"] == "1"
    assert not Hand.objects.filter(session=session).exists()


def test_a_key_claimed_by_an_earlier_release_and_never_answered_is_taken_over(edit, session):
    RequestKey.objects.create(scope=request_keys.hand_scope(session.pk), key="phone-1-hand-1",
                              answered_at=timezone.now() - timedelta(minutes=5))

    assert send(edit, session).status_code == 201
    assert RequestKey.objects.get(key="phone-1-hand-1").status == 201


def test_after_24_hours_the_stored_answer_is_forgotten_but_the_hand_is_not_recorded_twice(edit, session):
    send(edit, session)
    edit.client.put(f"{hands_url(session)}/1", {**MADE_15_DIAMONDS, "points": 18, "version": 1}, format="json")
    RequestKey.objects.update(answered_at=timezone.now() - timedelta(hours=24, minutes=1))

    again = send(edit, session)
    send(edit, session, key="another-hand")  # a new key clears out the day-old ones

    assert again.status_code == 200 and again.json()["version"] == 2  # the hand as it is now
    assert Hand.objects.filter(session=session).count() == 2
    assert not RequestKey.objects.filter(answered_at__lt=timezone.now() - timedelta(hours=24)).exists()


@pytest.mark.postgres_only  # SQLite has one writer at a time: the repeat waits its turn, then gets the replay
@pytest.mark.django_db(transaction=True)
def test_a_duplicate_sent_while_the_first_is_being_written_is_told_to_wait():
    session = SessionFactory()
    token = session.group.edit_token
    writing, finish = threading.Event(), threading.Event()
    answers = {}

    def slow_insert(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(("INSERT", "WITH")) and "mighty_ledger_hand" in sql:
            writing.set()
            finish.wait(timeout=30)
        return execute(sql, params, many, context)

    def first():
        try:
            with connection.execute_wrapper(slow_insert):
                answers["first"] = send(Api(token), session)
        finally:
            connection.close()

    thread = threading.Thread(target=first)
    thread.start()
    assert writing.wait(timeout=30)
    try:
        answers["second"] = send(Api(token), session)
    finally:
        finish.set()
        thread.join(timeout=60)

    assert_error_shape(answers["second"], 409, "request_in_progress")
    assert answers["first"].status_code == 201
    assert send(Api(token), session).json() == answers["first"].json()
    assert Hand.objects.filter(session=session).count() == 1


# --- point 8: delete and restore are conditional ------------------------------------------------------


@pytest.fixture
def hand(session):
    return HandFactory(session=session)


def hand_url(session) -> str:
    return f"{hands_url(session)}/1"


def revisions(hand) -> int:
    return Revision.objects.filter(hand=hand).count()


def test_deleting_a_deleted_hand_changes_nothing(edit, session, hand):
    first = edit.client.delete(hand_url(session))
    written = revisions(hand)
    session.refresh_from_db()
    moved_to = session.revision

    again = edit.client.delete(hand_url(session))

    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()  # same version, still deleted
    assert revisions(hand) == written
    session.refresh_from_db()
    assert session.revision == moved_to  # no phone is told of a change that did not happen


def test_thirty_deletes_write_one_revision_and_move_the_version_once(edit, session, hand):
    for _ in range(30):
        edit.client.delete(hand_url(session))

    hand.refresh_from_db()
    assert hand.version == 2
    assert Revision.objects.filter(hand=hand, action=Revision.DELETED).count() == 1


def test_restoring_a_live_hand_changes_nothing(edit, session, hand):
    response = edit.post(f"{hand_url(session)}/restore")

    assert response.status_code == 200 and response.json()["version"] == 1
    assert revisions(hand) == 1  # its creation only


@pytest.mark.parametrize("if_match", ['"1"', "1"])
def test_a_delete_with_the_version_read_deletes(edit, session, hand, if_match):
    response = edit.client.delete(hand_url(session), headers={"If-Match": if_match})

    assert response.status_code == 200 and response.json()["deleted"] is True


def test_a_delete_of_a_hand_changed_since_it_was_read_is_409_with_the_hand(edit, session, hand):
    services.hand_amend(hand=hand, entry={**MADE_15_DIAMONDS, "points": 18}, version=1)

    response = edit.client.delete(hand_url(session), headers={"If-Match": '"1"'})

    assert_error_shape(response, 409, "stale_version")
    assert response.json()["hand"]["version"] == 2
    assert Hand.objects.get(pk=hand.pk).deleted_at is None


def test_a_restore_names_its_version_in_the_body(edit, session, hand):
    services.hand_delete(hand=hand)

    stale = edit.post(f"{hand_url(session)}/restore", {"version": 1})
    fresh = edit.post(f"{hand_url(session)}/restore", {"version": 2})

    assert_error_shape(stale, 409, "stale_version")
    assert fresh.status_code == 200 and fresh.json()["deleted"] is False


@pytest.mark.parametrize("if_match", ["abc", '"1', "1.5", "-1"])
def test_an_if_match_that_is_no_version_is_400(edit, session, hand, if_match):
    response = edit.client.delete(hand_url(session), headers={"If-Match": if_match})

    assert_error_shape(response, 400, "bad_version")


def test_a_session_delete_with_a_stale_if_match_is_409_with_the_session(edit, session, hand):
    read = edit.client.get(f"/api/v1/sessions/{session.pk}").json()["revision"]
    services.hand_record(session=Session.objects.get(pk=session.pk), entry=MADE_15_DIAMONDS)

    stale = edit.client.delete(f"/api/v1/sessions/{session.pk}", headers={"If-Match": f'"{read}"'})

    assert_error_shape(stale, 409, "stale_version")
    assert stale.json()["session"]["revision"] > read
    assert Session.objects.get(pk=session.pk).deleted_at is None


def test_a_session_delete_with_the_revision_read_deletes(edit, session, hand):
    read = edit.client.get(f"/api/v1/sessions/{session.pk}").json()["revision"]

    response = edit.client.delete(f"/api/v1/sessions/{session.pk}", headers={"If-Match": f'"{read}"'})

    assert response.status_code == 200
    assert Session.objects.get(pk=session.pk).deleted_at is not None


def test_the_web_delete_sent_twice_keeps_one_revision(client, session, hand):
    url = f"/g/{session.group.edit_token}/s/{session.pk}/h/1/delete/"

    client.post(url)
    client.post(url)

    assert Revision.objects.filter(hand=hand, action=Revision.DELETED).count() == 1


# --- point 2: a free-form field cannot grow a hand without bound --------------------------------------


def test_a_hand_carrying_more_than_8_kb_beside_it_is_400(edit, session):
    response = edit.post(hands_url(session), {**MADE_15_DIAMONDS, "note": "x" * 9000})

    assert_error_shape(response, 400, "too_large")
    assert not Hand.objects.filter(session=session).exists()


def test_a_hand_with_a_short_note_is_kept_with_it(edit, session):
    response = edit.post(hands_url(session), {**MADE_15_DIAMONDS, "note": "Bo dealt too fast"})

    assert response.status_code == 201 and response.json()["entry"]["note"] == "Bo dealt too fast"
