"""Club nights over the API (issue 38): the contract's names and shapes, the draw's 409 while a
round is being played, the same seed giving the same draw, players coming and going, the swap,
the settlement over every table, and bad input answered in the error shape."""

from __future__ import annotations

import random

import pytest

from mighty_ledger import services
from mighty_ledger.models import Night, Player, Session
from tests.web.night_tables import finish_round, play

from .conftest import Api, assert_error_shape

pytestmark = pytest.mark.django_db

PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kay"]


@pytest.fixture
def edit():
    group = services.group_create(name="Club", player_names=["Ann", "Bo"])
    return Api(group.edit_token)


def start(api: Api, **body) -> dict:
    response = api.post("/api/v1/nights", {"players": PLAYERS, "preset": "pagat-standard", "hands_per_round": 5,
                                           "seed": 1234, "standings": "points", **body})
    assert response.status_code == 201, response.content
    return response.json()


def test_a_night_starts_with_its_seed_and_adds_the_players_new_to_the_group(edit):
    night = start(edit)

    assert night["seed"] == 1234 and isinstance(night["id"], int)
    assert night["players"] == PLAYERS and night["rounds"] == []
    group_players = {p["name"] for p in edit.get("/api/v1/players").json()}
    assert set(PLAYERS) <= group_players


def test_a_night_without_a_seed_is_given_one(edit):
    response = edit.post("/api/v1/nights", {"players": PLAYERS[:5], "preset": "pagat-standard"})

    assert response.status_code == 201
    assert isinstance(response.json()["seed"], int)
    assert response.json()["hands_per_round"] == 10  # two deals per seat at a table of five


def test_a_round_is_drawn_with_its_tables_sessions_and_seats(edit):
    night = start(edit)

    response = edit.post(f"/api/v1/nights/{night['id']}/rounds")

    assert response.status_code == 201, response.content
    drawn = response.json()
    assert drawn["number"] == 1 and drawn["seed"] == 1234 and drawn["sitting_out"] == []
    assert sorted(len(table["seats"]) for table in drawn["tables"]) == [5, 6]
    seated = [name for table in drawn["tables"] for name in table["seats"]]
    assert sorted(seated) == sorted(PLAYERS)
    for table in drawn["tables"]:
        session = edit.get(f"/api/v1/sessions/{table['session']}").json()
        assert session["seats"] == table["seats"]


def test_the_same_seed_gives_the_same_draw(edit):
    other = Api(services.group_create(name="Elsewhere").edit_token)
    here, there = start(edit), start(other)

    first = edit.post(f"/api/v1/nights/{here['id']}/rounds").json()
    second = other.post(f"/api/v1/nights/{there['id']}/rounds").json()

    assert [t["seats"] for t in first["tables"]] == [t["seats"] for t in second["tables"]]
    assert first["sitting_out"] == second["sitting_out"]


def test_the_next_round_is_refused_with_409_until_every_table_has_finished(edit):
    night = start(edit)
    drawn = edit.post(f"/api/v1/nights/{night['id']}/rounds").json()
    table = drawn["tables"][0]
    hand = {"dealer": table["seats"][0], "declarer": table["seats"][1], "contract": {"points": 14, "trump": "S"},
            "partner_call": {"type": "card", "cards": ["AS"]}, "partners": [table["seats"][2]], "points": 15}
    assert edit.post(f"/api/v1/sessions/{table['session']}/hands", hand).status_code == 201

    refused = edit.post(f"/api/v1/nights/{night['id']}/rounds")

    assert_error_shape(refused, 409, "round_in_progress")
    finish_round(Night.objects.get(pk=night["id"]), random.Random(7))
    again = edit.post(f"/api/v1/nights/{night['id']}/rounds")
    assert again.status_code == 201 and again.json()["number"] == 2
    detail = edit.get(f"/api/v1/nights/{night['id']}").json()
    assert [r["finished"] for r in detail["rounds"]] == [True, False]
    assert set(detail["places"]) == set(PLAYERS)


def test_players_are_added_and_removed_between_rounds(edit):
    night = start(edit)
    url = f"/api/v1/nights/{night['id']}/players"

    added = edit.post(url, {"name": "Lee"})
    removed = edit.client.delete(url, {"name": "Ann"}, format="json")
    by_query = edit.client.delete(f"{url}?name=Bo")

    assert added.status_code == 201 and "Lee" in added.json()["players"]
    assert removed.status_code == 200 and "Ann" not in removed.json()["players"]
    assert by_query.status_code == 200 and "Bo" not in by_query.json()["players"]
    assert Player.objects.filter(name="Lee").exists()
    assert_error_shape(edit.post(url, {"name": "Lee"}), 400, "already_present")
    assert_error_shape(edit.client.delete(url, {"name": "Ann"}, format="json"), 400, "not_present")
    drawn = edit.post(f"/api/v1/nights/{night['id']}/rounds").json()
    seated = {name for table in drawn["tables"] for name in table["seats"]} | set(drawn["sitting_out"])
    assert "Lee" in seated and not {"Ann", "Bo"} & seated


