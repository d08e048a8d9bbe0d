"""Every create of the API is safe to repeat (issue 12 point 7, issue 21): the schema lists
Idempotency-Key on each, and each sent twice with one key makes one thing and answers the same
bytes; the same key with another body is 422 and makes nothing.

The test walks the schema, so a create added later without the key (or without a
body here to try it with) fails it. On PostgreSQL this is also the test that the
kept answer is the first one's bytes, not a jsonb object with its keys reordered.

A hand's first answer comes back as it was for 24 hours, even after the hand was edited; a repeat
that arrives while the first is being written is told so (409 request_in_progress) instead of
writing again; and after the 24 hours the hand is still recorded once, as the services find what
its key made.
"""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
import yaml
from django.apps import apps
from django.utils import timezone

from mighty_ledger import services
from mighty_ledger.http import request_keys
from mighty_ledger.models import (
    Contract,
    Group,
    Hand,
    Night,
    NightRound,
    Payment,
    Player,
    RequestKey,
    Revision,
    Session,
)
from mighty_ledger.services.nights import night_create, night_round_draw
from tests.factories import MADE_15_DIAMONDS, SEATS, HandFactory, SessionFactory

from .conftest import Api, a_day_passes, assert_error_shape, hands_url

pytestmark = pytest.mark.django_db

ANN_15_DIAMONDS = {"dealer": "Ed", "declarer": "Ann", "contract": {"points": 15, "trump": "D"},
                   "partner_call": {"type": "card", "cards": ["AS"]}}

# POST operations that make nothing: the calculators, and restoring what a link already reaches
# import_sheet is made once by what it sends: the file's hash is its key (the same file again adds nothing)
NOT_CREATES = {"score_hand", "check_hand", "check_auction", "check_redeal", "next_hand",
               "restore_session", "restore_hand", "import_sheet"}


def _season_count() -> int:
    try:
        return apps.get_model("mighty_ledger", "Season").objects.count()
    except LookupError:
        return 0


