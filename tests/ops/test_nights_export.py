"""A group's club nights survive export, an emptied database and import: each night, its rounds,
which session was which round's table, and the night's own payments (undone ones too)."""

from __future__ import annotations

import io
import json
import random
from decimal import Decimal

import pytest
from django.core.management import call_command

from mighty_ledger import services
from mighty_ledger.models import Group, Night, NightRound, Payment, Session
from mighty_ledger.reads import nights
from mighty_ledger.services import nights as night_services
from mighty_ledger.services.payments import payment_record, payment_undo
from scoring.settle import Stakes
from tests.web.night_tables import pay_at_the_first_table, second_round_under_way

PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kay"]


def fields(obj, *skip: str) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields if f.attname not in ("id", *skip)}


def club(group: Group) -> dict:
    """The group's nights as stored, with ids replaced by what they point at: a table is named by
    its session's title and creation, a round by its night's title and its number."""
    def session_key(session_id):
        session = Session.objects.get(pk=session_id)
        return (session.title, session.created_at)

    return {
        "nights": [
            {**fields(night, "group_id"),
             "rounds": [{**fields(r, "night_id"),
                         "tables": sorted((s.night_table, session_key(s.pk)) for s in r.tables.all())}
                        for r in night.rounds.order_by("number")],
             "payments": [fields(p, "group_id", "night_id") for p in night.payments.order_by("created_at")]}
            for night in Night.objects.filter(group=group).order_by("created_at")
        ],
        "unlinked tables": sorted(session_key(s.pk) for s in Session.objects.filter(group=group, night_round=None)),
        "table payments": sorted((session_key(p.session_id), p.payer, p.payee, p.amount)
                                 for p in Payment.objects.filter(group=group, night=None)),
    }


@pytest.fixture
def club_group(db) -> Group:
    """A night of two rounds at ₩100 a point (its second round half played, one of its tables
    deleted), paid partly at a table and partly for the whole night (one payment undone), and a
    night deleted, its tables kept as sessions of their own."""
    group = services.group_create(name="목요 클럽")
    rng = random.Random(3)
    night = night_services.night_create(group=group, players=PLAYERS, preset="pagat-standard", seed=7,
                                        hands_per_round=5, stakes=Stakes(Decimal(100), "KRW"), title="금요일 밤")
    second_round_under_way(night, rng, 2)
    pay_at_the_first_table(night)
    settled = nights.night_settlement(night)
    transfer = settled.outstanding[0]
    payment_record(night=night, payer=transfer.frm, payee=transfer.to, amount=transfer.amount,
                         idempotency_key="phone-3-night-pay")
    mistaken, _ = payment_record(night=night, payer=transfer.to, payee=transfer.frm, amount=Decimal(100),
                                       overpay=True)
    payment_undo(payment=mistaken)
    services.session_delete(session=settled.tables[-1].table.session)

    gone = night_services.night_create(group=group, players=PLAYERS[:5], preset="pagat-standard", seed=8,
                                       hands_per_round=5, title="made by mistake")
    night_services.night_round_draw(night=gone)
    night_services.night_delete(night=gone)
    return group


# a real transaction per step: PostgreSQL will not TRUNCATE (flush) inside the test's own transaction
@pytest.mark.django_db(transaction=True)
def test_nights_rounds_tables_and_the_nights_payments_survive_an_emptied_database(club_group, tmp_path):
    before = club(club_group)
    assert len(before["nights"]) == 2 and before["nights"][1]["deleted_at"] is not None
    assert [len(r["tables"]) for r in before["nights"][0]["rounds"]] == [2, 2]
    assert [p["undone_at"] is not None for p in before["nights"][0]["payments"]] == [False, True]
    assert before["unlinked tables"] and before["table payments"]
    settled = nights.night_settlement(Night.objects.get(group=club_group, deleted_at=None))
    path = tmp_path / "group.json"

    call_command("export_group", club_group.view_token, output=str(path))
    call_command("flush", interactive=False, verbosity=0)
    assert not Night.objects.exists() and not NightRound.objects.exists()
    call_command("import_group", str(path), stdout=io.StringIO())

    group = Group.objects.get()
    assert club(group) == before
    again = nights.night_settlement(Night.objects.get(group=group, deleted_at=None))
    assert (again.totals, again.outstanding) == (settled.totals, settled.outstanding)
    assert [(p.payer, p.payee, p.amount, p.night_id is None) for p in again.payments] == \
        [(p.payer, p.payee, p.amount, p.night_id is None) for p in settled.payments]


@pytest.mark.django_db
def test_a_document_from_before_nights_came_along_imports_its_tables_as_sessions_of_their_own(club_group, tmp_path):
    path = tmp_path / "group.json"
    call_command("export_group", club_group.view_token, output=str(path))
    document = json.loads(path.read_text())
    del document["nights"]
    path.write_text(json.dumps(document))

    call_command("import_group", str(path), new_tokens=True, stdout=io.StringIO())

    copy = Group.objects.exclude(pk=club_group.pk).get()
    assert not copy.nights.exists() and not Payment.objects.filter(group=copy, session=None).exists()
    assert copy.sessions.count() == club_group.sessions.count()
    assert not copy.sessions.exclude(night_round=None).exists()
    assert not copy.sessions.exclude(night_table=None).exists()
