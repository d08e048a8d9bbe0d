"""Every page form that creates something is saved once (issue 12, point 6).

A form carries a one-time ``request_key`` (partials/request_key.html): posting
it twice (a double tap, a resent post) creates one thing, and every repeat is
sent where the first one went (five at once: test_at_once.py). The key of a form
that makes a hand, a hand in progress or a payment is that thing's key whichever
face sends it, so the offline outbox may send it again by the API and get the
same thing back, a day later too.
"""

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.models import Group, Hand, Payment, Player
from mighty_ledger.pages.forms import HandForm
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory
from tests.web.form_pages import mark_forms

from .conftest import Api, a_day_passes, assert_error_shape, owed_by_bo_to_ann


def key_on(page) -> str:
    """The one-time key of the (first) form a page shows."""
    found = re.search(r'name="request_key" value="([^"]+)"', page.content.decode())
    assert found, "the form has no request_key"
    return found[1]


def hand_form_data(entry: dict = MADE_15_DIAMONDS) -> dict:
    return {name: "on" if value is True else value
            for name, value in HandForm.initial_from(entry).items() if value not in (None, [], False)}


def test_each_form_shows_a_fresh_key(client, session):
    url = reverse("hand_new", args=[session.group.edit_token, session.pk])

    assert key_on(client.get(url)) != key_on(client.get(url))


# --- each form, sent twice -----------------------------------------------------------------------


def test_the_hand_form_sent_twice_records_one_hand(client, session):
    url = reverse("hand_new", args=[session.group.edit_token, session.pk])
    data = hand_form_data() | {"request_key": key_on(client.get(url))}

    first = client.post(url, data)
    again = client.post(url, data)

    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"]
    assert Hand.objects.filter(session=session).count() == 1


def test_the_event_form_sent_twice_records_one_deal_miss(client, session):
    url = reverse("event_new", args=[session.group.edit_token, session.pk])
    data = {"kind": "deal_miss", "dealer": "Ed", "shown_by": "Bo", "fine": "0",
            "request_key": key_on(client.get(url))}

    first = client.post(url, data)
    again = client.post(url, data)

    assert first.status_code == again.status_code == 302 and again["Location"] == first["Location"]
    assert Hand.objects.filter(session=session, kind=Hand.DEAL_MISS).count() == 1


def test_the_contract_form_sent_twice_opens_one_hand_in_progress(client, session):
    url = reverse("contract_new", args=[session.group.edit_token, session.pk])
    bid = {key: MADE_15_DIAMONDS[key] for key in services.CONTRACT_FIELDS if key in MADE_15_DIAMONDS}
    data = hand_form_data(bid) | {"seen_hand_count": 0, "request_key": key_on(client.get(url))}

    first = client.post(url, data)
    again = client.post(url, data)  # a double tap: not "another phone already has a hand in progress"

    assert first.status_code == again.status_code == 302 and again["Location"] == first["Location"]
    assert session.contracts.count() == 1


def test_adding_a_player_twice_adds_one_and_says_nothing_about_a_duplicate(client, session):
    group = session.group
    key = key_on(client.get(reverse("group_page", args=[group.edit_token])))
    url = reverse("player_add", args=[group.edit_token])

    client.post(url, {"name": "Flo", "request_key": key})
    again = client.post(url, {"name": "Flo", "request_key": key}, follow=True)

    assert group.players.filter(name="Flo").count() == 1
    assert "already in this group" not in again.content.decode()


def test_starting_a_session_twice_starts_one(client, session):
    group = session.group
    url = reverse("session_new", args=[group.edit_token])
    data = {"played_on": "2025-03-01", "preset": "pagat-standard", "seat_1": "Cy", "seat_2": "Ann",
            "seat_3": "Ed", "seat_4": "Bo", "seat_5": "Di", "request_key": key_on(client.get(url))}

    first = client.post(url, data)
    again = client.post(url, data)

    assert again["Location"] == first["Location"]
    assert group.sessions.count() == 2  # the fixture's, and this one


