"""check_consistency: silent on a clean ledger, loud (exit 1) on any stored value the engine disagrees with."""

import io

import pytest
from django.core.management import CommandError, call_command

from mighty_ledger.models import Hand, Session


def run_check() -> str:
    out = io.StringIO()
    call_command("check_consistency", stdout=out)
    return out.getvalue()


def test_a_ledger_written_by_the_services_is_consistent(played_group):
    assert "Consistent" in run_check()


def test_a_tampered_stored_result_is_reported_and_fails(played_group):
    hand = Hand.objects.live().filter(kind=Hand.SCORED).order_by("id").first()
    hand.result = {**hand.result, "payments": {**hand.result["payments"], "Ann": 999}}
    hand.save(update_fields=["result"])

    out = io.StringIO()
    with pytest.raises(CommandError, match="differences") as failure:
        call_command("check_consistency", stdout=out)

    assert failure.value.returncode == 1
    assert f"session {hand.session_id} hand {hand.number}: stored result differs" in out.getvalue()
    assert "payments" in out.getvalue()
    # the replay from stored results then disagrees with the stored totals too
    assert "stored payments or running totals differ from a replay" in out.getvalue()


def test_a_tampered_running_total_is_reported_and_fails(played_group):
    session = Session.objects.live().order_by("id").first()
    session.totals = {**session.totals, "Ann": session.totals["Ann"] + 5}
    session.save(update_fields=["totals"])

    out = io.StringIO()
    with pytest.raises(CommandError):
        call_command("check_consistency", stdout=out)

    assert f"session {session.id}: session totals" in out.getvalue()


def test_a_deleted_hand_is_not_rescored(played_group):
    hand = Hand.objects.deleted().get()
    hand.result = {"tampered": True}
    hand.save(update_fields=["result"])

    assert "Consistent" in run_check()


def test_an_explanation_worded_differently_is_no_difference(played_group):
    # hands saved before explanations named their contract in words ("Contract 15 D; …")
    hand = Hand.objects.live().filter(kind=Hand.SCORED).order_by("id").first()
    hand.result = {**hand.result, "explanation": ["Contract 15 D; the declarer's team took 16 of 20: made."]}
    hand.save(update_fields=["result"])

    assert "Consistent" in run_check()


def test_sessions_frozen_before_a_change_of_defaults_or_checks_keep_their_scoring(db):
    import importlib

    from django.apps import apps as django_apps

    from mighty_ledger import reads
    from tests.factories import SessionFactory

    sinchon = SessionFactory(preset="korean-sinchon")
    odd = SessionFactory()
    frozen = {k: v for k, v in sinchon.system_options.items() if k not in ("nt_discount_in_score", "hard_offset")}
    Session.objects.filter(pk=sinchon.pk).update(system_options=frozen)
    # options the form offered once and the engine now refuses: a run doubling a set contract
    Session.objects.filter(pk=odd.pk).update(
        system_options={**odd.system_options, "doubles": {**odd.system_options["doubles"], "run": "set"}})

    # before the migration, the session's pages still read its system
    assert reads.system_of(Session.objects.get(pk=odd.pk)).doubles.run == "set"
    migration = importlib.import_module("mighty_ledger.migrations.0011_frozen_systems_keep_their_scoring")
    migration.keep_their_scoring(django_apps, None)

    assert Session.objects.get(pk=sinchon.pk).system_options["nt_discount_in_score"] is True
    assert Session.objects.get(pk=odd.pk).system_options["doubles"]["run"] == "never"
