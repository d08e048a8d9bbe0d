"""``GET /api/v1/stats`` and the payments of a settlement, over the API.

The names in the answer are a public contract (issue: the group's record):
players[].name, hands, sat_out, declarer{hands,made}, partner{hands,made},
defender{hands,won}, points, runs, back_runs, biggest_win, biggest_loss;
pairs[].players/hands/made; series[].session/hand/totals. ``made`` and ``won``
are counts. The evening is test_stats.py's, worked out there by the rules.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
import yaml

from mighty_ledger import services
from tests.api.conftest import Api, assert_error_shape
from tests.factories import MADE_15_DIAMONDS, SessionFactory
from tests.web.test_stats import EXPECTED, play

PLAYER_FIELDS = {"name", "hands", "sat_out", "declarer", "partner", "defender", "points", "runs", "back_runs",
                 "biggest_win", "biggest_loss"}


@pytest.fixture
def evening(db):
    return play(SessionFactory(played_on=datetime.date(2026, 11, 20), stake_per_point=Decimal(100), currency="KRW"))


@pytest.fixture
def view(evening):
    return Api(evening.group.view_token)


def test_the_public_names_and_every_players_counts(view):
    body = view.get("/api/v1/stats").json()

    assert {"players", "pairs", "series"} <= set(body)
    for player in body["players"]:
        assert set(player) >= PLAYER_FIELDS
        assert {"hands", "made"} <= set(player["declarer"]) and {"hands", "made"} <= set(player["partner"])
        assert {"hands", "won"} <= set(player["defender"])
        hands, sat_out, declarer, partner, defender, points, win, loss = EXPECTED[player["name"]]
        assert (player["hands"], player["sat_out"]) == (hands, sat_out)
        assert (player["declarer"]["hands"], player["declarer"]["made"]) == declarer[:2]  # counts, not %
        assert (player["partner"]["hands"], player["partner"]["made"]) == partner
        assert (player["defender"]["hands"], player["defender"]["won"]) == defender[:2]
        assert (player["runs"], player["back_runs"]) == (declarer[6], defender[2])
        assert (player["points"], player["biggest_win"], player["biggest_loss"]) == (points, win, loss)
    assert {player["name"]: player["money"] for player in body["players"]}["Cy"] == {"KRW": "25500"}


def test_pairs_and_the_series_hand_by_hand(view, evening):
    body = view.get("/api/v1/stats").json()

    assert {(tuple(p["players"]), p["hands"], p["made"]) for p in body["pairs"]} == {
        (("Ann", "Cy"), 1, 1), (("Bo", "Di"), 1, 0), (("Ann", "Ed"), 1, 0),
    }
    assert [point["hand"] for point in body["series"]] == [1, 2, 3, 4, 5]
    assert {point["session"] for point in body["series"]} == {evening.pk}
    assert body["series"][-1]["totals"] == evening.totals


def test_the_filters_pick_a_session_a_date_and_a_system(view, evening):
    older = play(SessionFactory(group=evening.group, played_on=datetime.date(2026, 9, 1), preset="korean-standard"),
                 [(dict(MADE_15_DIAMONDS), "scored")])

    assert view.get("/api/v1/stats").json()["systems"] == ["korean-standard", "pagat-standard"]  # said, not hidden
    assert view.get("/api/v1/stats", session=older.pk).json()["hands"] == 1
    assert view.get("/api/v1/stats", since="2026-11-01").json()["hands"] == 4
    only = view.get("/api/v1/stats", system="korean-standard").json()
    assert (only["systems"], only["hands"]) == (["korean-standard"], 1)


@pytest.mark.parametrize(("params", "field"), [
    ({"session": "x"}, "session"), ({"since": "20.11.2026"}, "since"), ({"system": "no-such-system"}, "system"),
])
def test_bad_filters_are_a_clear_400(view, params, field):
    problems = assert_error_shape(view.get("/api/v1/stats", **params), 400)

    assert field in {problem["field"] for problem in problems}


def test_another_groups_session_is_not_found(evening):
    other = SessionFactory()
    assert Api(evening.group.view_token).get("/api/v1/stats", session=other.pk).status_code == 404
    assert Api().get("/api/v1/stats").status_code == 401


def test_a_payment_is_recorded_listed_and_undone(evening):
    edit = Api(evening.group.edit_token)
    url = f"/api/v1/sessions/{evening.pk}/payments"

    created = edit.post(url, {"from": "Ed", "to": "Cy", "amount": "10300"})
    assert created.status_code == 201, created.content
    payment = created.json()
    assert (payment["from"], payment["to"], payment["amount"], payment["unit"], payment["currency"]) == (
        "Ed", "Cy", "10300.00", "money", "KRW")
    assert [p["id"] for p in edit.get(url).json()] == [payment["id"]]
    settlement = edit.get(f"/api/v1/sessions/{evening.pk}/settlement").json()
    assert [p["id"] for p in settlement["payments"]] == [payment["id"]]

    assert edit.delete(f"{url}/{payment['id']}").json()["undone"] is True
    assert edit.get(url).json() == []
    assert_error_shape(edit.delete(f"{url}/{payment['id']}"), 400, "already_undone")


def test_a_payment_needs_the_edit_link_and_real_seats(evening):
    url = f"/api/v1/sessions/{evening.pk}/payments"

    assert Api(evening.group.view_token).post(url, {"from": "Ed", "to": "Cy", "amount": "1"}).status_code == 403
    assert_error_shape(Api(evening.group.edit_token).post(url, {"from": "Nobody", "to": "Cy", "amount": "1"}), 400,
                       "unknown_seat")
    assert_error_shape(Api(evening.group.edit_token).post(url, {"from": "Ed", "to": "Cy", "amount": "-5"}), 400)


def test_a_payer_typed_with_stray_spaces_is_the_seated_player(evening):
    url = f"/api/v1/sessions/{evening.pk}/payments"
    created = Api(evening.group.edit_token).post(url, {"from": " Ed ", "to": "Cy\t", "amount": "100"})
    assert created.status_code == 201, created.content
    assert (created.json()["from"], created.json()["to"]) == ("Ed", "Cy")


def test_a_name_with_doubled_inner_spaces_is_the_seated_player(db):
    session = SessionFactory(seats=["Ann Lee", "Bo", "Cy", "Di", "Ed"])
    # nothing is owed without a hand: confirmed, as the names are what this is about
    payment, _ = services.payment_record(session=session, payer="Ann  Lee", payee="Bo", amount=Decimal(3), overpay=True)
    assert payment.payer == "Ann Lee"


def test_payments_never_change_the_statistics(evening, view):
    before = view.get("/api/v1/stats").json()
    services.payment_record(session=evening, payer="Ed", payee="Cy", amount=Decimal(10300))

    assert view.get("/api/v1/stats").json() == before


def test_the_schema_documents_the_statistics_and_the_payments(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)

    assert {"get"} <= set(schema["paths"]["/api/v1/stats"])
    assert {"get", "post"} <= set(schema["paths"]["/api/v1/sessions/{session_id}/payments"])
    player = schema["components"]["schemas"]["PlayerStats"]["properties"]
    assert set(player) >= PLAYER_FIELDS
    parameters = {p["name"] for p in schema["paths"]["/api/v1/stats"]["get"]["parameters"]}
    assert {"session", "since", "system"} <= parameters


def test_a_filter_the_statistics_do_not_take_is_refused_not_ignored(db):
    from tests.api.conftest import Api, assert_error_shape
    from tests.factories import SessionFactory

    edit = Api(SessionFactory().group.edit_token)

    errors = assert_error_shape(edit.get("/api/v1/stats", sesion="1"), 400, "unknown_parameter")
    assert errors[0]["field"] == "sesion"
