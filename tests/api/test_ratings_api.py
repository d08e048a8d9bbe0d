"""``GET /api/v1/ratings`` and ``GET/POST /api/v1/seasons``: the public contract."""

from __future__ import annotations

import datetime

import pytest
from openskill.models import PlackettLuce

from mighty_ledger.models import Revision, Season
from tests.api.conftest import Api
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

SET_ONE = {"dealer": "Ann", "declarer": "Bo", "contract": {"points": 14, "trump": "S"},
           "partner_call": {"type": "card", "cards": ["AH"]}, "partners": ["Di"], "points": 12}


@pytest.fixture
def two_evenings(db):
    autumn = SessionFactory(played_on=datetime.date(2026, 10, 1))
    HandFactory(session=autumn, entry=dict(MADE_15_DIAMONDS))
    winter = SessionFactory(group=autumn.group, played_on=datetime.date(2026, 12, 1), preset="korean-standard")
    HandFactory(session=winter, entry=dict(SET_ONE))
    return autumn, winter


def test_the_view_link_reads_every_players_rating_highest_first(two_evenings):
    autumn, _winter = two_evenings
    answer = Api(autumn.group.view_token).get("/api/v1/ratings")

    assert answer.status_code == 200
    body = answer.json()
    assert body["model"] == "plackett_luce"
    assert [set(player) for player in body["players"]] == [
        {"name", "mu", "sigma", "ordinal", "hands", "provisional"}] * 5
    ordinals = [player["ordinal"] for player in body["players"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert {player["name"]: player["hands"] for player in body["players"]} == dict.fromkeys(
        ["Ann", "Bo", "Cy", "Di", "Ed"], 2)
    assert all(player["provisional"] for player in body["players"])


def test_the_floats_are_openskills_unrounded(two_evenings):
    autumn, _winter = two_evenings
    model = PlackettLuce()
    ann_cy, others = [model.rating(), model.rating()], [model.rating() for _ in range(3)]
    [ann, cy], [bo, di, ed] = model.rate([ann_cy, others], ranks=[0, 1])
    [bo, di], [ann, cy, ed] = model.rate([[bo, di], [ann, cy, ed]], ranks=[1, 0])

    players = {p["name"]: p for p in Api(autumn.group.view_token).get("/api/v1/ratings").json()["players"]}

    assert players["Ann"]["mu"] == ann.mu and players["Ann"]["sigma"] == ann.sigma
    assert players["Ann"]["ordinal"] == ann.ordinal()


def test_a_filter_rates_only_the_hands_it_selects(two_evenings):
    autumn, winter = two_evenings
    api = Api(autumn.group.view_token)

    for query in ({"system": "korean-standard"}, {"since": "2026-11-01"}, {"session": str(winter.pk)}):
        players = api.get("/api/v1/ratings", **query).json()["players"]
        assert {p["hands"] for p in players} == {1}, query
        assert players[0]["name"] in {"Ann", "Cy", "Ed"}  # the defenders set Bo and Di


def test_a_season_filter_and_the_current_season(two_evenings):
    autumn, _winter = two_evenings
    api = Api(autumn.group.edit_token)
    first = api.post("/api/v1/seasons", {"name": "Autumn", "starts": "2026-09-01"}).json()
    api.post("/api/v1/seasons", {"name": "Winter", "starts": "2026-11-15"})

    players = api.get("/api/v1/ratings", season=str(first["id"])).json()["players"]
    assert {p["hands"] for p in players} == {1}
    assert players[0]["name"] in {"Ann", "Cy"}  # autumn: their contract was made
    assert api.get("/api/v1/ratings", season="current").status_code == 200
    assert api.get("/api/v1/ratings", season="all").json() == api.get("/api/v1/ratings").json()


@pytest.mark.parametrize(("query", "status", "code"), [
    ({"season": "spring"}, 400, "bad_type"),
    ({"since": "yesterday"}, 400, "bad_date"),
    ({"sytem": "pagat-standard"}, 400, "unknown_parameter"),
    ({"season": "999999"}, 404, "not_found"),
])
def test_a_bad_filter_is_answered_in_the_error_shape(two_evenings, query, status, code):
    autumn, _winter = two_evenings
    answer = Api(autumn.group.view_token).get("/api/v1/ratings", **query)

    assert answer.status_code == status
    assert answer.json()["errors"][0]["code"] == code


def test_no_link_is_401_and_an_unknown_one_404(db):
    assert Api().get("/api/v1/ratings").status_code == 401
    assert Api("no-such-link").get("/api/v1/ratings").status_code == 404


# --- seasons -------------------------------------------------------------------------------------


def test_a_season_is_named_listed_and_ended_by_the_next(two_evenings):
    autumn, _winter = two_evenings
    api = Api(autumn.group.edit_token)

    created = api.post("/api/v1/seasons", {"name": "Autumn", "starts": "2026-09-01"})
    api.post("/api/v1/seasons", {"name": "Winter", "starts": "2026-11-15"})

    assert created.status_code == 201
    assert created.json()["name"] == "Autumn" and created.json()["ends"] is None
    listed = Api(autumn.group.view_token).get("/api/v1/seasons").json()
    assert [(s["name"], s["starts"], s["ends"]) for s in listed] == [
        ("Autumn", "2026-09-01", "2026-11-14"), ("Winter", "2026-11-15", None)]
    assert Revision.objects.filter(subject="season", by="API").count() == 2


@pytest.mark.parametrize(("body", "field", "code"), [
    ({"name": "Spring", "starts": "someday"}, "starts", "invalid"),
    ({"name": "", "starts": "2026-03-01"}, "name", "blank"),
    ({"starts": "2026-03-01"}, "name", "required"),
    ({"name": "Again", "starts": "2026-09-01"}, "starts", "duplicate_season_start"),
])
def test_a_season_that_cannot_be_named_is_refused_in_the_error_shape(two_evenings, body, field, code):
    autumn, _winter = two_evenings
    api = Api(autumn.group.edit_token)
    api.post("/api/v1/seasons", {"name": "Autumn", "starts": "2026-09-01"})

    answer = api.post("/api/v1/seasons", body)

    assert answer.status_code == 400
    assert (answer.json()["errors"][0]["field"], answer.json()["errors"][0]["code"]) == (field, code)


def test_a_view_link_cannot_name_a_season(two_evenings):
    autumn, _winter = two_evenings
    answer = Api(autumn.group.view_token).post("/api/v1/seasons", {"name": "Autumn", "starts": "2026-09-01"})

    assert answer.status_code == 403
    assert not Season.objects.exists()


def test_ratings_and_seasons_are_in_the_schema(db):
    from rest_framework.test import APIClient

    schema = APIClient().get("/api/schema/", {"format": "json"}).json()

    assert set(schema["paths"]["/api/v1/seasons"]) >= {"get", "post"}
    ratings = schema["paths"]["/api/v1/ratings"]["get"]
    assert {"400", "401", "404"} <= set(ratings["responses"])
    assert {"400", "401", "403", "422"} <= set(schema["paths"]["/api/v1/seasons"]["post"]["responses"])
