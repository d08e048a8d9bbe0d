"""Groups, players, sessions, hands, events, settlement and history over the API."""

import pytest

from mighty_ledger.models import Group, Hand, Revision
from tests.factories import HandFactory, bulk_hands

from .conftest import MADE_15_DIAMONDS, Api, assert_error_shape, hands_url


def test_create_a_group_returns_its_tokens_and_links(anonymous, db):
    response = anonymous.post("/api/v1/groups", {"name": "Thursday table", "players": ["Ann", "Bo"]})

    assert response.status_code == 201
    body = response.json()
    group = Group.objects.get(pk=body["id"])
    assert body["name"] == "Thursday table"
    assert (body["edit_token"], body["view_token"]) == (group.edit_token, group.view_token)
    assert [p["name"] for p in body["players"]] == ["Ann", "Bo"]
    assert body["links"]["sessions"].endswith("/api/v1/sessions")


def test_create_a_group_without_a_name_is_400(anonymous, db):
    assert_error_shape(anonymous.post("/api/v1/groups", {"players": ["Ann"]}), 400)
    assert_error_shape(anonymous.post("/api/v1/groups", {"name": "   "}), 400)


def test_read_the_group_of_the_token(edit, view, group):
    for api, right in ((edit, "edit"), (view, "view")):
        body = api.get("/api/v1/group").json()
        assert (body["id"], body["name"], body["right"]) == (group.id, group.name, right)
        # the tokens are shown once, at creation; never to a view link
        assert "edit_token" not in body and "view_token" not in body


def test_players_list_and_add(edit, group):
    response = edit.post("/api/v1/players", {"name": "Fay"})

    assert response.status_code == 201
    assert response.json()["name"] == "Fay"
    names = [p["name"] for p in edit.get("/api/v1/players").json()]
    assert names == sorted(["Ann", "Bo", "Cy", "Di", "Ed", "Fay"])


def test_a_duplicate_player_is_400(edit, group):
    assert_error_shape(edit.post("/api/v1/players", {"name": "Ann"}), 400, "duplicate_player")


def test_start_a_session(edit, group):
    seats = ["Ann", "Bo", "Cy", "Di", "Ed"]

    response = edit.post("/api/v1/sessions", {"seats": seats, "preset": "korean-standard", "title": "Friday",
                                              "stake_per_point": "100", "currency": "KRW"})

    assert response.status_code == 201
    body = response.json()
    assert body["seats"] == seats and body["preset"] == "korean-standard"
    assert body["system_options"]["min_bid"] == 14
    assert body["totals"] == dict.fromkeys(seats, 0)
    assert body["stake_per_point"] == "100.00"


def test_a_session_with_a_stranger_or_wrong_count_is_400(edit, group):
    errors = assert_error_shape(edit.post("/api/v1/sessions", {"seats": ["Ann", "Zed"], "preset": "pagat-standard"}), 400)
    assert {"unknown_player", "wrong_player_count"} <= {e["code"] for e in errors}
    assert_error_shape(edit.post("/api/v1/sessions", {"seats": ["Ann"], "preset": "nope"}), 400, "unknown_system")


def test_sessions_list_is_paginated_newest_first(edit, session):
    edit.post("/api/v1/sessions", {"seats": session.seats, "preset": "pagat-standard"})

    body = edit.get("/api/v1/sessions", page_size=1).json()

    assert body["count"] == 2
    assert len(body["results"]) == 1 and body["next"]
    assert body["results"][0]["id"] > session.id


def test_delete_and_restore_a_session(edit, session):
    url = f"/api/v1/sessions/{session.pk}"

    assert edit.delete(url).json()["deleted"] is True
    assert_error_shape(edit.get(url), 404, "not_found")
    assert [s["id"] for s in edit.get("/api/v1/sessions", deleted="true").json()["results"]] == [session.pk]
    restored = edit.post(f"{url}/restore")

    assert restored.status_code == 200 and restored.json()["deleted"] is False
    assert edit.get(url).status_code == 200


