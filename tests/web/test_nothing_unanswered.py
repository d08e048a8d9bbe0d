"""No hand is scored with an answer nobody gave (issue 20): a called card's partner is named or
"declarer alone" is tapped, from every face; no control arrives pre-set to a value that changes
payments, and the last hand's call is a suggestion, not a choice."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.models import Hand
from scoring.problems import InvalidInput
from tests.api.conftest import Api, assert_error_shape
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

pytestmark = pytest.mark.django_db

# pagat example 1's contract: Ann 15♦ calling the ace of spades; only the last trick tells the partner
ANN_15_DIAMONDS = {key: MADE_15_DIAMONDS[key] for key in services.CONTRACT_FIELDS if key in MADE_15_DIAMONDS}
NOBODY_ANSWERED = {key: value for key, value in MADE_15_DIAMONDS.items() if key != "partners"}


def url(name: str, session, *args) -> str:
    return reverse(name, args=[session.group.edit_token, session.pk, *args])


def checked(page: str, name: str) -> list[str]:
    """The values of ``name`` that a page's form arrives with ticked."""
    inputs = re.findall(r"<input[^>]*>", page)
    return [re.search(r'value="([^"]*)"', tag)[1] for tag in inputs
            if f'name="{name}"' in tag and " checked" in tag]


def text_value(page: str, name: str) -> str | None:
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    found = tag and re.search(r'value="([^"]*)"', tag[0])
    return found[1] if found else None


# --- the write side asks ----------------------------------------------------------------------------


@pytest.mark.parametrize("call", [{"type": "card", "cards": ["AS"]}, {"type": "first_trick"}],
                         ids=["called-card", "first-trick"])
def test_a_hand_whose_partner_nobody_named_is_asked_about_not_scored(session, call):
    with pytest.raises(InvalidInput) as refused:
        services.hand_record(session=session, entry={**NOBODY_ANSWERED, "partner_call": call})

    (problem,) = refused.value.problems
    assert (problem.field, problem.code) == ("partners", "partner_unanswered")
    assert "declarer played alone" in problem.message
    assert not session.hands.exists()


def test_declarer_alone_said_in_so_many_words_is_scored_as_a_solo(session):
    hand, _ = services.hand_record(session=session, entry={**NOBODY_ANSWERED, "partners": []})

    assert hand.sides["declarers"] == ["Ann"]


def test_a_void_hand_may_leave_the_partner_unknown(session):
    # flow.py: a renege before the partnership was known voids the hand; nobody can say who it was
    hand, _ = services.hand_record(session=session, entry={**NOBODY_ANSWERED, "outcome": "void"})

    assert hand.result["payments"] == dict.fromkeys(session.seats, 0)


def test_the_api_refuses_a_hand_with_no_partner_answer_in_the_error_shape(session):
    response = Api(session.group.edit_token).post(f"/api/v1/sessions/{session.pk}/hands", NOBODY_ANSWERED)

    (problem,) = assert_error_shape(response, 400, "partner_unanswered")
    assert problem["field"] == "partners"


def test_completing_a_contract_by_the_api_without_the_partner_is_refused(session):
    api = Api(session.group.edit_token)
    contract = api.post(f"/api/v1/sessions/{session.pk}/contracts", ANN_15_DIAMONDS).json()

    response = api.post(f"/api/v1/sessions/{session.pk}/contracts/{contract['id']}/complete",
                        {"version": contract["version"], "points": 16})

    assert_error_shape(response, 400, "partner_unanswered")
    assert not session.hands.exists()
    assert session.contracts.get().status == "open"  # still being played: the table can answer


# --- the pages ask ----------------------------------------------------------------------------------


def test_the_result_form_of_a_contract_arrives_with_no_partner_ticked(client, session):
    contract, _ = services.contract_open(session=session, entry=ANN_15_DIAMONDS)

    page = client.get(url("contract_complete", session, contract.pk)).content.decode()

    assert checked(page, "partners") == []
    assert checked(page, "declarer") == ["Ann"] and checked(page, "contract_trump") == ["D"]


def test_tapping_only_the_points_of_a_contract_asks_who_the_partner_was(client, session):
    contract, _ = services.contract_open(session=session, entry=ANN_15_DIAMONDS)
    page = client.get(url("contract_complete", session, contract.pk)).content.decode()
    # what the browser sends: every value the page arrived with, and the one tap on the points
    data = {name: checked(page, name) for name in ("dealer", "declarer", "contract_trump", "call_type",
                                                   "call_pick", "call_rank", "partners", "points_side")}
    data = {name: values for name, values in data.items() if values}
    data |= {"contract_points": text_value(page, "contract_points"), "in_progress": str(contract.pk),
             "seen_hand_count": "0", "points": "16"}

    response = client.post(url("hand_new", session), data)

    assert response.status_code == 200
    assert "Secret solo?" in response.context["form"].errors["partners"][0]
    assert not session.hands.exists()


def test_declarer_alone_is_a_tap_of_its_own_in_a_double_deck(client, db):
    session = SessionFactory(preset="chicago-6p", seats=["Ann", "Bo", "Cy", "Di", "Ed", "Flo"])
    page = client.get(url("hand_new", session)).content.decode()

    assert "Leave empty when the declarer played alone" not in page
    assert "declarer alone" in page


def test_a_new_hand_form_arrives_with_no_contract_and_no_call_chosen(client, session):
    HandFactory(session=session)  # the last hand called the ace of spades

    page = client.get(url("hand_new", session)).content.decode()

    assert text_value(page, "contract_points") in (None, "")
    assert checked(page, "call_pick") == [] and checked(page, "partners") == []
    # the last hand's call is offered, marked, for the player to confirm with a tap
    assert 'data-testid="suggested-call"' in page


def test_a_suggested_call_not_tapped_is_never_saved(client, session):
    HandFactory(session=session)
    data = {"dealer": "Ann", "declarer": "Bo", "contract_points": "15", "contract_trump": "D",
            "call_type": "card", "partners": "Cy", "points_side": "declarer", "points": "16",
            "seen_hand_count": "1"}

    response = client.post(url("hand_new", session), data)

    assert response.status_code == 200 and response.context["form"].errors
    assert Hand.objects.filter(session=session).count() == 1
