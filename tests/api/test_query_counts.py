"""The API's lists and settlement run a fixed number of queries, however long the evening."""

import pytest

from tests.factories import bulk_hands

from .conftest import hands_url


@pytest.mark.parametrize("hands", [5, 300])
def test_listing_hands_runs_the_same_queries_whatever_the_hands(edit, session, django_assert_num_queries, hands):
    bulk_hands(session, hands)
    with django_assert_num_queries(4):
        # 1. the group by the bearer token
        # 2. the session, within that group
        # 3. the count of its live hands, for the page's "count"
        # 4. one page of those hands
        response = edit.get(hands_url(session))
    assert response.status_code == 200
    assert response.json()["count"] == hands


@pytest.mark.parametrize("hands", [5, 300])
def test_the_settlement_runs_the_same_queries_whatever_the_hands(edit, session, django_assert_num_queries, hands):
    bulk_hands(session, hands)
    with django_assert_num_queries(3):
        # 1. the group by the bearer token
        # 2. the session, within that group
        # 3. every live hand's number, kind and payments (for the hand-by-hand transfers)
        response = edit.get(f"/api/v1/sessions/{session.pk}/settlement")
    assert response.status_code == 200
