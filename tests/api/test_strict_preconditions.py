"""What HTTP and JSON say, taken at their word (issue 36, the smaller points).

If-Match compares entity tags strongly (RFC 9110 13.1.1): a weak tag matches no
version, so the write is refused as a stale one, with the thing as it is now. A
JSON boolean is true or false: "yes", 1 or "true" is refused in the error shape.
"""

import pytest

from mighty_ledger.models import Hand, Payment, Session
from tests.factories import HandFactory

from .conftest import assert_error_shape


@pytest.fixture
def hand(session):
    return HandFactory(session=session)


def hand_url(session) -> str:
    return f"/api/v1/sessions/{session.pk}/hands/1"


@pytest.mark.parametrize("if_match", ['W/"1"', "W/1"])
def test_a_weak_tag_never_matches_a_hands_version(edit, session, hand, if_match):
    response = edit.client.delete(hand_url(session), headers={"If-Match": if_match})

    assert_error_shape(response, 409, "stale_version")
    assert response.json()["hand"]["version"] == 1  # the hand as it is, to read its version again
    assert Hand.objects.get(pk=hand.pk).deleted_at is None


def test_a_weak_tag_never_matches_a_hand_amended(edit, session, hand):
    body = {**hand.entry, "points": 18}

    response = edit.client.put(hand_url(session), body, format="json", headers={"If-Match": 'W/"1"'})

    assert_error_shape(response, 409, "stale_version")
    assert Hand.objects.get(pk=hand.pk).version == 1


def test_a_weak_tag_never_matches_a_sessions_revision(edit, session, hand):
    revision = edit.get(f"/api/v1/sessions/{session.pk}").json()["revision"]

    response = edit.client.delete(f"/api/v1/sessions/{session.pk}", headers={"If-Match": f'W/"{revision}"'})

    assert_error_shape(response, 409, "stale_version")
    assert Session.objects.get(pk=session.pk).deleted_at is None


def test_the_strong_tag_read_still_matches(edit, session, hand):
    response = edit.client.delete(hand_url(session), headers={"If-Match": '"1"'})

    assert response.status_code == 200 and response.json()["deleted"] is True


@pytest.mark.parametrize("overpay", ["yes", "true", 1, "no", 0, None])
def test_overpay_is_a_json_boolean_or_refused(edit, session, hand, overpay):
    body = {"from": "Bo", "to": "Ann", "amount": "1", "overpay": overpay}

    response = edit.post(f"/api/v1/sessions/{session.pk}/payments", body)

    (problem,) = assert_error_shape(response, 400)
    assert problem["field"] == "overpay"
    assert not Payment.objects.exists()


def test_overpay_true_still_records_a_payment_beyond_what_is_owed(edit, session, hand):
    body = {"from": "Bo", "to": "Ann", "amount": "1000", "overpay": True}

    response = edit.post(f"/api/v1/sessions/{session.pk}/payments", body)

    assert response.status_code == 201, response.content
    assert Payment.objects.count() == 1
