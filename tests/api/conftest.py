from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from tests.factories import MADE_15_DIAMONDS, SEATS

__all__ = ["MADE_15_DIAMONDS"]  # the API tests import the example hand from here

# HAND_JSON.md's example request: 16 NT made with 17, the Joker called
HAND_JSON_EXAMPLE = {
    "system": "pagat-standard",
    "seats": list(SEATS),
    "sitting_out": [],
    "dealer": "Ed",
    "declarer": "Ann",
    "bid": {"points": 15, "trump": "S"},
    "contract": {"points": 16, "trump": "NT"},
    "partner_call": {"type": "card", "cards": ["JOKER"]},
    "partners": ["Cy"],
    "discards": ["2S", "3H", "10D"],
    "points": 17,
    "outcome": "played",
}


class Api:
    """A JSON client that sends a link's token as 'Authorization: Bearer <token>'."""

    def __init__(self, token: str | None = None):
        self.client = APIClient()
        if token is not None:
            self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    def get(self, url, **params):
        return self.client.get(url, params)

    def post(self, url, body=None, **headers):
        return self.client.post(url, body, format="json", headers=headers)

    def put(self, url, body=None, **headers):
        return self.client.put(url, body, format="json", headers=headers)

    def patch(self, url, body=None, **headers):
        return self.client.patch(url, body, format="json", headers=headers)

    def delete(self, url):
        return self.client.delete(url)


@pytest.fixture
def anonymous():
    return Api()


@pytest.fixture
def group(session):
    return session.group


@pytest.fixture
def edit(group):
    return Api(group.edit_token)


@pytest.fixture
def view(group):
    return Api(group.view_token)


def hands_url(session) -> str:
    return f"/api/v1/sessions/{session.pk}/hands"


def assert_error_shape(response, status: int, code: str | None = None) -> list[dict]:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) >= {"errors"}
    assert body["errors"], body
    for problem in body["errors"]:
        assert set(problem) == {"field", "code", "message"}
        assert isinstance(problem["message"], str) and problem["message"]
    if code is not None:
        assert code in [problem["code"] for problem in body["errors"]], body
    return body["errors"]


def owed_by_bo_to_ann(session) -> Decimal:
    """What Bo still owes Ann in ``session``, as its settlement counts it."""
    money = Api(session.group.view_token).client.get(f"/api/v1/sessions/{session.pk}/settlement").json()["money"]
    return min(-Decimal(money["Bo"]), Decimal(money["Ann"]))
