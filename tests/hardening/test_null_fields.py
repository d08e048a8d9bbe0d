"""A field sent as null is a field not sent, as "options": null is no options.

A client's probe recorded hands with "partners": null, "discards": null, "contract": null
beside a bid: each was kept as sent, and from then on the group's statistics, every
player's page, the session's history, its CSV and the hand's edit page answered 500.
And "partners": null with a called card was scored as the declarer alone, which a hand
that names nobody is never scored as.
"""

import pytest

from mighty_ledger.models import Contract, Hand
from tests.factories import MADE_15_DIAMONDS

from .conftest import assert_error_shape


def hands_url(session) -> str:
    return f"/api/v1/sessions/{session.pk}/hands"


def pages_of(session) -> list[str]:
    token = session.group.edit_token
    at = f"/g/{token}/s/{session.pk}"
    return [f"{at}/history/", f"{at}/h/1/", f"{at}/h/1/edit/", f"{at}/hands.csv", f"{at}/settle/",
            f"/g/{token}/stats/", f"/g/{token}/players/Ann/", f"/g/{token}/export.json"]


@pytest.mark.parametrize(
    "nulls",
    [
        pytest.param({"discards": None}, id="discards"),
        pytest.param({"sitting_out": None}, id="sitting-out"),
        pytest.param({"bid": None}, id="bid"),
        pytest.param({"contract": None, "bid": {"points": 15, "trump": "D"}}, id="contract-beside-a-bid"),
        pytest.param({"dealer": None}, id="dealer"),
        pytest.param({"defender_points": None}, id="defender-points"),
        pytest.param({"conceded_by": None}, id="conceded-by"),
        pytest.param({"entry": None}, id="entry"),
    ],
)
def test_a_hand_with_a_null_field_is_kept_without_it_and_every_page_still_answers(edit, session, client, nulls):
    response = edit.post(hands_url(session), {**MADE_15_DIAMONDS, **nulls})
    assert response.status_code == 201, response.content

    stored = Hand.objects.get(session=session, number=1).entry
    assert None not in stored.values(), stored
    assert response.json()["entry"] == stored
    for page in pages_of(session):
        assert client.get(page).status_code == 200, page
    assert edit.client.get("/api/v1/stats").status_code == 200


def test_partners_null_with_a_called_card_is_asked_about_not_scored_alone(edit, session):
    response = edit.post(hands_url(session), {**MADE_15_DIAMONDS, "partners": None})

    errors = assert_error_shape(response, 400, "partner_unanswered")
    assert [e["field"] for e in errors] == ["partners"]
    assert not Hand.objects.filter(session=session).exists()


def test_a_replaced_hand_with_a_null_field_is_kept_without_it(edit, session, client):
    assert edit.post(hands_url(session), MADE_15_DIAMONDS).status_code == 201

    response = edit.client.put(f"{hands_url(session)}/1", {**MADE_15_DIAMONDS, "discards": None, "version": 1},
                               format="json")

    assert response.status_code == 200, response.content
    assert None not in Hand.objects.get(session=session, number=1).entry.values()
    for page in pages_of(session):
        assert client.get(page).status_code == 200, page


def test_a_hand_in_progress_with_a_null_field_is_kept_without_it(edit, session):
    contract = {key: MADE_15_DIAMONDS[key] for key in ("dealer", "declarer", "contract", "partner_call")}

    response = edit.post(f"/api/v1/sessions/{session.pk}/contracts", {**contract, "sitting_out": None})

    assert response.status_code == 201, response.content
    assert None not in Contract.objects.get(session=session).entry.values()


def test_a_hand_whose_contract_and_bid_are_both_null_is_400_not_a_500(edit, session):
    response = edit.post(hands_url(session), {**MADE_15_DIAMONDS, "contract": None, "bid": None})

    assert_error_shape(response, 400, "missing")
    assert not Hand.objects.filter(session=session).exists()
