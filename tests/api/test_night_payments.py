"""Paying up at the end of a club night (issue 38): a transfer marked for the whole night, netted
with those marked at its tables in the night's one settlement, checked against what is owed over
the night as a table's is against the table's, made once per key (ten phones at once on
PostgreSQL too), taken back; and a night deleted, its tables kept as the group's sessions."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from mighty_ledger import reads, services
from mighty_ledger.models import Night, Payment, Revision, Session
from mighty_ledger.reads import balance, nights
from mighty_ledger.reads.nights import night_payment_room
from mighty_ledger.services import nights as night_services
from mighty_ledger.services.payments import payment_record
from scoring.problems import InvalidInput
from scoring.settle import Stakes
from tests.api.test_concurrency import at_once
from tests.keys.conftest import a_day_passes
from tests.web.night_tables import play

from .conftest import Api, assert_error_shape

pytestmark = pytest.mark.django_db

PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kay"]  # a table of 5, one of 6


def night_played(rounds: int = 1) -> Night:
    """A night at ₩100 a point, counted in ₩100, its rounds played to the end (no deal misses, so
    nothing waits in a pot and every transfer owed is between two players)."""
    group = services.group_create(name="Club")
    night = night_services.night_create(group=group, players=PLAYERS, preset="pagat-standard", seed=38,
                                        hands_per_round=5,
                                        stakes=Stakes(Decimal(100), "KRW", rounding_unit=Decimal(100)))
    rng = random.Random(11)
    for _ in range(rounds):
        night_services.night_round_draw(night=night)
        for table in nights.current_progress(night).tables:
            session = table.table.session
            for _ in range(table.target):
                play(session, rng, deal_misses=False)
                session.refresh_from_db()
    return Night.objects.get(pk=night.pk)


def owed_after_payments(night: Night) -> dict:
    """What each player is owed (+) or owes (−) over the night, as a person adds it up: the
    tables' results, less every payment counted (the night's own and its tables')."""
    settled = nights.night_settlement(night)
    owed = {**settled.totals}
    for payment in Payment.objects.standing().filter(night=night) | Payment.objects.standing().filter(
            session__night_round__night=night):
        owed[payment.payer] += payment.amount
        owed[payment.payee] -= payment.amount
    return {name: amount for name, amount in owed.items() if amount}


def squared_by(transfers) -> dict:
    owed = {}
    for transfer in transfers:
        owed[transfer.to] = owed.get(transfer.to, 0) + transfer.amount
        owed[transfer.frm] = owed.get(transfer.frm, 0) - transfer.amount
    return {name: amount for name, amount in owed.items() if amount}


def url(night: Night, *rest: object) -> str:
    return "/".join([f"/api/v1/nights/{night.pk}/payments", *map(str, rest)])


@pytest.fixture
def night(db) -> Night:
    return night_played()


@pytest.fixture
def edit(night) -> Api:
    return Api(night.group.edit_token)


def first_owed(night: Night):
    return nights.night_settlement(night).outstanding[0]


def all_owed(night: Night) -> dict:
    """The first transfer's payer and payee, and the most one can pay the other over the night."""
    transfer = first_owed(night)
    room = night_payment_room(night, payer=transfer.frm, payee=transfer.to)
    return {"from": transfer.frm, "to": transfer.to, "amount": format(room.owed.normalize(), "f")}


# --- the settlement, net of both kinds of payment ---------------------------------------------


def test_a_transfer_paid_for_the_whole_night_leaves_the_settlement(night, edit):
    transfer = first_owed(night)

    response = edit.post(url(night), {"from": transfer.frm, "to": transfer.to, "amount": str(transfer.amount)})

    assert response.status_code == 201, response.content
    paid = response.json()
    assert paid["night"] == night.pk and paid["session"] is None and paid["unit"] == "money"
    assert paid["currency"] == "KRW" and Decimal(paid["amount"]) == transfer.amount
    settlement = edit.get(f"/api/v1/nights/{night.pk}/settlement").json()
    assert [p["id"] for p in settlement["payments"]] == [paid["id"]]
    assert {"from": transfer.frm, "to": transfer.to, "amount": str(transfer.amount)} not in [
        {key: t[key] for key in ("from", "to", "amount")} for t in settlement["outstanding"]]


