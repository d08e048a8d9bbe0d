"""Nothing is lost by deleting: sessions and groups come back with their totals."""

import io

from django.core.management import call_command

from mighty_ledger.models import Group, Revision, Session


def test_a_deleted_session_is_restored_with_its_totals_and_a_revision(played_group):
    session = Session.objects.deleted().get(group=played_group)
    totals = session.totals

    call_command("restore", "session", str(session.id), stdout=io.StringIO())

    session.refresh_from_db()
    assert session.deleted_at is None and session.totals == totals
    assert Revision.objects.filter(session=session, action=Revision.RESTORED).exists()


def test_a_deleted_group_is_restored_through_its_link(played_group):
    from mighty_ledger import services

    services.group_delete(group=played_group)

    call_command("restore", "group", played_group.view_token, stdout=io.StringIO())

    assert Group.objects.live().filter(pk=played_group.pk).exists()


def test_a_group_whose_old_link_begins_with_a_dash_is_restored_after_a_double_dash(played_group):
    from mighty_ledger import services

    services.group_delete(group=played_group)
    dashed = "-" + played_group.view_token[1:]
    Group.objects.filter(pk=played_group.pk).update(view_token=dashed)

    call_command("restore", "group", "--", dashed, stdout=io.StringIO())

    assert Group.objects.live().filter(pk=played_group.pk).exists()
