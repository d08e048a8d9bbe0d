"""Every page form that creates something is saved once (issue 12, point 6).

A form carries a one-time ``request_key`` (partials/request_key.html): posting
it twice (a double tap, a resent post, five phones' worth at once) creates one
thing, and every repeat is sent where the first one went. The hand form's key is
the hand's Idempotency-Key too, so the offline outbox may send the same hand
again by the API and get the same hand back.
"""

import re
import threading
from decimal import Decimal

import pytest
from django.db import connection
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.http import request_keys
from mighty_ledger.models import Group, Hand, Payment, Player, Session
from mighty_ledger.pages.forms import HandForm
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .conftest import Api


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


# --- at the same moment -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_five_posts_of_one_hand_form_at_once_record_one_hand(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    session = SessionFactory()
    url = reverse("hand_new", args=[session.group.edit_token, session.pk])
    from django.test import Client

    data = hand_form_data() | {"request_key": request_keys.new_form_key()}
    barrier = threading.Barrier(5)
    answers = []

    def post():
        try:
            barrier.wait(timeout=30)
            answers.append(Client().post(url, data))
        finally:
            connection.close()

    threads = [threading.Thread(target=post) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert [answer.status_code for answer in answers] == [302] * 5
    assert {answer["Location"] for answer in answers} == {f"/g/{session.group.edit_token}/s/{session.pk}/"}
    assert Hand.objects.filter(session=session).count() == 1
    assert Session.objects.get(pk=session.pk).hand_count == 1


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
