"""The one store of one-time keys itself (mighty_ledger/http/request_keys.py): a key's answer is
kept a day, what the key made as long as that lasts, and migrations 0016–0018 moved the keys
hands, contracts and payments used to carry on their own rows into it, and can move them back."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from mighty_ledger import services
from mighty_ledger.http import request_keys
from mighty_ledger.models import Contract, Hand, Payment, RequestKey
from tests.factories import MADE_15_DIAMONDS, SessionFactory

from .conftest import Api, a_day_passes, hands_url

pytestmark = pytest.mark.django_db

BID = {key: MADE_15_DIAMONDS[key] for key in services.CONTRACT_FIELDS if key in MADE_15_DIAMONDS}


def test_a_day_later_the_answer_goes_and_the_key_of_what_it_made_stays(edit, session):
    edit.post(hands_url(session), MADE_15_DIAMONDS, **{"Idempotency-Key": "phone-1-hand-1"})
    edit.post("/api/v1/players", {"name": "Flo"}, **{"Idempotency-Key": "phone-1-flo"})
    a_day_passes()

    edit.post("/api/v1/players", {"name": "Gus"}, **{"Idempotency-Key": "phone-1-gus"})  # a new key clears out

    hand = RequestKey.objects.get(key="phone-1-hand-1")
    assert hand.hand == Hand.objects.get(session=session) and hand.made_fingerprint
    assert (hand.status, hand.body, hand.fingerprint, hand.answered_at) == (None, None, "", None)
    assert not RequestKey.objects.filter(key="phone-1-flo").exists()  # it made nothing that keeps a key


def test_one_key_is_one_row_whichever_face_sent_it(client, session):
    # the form saved the hand, the outbox sent it again by the API: one row, the form's answer kept
    Api(session.group.edit_token).post(hands_url(session), MADE_15_DIAMONDS, **{"Idempotency-Key": "k" * 22})
    services.hand_record(session=session, entry=MADE_15_DIAMONDS, idempotency_key="k" * 22)

    (row,) = RequestKey.objects.filter(key="k" * 22)
    assert row.scope == request_keys.hand_scope(session.pk) and row.status == 201 and row.hand is not None


def test_a_key_goes_with_what_it_made(session):
    hand, _ = services.hand_record(session=session, entry=MADE_15_DIAMONDS, idempotency_key="hand-1")

    Hand.objects.filter(pk=hand.pk).delete()  # an import undone takes its hands away whole

    assert not RequestKey.objects.exists()


def test_a_key_whose_first_answer_made_nothing_takes_what_it_makes_next(session):
    # a payment form's first answer was a question ("more than is owed?"), its confirmation pays
    RequestKey.objects.create(scope=request_keys.payment_scope(session.pk), key="card-1", status=200)
    services.hand_record(session=session, entry=MADE_15_DIAMONDS)

    payment, _ = services.payment_record(session=session, payer="Bo", payee="Ann", amount=Decimal(1),
                                         overpay=True, idempotency_key="card-1")

    assert RequestKey.objects.get(key="card-1").payment == payment


# --- migrations 0016-0018 ----------------------------------------------------------------------

BEFORE = ("mighty_ledger", "0015_club_nights")


def latest():
    """The app's newest migration, whatever came after 0018: the test leaves the database as the
    other tests of its worker expect it."""
    (leaf,) = MigrationExecutor(connection).loader.graph.leaf_nodes("mighty_ledger")
    return leaf


def migrated(target):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    executor.loader.build_graph()
    return executor.loader.project_state([target]).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_the_keys_back_onto_their_rows_and_into_the_store_again():
    session = SessionFactory()
    Api(session.group.edit_token).post(hands_url(session), MADE_15_DIAMONDS, **{"Idempotency-Key": "api-hand"})
    services.hand_record(session=session, entry={**MADE_15_DIAMONDS, "points": 17}, idempotency_key="form-hand")
    opened, _ = services.contract_open(session=session, entry=BID, idempotency_key="bid")
    services.contract_complete(contract=opened, result={"partners": ["Cy"], "points": 16}, idempotency_key="done")
    payment, _ = services.payment_record(session=session, payer="Bo", payee="Ann", amount=Decimal(1),
                                         overpay=True, idempotency_key="paid")
    Api(session.group.edit_token).post("/api/v1/players", {"name": "Flo"}, **{"Idempotency-Key": "flo"})
    store = keys_as_stored()

    try:
        old = migrated(BEFORE)
        hands = dict(old.get_model("mighty_ledger", "Hand").objects.values_list("idempotency_key", "number"))
        contract = old.get_model("mighty_ledger", "Contract").objects.get(pk=opened.pk)
        paid = old.get_model("mighty_ledger", "Payment").objects.get(pk=payment.pk)
        answers = dict(old.get_model("mighty_ledger", "RequestKey").objects.values_list("key", "scope"))
    finally:
        migrated(latest())

    assert hands == {"api-hand": 1, "form-hand": 2, "done": 3}
    assert (contract.idempotency_key, contract.closed_key, paid.idempotency_key) == ("bid", "done", "paid")
    assert answers == {"api-hand": f"api:session:{session.pk}", "flo": f"api:group:{session.group_id}:players"}
    assert keys_as_stored() == store  # what each key made, and the API's answers, as they were
    assert Contract.objects.get(pk=opened.pk).status == Contract.COMPLETED and Payment.objects.count() == 1


def keys_as_stored() -> list[dict]:
    return sorted(({k: v for k, v in row.items() if k != "id"} for row in RequestKey.objects.values()),
                  key=lambda row: (row["scope"], row["key"]))
