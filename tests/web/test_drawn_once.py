"""The scoreboard, the statistics and the ratings are drawn once per state for every phone on a link;
each phone's forms carry its own token.

The page is kept with a stand-in where the CSRF token goes (mighty_ledger/pages/views/conditional.py);
each visitor gets it with the token for their own cookie, so a form still proves it came from the
phone that posts it.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.pages.views.conditional import CSRF_STAND_IN
from tests.factories import MADE_15_DIAMONDS, bulk_hands

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
ANY_TOKEN = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[A-Za-z0-9]{64}')


def without_tokens(page: str) -> str:
    return ANY_TOKEN.sub(r"\1", page)


@pytest.fixture
def session(session):
    bulk_hands(session, 3)
    return session


def board_url(session, token=None) -> str:
    return reverse("session_board", args=[token or session.group.edit_token, session.pk])


def phone() -> Client:
    return Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")


def test_two_phones_get_the_same_board_each_with_its_own_token(session):
    ann, bo = phone(), phone()
    ann_page, bo_page = ann.get(board_url(session)).text, bo.get(board_url(session)).text

    assert CSRF_STAND_IN not in ann_page and CSRF_STAND_IN not in bo_page
    ann_tokens, bo_tokens = set(TOKEN.findall(ann_page)), set(TOKEN.findall(bo_page))
    assert ann_tokens and bo_tokens and not ann_tokens & bo_tokens
    # everything but the tokens is the same page
    assert without_tokens(ann_page) == without_tokens(bo_page)


def test_a_phones_token_from_the_drawn_page_lets_it_post_and_anothers_does_not(session):
    ann, bo = phone(), phone()
    ann_token = TOKEN.search(ann.get(board_url(session)).text).group(1)
    bo_token = TOKEN.search(bo.get(board_url(session)).text).group(1)
    switch = reverse("set_language")

    assert bo.post(switch, {"language": "ko", "next": "/", "csrfmiddlewaretoken": ann_token}).status_code == 403
    assert ann.post(switch, {"language": "ko", "next": "/", "csrfmiddlewaretoken": ann_token}).status_code == 302
    delete = reverse("session_delete", args=[session.group.edit_token, session.pk])
    assert bo.post(delete, {"csrfmiddlewaretoken": bo_token}).status_code == 302


def test_the_drawn_page_follows_each_new_hand_and_the_language(session):
    ann = phone()
    assert 'id="hand-4"' not in ann.get(board_url(session)).text
    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
    assert 'id="hand-4"' in ann.get(board_url(session)).text
    assert '<html lang="ko">' in ann.get(board_url(session), HTTP_ACCEPT_LANGUAGE="ko").text


def test_a_message_is_shown_only_to_the_phone_it_is_for(session, client):
    """The undo after a delete is one phone's: it is never kept in the page others are given."""
    client.post(reverse("hand_delete", args=[session.group.edit_token, session.pk, 3]))
    mine = client.get(board_url(session)).text
    theirs = phone().get(board_url(session)).text
    assert 'data-testid="undo"' in mine
    assert 'data-testid="undo"' not in theirs


def test_the_view_link_and_the_edit_link_are_drawn_apart(session):
    view = phone().get(board_url(session, session.group.view_token)).text
    edit = phone().get(board_url(session)).text
    assert session.group.edit_token not in view
    assert session.group.edit_token in edit


@pytest.mark.parametrize("page", ["group_stats", "group_ratings"])
def test_a_group_page_is_drawn_once_whatever_a_link_adds_to_its_query(session, django_assert_max_num_queries, page):
    """Made-up query strings reach the one drawn copy of the filters they mean: they cannot fill the cache."""
    address = reverse(page, args=[session.group.view_token])
    first = phone().get(address + "?period=all").text

    for junk in ("", "?utm=1", "?period=nonsense&system=nope", "?period=all&x=" + "y" * 50):
        with django_assert_max_num_queries(3):  # the link, the sessions, the seasons: nothing counted or drawn
            page_text = phone().get(address + junk).text
        assert without_tokens(page_text) == without_tokens(first)
    # what the page says, without its random tokens: a link's own letters may spell "utm"
    said = without_tokens(first).replace(session.group.view_token, "")
    assert "utm" not in said and "nonsense" not in said


def test_a_group_page_follows_a_new_hand(session):
    stats = reverse("group_stats", args=[session.group.view_token])
    before = phone().get(stats).text
    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
    assert without_tokens(phone().get(stats).text) != without_tokens(before)
