"""The record's pages run the same queries at 5 hands, at 300, and over a season of 20 sessions.

Each pin names its queries; a count that grew with the hands would be a query per hand.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from tests.api.conftest import Api
from tests.factories import GroupFactory, SessionFactory, bulk_hands

HX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def cold_cache():
    cache.clear()  # the statistics are cached by revision: each pin starts counting from nothing


@pytest.fixture(params=[5, 300], ids=["5-hands", "300-hands"])
def session(request, db):
    session = SessionFactory()
    bulk_hands(session, request.param)
    assert session.group.view_token  # read here, so that the link's group is not counted against the page
    return session


@pytest.fixture
def season(db):
    group = GroupFactory()
    for _ in range(20):
        bulk_hands(SessionFactory(group=group), 25)
    return group


def test_a_player_page(client, session, django_assert_num_reads):
    with django_assert_num_reads(7):
        # 1. the group by its link; 2. the player in the group; 3. the group's live sessions to choose
        # from; 4. its seasons; 5. the sessions chosen, whole; 6. the live hands of the sessions
        # counted; 7. their sides, rated
        assert client.get(reverse("player_page", args=[session.group.view_token, "Ann"])).status_code == 200


def test_the_scoreboards_chart(client, session, django_assert_num_reads):
    with django_assert_num_reads(2):
        # 1. the link's group and the session; 2. each live hand's number and running totals
        path = reverse("session_chart", args=[session.group.view_token, session.pk])
        assert client.get(path, headers=HX).status_code == 200


def test_the_hands_as_csv(client, session, django_assert_num_reads):
    with django_assert_num_reads(2):
        # 1. the link's group and the session; 2. the live hands
        path = reverse("session_hands_csv", args=[session.group.view_token, session.pk])
        assert client.get(path).status_code == 200


def test_the_payments(client, session, django_assert_num_reads):
    with django_assert_num_reads(2):
        # 1. the link's group and the session; 2. the payments still standing (the settlement is stored totals)
        path = reverse("session_payments", args=[session.group.view_token, session.pk])
        assert client.get(path, headers=HX).status_code == 200


def test_the_settlement_page_with_its_share_text(client, session, django_assert_num_reads):
    with django_assert_num_reads(3):
        # 1. the link's group and the session; 2. each live hand's payments (hand by hand);
        # 3. the payments standing: the page lists what is still owed after them (issue 35)
        assert client.get(reverse("session_settle", args=[session.group.view_token, session.pk])).status_code == 200


def test_the_stats_api(session, django_assert_num_reads):
    api = Api(session.group.view_token)
    with django_assert_num_reads(4):
        # 1. the group by its link; 2. its live sessions; 3. their live hands, counted;
        # 4. each hand's running totals (the series, which the kept counts leave out)
        assert api.get("/api/v1/stats").status_code == 200
    with django_assert_num_reads(3):
        # the counts are kept: 1. the link; 2. the sessions; 3. the running totals
        assert api.get("/api/v1/stats").status_code == 200


def test_a_season_of_twenty_sessions(client, season, django_assert_num_reads):
    token = season.view_token
    with django_assert_num_reads(5):
        # 1. the group by its link; 2. its players; 3. its sessions; 4. its club nights; 5. the payments
        # standing (the balance)
        assert client.get(reverse("group_page", args=[token])).status_code == 200
    with django_assert_num_reads(7):
        # 1. the group by its link; 2. the player; 3. the live sessions to choose from; 4. the seasons;
        # 5. the sessions chosen, whole; 6. the hands of all twenty at once; 7. their sides, rated at once
        assert client.get(reverse("player_page", args=[token, "Cy"])).status_code == 200
    with django_assert_num_reads(3):
        # 1. the group by its link; 2. its live sessions; 3. the running totals of all twenty at once
        # (their counts were kept by the player page)
        body = Api(token).get("/api/v1/stats").json()
    assert sum(player["declarer"]["hands"] for player in body["players"]) == 500
