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
