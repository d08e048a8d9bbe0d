"""A payment is asked about before it says the reverse of the truth (issue 21): more than the payer
still owes the payee, or the wrong way round, is confirmed first on the page and refused by the API
without ``"overpay": true``; a session counting whole units takes no fraction."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from mighty_ledger.http.request_keys import RequestKey
from mighty_ledger.models import Payment
from tests.factories import HandFactory, SessionFactory
from tests.web.form_pages import mark_forms

from .conftest import Api, assert_error_shape


@pytest.fixture
def evening(db):
    # pagat example 1 at ₩100 a point: Ann (declarer) and Cy (partner) are owed, Bo, Di and Ed owe
    session = SessionFactory(stake_per_point=100, currency="KRW")
    HandFactory(session=session)
    return session


def owed_by_bo_to_ann(session) -> Decimal:
    money = Api(session.group.view_token).client.get(f"/api/v1/sessions/{session.pk}/settlement").json()["money"]
    return min(-Decimal(money["Bo"]), Decimal(money["Ann"]))


def pay(session, body):
    return Api(session.group.edit_token).post(f"/api/v1/sessions/{session.pk}/payments", body)


def test_paying_exactly_what_is_owed_needs_no_confirmation(evening):
    owed = owed_by_bo_to_ann(evening)

    assert pay(evening, {"from": "Bo", "to": "Ann", "amount": str(owed)}).status_code == 201


def test_the_api_refuses_more_than_is_owed_unless_told_it_is_meant(evening):
    owed = owed_by_bo_to_ann(evening)

    refused = pay(evening, {"from": "Bo", "to": "Ann", "amount": str(owed + 100)})
    assert_error_shape(refused, 400, "overpayment")
    assert f"owes Ann {owed} in this session" in refused.json()["errors"][0]["message"]
    assert not Payment.objects.exists()

    assert pay(evening, {"from": "Bo", "to": "Ann", "amount": str(owed + 100), "overpay": True}).status_code == 201


def test_a_second_payment_counts_what_the_first_paid(evening):
    owed = owed_by_bo_to_ann(evening)
    assert pay(evening, {"from": "Bo", "to": "Ann", "amount": str(owed)}).status_code == 201

    assert_error_shape(pay(evening, {"from": "Bo", "to": "Ann", "amount": "100"}), 400, "wrong_way")


@pytest.mark.parametrize(("payer", "payee"), [
    pytest.param("Ann", "Bo", id="the-one-owed-pays-one-who-owes"),
    pytest.param("Bo", "Di", id="paying-another-who-owes"),
    pytest.param("Ann", "Cy", id="paying-from-one-owed"),
])
def test_a_payment_the_wrong_way_round_is_refused_unless_meant(evening, payer, payee):
    assert_error_shape(pay(evening, {"from": payer, "to": payee, "amount": "100"}), 400, "wrong_way")
    assert pay(evening, {"from": payer, "to": payee, "amount": "100", "overpay": True}).status_code == 201


@pytest.mark.parametrize(("stake", "amount"), [
    pytest.param(None, "1.5", id="points-are-whole"),
    pytest.param(100, "10.5", id="won-are-whole"),
])
def test_a_fraction_of_what_the_session_counts_is_refused(db, stake, amount):
    session = SessionFactory(stake_per_point=stake, currency="KRW" if stake else "")
    HandFactory(session=session)

    response = pay(session, {"from": "Bo", "to": "Ann", "amount": amount, "overpay": True})

    assert_error_shape(response, 400, "not_whole")


def test_the_page_asks_with_the_amount_owed_then_records_when_confirmed(evening, client):
    owed = owed_by_bo_to_ann(evening)
    url = f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/mark/"
    asked = str(owed + 1000)

    response = client.post(url, {"payer": "Bo", "payee": "Ann", "amount": asked})

    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-testid="payment-beyond-owed"' in page
    assert f"₩{int(owed):,}" in page and 'name="overpay" value="1"' in page
    assert not Payment.objects.exists()

    confirmed = client.post(url, {"payer": "Bo", "payee": "Ann", "amount": asked, "overpay": "1"})

    assert confirmed.status_code == 302
    assert Payment.objects.get().amount == Decimal(asked)


def test_the_page_asks_in_korean_too(evening, client):
    url = f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/mark/"
    response = client.post(url, {"payer": "Ann", "payee": "Bo", "amount": "100"}, HTTP_ACCEPT_LANGUAGE="ko")

    assert 'data-testid="payment-beyond-owed"' in response.content.decode()
    assert "그래도" in response.content.decode()


def test_with_htmx_the_question_replaces_the_payments_card(evening, client):
    url = f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/mark/"
    response = client.post(url, {"payer": "Ann", "payee": "Bo", "amount": "100"}, HTTP_HX_REQUEST="true")

    # 200, or htmx would not swap it in; the whole card, with its own confirm form
    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith("<section") and 'data-testid="payment-beyond-owed"' in page
    assert "wrong way round" in page
    assert not Payment.objects.exists()


@pytest.mark.parametrize("htmx", [pytest.param(True, id="htmx"), pytest.param(False, id="plain-post")])
def test_record_it_anyway_tapped_twice_records_the_payment_once(evening, client, htmx):
    url = f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/mark/"
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    (first, *_) = mark_forms(client.get(f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/").content.decode())
    asked = client.post(url, {**first, "amount": str(owed_by_bo_to_ann(evening) + 400)}, **headers)
    (confirm,) = [form for form in mark_forms(asked.content.decode()) if form.get("overpay") == "1"]

    for _tap in range(2):
        client.post(url, confirm, **headers)

    assert Payment.objects.count() == 1


def test_after_one_mark_every_form_on_the_card_has_a_key_of_its_own(evening, client):
    url = f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/mark/"
    (first, *_) = mark_forms(client.get(f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/").content.decode())
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


# --- a payment keeps its one-time key past the request keys' 24 hours --------------------------------


def a_day_passes() -> None:
    RequestKey.objects.update(answered_at=timezone.now() - timedelta(hours=24, minutes=1))


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
    (form, *_) = mark_forms(client.get(f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/").content.decode())
    url = f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/mark/"
    client.post(url, form, HTTP_HX_REQUEST="true")
    a_day_passes()

    again = client.post(url, form, HTTP_HX_REQUEST="true")

    assert again.status_code == 200 and 'data-testid="payment-beyond-owed"' not in again.content.decode()
    assert Payment.objects.count() == 1


def test_the_form_key_and_the_apis_key_are_one(evening, client):
    # the phone's outbox sends a mark made offline by the API, with the form's own key
    (form, *_) = mark_forms(client.get(f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/").content.decode())
    client.post(f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/mark/", form, HTTP_HX_REQUEST="true")
    a_day_passes()

    again = Api(evening.group.edit_token).post(
        f"/api/v1/sessions/{evening.pk}/payments",
        {"from": form["payer"], "to": form["payee"], "amount": form["amount"]}, **{"Idempotency-Key": form["request_key"]})

    assert again.status_code == 200 and Payment.objects.count() == 1


def test_a_form_whose_key_already_marked_another_payment_says_so_and_marks_nothing(evening, client):
    (form, second, *_) = mark_forms(client.get(f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/").content.decode())
    # the outbox sent the first transfer by the API with this key; the card was drawn before that
    Api(evening.group.edit_token).post(
        f"/api/v1/sessions/{evening.pk}/payments",
        {"from": form["payer"], "to": form["payee"], "amount": form["amount"]}, **{"Idempotency-Key": form["request_key"]})
    a_day_passes()

    other = client.post(f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/mark/",
                        {**second, "request_key": form["request_key"]}, follow=True)

    assert "already marked another payment" in other.content.decode()
    assert Payment.objects.count() == 1


def test_a_transfer_another_phone_marked_meanwhile_is_said_to_be_paid_not_asked_about(evening, client):
    payments = f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/"
    (on_phone_a, *_) = mark_forms(client.get(payments).content.decode())
    (on_phone_b, *_) = mark_forms(client.get(payments).content.decode())
    client.post(payments + "mark/", on_phone_a, HTTP_HX_REQUEST="true")

    # phone B still shows the card from before: the same transfer, not yet marked there
    answer = client.post(payments + "mark/", on_phone_b, HTTP_HX_REQUEST="true").content.decode()

    assert 'data-testid="payment-already-marked"' in answer
    assert f"Already marked as paid on another phone: {on_phone_b['payer']} paid {on_phone_b['payee']}" in answer
    assert 'data-testid="payment-beyond-owed"' not in answer
    assert Payment.objects.count() == 1


def test_a_payment_the_card_already_knew_of_is_still_asked_about(evening, client):
    # Bo paid Ann in cash what he owed, marked it, then taps an old card's Ann → Bo by mistake:
    # that is the wrong way round, not "already marked"
    payments = f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/"
    (form, *_) = mark_forms(client.get(payments).content.decode())
    client.post(payments + "mark/", form, HTTP_HX_REQUEST="true")
    card = client.get(payments, HTTP_HX_REQUEST="true").content.decode()
    (next_form, *_) = mark_forms(card)

    answer = client.post(payments + "mark/", {**next_form, "payer": form["payee"], "payee": form["payer"]},
                         HTTP_HX_REQUEST="true").content.decode()

    assert 'data-testid="payment-beyond-owed"' in answer and "already-marked" not in answer


def test_a_part_of_the_transfer_marked_meanwhile_leaves_the_rest_to_be_asked_about(evening, client):
    payments = f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/"
    (form, *_) = mark_forms(client.get(payments).content.decode())
    pay(evening, {"from": form["payer"], "to": form["payee"], "amount": "100"})

    answer = client.post(payments + "mark/", form, HTTP_HX_REQUEST="true").content.decode()

    assert 'data-testid="payment-beyond-owed"' in answer and "already-marked" not in answer


def test_a_card_that_says_it_knew_a_payment_beyond_any_id_is_answered_not_a_500(evening, client):
    payments = f"/g/{evening.group.edit_token}/s/{evening.pk}/payments/"
    (form, *_) = mark_forms(client.get(payments).content.decode())
    beyond = {**form, "payer": form["payee"], "payee": form["payer"], "drawn_after": "9" * 5000}

    answer = client.post(payments + "mark/", beyond, HTTP_HX_REQUEST="true")

    assert answer.status_code == 200 and 'data-testid="payment-beyond-owed"' in answer.content.decode()