def test_creating_a_group_twice_creates_one_and_both_land_on_its_page(client, db):
    data = {"name": "Friday", "player_names": "Ann\nBo\nCy\nDi\nEd", "request_key": key_on(client.get("/"))}

    first = client.post("/g/new/", data)
    again = client.post("/g/new/", data)

    assert first.status_code == again.status_code == 302 and again["Location"] == first["Location"]
    assert Group.objects.filter(name="Friday").count() == 1
    assert Player.objects.filter(group__name="Friday").count() == 5


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_marking_a_payment_twice_marks_it_once(client, db, htmx):
    night = SessionFactory(stake_per_point=Decimal(100), currency="KRW")
    HandFactory(session=night)
    token = night.group.edit_token
    key = key_on(client.get(reverse("session_payments", args=[token, night.pk])))
    data = {"payer": "Bo", "payee": "Ann", "amount": "1", "request_key": key}
    headers = {"HX-Request": "true"} if htmx else {}

    first = client.post(reverse("payment_mark", args=[token, night.pk]), data, headers=headers)
    again = client.post(reverse("payment_mark", args=[token, night.pk]), data, headers=headers)

    assert first.status_code in (200, 302)
    assert Payment.objects.filter(session=night).count() == 1
    if htmx:  # the first answer was a partial: the page reloads to show what it saved
        assert again.status_code == 204 and again["HX-Refresh"] == "true"
    else:
        assert again["Location"] == first["Location"]


# --- what is not a repeat ------------------------------------------------------------------------


def test_a_form_refused_for_its_errors_can_be_fixed_and_saved_with_its_key(client, session):
    url = reverse("session_new", args=[session.group.edit_token])
    key = key_on(client.get(url))
    data = {"played_on": "2025-03-01", "preset": "pagat-standard", "seat_1": "Cy", "seat_2": "Ann",
            "seat_3": "Ed", "seat_4": "Bo", "request_key": key}

    refused = client.post(url, data)
    saved = client.post(url, data | {"seat_5": "Di"})

    assert refused.status_code == 200 and saved.status_code == 302
    assert session.group.sessions.count() == 2


def test_the_same_key_with_another_player_adds_that_player_too(client, session):
    # a page restored with an old key must not swallow a new entry
    url = reverse("player_add", args=[session.group.edit_token])
    key = key_on(client.get(reverse("group_page", args=[session.group.edit_token])))

    client.post(url, {"name": "Flo", "request_key": key})
    client.post(url, {"name": "Gus", "request_key": key})

    assert set(session.group.players.values_list("name", flat=True)) >= {"Flo", "Gus"}


def test_a_post_without_a_key_still_works(client, session):
    response = client.post(reverse("player_add", args=[session.group.edit_token]), {"name": "Flo"})

    assert response.status_code == 302 and session.group.players.filter(name="Flo").exists()


# --- the hand form and the API share the key ------------------------------------------------------


def test_the_outbox_sending_the_form_hand_again_by_the_api_gets_the_same_hand(client, session):
    url = reverse("hand_new", args=[session.group.edit_token, session.pk])
    key = key_on(client.get(url))
    client.post(url, hand_form_data() | {"request_key": key})

    again = Api(session.group.edit_token).post(f"/api/v1/sessions/{session.pk}/hands",
                                               {**MADE_15_DIAMONDS, "seats": session.seats},
                                               **{"Idempotency-Key": key})

    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json()["number"] == 1
    assert Hand.objects.filter(session=session).count() == 1


def test_a_form_key_the_api_used_for_another_hand_saves_nothing_and_says_so(client, session):
    url = reverse("hand_new", args=[session.group.edit_token, session.pk])
    key = key_on(client.get(url))
    Api(session.group.edit_token).post(f"/api/v1/sessions/{session.pk}/hands", {**MADE_15_DIAMONDS, "points": 18},
                                       **{"Idempotency-Key": key})

    response = client.post(url, hand_form_data() | {"request_key": key})

    assert response.status_code == 200
    assert "already saved with other values" in response.content.decode()
    assert Hand.objects.filter(session=session).count() == 1


def test_a_hand_form_that_completed_the_hand_in_progress_is_the_same_hand_by_the_api(client, session):
    contract, _ = services.contract_open(session=session, entry={
        key: MADE_15_DIAMONDS[key] for key in ("dealer", "declarer", "contract", "partner_call")})
    url = reverse("hand_new", args=[session.group.edit_token, session.pk])
    key = key_on(client.get(url))
    client.post(url, hand_form_data() | {"in_progress": contract.pk, "request_key": key})

    again = Api(session.group.edit_token).post(f"/api/v1/sessions/{session.pk}/hands", MADE_15_DIAMONDS,
                                               **{"Idempotency-Key": key})

    contract.refresh_from_db()
    assert contract.status == contract.COMPLETED
    assert again.status_code == 200 and again.json()["number"] == contract.hand.number == 1
    assert Hand.objects.filter(session=session).count() == 1


# --- the payments card ------------------------------------------------------------------------------


def payments_of(session) -> str:
    return f"/g/{session.group.edit_token}/s/{session.pk}/payments/"