def test_a_deleted_session_takes_no_hands(edit, session):
    edit.delete(f"/api/v1/sessions/{session.pk}")

    assert_error_shape(edit.post(hands_url(session), MADE_15_DIAMONDS), 404, "not_found")
    assert not session.hands.exists()


@pytest.mark.parametrize("session_id", [0, 2**63, 10**30])
def test_a_session_id_no_row_can_have_is_404(edit, session, session_id):
    assert_error_shape(edit.post(f"/api/v1/sessions/{session_id}/hands", MADE_15_DIAMONDS), 404, "not_found")
    assert_error_shape(edit.get(f"/api/v1/sessions/{session_id}"), 404, "not_found")


def test_record_a_hand_numbers_it_and_scores_it(edit, session):
    response = edit.post(hands_url(session), MADE_15_DIAMONDS)

    assert response.status_code == 201
    hand = response.json()
    assert (hand["number"], hand["kind"], hand["version"]) == (1, "scored", 1)
    assert hand["result"]["made"] is True
    assert sum(hand["payments"].values()) == 0
    assert hand["running_totals"] == hand["payments"]
    assert edit.post(hands_url(session), MADE_15_DIAMONDS).json()["number"] == 2


def test_a_hand_may_come_wrapped_in_entry(edit, session):
    assert edit.post(hands_url(session), {"entry": MADE_15_DIAMONDS}).status_code == 201


def test_an_illegal_hand_is_400_and_takes_no_number(edit, session):
    assert_error_shape(edit.post(hands_url(session), {**MADE_15_DIAMONDS, "declarer": "Zed"}), 400)
    assert edit.post(hands_url(session), MADE_15_DIAMONDS).json()["number"] == 1


def test_read_list_and_update_a_hand(edit, session):
    HandFactory(session=session)
    url = f"{hands_url(session)}/1"

    assert edit.get(url).json()["version"] == 1
    response = edit.put(url, {**MADE_15_DIAMONDS, "points": 14, "version": 1})

    assert response.status_code == 200
    assert response.json()["version"] == 2 and response.json()["result"]["made"] is False
    assert edit.get(hands_url(session)).json()["results"][0]["version"] == 2


def test_a_stale_update_is_409_with_the_current_hand(edit, session):
    HandFactory(session=session)
    url = f"{hands_url(session)}/1"
    edit.put(url, {**MADE_15_DIAMONDS, "points": 14, "version": 1})

    response = edit.put(url, {**MADE_15_DIAMONDS, "points": 18, "version": 1})

    assert_error_shape(response, 409, "stale_version")
    assert response.json()["hand"]["version"] == 2
    assert response.json()["hand"]["entry"]["points"] == 14


def test_an_update_without_a_version_is_400(edit, session):
    HandFactory(session=session)
    assert_error_shape(edit.put(f"{hands_url(session)}/1", MADE_15_DIAMONDS), 400, "missing")


def test_delete_and_restore_a_hand_keeps_its_number(edit, session):
    HandFactory(session=session)
    HandFactory(session=session)
    url = f"{hands_url(session)}/1"

    assert edit.delete(url).json()["deleted"] is True
    assert [h["number"] for h in edit.get(hands_url(session)).json()["results"]] == [2]
    assert [h["number"] for h in edit.get(hands_url(session), include_deleted="true").json()["results"]] == [1, 2]
    assert edit.post(hands_url(session), MADE_15_DIAMONDS).json()["number"] == 3
    assert edit.post(f"{url}/restore").json()["deleted"] is False


def test_hands_list_is_paginated(edit, session):
    bulk_hands(session, 60)

    body = edit.get(hands_url(session)).json()

    assert body["count"] == 60 and len(body["results"]) == 50
    assert [h["number"] for h in edit.get(body["next"]).json()["results"]] == list(range(51, 61))


