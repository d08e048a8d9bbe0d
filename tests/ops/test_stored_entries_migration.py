"""Hands stored before null fields were read as missing, or with their bid alone, are kept as
the services keep them now (migration 0012): the pages that read them answer again, and what
was scored does not move."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps
from django.urls import reverse

from mighty_ledger.models import Contract, Hand
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

pytestmark = pytest.mark.django_db

migration = importlib.import_module("mighty_ledger.migrations.0012_stored_entries_as_kept_now")


def test_nulls_and_a_bid_alone_stored_before_are_kept_as_now(client):
    session = SessionFactory()
    with_nulls = HandFactory(session=session, entry=MADE_15_DIAMONDS)
    bid_alone = HandFactory(session=session, entry={**MADE_15_DIAMONDS, "dealer": "Ann", "declarer": "Bo",
                                                    "partners": ["Di"]})
    as_stored = {"payments": with_nulls.payments, "totals": bid_alone.running_totals}
    # as a client's "partners": null, "discards": null and a bid given alone were stored before
    Hand.objects.filter(pk=with_nulls.pk).update(entry={**with_nulls.entry, "partners": None, "discards": None})
    bid = bid_alone.entry["contract"]
    Hand.objects.filter(pk=bid_alone.pk).update(
        entry={key: value for key, value in bid_alone.entry.items() if key != "contract"} | {"bid": bid})
    token = session.group.edit_token

    migration.keep_entries_as_now(django_apps, None)

    with_nulls.refresh_from_db()
    bid_alone.refresh_from_db()
    assert "partners" not in with_nulls.entry and "discards" not in with_nulls.entry
    assert bid_alone.entry["contract"] == bid_alone.entry["bid"] == bid
    assert {"payments": with_nulls.payments, "totals": bid_alone.running_totals} == as_stored
    for page in (reverse("group_stats", args=[token]), reverse("session_history", args=[token, session.pk]),
                 reverse("hand_edit", args=[token, session.pk, 1])):
        assert client.get(page).status_code == 200, page


def test_a_contract_in_progress_stored_with_nulls_is_kept_without_them():
    session = SessionFactory()
    contract = Contract.objects.create(session=session, entry={"declarer": "Ann", "contract": {"points": 15, "trump": "D"},
                                                               "partner_call": {"type": "card", "cards": ["AS"]},
                                                               "bid": None})

    migration.keep_entries_as_now(django_apps, None)

    contract.refresh_from_db()
    assert "bid" not in contract.entry and contract.entry["declarer"] == "Ann"


def test_entries_stored_as_now_are_left_alone():
    session = SessionFactory()
    hand = HandFactory(session=session, entry=MADE_15_DIAMONDS)
    before = Hand.objects.get(pk=hand.pk).entry

    migration.keep_entries_as_now(django_apps, None)

    assert Hand.objects.get(pk=hand.pk).entry == before
