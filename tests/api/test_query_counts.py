"""The API's lists and settlement run a fixed number of queries, however long the evening."""

import pytest

from tests.factories import MADE_15_DIAMONDS, bulk_hands

from .conftest import hands_url


@pytest.mark.parametrize("hands", [5, 300])
def test_listing_hands_runs_the_same_queries_whatever_the_hands(edit, session, django_assert_num_queries, hands):
    bulk_hands(session, hands)
    with django_assert_num_queries(3):
        # 1. the group by the bearer token, with the URL's session if it is a live one of that group
        # 2. the count of its live hands, for the page's "count"
        # 3. one page of those hands
        response = edit.get(hands_url(session))
    assert response.status_code == 200
    assert response.json()["count"] == hands


@pytest.mark.parametrize("hands", [5, 300])
def test_the_settlement_runs_the_same_queries_whatever_the_hands(edit, session, django_assert_num_queries, hands):
    bulk_hands(session, hands)
    with django_assert_num_queries(4):
        # 1. the group by the bearer token, with the URL's session if it is a live one of that group
        # 2. every live hand's number, kind and payments (for the hand-by-hand transfers)
        # 3. the payments marked against the settlement
        # 4. the players' pay handles, for each transfer's payee (edit link only; issue 39)
        response = edit.get(f"/api/v1/sessions/{session.pk}/settlement")
    assert response.status_code == 200


@pytest.mark.parametrize("hands", [5, 300])
def test_recording_a_hand_runs_the_same_queries_whatever_the_hands(edit, session, django_assert_num_queries, hands):
    bulk_hands(session, hands)
    # 1. the group by the bearer token, with the URL's session if it is a live one of that group;
    # 2. a savepoint (the test's transaction stands for the request's), 3. the session, 4. the hand,
    # 5. its revision, 6. the savepoint released
    with django_assert_num_queries(6):
        response = edit.post(hands_url(session), dict(MADE_15_DIAMONDS))
    assert response.status_code == 201
    assert response.json()["number"] == hands + 1