def test_the_settlement_nets_the_nights_payments_and_its_tables_together(night):
    table = nights.night_settlement(night).tables[0]
    at_table = next(t for t in table.outstanding.transfers if table.outstanding.markable(t))
    services.payment_record(session=table.table.session, payer=at_table.frm, payee=at_table.to,
                            amount=Decimal(at_table.amount))
    over_night = first_owed(night)
    payment_record(night=night, payer=over_night.frm, payee=over_night.to, amount=Decimal(500), overpay=True)

    settled = nights.night_settlement(night)

    assert {p.night_id is not None for p in settled.payments} == {True, False}
    assert squared_by(settled.outstanding) == owed_after_payments(night)


def test_paying_every_transfer_of_the_night_leaves_nothing_outstanding(night, edit):
    owed = nights.night_settlement(night).outstanding
    assert len(owed) >= 3

    for transfer in owed:
        response = edit.post(url(night), {"from": transfer.frm, "to": transfer.to, "amount": str(transfer.amount)})
        assert response.status_code == 201, response.content

    settlement = edit.get(f"/api/v1/nights/{night.pk}/settlement").json()
    assert settlement["outstanding"] == [] and len(settlement["payments"]) == len(owed)
    assert not owed_after_payments(night)
    # the group's balance counts the night's payments too: nothing is owed in the group either
    sessions = reads.group_overview(night.group).sessions
    assert balance.group_balance(sessions, balance.group_payments(night.group_id, sessions)) == []


def test_a_payment_of_the_night_moves_the_nights_pages_on_and_is_in_the_groups_history(night):
    _, stamp = nights.night_stamped(night.group, night.pk)
    transfer = first_owed(night)

    payment_record(night=night, payer=transfer.frm, payee=transfer.to, amount=transfer.amount,
                         by=services.Actor("edit link"))

    assert nights.night_stamped(night.group, night.pk)[1] != stamp
    revision = Revision.objects.filter(group=night.group, subject="payment").get()
    assert revision.after["night"] == night.pk and revision.by == "edit link"


# --- more than is owed, and the wrong way round ---------------------------------------------


def test_more_than_is_owed_over_the_night_is_refused_unless_meant(night, edit):
    owed = all_owed(night)
    more = {**owed, "amount": str(Decimal(owed["amount"]) + 100)}

    (error,) = assert_error_shape(edit.post(url(night), more), 400, "overpayment")
    assert f"still owes {owed['to']} {owed['amount']} over the night" in error["message"]
    assert not Payment.objects.exists()

    assert edit.post(url(night), {**more, "overpay": True}).status_code == 201


def test_the_wrong_way_round_is_refused_unless_meant(night, edit):
    transfer = first_owed(night)
    back = {"from": transfer.to, "to": transfer.frm, "amount": "100"}

    assert_error_shape(edit.post(url(night), back), 400, "wrong_way")
    assert edit.post(url(night), {**back, "overpay": True}).status_code == 201


def test_a_second_payment_counts_what_the_first_paid(night, edit):
    owed = all_owed(night)
    assert Decimal(owed["amount"]) > 100  # more than one step, so that part of it can be paid first
    assert edit.post(url(night), {**owed, "amount": "100"}).status_code == 201

    assert_error_shape(edit.post(url(night), owed), 400, "overpayment")
    assert edit.post(url(night), {**owed, "amount": str(Decimal(owed["amount"]) - 100)}).status_code == 201
    assert_error_shape(edit.post(url(night), {**owed, "amount": "100"}), 400, "wrong_way")


@pytest.mark.parametrize(("body", "field", "code"), [
    ({"from": "Nobody", "to": "Ann", "amount": "100"}, "from", "unknown_player"),
    ({"from": "Ann", "to": "Nobody", "amount": "100"}, "to", "unknown_player"),
    ({"from": "Ann", "to": "Ann", "amount": "100"}, "to", "same_seat"),
    ({"from": "Ann", "to": "Bo", "amount": "0"}, "amount", "not_positive"),
    ({"from": "Ann", "to": "Bo", "amount": "150"}, "amount", "not_whole"),
    ({"from": "Ann", "to": "Bo", "amount": "ten"}, "amount", "invalid"),
    ({"from": "Ann", "amount": "100"}, "to", "required"),
    ({"from": "Ann", "to": "Bo", "amount": "100", "overpay": "yes"}, "overpay", "invalid"),
], ids=["unknown-payer", "unknown-payee", "themselves", "nothing", "a-fraction-of-the-unit", "not-a-number",
        "no-payee", "overpay-not-a-boolean"])
def test_bad_input_is_a_400_in_the_error_shape(night, edit, body, field, code):
    errors = assert_error_shape(edit.post(url(night), body), 400, code)

    assert field in [error["field"] for error in errors]
    assert not Payment.objects.exists()