@pytest.mark.parametrize("htmx", [pytest.param(True, id="htmx"), pytest.param(False, id="plain-post")])
def test_record_it_anyway_tapped_twice_records_the_payment_once(evening, client, htmx):
    url = payments_of(evening) + "mark/"
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    (first, *_) = mark_forms(client.get(payments_of(evening)).content.decode())
    asked = client.post(url, {**first, "amount": str(owed_by_bo_to_ann(evening) + 400)}, **headers)
    (confirm,) = [form for form in mark_forms(asked.content.decode()) if form.get("overpay") == "1"]

    for _tap in range(2):
        client.post(url, confirm, **headers)

    assert Payment.objects.count() == 1


def test_after_one_mark_every_form_on_the_card_has_a_key_of_its_own(evening, client):
    url = payments_of(evening) + "mark/"
    (first, *_) = mark_forms(client.get(payments_of(evening)).content.decode())
    card = client.post(url, first, HTTP_HX_REQUEST="true").content.decode()
    forms = mark_forms(card)
    assert len(forms) >= 2
    keys = [form["request_key"] for form in forms]
    assert first["request_key"] not in keys and len(set(keys)) == len(keys)

    # the next transfer tapped twice (a double tap, or a retry whose answer was lost)
    for _tap in range(2):
        client.post(url, forms[0], HTTP_HX_REQUEST="true")

    marked = list(Payment.objects.values_list("payer", "payee"))
    assert len(marked) == 2 and len(set(marked)) == 2


# a payment's key outlives the day its answer is kept: a phone's outbox may send it a week later


def test_a_payment_sent_again_a_day_later_by_the_api_is_still_the_one_payment(evening):
    body = {"from": "Bo", "to": "Ann", "amount": str(owed_by_bo_to_ann(evening))}
    key = {"Idempotency-Key": "phone-1-payment-1"}
    first = Api(evening.group.edit_token).post(f"/api/v1/sessions/{evening.pk}/payments", body, **key)
    a_day_passes()

    # what is owed is now 0: the repeat is the payment made, not "the wrong way round"
    again = Api(evening.group.edit_token).post(f"/api/v1/sessions/{evening.pk}/payments", body, **key)

    assert (first.status_code, again.status_code) == (201, 200)
    assert again["Idempotent-Replayed"] == "true" and again.json()["id"] == first.json()["id"]
    assert Payment.objects.count() == 1
    other = Api(evening.group.edit_token).post(f"/api/v1/sessions/{evening.pk}/payments",
                                               {**body, "amount": "100", "overpay": True}, **key)
    assert_error_shape(other, 422, "idempotency_key_reused")


def test_a_mark_from_the_page_sent_again_a_day_later_is_still_the_one_payment(evening, client):
    (form, *_) = mark_forms(client.get(payments_of(evening)).content.decode())
    url = payments_of(evening) + "mark/"
    client.post(url, form, HTTP_HX_REQUEST="true")
    a_day_passes()

    again = client.post(url, form, HTTP_HX_REQUEST="true")

    assert again.status_code == 200 and 'data-testid="payment-beyond-owed"' not in again.content.decode()
    assert Payment.objects.count() == 1


def test_the_form_key_and_the_apis_key_are_one(evening, client):
    # the phone's outbox sends a mark made offline by the API, with the form's own key
    (form, *_) = mark_forms(client.get(payments_of(evening)).content.decode())
    client.post(payments_of(evening) + "mark/", form, HTTP_HX_REQUEST="true")
    a_day_passes()

    again = Api(evening.group.edit_token).post(
        f"/api/v1/sessions/{evening.pk}/payments",
        {"from": form["payer"], "to": form["payee"], "amount": form["amount"]}, **{"Idempotency-Key": form["request_key"]})

    assert again.status_code == 200 and Payment.objects.count() == 1


def test_a_form_whose_key_already_marked_another_payment_says_so_and_marks_nothing(evening, client):
    (form, second, *_) = mark_forms(client.get(payments_of(evening)).content.decode())
    # the outbox sent the first transfer by the API with this key; the card was drawn before that
    Api(evening.group.edit_token).post(
        f"/api/v1/sessions/{evening.pk}/payments",
        {"from": form["payer"], "to": form["payee"], "amount": form["amount"]}, **{"Idempotency-Key": form["request_key"]})
    a_day_passes()

    other = client.post(payments_of(evening) + "mark/", {**second, "request_key": form["request_key"]}, follow=True)

    assert "already marked another payment" in other.content.decode()
    assert Payment.objects.count() == 1