# each create: a body to send, and what counts the things it makes
CREATES = {
    "create_group": (lambda s, c: {"name": "Friday", "players": ["Ann", "Bo"]}, Group),
    "add_player": (lambda s, c: {"name": "Flo"}, Player),
    "start_session": (lambda s, c: {"seats": ["Ann", "Bo", "Cy", "Di", "Ed"], "preset": "pagat-standard",
                                    "stake_per_point": "100", "currency": "KRW"}, Session),
    "record_hand": (lambda s, c: MADE_15_DIAMONDS, Hand),
    "record_event": (lambda s, c: {"kind": "deal_miss", "dealer": "Ed", "shown_by": "Bo"}, Hand),
    "open_contract": (lambda s, c: {**ANN_15_DIAMONDS, "replacing": c.pk}, Contract),
    "complete_contract": (lambda s, c: {"partners": ["Cy"], "points": 16, "version": c.version}, Hand),
    "abandon_contract": (lambda s, c: {"version": c.version}, Revision),
    "record_payment": (lambda s, c: {"from": "Bo", "to": "Ann", "amount": "100", "overpay": True}, Payment),
    "create_season": (lambda s, c: {"name": "Spring", "starts": "2026-03-01"}, None),
    "create_night": (lambda s, c: {"players": ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"], "seed": 1}, Night),
    "draw_night_round": (lambda s, c: {}, NightRound),
    "add_night_player": (lambda s, c: {"name": "Flo"}, Player),
    # a swap makes no row of its own: one revision records it
    "swap_night_players": (lambda s, c: {"players": ["Ann", "Bo"]}, Revision),
    # the night has no round yet: every payment of it is beyond what is owed, so it says it is meant
    "record_night_payment": (lambda s, c: {"from": "Bo", "to": "Ann", "amount": "100", "overpay": True}, Payment),
}


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from django.test import Client

    with django_db_blocker.unblock():
        response = Client().get("/api/schema/")
    return yaml.safe_load(response.content)


def _posts(schema) -> dict[str, tuple[str, dict]]:
    return {operation["operationId"]: (path, operation)
            for path, methods in schema["paths"].items()
            for method, operation in methods.items() if method == "post"}


def test_every_create_in_the_schema_takes_an_idempotency_key(schema):
    for operation_id, (path, operation) in _posts(schema).items():
        if operation_id in NOT_CREATES:
            continue
        headers = [p["name"] for p in operation.get("parameters", []) if p["in"] == "header"]
        assert "Idempotency-Key" in headers, f"{operation_id} ({path}) creates without Idempotency-Key"
        assert {"200", "409", "422"} <= set(operation["responses"]), operation_id
        assert operation_id in CREATES, f"add a body for {operation_id} to CREATES to try it twice"


@pytest.mark.parametrize("operation_id", sorted(CREATES))
def test_a_create_sent_twice_with_one_key_makes_one_thing_and_answers_the_same_bytes(schema, operation_id):
    posts = _posts(schema)
    if operation_id not in posts:
        pytest.skip(f"{operation_id} is not in this schema")
    session = SessionFactory(stake_per_point=100, currency="KRW")
    HandFactory(session=session)
    contract = services.contract_open(session=session, entry=ANN_15_DIAMONDS)[0]
    night = night_create(group=session.group, players=list(SEATS), preset="pagat-standard")
    if operation_id == "swap_night_players":
        night_round_draw(night=night)
    path = posts[operation_id][0].format(session_id=session.pk, contract_id=contract.pk, night_id=night.pk, number=1)
    body, model = CREATES[operation_id]
    body = body(session, contract)
    count = model.objects.count if model is not None else _season_count
    api = Api(session.group.edit_token)
    key = str(uuid.uuid4())

    before = count()
    first = api.client.post(path, json.dumps(body), content_type="application/json", headers={"Idempotency-Key": key})
    assert first.status_code in (200, 201), first.content
    made = count()
    again = api.client.post(path, json.dumps(body), content_type="application/json", headers={"Idempotency-Key": key})

    assert made - before == 1
    assert count() == made
    assert again.status_code == 200, again.content
    assert again["Idempotent-Replayed"] == "true"
    assert again.content == first.content


# what makes a second body another request
ANOTHER_BODY = {
    "start_session": {"currency": "EUR"},
    "record_payment": {"amount": "200"},
    "create_group": {"name": "Saturday"},
    "record_hand": {"points": 17},
    "open_contract": {"contract": {"points": 16, "trump": "NT"}, "partner_call": {"type": "card", "cards": ["JOKER"]}},
    "create_season": {"name": "Fall"},
}


@pytest.mark.parametrize("operation_id", sorted(ANOTHER_BODY))
def test_the_same_key_with_another_body_is_422_and_makes_nothing(schema, operation_id):
    session = SessionFactory(stake_per_point=100, currency="KRW")
    HandFactory(session=session)
    path = _posts(schema)[operation_id][0].format(session_id=session.pk)
    body, model = CREATES[operation_id]
    body = ANN_15_DIAMONDS if operation_id == "open_contract" else body(session, None)
    count = model.objects.count if model is not None else _season_count
    api = Api(session.group.edit_token)
    assert api.post(path, body, **{"Idempotency-Key": "k-1"}).status_code == 201
    before = count()

    other = api.post(path, {**body, **ANOTHER_BODY[operation_id]}, **{"Idempotency-Key": "k-1"})

    assert_error_shape(other, 422, "idempotency_key_reused")
    assert count() == before


def test_a_refused_create_gives_its_key_back(schema):
    session = SessionFactory()
    api = Api(session.group.edit_token)
    refused = api.post("/api/v1/players", {"name": ""}, **{"Idempotency-Key": "k-2"})
    assert refused.status_code == 400

    fixed = api.post("/api/v1/players", {"name": "Flo"}, **{"Idempotency-Key": "k-2"})
    assert fixed.status_code == 201


def test_another_client_with_the_same_key_and_body_never_gets_the_groups_tokens(db):
    body = json.dumps({"name": "Friday"})
    first = Api().client.post("/api/v1/groups", body, content_type="application/json",
                              headers={"Idempotency-Key": "1"}, REMOTE_ADDR="192.0.2.1")
    other = Api().client.post("/api/v1/groups", body, content_type="application/json",
                              headers={"Idempotency-Key": "1"}, REMOTE_ADDR="198.51.100.7")

    assert (first.status_code, other.status_code) == (201, 201)
    assert first.json()["edit_token"] != other.json()["edit_token"]


# --- a hand's key, its answer and what it made ----------------------------------------------------


def send(edit, session, body=MADE_15_DIAMONDS, key="phone-1-hand-1"):
    return edit.post(hands_url(session), body, **{"Idempotency-Key": key})


def test_a_replay_returns_the_first_answer_even_after_the_hand_was_edited(edit, session):
    first = send(edit, session)
    edit.client.put(f"{hands_url(session)}/1", {**MADE_15_DIAMONDS, "points": 18, "version": 1}, format="json")

    again = send(edit, session)

    assert first.status_code == 201
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()  # version 1, 16 points: as it was answered
    assert Hand.objects.get(session=session).version == 2


def test_seats_and_system_equal_to_the_sessions_do_not_make_a_repeat_different(edit, session):
    send(edit, session)

    again = send(edit, session, {**MADE_15_DIAMONDS, "seats": session.seats, "system": session.preset})

    assert again.status_code == 200
    assert Hand.objects.filter(session=session).count() == 1


def test_a_repeat_while_the_first_is_being_written_is_409_request_in_progress(edit, session, monkeypatch):
    # another transaction holds the key: the first request has not answered yet
    monkeypatch.setattr(request_keys, "_hold", lambda scope, key: False)

    response = send(edit, session)

    assert_error_shape(response, 409, "request_in_progress")
    assert response["Retry-After"] == "1"
    assert not Hand.objects.filter(session=session).exists()


def test_a_key_whose_row_holds_no_answer_and_made_nothing_is_taken_over(edit, session):
    # as an earlier release left a key it claimed in a statement of its own and never answered
    RequestKey.objects.create(scope=request_keys.hand_scope(session.pk), key="phone-1-hand-1",
                              answered_at=timezone.now() - timedelta(minutes=5))

    assert send(edit, session).status_code == 201
    assert RequestKey.objects.get(key="phone-1-hand-1").status == 201


def test_after_24_hours_the_stored_answer_is_forgotten_but_the_hand_is_not_recorded_twice(edit, session):
    send(edit, session)
    edit.client.put(f"{hands_url(session)}/1", {**MADE_15_DIAMONDS, "points": 18, "version": 1}, format="json")
    a_day_passes()

    again = send(edit, session)
    send(edit, session, key="another-hand")  # a new key clears out the day-old answers

    assert again.status_code == 200 and again.json()["version"] == 2  # the hand as it is now
    assert Hand.objects.filter(session=session).count() == 2
    assert not RequestKey.objects.filter(answered_at__lt=timezone.now() - timedelta(hours=24)).exists()


# --- the services find what a key made ------------------------------------------------------------


def test_a_resend_that_finds_its_hand_already_landed_gets_that_hand(session):
    read_early = Session.objects.get(pk=session.pk)
    first, _ = services.hand_record(session=session, entry=MADE_15_DIAMONDS, idempotency_key="hand-1")

    again, created = services.hand_record(session=read_early, entry=MADE_15_DIAMONDS, idempotency_key="hand-1")

    assert (again.pk, created) == (first.pk, False)
    assert Hand.objects.count() == 1


def test_a_retry_of_the_save_that_made_the_hand_answers_that_hand(session):
    # the answer was lost on the way back: the same key again is the same hand, not "saved meanwhile"
    first, _ = services.hand_record(session=session, entry=MADE_15_DIAMONDS, idempotency_key="k1",
                                    meant=services.Meant(number=1, seen=0))

    again, created = services.hand_record(session=session, entry=MADE_15_DIAMONDS, idempotency_key="k1",
                                          meant=services.Meant(number=1, seen=0))

    assert again == first and not created
