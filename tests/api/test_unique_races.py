"""Ten requests at once on every name or date that must be unique, and on every create: no 5xx (issue 36).

A player's name is unique in its group and a season's start date too; two requests
that check "not taken yet" at the same moment both pass the check, and the
database's unique constraint decides: the loser is told in the error shape (400
duplicate_player, duplicate_season_start), never a 500. Groups and sessions have
no unique name, but ten at once must still all be made (ten with one
Idempotency-Key or one form key make one: tests/keys/test_at_once.py). Real threads, each with its own
connection, released together; on PostgreSQL, where the requests truly overlap.
"""

from __future__ import annotations

import datetime
import json

import pytest
from django.test import Client

from mighty_ledger.http import request_keys
from mighty_ledger.models import Group, Player, Season, Session
from tests.factories import SEATS, SessionFactory

from .conftest import Api
from .test_concurrency import at_once, codes

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_rate_limits")]

TEN = 10


def assert_refusals_in_the_error_shape(responses, code: str) -> None:
    for response in responses:
        if response.status_code >= 400:
            assert response.status_code == 400, response.content[:300]
            assert code in [problem["code"] for problem in response.json()["errors"]], response.json()


# --- the API: one name or date, ten requests ---------------------------------------------------


@pytest.mark.parametrize("keys", [False, True], ids=["no-key", "a-key-each"])
def test_ten_players_of_one_name_at_once_add_one_and_refuse_nine(keys):
    session = SessionFactory()
    token = session.group.edit_token

    def add(i: int):
        headers = {"Idempotency-Key": f"phone-{i}"} if keys else {}
        return Api(token).post("/api/v1/players", {"name": "Flo"}, **headers)

    responses = at_once(TEN, add)

    assert codes(responses) == [201] + [400] * (TEN - 1)
    assert_refusals_in_the_error_shape(responses, "duplicate_player")
    assert Player.objects.filter(group=session.group, name="Flo").count() == 1


@pytest.mark.parametrize("keys", [False, True], ids=["no-key", "a-key-each"])
def test_ten_seasons_from_one_day_at_once_name_one_and_refuse_nine(keys):
    session = SessionFactory()
    token = session.group.edit_token

    def name(i: int):
        headers = {"Idempotency-Key": f"phone-{i}"} if keys else {}
        return Api(token).post("/api/v1/seasons", {"name": f"Spring {i}", "starts": "2030-03-01"}, **headers)

    responses = at_once(TEN, name)

    assert codes(responses) == [201] + [400] * (TEN - 1)
    assert_refusals_in_the_error_shape(responses, "duplicate_season_start")
    assert Season.objects.filter(group=session.group).count() == 1


def test_ten_seasons_moved_to_one_day_at_once_move_one_and_refuse_nine():
    session = SessionFactory()
    token = session.group.edit_token
    seasons = [Season.objects.create(group=session.group, name=f"Spring {i}",
                                     starts=datetime.date(2030, 1, 1) + datetime.timedelta(days=i)) for i in range(TEN)]

    responses = at_once(TEN, lambda i: Api(token).patch(f"/api/v1/seasons/{seasons[i].pk}", {"starts": "2031-01-01"}))

    assert codes(responses) == [200] + [400] * (TEN - 1)
    assert_refusals_in_the_error_shape(responses, "duplicate_season_start")
    assert Season.objects.filter(group=session.group, starts="2031-01-01").count() == 1


def test_ten_groups_and_ten_sessions_at_once_are_all_made():
    session = SessionFactory()
    token = session.group.edit_token

    def create(i: int):
        if i % 2:
            return Api().post("/api/v1/groups", {"name": "Friday", "players": ["Ann", "Bo"]})
        return Api(token).post("/api/v1/sessions", {"seats": list(SEATS), "preset": "pagat-standard"})

    responses = at_once(2 * TEN, create)

    assert codes(responses) == [201] * (2 * TEN)
    assert Group.objects.filter(name="Friday").count() == TEN
    assert Session.objects.filter(group=session.group).count() == 1 + TEN


# --- the pages' forms ----------------------------------------------------------------------------


def form_posts(path: str, data):
    """Each phone's own form (a key of its own): ten forms, not one form sent ten times
    (that is tests/keys/test_at_once.py)."""
    def post(i: int):
        return Client().post(path, data(i) | {"request_key": request_keys.new_form_key()})
    return post


def test_ten_player_forms_of_one_name_at_once_add_one():
    session = SessionFactory()
    token = session.group.edit_token

    responses = at_once(TEN, form_posts(f"/g/{token}/players/add/", lambda i: {"name": "Flo"}))

    assert {response.status_code for response in responses} == {302}
    assert Player.objects.filter(group=session.group, name="Flo").count() == 1


def test_ten_season_forms_from_one_day_at_once_name_one():
    session = SessionFactory()
    token = session.group.edit_token
    data = lambda i: {"name": f"Spring {i}", "starts": "2030-03-01"}  # noqa: E731

    responses = at_once(TEN, form_posts(f"/g/{token}/seasons/", data))

    assert {response.status_code for response in responses} <= {302, 400}
    assert Season.objects.filter(group=session.group).count() == 1
    for response in responses:
        if response.status_code == 400:  # the form shown again, the date refused beside it
            assert "already starts on 2030-03-01" in response.content.decode()


def test_ten_session_and_group_forms_at_once_are_all_made():
    session = SessionFactory()
    token = session.group.edit_token
    seats = {f"seat_{i + 1}": name for i, name in enumerate(SEATS)}
    new_session = form_posts(f"/g/{token}/sessions/new/",
                             lambda i: {"played_on": "2025-03-01", "preset": "pagat-standard", **seats})
    new_group = form_posts("/g/new/", lambda i: {"name": "Friday", "player_names": "Ann\nBo"})

    responses = at_once(2 * TEN, lambda i: new_session(i) if i % 2 else new_group(i))

    assert {response.status_code for response in responses} == {302}
    assert Session.objects.filter(group=session.group).count() == 1 + TEN
    assert Group.objects.filter(name="Friday").count() == TEN
    assert Player.objects.filter(group__name="Friday").count() == 2 * TEN


def test_the_error_shape_of_a_lost_race_names_the_field():
    session = SessionFactory()
    token = session.group.edit_token

    responses = at_once(TEN, lambda i: Api(token).post("/api/v1/players", {"name": "Flo"}))

    refused = [json.loads(response.content) for response in responses if response.status_code == 400]
    assert refused and all(body["errors"][0]["field"] == "name" for body in refused)
