"""The live fragments' answer is kept whole and given again to every later phone before the
middleware (mighty_ledger/http/kept_answers.py): the same bytes and headers as the full way,
and nothing a full request would refuse.
"""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.models import Group
from tests.factories import MADE_15_DIAMONDS, bulk_hands

pytestmark = pytest.mark.django_db


@pytest.fixture
def session(session):
    bulk_hands(session, 3)
    return session


def live(session, token=None) -> str:
    return reverse("session_live", args=[token or session.group.edit_token, session.pk])


def full_way_taken(monkeypatch) -> list:
    """Record each request that went the full way, by the link lookup only the views make."""
    from mighty_ledger.http import link_query

    taken = []
    lookup = link_query.group_and_session

    def recorded(*args, **kwargs):
        taken.append(1)
        return lookup(*args, **kwargs)

    monkeypatch.setattr(link_query, "group_and_session", recorded)
    return taken


def test_a_later_phone_gets_the_first_phones_answer_headers_and_all(session, django_assert_num_queries):
    first = Client().get(live(session))
    with django_assert_num_queries(1):  # the link's query; no view, no template, no other middleware
        later = Client().get(live(session))

    assert later.status_code == first.status_code == 200
    assert later.content == first.content
    assert dict(later.items()) == dict(first.items())  # CSP, no-store, no-referrer, ETag, language: as given
    assert {"Content-Security-Policy", "Referrer-Policy", "ETag", "Cache-Control"} <= set(dict(later.items()))


def test_a_later_phone_holding_the_answer_gets_304_with_the_same_headers(session):
    first = Client().get(live(session))
    held = Client().get(live(session), HTTP_IF_NONE_MATCH=first["ETag"])
    assert held.status_code == 304 and held.content == b""
    assert held["ETag"] == first["ETag"] and held["Content-Security-Policy"] == first["Content-Security-Policy"]


def test_a_new_hand_is_a_new_answer(session):
    before = Client().get(live(session))
    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
    after = Client().get(live(session), HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and 'id="hand-4"' in after.text and after["ETag"] != before["ETag"]


def test_each_link_and_language_has_its_own_answer(session):
    edit = Client().get(live(session))
    view = Client().get(live(session, session.group.view_token))
    korean = Client().get(live(session), HTTP_ACCEPT_LANGUAGE="ko")
    again_view = Client().get(live(session, session.group.view_token))
    again_korean = Client().get(live(session), HTTP_ACCEPT_LANGUAGE="ko")

    assert session.group.edit_token not in view.text and session.group.edit_token in edit.text
    assert again_view.content == view.content and again_korean.content == korean.content != edit.content
    assert again_korean["Content-Language"] == "ko"


def test_a_rotated_link_a_deleted_session_or_group_stop_at_once(session):
    old = session.group.edit_token
    Client().get(live(session))  # kept under the old link
    services.group_rotate_link(group=session.group, which="edit")
    assert Client().get(live(session, old)).status_code == 404

    view = session.group.view_token
    Client().get(live(session, view))
    services.session_delete(session=session)
    assert Client().get(live(session, view)).status_code == 404

    services.session_restore(session=session)
    Client().get(live(session, view))
    Group.objects.filter(pk=session.group.pk).update(deleted_at=session.created_at)
    assert Client().get(live(session, view)).status_code == 404


def test_what_is_not_kept_goes_the_full_way(session, monkeypatch):
    Client().get(live(session))
    ran = full_way_taken(monkeypatch)

    Client().get(live(session))
    assert ran == []  # given before the view

    Client().get(live(session) + "?before=2")  # a page of earlier hands
    assert ran == [1]
    assert Client().get(live(session), HTTP_HOST="evil.example").status_code == 400
    with override_settings(SECURE_SSL_REDIRECT=True):
        assert Client().get(live(session)).status_code == 301


def test_an_answer_with_a_cookie_is_never_kept(session, monkeypatch):
    """A cookie is one visitor's: an answer that sets one is theirs alone."""
    from mighty_ledger.http import kept_answers

    keep = kept_answers.keep

    def with_a_cookie(response, key):
        response.set_cookie("mine", "1")
        keep(response, key)

    monkeypatch.setattr(kept_answers, "keep", with_a_cookie)
    Client().get(live(session))
    ran = full_way_taken(monkeypatch)
    assert "mine" in Client().get(live(session)).cookies
    assert ran == [1]


def test_a_phone_that_applied_a_hands_step_polls_for_one_query(session, django_assert_num_queries):
    from mighty_ledger.pages.views.board_steps import drawn

    Client().get(live(session))  # the link's answers have gone the full way once
    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
    session.refresh_from_db()
    # the ETag a phone holds after applying the hand's step: no phone has fetched this revision
    stepped = drawn(session.group.edit_token, session.pk, session.revision, "en")["etag"]

    with django_assert_num_queries(1):  # the link's query and nothing more
        polled = Client().get(live(session), HTTP_IF_NONE_MATCH=stepped)

    full = Client().get(live(session))
    assert polled.status_code == 304 and polled.content == b""
    assert full.status_code == 200 and polled["ETag"] == full["ETag"] == stepped
    shared = {name: value for name, value in full.items() if name not in ("Content-Type", "Content-Length")}
    assert dict(polled.items()) == shared  # CSP, no-store, no-referrer, the language: as the full way says them