def test_a_page_past_the_end_is_404(edit, session):
    assert_error_shape(edit.get(hands_url(session), page=9), 404)


def test_record_a_deal_miss_and_an_all_pass(edit, session):
    url = f"/api/v1/sessions/{session.pk}/events"

    deal_miss = edit.post(url, {"kind": "deal_miss", "dealer": "Ed", "shown_by": "Bo", "fine": 2})
    all_pass = edit.post(url, {"kind": "all_pass", "dealer": "Ann"})

    assert deal_miss.status_code == 201 and all_pass.status_code == 201
    assert (deal_miss.json()["number"], all_pass.json()["number"]) == (1, 2)
    assert deal_miss.json()["payments"]["Ed"] == -2 and deal_miss.json()["pot_after"] == 2
    assert_error_shape(edit.post(url, {"kind": "scored", "dealer": "Ed"}), 400)
    assert_error_shape(edit.post(url, {"kind": "deal_miss", "dealer": "Zed", "shown_by": "Bo"}), 400, "unknown_seat")


def test_settlement_gives_totals_transfers_money_and_chips(edit, group):
    session_id = edit.post("/api/v1/sessions", {
        "seats": ["Ann", "Bo", "Cy", "Di", "Ed"], "preset": "pagat-standard",
        "stake_per_point": "0.50", "rounding_unit": "0.50", "currency": "EUR", "chips_start": 100, "chips_per_point": 1,
    }).json()["id"]
    edit.post(f"/api/v1/sessions/{session_id}/hands", MADE_15_DIAMONDS)
    edit.post(f"/api/v1/sessions/{session_id}/events", {"kind": "deal_miss", "dealer": "Ed", "shown_by": "Bo", "fine": 1})

    body = edit.get(f"/api/v1/sessions/{session_id}/settlement").json()

    totals = body["totals"]
    assert sum(totals.values()) + body["pot"] == 0 and body["pot"] == 1
    assert body["money"] == {seat: f"{points * 0.5:.2f}" for seat, points in {**totals, "pot": 1}.items()}
    assert body["chips"] == {seat: 100 + points for seat, points in totals.items()}
    # the fewest transfers settle everyone (the pot as one more party)
    left = {**totals, "pot": body["pot"]}
    for transfer in body["transfers"]:
        left[transfer["from"]] += transfer["amount"]
        left[transfer["to"]] -= transfer["amount"]
    assert set(left.values()) == {0}
    assert [h["number"] for h in body["hands"]] == [1, 2]
    assert body["hands"][1]["transfers"] == [{"from": "Ed", "to": "pot", "amount": 1}]


def test_revision_history_records_every_change(edit, session):
    edit.post(hands_url(session), MADE_15_DIAMONDS)
    edit.delete(f"{hands_url(session)}/1")

    body = edit.get("/api/v1/revisions", session=session.pk).json()

    assert body["count"] == Revision.objects.filter(session=session).count()
    newest = body["results"][0]
    assert (newest["subject"], newest["action"], newest["hand"]) == ("hand", "deleted", 1)
    assert newest["by"] == "API"
    assert_error_shape(edit.get("/api/v1/revisions", session="x"), 400)


def test_unknown_session_or_hand_is_404(edit, session):
    assert_error_shape(edit.get("/api/v1/sessions/999999"), 404)
    assert_error_shape(edit.get(f"{hands_url(session)}/7"), 404)


def test_the_engine_stores_what_it_scored(edit, session):
    edit.post(hands_url(session), {**MADE_15_DIAMONDS, "system": session.preset, "seats": session.seats})

    hand = Hand.objects.get(session=session)
    # the session's seats and frozen system are the session's to keep, not each hand's
    # (another system or other seats are refused: test_request_fields.py)
    assert "system" not in hand.entry and "seats" not in hand.entry
    assert Api(session.group.view_token).get(f"{hands_url(session)}/1").json()["result"]["made"] is True
