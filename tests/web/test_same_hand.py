"""One hand, one truth: a Save says which hand it meant, and the server decides under the
session's lock whether another phone saved that hand first.

Phone A and phone B both open the form for hand 1. A saves. Whatever B does next, hand 1 is
stored once: B's plain Save is asked about, B's "I'm entering the next hand" is checked against
what A saved, and only B's deliberate "also save mine" adds a second hand.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.models import Hand
from tests.factories import MADE_15_DIAMONDS, HandFactory
from tests.live.test_table_pages import ANN_15_DIAMONDS, form_data, text, url

pytestmark = pytest.mark.django_db

BO_DOWN = {**MADE_15_DIAMONDS, "declarer": "Bo", "partners": ["Di"], "points": 11}


def opened(client, session, name="hand_new") -> dict:
    """The hidden fields a form arrives with: the hands it saw, and the number it enters."""
    form = client.get(url(name, session)).context["form"]
    return {"seen_hand_count": form["seen_hand_count"].value(), "number": form["number"].value()}


def stored(session) -> list[tuple[int, str]]:
    return list(session.hands.order_by("number").values_list("number", "entry__declarer"))


# --- the service: decided as the hand lands -------------------------------------------------------


def test_a_save_meant_for_a_hand_another_phone_saved_is_refused_with_that_hand(session):
    first, _ = services.hand_record(session=session, entry=MADE_15_DIAMONDS, meant=services.Meant(number=1))

    with pytest.raises(services.SavedMeanwhile) as asked:
        services.hand_record(session=session, entry=BO_DOWN, meant=services.Meant(number=1, seen=0))

    assert asked.value.hand == first
    assert asked.value.next_number == 2
    assert stored(session) == [(1, "Ann")]


def test_the_next_hand_meant_is_refused_when_it_is_the_hand_just_saved(session):
    # B heard A's save and chose "I'm entering the next hand", then tapped in the very same hand
    services.hand_record(session=session, entry=MADE_15_DIAMONDS, meant=services.Meant(number=1))

    with pytest.raises(services.SavedMeanwhile):
        services.hand_record(session=session, entry=MADE_15_DIAMONDS, meant=services.Meant(number=2, seen=0))

    assert stored(session) == [(1, "Ann")]


def test_the_next_hand_meant_is_saved_when_it_is_another_hand(session):
    services.hand_record(session=session, entry=MADE_15_DIAMONDS, meant=services.Meant(number=1))

    hand, created = services.hand_record(session=session, entry=BO_DOWN, meant=services.Meant(number=2, seen=0))

    assert created and hand.number == 2
    assert stored(session) == [(1, "Ann"), (2, "Bo")]


def test_the_same_hand_noted_with_its_discards_is_still_the_same_hand(session):
    services.hand_record(session=session, entry=MADE_15_DIAMONDS)
    with_discards = {**MADE_15_DIAMONDS, "discards": ["2S", "3S", "4S"]}

    with pytest.raises(services.SavedMeanwhile):
        services.hand_record(session=session, entry=with_discards, meant=services.Meant(number=2, seen=0))


def test_a_hand_saved_and_deleted_since_is_not_asked_about_again(session):
    first, _ = services.hand_record(session=session, entry=MADE_15_DIAMONDS)
    services.hand_delete(hand=first)

    hand, created = services.hand_record(session=session, entry=MADE_15_DIAMONDS,
                                         meant=services.Meant(number=2, seen=0))

    assert created and hand.number == 2


def test_a_write_that_means_no_particular_hand_is_the_next(session):
    services.hand_record(session=session, entry=MADE_15_DIAMONDS)

    hand, created = services.hand_record(session=session, entry=MADE_15_DIAMONDS, meant=None)

    assert created and hand.number == 2


def test_completing_a_contract_another_phone_saved_as_a_plain_hand_is_asked_about(session):
    contract, _ = services.contract_open(session=session, entry=ANN_15_DIAMONDS)
    services.hand_record(session=session, entry=MADE_15_DIAMONDS)  # another phone, not through the contract

    with pytest.raises(services.SavedMeanwhile):
        services.contract_complete(contract=contract, result={"partners": ["Cy"], "points": 16},
                                   meant=services.Meant(number=1, seen=0))

    assert stored(session) == [(1, "Ann")]


def test_a_contract_opened_after_another_phone_saved_that_hand_is_asked_about(session):
    services.hand_record(session=session, entry=MADE_15_DIAMONDS)

    with pytest.raises(services.SavedMeanwhile):
        services.contract_open(session=session, entry=ANN_15_DIAMONDS, meant=services.Meant(number=1, seen=0))

    assert not session.contracts.exists()


# --- the pages ----------------------------------------------------------------------------------------


def test_a_form_opened_for_hand_1_says_so(client, session):
    assert opened(client, session) == {"seen_hand_count": 0, "number": 1}


def test_phone_b_saving_the_hand_phone_a_saved_is_asked_and_stores_nothing(client, session):
    meant = opened(client, session)
    HandFactory(session=session)  # phone A

    asked = client.post(url("hand_new", session), form_data(BO_DOWN, **meant))

    assert asked.status_code == 409
    assert "Hand 1 was just entered from another phone" in text(asked)
    assert "I'm entering the next hand" in text(asked) and "as hand 2." in text(asked)
    assert stored(session) == [(1, "Ann")]


def test_phone_b_entering_the_next_hand_saves_it_as_hand_2(client, session):
    meant = opened(client, session)
    HandFactory(session=session)

    response = client.post(url("hand_new", session), form_data(BO_DOWN, **{**meant, "number": 2}))

    assert response.status_code == 302
    assert stored(session) == [(1, "Ann"), (2, "Bo")]


def test_phone_b_entering_the_next_hand_that_is_hand_1_again_is_asked(client, session):
    meant = opened(client, session)
    HandFactory(session=session, entry=MADE_15_DIAMONDS)

    asked = client.post(url("hand_new", session), form_data(MADE_15_DIAMONDS, **{**meant, "number": 2}))

    assert asked.status_code == 409
    assert stored(session) == [(1, "Ann")]


def test_a_deal_miss_saved_by_another_phone_first_is_asked_about(client, session):
    meant = opened(client, session, "event_new")
    HandFactory(session=session, kind=Hand.DEAL_MISS, entry={"dealer": "Ann", "shown_by": "Bo"})
    deal_miss = {"kind": "deal_miss", "dealer": "Ann", "shown_by": "Bo", **meant}

    asked = client.post(url("event_new", session), deal_miss)
    saved = client.post(url("event_new", session), {**deal_miss, "confirm": "1"})

    assert asked.status_code == 409
    assert "That's the hand I'm entering" in text(asked)
    assert saved.status_code == 302
    assert session.hands.count() == 2


# --- the API ---------------------------------------------------------------------------------------


def api_post(client, session, body: dict, **headers):
    return client.post(reverse("api:hands", args=[session.pk]), body, content_type="application/json",
                       headers={"Authorization": f"Bearer {session.group.edit_token}", **headers})


def test_the_api_answers_409_with_the_hand_there_when_the_number_meant_was_taken(client, session):
    HandFactory(session=session)

    response = api_post(client, session, {**BO_DOWN, "number": 1})

    assert response.status_code == 409
    body = response.json()
    assert body["errors"][0]["field"] == "number"
    assert body["errors"][0]["code"] == "hand_saved_meanwhile"
    assert body["hand"]["number"] == 1 and body["hand"]["entry"]["declarer"] == "Ann"
    assert body["next_number"] == 2
    assert session.hands.count() == 1


def test_the_api_records_the_number_meant_when_it_is_the_next(client, session):
    HandFactory(session=session)

    response = api_post(client, session, {"entry": BO_DOWN, "number": 2})

    assert response.status_code == 201
    assert response.json()["number"] == 2


def test_the_api_records_the_next_hand_when_no_number_is_meant(client, session):
    HandFactory(session=session)

    assert api_post(client, session, BO_DOWN).json()["number"] == 2


@pytest.mark.parametrize("number", ["2", 0, True, 1.5, -3])
def test_a_number_that_is_not_a_hand_number_is_refused_in_the_error_shape(client, session, number):
    response = api_post(client, session, {**BO_DOWN, "number": number})

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "number"
    assert not session.hands.exists()


def test_a_replay_with_its_key_answers_the_hand_it_made_even_after_the_next_was_saved(client, session):
    made = api_post(client, session, {**MADE_15_DIAMONDS, "number": 1}, **{"Idempotency-Key": "k-1"})
    HandFactory(session=session)

    again = api_post(client, session, {**MADE_15_DIAMONDS, "number": 1}, **{"Idempotency-Key": "k-1"})

    assert made.status_code == 201
    assert again.status_code == 200 and again.json()["number"] == 1


def test_the_api_asks_about_the_same_hand_saved_since_under_another_number(client, session):
    # the outbox's copy of a form that moved to the next hand, holding the very hand saved meanwhile
    HandFactory(session=session)

    asked = api_post(client, session, {**MADE_15_DIAMONDS, "number": 2, "seen_hand_count": 0})
    saved = api_post(client, session, {**BO_DOWN, "number": 2, "seen_hand_count": 0})

    assert asked.status_code == 409 and asked.json()["hand"]["number"] == 1
    assert saved.status_code == 201 and saved.json()["number"] == 2


@pytest.mark.parametrize("seen", ["0", -1, 2, True])
def test_a_seen_hand_count_that_cannot_be_is_refused_in_the_error_shape(client, session, seen):
    response = api_post(client, session, {**BO_DOWN, "number": 2, "seen_hand_count": seen})

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "seen_hand_count"