def test_two_players_are_swapped_before_their_tables_begin(edit):
    night = start(edit)
    drawn = edit.post(f"/api/v1/nights/{night['id']}/rounds").json()
    a, b = drawn["tables"][0]["seats"][0], drawn["tables"][1]["seats"][2]

    swapped = edit.post(f"/api/v1/nights/{night['id']}/rounds/1/swap", {"players": [a, b]})

    assert swapped.status_code == 201, swapped.content
    tables = swapped.json()["tables"]
    assert tables[0]["seats"][0] == b and tables[1]["seats"][2] == a
    play(Session.objects.get(pk=tables[0]["session"]), random.Random(8))
    assert_error_shape(edit.post(f"/api/v1/nights/{night['id']}/rounds/1/swap", {"players": [a, b]}), 409,
                       "round_started")
    assert edit.post(f"/api/v1/nights/{night['id']}/rounds/2/swap", {"players": [a, b]}).status_code == 404


def test_the_standings_and_the_settlement_cover_every_table(edit):
    night = start(edit, stake_per_point="100", currency="KRW", standings="placement")
    edit.post(f"/api/v1/nights/{night['id']}/rounds")
    finish_round(Night.objects.get(pk=night["id"]), random.Random(9))
    sessions = Session.objects.filter(night_round__night_id=night["id"])

    standings = edit.get(f"/api/v1/nights/{night['id']}/standings").json()
    settlement = edit.get(f"/api/v1/nights/{night['id']}/settlement").json()

    points = {name: sum(s.totals.get(name, 0) for s in sessions) for name in PLAYERS}
    assert {p["name"]: p["points"] for p in standings["players"]} == points
    assert [p["rank"] for p in standings["players"]] == sorted(p["rank"] for p in standings["players"])
    assert standings["standings"] == "placement"
    assert settlement["settle_in"] == "money"
    assert sum(settlement["totals"].values()) + settlement["pot"] == 0
    assert settlement["totals"] == {
        name: sum(amount for t in settlement["tables"] for seat, amount in t["amounts"].items() if seat == name)
        for name in PLAYERS}
    for transfer in settlement["outstanding"]:
        assert set(transfer) >= {"from", "to", "amount"}


@pytest.mark.parametrize(("body", "field", "code"), [
    ({"players": PLAYERS, "preset": "no-such-system"}, "preset", "unknown_system"),
    ({"players": PLAYERS, "standings": "best"}, "standings", "invalid_choice"),
    ({"players": PLAYERS, "hands_per_round": 0}, "hands_per_round", "min_value"),
    ({"players": PLAYERS, "hands_per_round": 10, "minutes_per_round": 60}, "minutes_per_round", "round_ends_twice"),
    ({"players": ["Ann", "Ann"]}, "players[1]", "duplicate_player"),
    ({"players": ["\u202eAnn"]}, "players[0]", "bidi_control"),
    ({"players": PLAYERS, "seed": -1}, "seed", "min_value"),
    ({"preset": "pagat-standard"}, "players", "required"),
], ids=["unknown-system", "bad-standings", "no-hands", "hands-and-minutes", "twice", "bidi", "negative-seed",
        "no-players"])
def test_bad_input_is_a_400_in_the_error_shape(edit, body, field, code):
    errors = assert_error_shape(edit.post("/api/v1/nights", body), 400, code)

    assert field in [error["field"] for error in errors]


@pytest.mark.parametrize(("preset", "players"), [
    ("pagat-standard", []), ("pagat-standard", ["Ann"]), ("pagat-standard", PLAYERS[:4]),
    ("chicago-6p", PLAYERS[:5]), ("korean-4", PLAYERS[:3]),
], ids=["none", "one", "four-for-five", "five-for-six", "three-for-four"])
def test_a_night_starts_with_a_tables_worth_of_players_or_is_a_400(edit, preset, players):
    errors = assert_error_shape(edit.post("/api/v1/nights", {"players": players, "preset": preset}), 400,
                                "too_few_players")

    assert [error["field"] for error in errors] == ["players"]
    assert not Night.objects.exists()


def test_too_few_players_left_to_fill_a_table_is_a_400(edit):
    night = start(edit, players=PLAYERS[:5])
    edit.client.delete(f"/api/v1/nights/{night['id']}/players", {"name": "Ann"}, format="json")

    assert_error_shape(edit.post(f"/api/v1/nights/{night['id']}/rounds"), 400, "too_few_players")


def test_another_groups_night_is_404_and_a_view_link_cannot_draw(edit):
    night = start(edit)
    other = Api(services.group_create(name="Elsewhere").edit_token)
    group = Night.objects.get(pk=night["id"]).group

    assert_error_shape(other.get(f"/api/v1/nights/{night['id']}"), 404)
    assert_error_shape(other.post(f"/api/v1/nights/{night['id']}/rounds"), 404)
    assert_error_shape(Api(group.view_token).post(f"/api/v1/nights/{night['id']}/rounds"), 403)
    assert Api(group.view_token).get(f"/api/v1/nights/{night['id']}/standings").status_code == 200


def test_nights_are_listed_newest_first(edit):
    first, second = start(edit), start(edit)

    listed = edit.get("/api/v1/nights").json()

    assert [n["id"] for n in listed["results"]] == [second["id"], first["id"]]


def test_a_round_refused_says_so_in_the_askers_language(edit):
    night = start(edit)
    edit.post(f"/api/v1/nights/{night['id']}/rounds")

    refused = edit.client.post(f"/api/v1/nights/{night['id']}/rounds", headers={"Accept-Language": "ko"})

    (error,) = assert_error_shape(refused, 409, "round_in_progress")
    assert error["message"].startswith("1라운드가 아직 진행 중입니다")
