"""A form that was saved stays saved (issue 20): the page Back, a reload or a restored draft
brings again with its key (``?key=``) says what its key saved, and a second Save with a used
key lands on the first hand, never on a second copy."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.models import Hand
from tests.factories import MADE_15_DIAMONDS

pytestmark = pytest.mark.django_db

ANN_MADE = {"dealer": "Ed", "declarer": "Ann", "contract_points": "15", "contract_trump": "D",
            "call_type": "card", "call_pick": "S", "call_rank": "A", "partners": "Cy",
            "points_side": "declarer", "points": "16", "seen_hand_count": "0"}


def url(name: str, session, *args) -> str:
    return reverse(name, args=[session.group.edit_token, session.pk, *args])


def key_on(response) -> str:
    return re.search(r'name="request_key" value="([^"]+)"', response.content.decode())[1]


def words(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_a_form_opened_again_with_its_key_before_saving_keeps_that_key(client, session):
    key = key_on(client.get(url("hand_new", session)))

    again = client.get(url("hand_new", session) + f"?key={key}")  # a reload before Save

    assert again.status_code == 200 and key_on(again) == key


def test_back_to_a_saved_hand_form_says_which_hand_it_became(client, session):
    key = key_on(client.get(url("hand_new", session)))
    client.post(url("hand_new", session), ANN_MADE | {"request_key": key})

    back = client.get(url("hand_new", session) + f"?key={key}")

    assert back.status_code == 200
    assert "This hand was saved as hand 1" in words(back)
    assert 'name="request_key"' not in back.content.decode()  # no form to save a second copy from
    assert f'href="{url("hand_detail", session, 1)}"' in back.content.decode()


def test_a_second_save_with_a_used_key_lands_on_the_first_hand_whatever_it_says(client, session):
    key = key_on(client.get(url("hand_new", session)))
    first = client.post(url("hand_new", session), ANN_MADE | {"request_key": key})
    # the page came back from the browser's memory, a tap changed, and Save again
    again = client.post(url("hand_new", session), ANN_MADE | {"request_key": key, "points": "17"})

    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert [hand.entry["points"] for hand in Hand.objects.filter(session=session)] == [16]
    board = client.get(again["Location"])
    assert "This form was already saved: nothing was added." in words(board)


def test_a_hand_the_outbox_saved_by_the_api_is_what_its_form_page_says(client, session):
    key = key_on(client.get(url("hand_new", session)))
    services.hand_record(session=session, entry=MADE_15_DIAMONDS, idempotency_key=key)

    back = client.get(url("hand_new", session) + f"?key={key}")

    assert "This hand was saved as hand 1" in words(back)


def test_a_deal_miss_form_opened_again_says_it_was_saved(client, session):
    key = key_on(client.get(url("event_new", session)))
    client.post(url("event_new", session),
                {"kind": "deal_miss", "dealer": "Ed", "shown_by": "Bo", "fine": "0", "request_key": key})

    back = client.get(url("event_new", session) + f"?key={key}")

    assert "This hand was saved as hand 1" in words(back)


def test_a_contract_form_opened_again_says_it_was_recorded(client, session):
    key = key_on(client.get(url("contract_new", session)))
    data = {name: value for name, value in ANN_MADE.items() if name not in ("partners", "points", "points_side")}
    client.post(url("contract_new", session), data | {"request_key": key})

    back = client.get(url("contract_new", session) + f"?key={key}")

    assert "This contract was already recorded" in words(back)
    assert session.contracts.count() == 1


def test_the_result_form_of_a_completed_contract_says_which_hand_it_became(client, session):
    contract, _ = services.contract_open(
        session=session, entry={k: MADE_15_DIAMONDS[k] for k in services.CONTRACT_FIELDS if k in MADE_15_DIAMONDS})
    services.contract_complete(contract=contract, result={"partners": ["Cy"], "points": 16})

    back = client.get(url("contract_complete", session, contract.pk))

    assert "This hand was saved as hand 1" in words(back)


def test_a_made_up_key_opens_a_fresh_form(client, session):
    page = client.get(url("hand_new", session) + "?key=" + "x" * 22)

    assert page.status_code == 200 and 'name="request_key"' in page.content.decode()