def test_a_player_new_to_the_night_is_told_so_in_the_askers_language(night, edit):
    refused = edit.client.post(url(night), {"from": "Nobody", "to": "Ann", "amount": "100"}, format="json",
                               headers={"Accept-Language": "ko"})

    (error,) = assert_error_shape(refused, 400, "unknown_player")
    assert "클럽 나이트의 플레이어" in error["message"]


def test_the_service_checks_names_as_the_seats_store_them(night):
    transfer = first_owed(night)

    payment, created = payment_record(night=night, payer=f" {transfer.frm} ", payee=transfer.to,
                                            amount=Decimal(transfer.amount))

    assert created and payment.payer == transfer.frm
    with pytest.raises(InvalidInput):
        payment_record(night=night, payer="Ann", payee="Bo", amount=Decimal("0.001"))


# --- one-time keys -------------------------------------------------------------------------


def test_the_same_key_and_body_answer_the_first_payment_and_another_body_is_422(night, edit):
    transfer = first_owed(night)
    body = {"from": transfer.frm, "to": transfer.to, "amount": str(transfer.amount)}

    first = edit.post(url(night), body, **{"Idempotency-Key": "night-pay-1"})
    again = edit.post(url(night), body, **{"Idempotency-Key": "night-pay-1"})
    other = edit.post(url(night), {**body, "amount": "100"}, **{"Idempotency-Key": "night-pay-1"})

    assert first.status_code == 201 and again.status_code == 200
    assert again.content == first.content and again["Idempotent-Replayed"] == "true"
    assert_error_shape(other, 422, "idempotency_key_reused")
    assert Payment.objects.count() == 1


def test_a_key_sent_again_days_later_is_still_the_one_payment(night, edit):
    transfer = first_owed(night)
    body = {"from": transfer.frm, "to": transfer.to, "amount": str(transfer.amount)}
    first = edit.post(url(night), body, **{"Idempotency-Key": "outbox-7"})
    a_day_passes()

    late = edit.post(url(night), body, **{"Idempotency-Key": "outbox-7"})

    # what is owed was paid meanwhile: without its key the repeat would be "the wrong way round"
    assert late.status_code == 200 and late.json()["id"] == first.json()["id"]
    assert Payment.objects.count() == 1


def test_a_nights_key_and_a_tables_are_kept_apart(night, edit):
    table = nights.night_settlement(night).tables[0]
    at_table = next(t for t in table.outstanding.transfers if table.outstanding.markable(t))
    over_night = first_owed(night)
    session_url = f"/api/v1/sessions/{table.table.session.pk}/payments"

    at = edit.post(session_url, {"from": at_table.frm, "to": at_table.to, "amount": str(at_table.amount)},
                   **{"Idempotency-Key": "same-key"})
    over = edit.post(url(night), {"from": over_night.frm, "to": over_night.to, "amount": "100"},
                     **{"Idempotency-Key": "same-key"})

    assert (at.status_code, over.status_code) == (201, 201)
    assert Payment.objects.filter(night=night).count() == 1


# --- taking one back -----------------------------------------------------------------------


def test_a_payment_of_the_night_is_undone_and_what_it_paid_is_owed_again(night, edit):
    transfer = first_owed(night)
    before = nights.night_settlement(night).outstanding
    paid = edit.post(url(night), {"from": transfer.frm, "to": transfer.to, "amount": str(transfer.amount)}).json()

    undone = edit.delete(url(night, paid["id"]))

    assert undone.status_code == 200 and undone.json()["undone"] is True
    assert nights.night_settlement(night).outstanding == before
    assert_error_shape(edit.delete(url(night, paid["id"])), 400, "already_undone")
    assert Payment.objects.get().undone_at is not None  # kept, undone, in the history
    assert Revision.objects.filter(subject="payment", action=Revision.DELETED).count() == 1


def test_only_the_nights_own_payments_are_undone_through_it(night, edit):
    table = nights.night_settlement(night).tables[0]
    at_table = next(t for t in table.outstanding.transfers if table.outstanding.markable(t))
    marked, _ = services.payment_record(session=table.table.session, payer=at_table.frm, payee=at_table.to,
                                        amount=Decimal(at_table.amount))

    assert_error_shape(edit.delete(url(night, marked.pk)), 404)
    assert_error_shape(edit.delete(url(night, 10**30)), 404)


def test_another_groups_night_is_404_and_a_view_link_cannot_pay(night, edit):
    other = Api(services.group_create(name="Elsewhere").edit_token)
    transfer = first_owed(night)
    body = {"from": transfer.frm, "to": transfer.to, "amount": str(transfer.amount)}

    assert_error_shape(other.post(url(night), body), 404)
    assert_error_shape(Api(night.group.view_token).post(url(night), body), 403)
    paid = edit.post(url(night), body).json()
    assert_error_shape(other.delete(url(night, paid["id"])), 404)
    assert_error_shape(Api(night.group.view_token).delete(url(night, paid["id"])), 403)


