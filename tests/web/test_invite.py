"""The board's invitation: the view link's QR code at once, the edit link's only to an edit link
and only after a second, deliberate tap (``?show=edit``)."""

from __future__ import annotations

import segno
from django.urls import reverse

from mighty_ledger.pages.views.invite import qr_svg
from tests.factories import SessionFactory


def invite(client, token, session, **query):
    return client.get(reverse("session_invite", args=[token, session.pk]), query)


def test_the_view_links_code_is_shown_at_once_and_the_edit_links_is_not(client, db):
    session = SessionFactory()
    group = session.group
    page = invite(client, group.edit_token, session)
    text = page.content.decode()

    assert page.status_code == 200
    assert f"/g/{group.view_token}/s/{session.pk}/" in text
    assert text.count('class="qr-code"') == 1 and 'data-testid="edit-code"' not in text
    assert "no-store" in page["Cache-Control"]


def test_the_edit_links_code_after_the_second_tap(client, db):
    session = SessionFactory()
    group = session.group
    text = invite(client, group.edit_token, session, show="edit").content.decode()

    assert f"/g/{group.edit_token}/s/{session.pk}/" in text
    assert text.count('class="qr-code"') == 2


def test_a_view_link_never_shows_the_edit_links_code(client, db):
    session = SessionFactory()
    text = invite(client, session.group.view_token, session, show="edit").content.decode()

    assert session.group.edit_token not in text
    assert text.count('class="qr-code"') == 1


def test_the_code_is_segnos_svg_black_on_white_sized_by_the_page():
    drawn = qr_svg("https://example.org/g/abc/s/1/", title="https://example.org/g/abc/s/1/")

    assert drawn.startswith('<svg viewBox="0 0 ') and 'class="qr-code"' in drawn
    assert "width=" not in drawn.split(">")[0]  # the stylesheet sizes it
    assert 'fill="#fff"' in drawn and 'stroke="#000"' in drawn
    assert "<script" not in drawn
    assert drawn == segno.make("https://example.org/g/abc/s/1/", error="m").svg_inline(
        scale=1, dark="#000", light="#fff", border=4, omitsize=True, svgclass="qr-code", lineclass=None,
        title="https://example.org/g/abc/s/1/")
