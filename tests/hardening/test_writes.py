"""Writes that are safe to repeat (issue 12, point 8): deleting a deleted hand or restoring a
live one changes nothing, and If-Match (or "version") makes a delete or restore conditional. An
Idempotency-Key's first answer (point 7) is tested with every other one-time key, in tests/keys/.
"""

import pytest

from mighty_ledger import services
from mighty_ledger.models import Hand, Revision, Session
from tests.factories import MADE_15_DIAMONDS, HandFactory

from .conftest import assert_error_shape


def hands_url(session) -> str:
    return f"/api/v1/sessions/{session.pk}/hands"


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