# --- deleting a night ----------------------------------------------------------------------


def test_a_deleted_night_keeps_its_tables_as_the_groups_sessions_and_its_payments_in_the_balance(night, edit):
    tables = list(Session.objects.filter(night_round__night=night).order_by("pk"))
    hands = sum(table.hand_count for table in tables)
    for transfer in nights.night_settlement(night).outstanding:
        payment_record(night=night, payer=transfer.frm, payee=transfer.to, amount=transfer.amount)

    response = edit.delete(f"/api/v1/nights/{night.pk}")

    assert response.status_code == 204
    assert_error_shape(edit.get(f"/api/v1/nights/{night.pk}"), 404)
    assert_error_shape(edit.delete(f"/api/v1/nights/{night.pk}"), 404)
    kept = list(Session.objects.live().filter(pk__in=[t.pk for t in tables]).order_by("pk"))
    assert len(kept) == len(tables) and sum(s.hand_count for s in kept) == hands
    assert all(s.night_round_id is None and s.night_table is None for s in kept)
    assert all(s.revision > t.revision for s, t in zip(kept, tables, strict=True))
    sessions = reads.group_overview(night.group).sessions
    assert balance.group_balance(sessions, balance.group_payments(night.group_id, sessions)) == []
    deleted = Revision.objects.get(subject="night", action=Revision.DELETED)
    assert [t["session"] for t in deleted.before["tables"]] == [t.pk for t in tables]
    assert_error_shape(edit.post(url(night), {"from": "Ann", "to": "Bo", "amount": "100"}), 404)


def test_a_view_link_cannot_delete_a_night(night):
    assert_error_shape(Api(night.group.view_token).delete(f"/api/v1/nights/{night.pk}"), 403)
    assert Night.objects.get(pk=night.pk).deleted_at is None


def test_the_schema_lists_the_nights_payments_and_its_delete(client):
    paths = client.get("/api/schema/", headers={"Accept": "application/json"}).json()["paths"]

    assert {"201", "200", "400", "403", "404", "409", "422"} <= set(paths["/api/v1/nights/{night_id}/payments"]["post"]["responses"])
    assert {"200", "400", "403", "404"} <= set(paths["/api/v1/nights/{night_id}/payments/{payment_id}"]["delete"]["responses"])
    assert {"204", "403", "404"} <= set(paths["/api/v1/nights/{night_id}"]["delete"]["responses"])


# --- ten phones at once --------------------------------------------------------------------


@pytest.mark.postgres_only  # SQLite lets one writer in at a time: nothing overlaps to be decided
@pytest.mark.django_db(transaction=True)
def test_ten_phones_marking_the_same_transfer_at_once_make_one_payment():
    night = night_played()
    body = all_owed(night)
    token = night.group.edit_token

    responses = at_once(10, lambda i: Api(token).post(url(night), body))

    codes = sorted(response.status_code for response in responses)
    assert codes == [201] + [400] * 9, codes
    for response in responses:
        if response.status_code == 400:
            assert response.json()["errors"][0]["code"] == "wrong_way"
    assert Payment.objects.filter(night=night).count() == 1


@pytest.mark.postgres_only
@pytest.mark.django_db(transaction=True)
def test_ten_phones_sending_one_key_at_once_make_one_payment_and_a_table_waits_its_turn():
    night = night_played()
    transfer = first_owed(night)
    body = {"from": transfer.frm, "to": transfer.to, "amount": str(transfer.amount)}
    token = night.group.edit_token
    table = nights.night_settlement(night).tables[0]
    at_table = next(t for t in table.outstanding.transfers if table.outstanding.markable(t))
    session_url = f"/api/v1/sessions/{table.table.session.pk}/payments"
    at_table_body = {"from": at_table.frm, "to": at_table.to, "amount": str(at_table.amount)}

    responses = at_once(11, lambda i: Api(token).post(session_url, at_table_body) if i == 10 else
                        Api(token).post(url(night), body, **{"Idempotency-Key": "one-key"}))

    night_codes = sorted(response.status_code for response in responses[:10])
    assert set(night_codes) <= {200, 201, 409} and night_codes.count(201) == 1, night_codes
    assert responses[10].status_code == 201
    assert Payment.objects.filter(night=night).count() == 1
    assert squared_by(nights.night_settlement(night).outstanding) == owed_after_payments(night)
