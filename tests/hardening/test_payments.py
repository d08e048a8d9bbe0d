"""A payment is asked about before it says the reverse of the truth (issue 21): more than the payer
still owes the payee, or the wrong way round, is confirmed first on the page and refused by the API
without ``"overpay": true``; a session counting whole units takes no fraction."""

from decimal import Decimal

import pytest

from mighty_ledger.models import Payment
from tests.api.conftest import owed_by_bo_to_ann
from tests.factories import HandFactory, SessionFactory
from tests.web.form_pages import mark_forms

from .conftest import Api, assert_error_shape


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
