"""What the pages say, where a word or an order changes what a player understands (issue 20):
the new hand before the contract on a fresh board, one session or one partner named once, the
charts' axes, and the Korean words for payments and for the scoring systems."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from mighty_ledger import services
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

pytestmark = pytest.mark.django_db

# the contract as the auction ends it, before the play
BID = {"dealer": "Ed", "declarer": "Ann", "contract": {"points": 15, "trump": "D"},
       "partner_call": {"type": "card", "cards": ["AS"]}}


def board(client, session, language="en") -> str:
    url = reverse("session_board", args=[session.group.edit_token, session.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).text


def player_page(client, session, name="Ann") -> str:
    return client.get(reverse("player_page", args=[session.group.edit_token, name]), HTTP_ACCEPT_LANGUAGE="en").text


def axis(html: str, testid: str) -> list[str]:
    """The labels under each chart's x axis, in the page's order."""
    return re.findall(rf'data-testid="{testid}">([^<]*)</text>', html)


# --- the board: the new hand first ---------------------------------------------------------------


def test_a_fresh_board_asks_who_won_the_bid_before_offering_to_record_the_contract(client):
    page = board(client, SessionFactory())
    assert page.index("New hand: who won the bid?") < page.index("Enter a hand") \
        < page.index("The auction is over: record the contract")


def test_with_a_contract_being_played_the_board_offers_its_result_not_another_contract(client):
    session = SessionFactory()
    services.contract_open(session=session, entry=BID)
    page = board(client, session)
    assert "Enter the result" in page
    assert "The auction is over: record the contract" not in page


# --- the player page: the only session and the only partner --------------------------------------


def test_one_session_is_named_once_as_the_only_one_not_as_best_and_worst(client):
    session = SessionFactory()
    HandFactory(session=session)  # Ann with Cy as partner, made
    page = player_page(client, session)
    assert "The only session" in page and "The only friend" in page
    assert "Best session" not in page and "Worst session" not in page
    assert "Best friend" not in page and "Worst friend" not in page


def test_two_sessions_and_two_partners_have_a_best_and_a_worst(client):
    first = SessionFactory(played_on=datetime.date(2026, 11, 1))
    HandFactory(session=first)  # Ann and Cy make 15♦
    second = SessionFactory(group=first.group, played_on=datetime.date(2026, 11, 8))
    # Ann with Bo, set: 16 ♦ with 14
    HandFactory(session=second, entry={**MADE_15_DIAMONDS, "contract": {"points": 16, "trump": "D"},
                                       "partners": ["Bo"], "points": 14})
    page = player_page(client, first)
    assert "Best session" in page and "Worst session" in page and "The only session" not in page
    assert "Best friend" in page and "Worst friend" in page and "The only friend" not in page


# --- the charts' axes -------------------------------------------------------------------------------


def test_the_session_chart_starts_at_start_and_ends_at_the_last_hand(client):
    session = SessionFactory()
    for _ in range(3):
        HandFactory(session=session)
    url = reverse("session_chart", args=[session.group.edit_token, session.pk])  # as the board's htmx asks
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en", HTTP_HX_REQUEST="true").text
    # the left edge is every line's 0 before hand 1: "1" there would put hand 1 at the start
    assert axis(page, "chart-start") == ["Start"]
    assert axis(page, "chart-end") == ["3"]


def test_the_season_chart_names_a_date_once_even_with_one_session(client):
    session = SessionFactory(played_on=datetime.date(2026, 11, 8))
    HandFactory(session=session)
    page = client.get(reverse("group_page", args=[session.group.edit_token]), HTTP_ACCEPT_LANGUAGE="en").text
    labels = axis(page, "chart-start") + axis(page, "chart-end")
    assert labels == ["Start", "2026-11-08"]


def test_sessions_on_one_evening_are_told_apart_in_the_season_chart(client):
    night = datetime.date(2026, 11, 8)
    first = SessionFactory(played_on=night)
    HandFactory(session=first)
    HandFactory(session=SessionFactory(group=first.group, played_on=night, title="late"))
    HandFactory(session=SessionFactory(group=first.group, played_on=night))
    page = client.get(reverse("group_page", args=[first.group.edit_token]), HTTP_ACCEPT_LANGUAGE="en").text
    figures = page[page.index('id="season-chart"'):]
    rows = re.findall(r'<tr><th scope="row">([^<]*)</th>', figures)
    assert rows == ["2026-11-08 #1", "2026-11-08 · late", "2026-11-08 #3"]
    assert axis(page, "chart-end") == ["2026-11-08 #3"]


def test_the_charts_start_is_said_in_korean(client):
    session = SessionFactory()
    HandFactory(session=session)
    url = reverse("session_chart", args=[session.group.edit_token, session.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ko", HTTP_HX_REQUEST="true").text
    assert axis(page, "chart-start") == ["시작"]


# --- Korean: payments are not the score, and systems have one name ---------------------------------


def heading(html: str, level: str = "h2") -> list[str]:
    return [re.sub(r"<[^>]+>", "", text).strip() for text in re.findall(rf"<{level}[^>]*>(.*?)</{level}>", html, re.S)]


def test_in_korean_payments_are_money_paid_on_the_settlement_and_points_moved_on_a_hand(client):
    session = SessionFactory()
    HandFactory(session=session)
    token = session.group.edit_token
    payments = client.get(reverse("session_payments", args=[token, session.pk]), HTTP_ACCEPT_LANGUAGE="ko").text
    hand = client.get(reverse("hand_detail", args=[token, session.pk, 1]), HTTP_ACCEPT_LANGUAGE="ko").text
    # 점수 alone is the score, the standing: neither page's payments are that
    assert "지불" in heading(payments) and "점수" not in heading(payments)
    assert "주고받은 점수" in heading(hand) and "점수" not in heading(hand)


def test_the_new_session_menu_names_each_system_as_the_board_does(client):
    session = SessionFactory(preset="korean-standard")
    token = session.group.edit_token
    menu = client.get(reverse("session_new", args=[token]), HTTP_ACCEPT_LANGUAGE="ko").text
    on_board = board(client, session, language="ko")
    assert "표준 5마" in on_board
    assert re.search(r'<input type="radio" name="preset" value="korean-standard"[^>]*><span><strong>표준 5마</strong>', menu)
    assert re.search(r'<input type="radio" name="preset" value="pagat-standard"[^>]*><span><strong>Pagat 표준 \(5인\)</strong>', menu)
    assert "Korean standard" not in menu


def test_a_replaced_or_mistyped_link_gets_a_page_in_the_players_language(client, db):
    english = client.get("/g/not-a-link/", HTTP_ACCEPT_LANGUAGE="en")
    korean = client.get("/g/not-a-link/", HTTP_ACCEPT_LANGUAGE="ko")

    assert english.status_code == korean.status_code == 404
    assert "it may have been replaced" in english.content.decode()
    assert 'data-testid="not-found"' in korean.content.decode() and 'lang="ko"' in korean.content.decode()
