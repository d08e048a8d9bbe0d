"""The edit form opens with the hand as it was recorded, however a client wrote it.

HAND_JSON lets a hand give its bid alone (the contract is then the bid) or a bid the same
as its contract. Recorded that way over the API, the hand opened on a phone's edit page
with no contract tapped and "the auction bid differs" ticked.
"""

import pytest
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.models import Hand
from tests.factories import MADE_15_DIAMONDS

from .test_table import form_data

BID_ONLY = {key: value for key, value in MADE_15_DIAMONDS.items() if key != "contract"} | {
    "bid": MADE_15_DIAMONDS["contract"]}


def edit_url(session) -> str:
    return reverse("hand_edit", args=[session.group.edit_token, session.pk, 1])


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param(BID_ONLY, id="the-bid-alone"),
        pytest.param(MADE_15_DIAMONDS | {"bid": MADE_15_DIAMONDS["contract"]}, id="a-bid-the-same-as-the-contract"),
    ],
)
def test_the_edit_form_shows_the_contract_played_and_no_other_bid(client, session, entry):
    services.hand_record(session=session, entry=entry)

    form = client.get(edit_url(session)).context["form"]

    assert (form.initial["contract_points"], form.initial["contract_trump"]) == (15, "D")
    assert not form.initial["bid_differs"]


def test_a_bid_alone_saved_again_from_the_edit_form_scores_the_same(client, session):
    hand, _ = services.hand_record(session=session, entry=BID_ONLY)

    response = client.post(edit_url(session), form_data(hand.entry, hand.version))

    assert response.status_code == 302, response.content
    assert Hand.objects.get(pk=hand.pk).payments == hand.payments


def test_a_bid_that_differs_still_opens_ticked(client, session):
    services.hand_record(session=session, entry=MADE_15_DIAMONDS | {"bid": {"points": 13, "trump": "S"}})

    form = client.get(edit_url(session)).context["form"]

    assert form.initial["bid_differs"] and (form.initial["bid_points"], form.initial["bid_trump"]) == (13, "S")


# --- every other page reads the contract: the bid alone is kept as the contract too ----------------


def test_a_bid_alone_is_kept_as_the_contract_too(session):
    hand, _ = services.hand_record(session=session, entry=BID_ONLY)

    assert hand.entry["contract"] == hand.entry["bid"] == {"points": 15, "trump": "D"}


def test_a_bid_alone_counts_in_the_declarers_average_contract(client, session):
    services.hand_record(session=session, entry=BID_ONLY)

    response = client.get("/api/v1/stats", headers={"Authorization": f"Bearer {session.group.edit_token}"})

    ann = next(p for p in response.json()["players"] if p["name"] == "Ann")
    assert ann["declarer"]["average_contract"] == 15


def test_a_bad_bid_alone_is_said_once(client, session):
    body = BID_ONLY | {"bid": {"points": 99, "trump": "D"}}

    response = client.post(f"/api/v1/sessions/{session.pk}/hands", body, content_type="application/json",
                           headers={"Authorization": f"Bearer {session.group.edit_token}"})

    assert response.status_code == 400
    assert len(response.json()["errors"]) == 1, response.json()
