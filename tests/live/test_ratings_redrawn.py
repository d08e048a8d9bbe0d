"""The ratings a group looks at are drawn again as each hand comes, with that hand rated.

As for the statistics (test_statistics_redrawn.py, whose table and helpers these tests share): a
phone at the table follows the board, someone has opened the ratings. When the next hand is
recorded, amended or deleted, the stream process rates it and draws the ratings again into the
cache; the next look at them is read from there, and is the page the view would have drawn with
nothing kept: never the ratings before the hand.
"""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.models import Hand
from mighty_ledger.pages.views import stats_redrawn
from tests.drawn import Drawn
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory
from tests.live.test_statistics_redrawn import (
    STATISTICS,
    _a_hand,
    _drawn_afresh,
    _each_drawn_ahead,
    _look,
    _redrawn,
    _seated,
    _statistics_url,
    _the_table,
)

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]

RATINGS = "table/ratings.html"
SET_15_DIAMONDS = {**MADE_15_DIAMONDS, "points": 12}  # the same contract, set: the other side wins
HANDS = re.compile(r'data-testid="rating">[^<]*</td>\s*<td class="num">(\d+)</td>')


def _ratings_url(session, *, view: bool = True, query: str = "") -> str:
    token = session.group.view_token if view else session.group.edit_token
    return reverse("group_ratings", args=[token]) + (f"?{query}" if query else "")


def _hands_rated(page: str) -> list[int]:
    """Each player's rated hands, as the ratings table shows them."""
    return [int(hands) for hands in HANDS.findall(page)]


async def test_the_ratings_looked_at_come_from_the_cache_after_the_next_hand_with_it_rated(open_stream):
    session = await _seated()
    table = await _the_table(open_stream, session)
    url = _ratings_url(session)
    before, drawn = await _look(url)
    assert RATINGS in drawn
    assert _hands_rated(before) == [1] * 5

    await _a_hand(table, session)

    page, drawn = await _look(url)
    assert drawn == []  # drawn before it was asked for
    assert _hands_rated(page) == [2] * 5  # the new hand rated
    assert page != before
    assert page == await _drawn_afresh(url)


async def test_the_statistics_and_the_ratings_looked_at_are_both_drawn_again(open_stream):
    session = await _seated()
    table = await _the_table(open_stream, session)
    looks = [(_statistics_url(session), "en"), (_ratings_url(session), "en"),
             (_ratings_url(session, view=False, query=f"period=s{session.pk}"), "ko")]

    pages = await _each_drawn_ahead(table, session, looks)

    assert 'data-testid="stats-hands">2<' in pages[0]
    assert "레이팅" in pages[2]


@sync_to_async
def _amend_the_first_hand(session) -> None:
    """The first hand was set, not made: its session's ratings are rated again from the start."""
    hand = Hand.objects.get(session=session, number=1)
    services.hand_amend(hand=hand, entry=dict(SET_15_DIAMONDS), version=hand.version)


@sync_to_async
def _delete_the_first_hand(session) -> None:
    services.hand_delete(hand=Hand.objects.get(session=session, number=1))


# an amended or deleted hand moves the ratings of every hand after it: rated again, not gone on from
@pytest.mark.parametrize("change", [_amend_the_first_hand, _delete_the_first_hand], ids=["amended", "deleted"])
async def test_a_hand_changed_before_the_last_is_rated_again_in_the_page_drawn_ahead(open_stream, change):
    session = await _seated()
    table = await _the_table(open_stream, session)
    url = _ratings_url(session)
    await _look(url)
    await _a_hand(table, session)
    before, _drawn = await _look(url)

    await change(session)
    assert (await table.next_event())[0] == "change"
    await _redrawn()

    page, drawn = await _look(url)
    assert drawn == []
    assert page != before
    assert page == await _drawn_afresh(url)


async def test_ratings_nobody_looked_at_are_drawn_by_the_view_as_they_always_were(open_stream):
    session = await _seated()
    table = await _the_table(open_stream, session)
    await _look(_statistics_url(session))  # the group looks at its statistics, not its ratings

    await _a_hand(table, session)

    page, drawn = await _look(_ratings_url(session))
    assert RATINGS in drawn
    assert _hands_rated(page) == [2] * 5


@pytest.mark.django_db(transaction=True)
def test_the_redrawing_draws_only_the_pages_looked_at():
    session = SessionFactory()
    HandFactory(session=session)
    group = session.group
    Client().get(reverse("group_ratings", args=[group.view_token]))
    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
    session.refresh_from_db()

    with Drawn() as drawn:
        stats_redrawn.redrawn(group.pk, session.pk, session.revision, "hand_recorded")

    assert RATINGS in drawn.names and STATISTICS not in drawn.names
