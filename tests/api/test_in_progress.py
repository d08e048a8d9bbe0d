"""The hand in progress over the API: opened when the auction ends, read by every phone,
completed into the session's next hand or thrown in; one at a time per session."""

from __future__ import annotations

import pytest
import yaml
from django.db import IntegrityError, transaction

from mighty_ledger import services
from mighty_ledger.models import Contract, Hand, Revision
from tests.factories import SessionFactory

from .conftest import Api, assert_error_shape

# the contract of pagat example 1 (RULES.md §9.1): Ann 15♦, calling the ace of spades
ANN_15_DIAMONDS = {
    "dealer": "Ed",
    "declarer": "Ann",
    "contract": {"points": 15, "trump": "D"},
    "partner_call": {"type": "card", "cards": ["AS"]},
}
# pagat examples 3, 4, 6 and 7: Ann 16 NT, calling the Joker or no friend
ANN_16_NT = {**ANN_15_DIAMONDS, "contract": {"points": 16, "trump": "NT"}, "partner_call": {"type": "card", "cards": ["JOKER"]}}
ANN_16_NT_ALONE = {**ANN_16_NT, "partner_call": {"type": "none"}}


def contracts_url(session) -> str:
    return f"/api/v1/sessions/{session.pk}/contracts"


def contract_url(session, contract_id: int, action: str = "") -> str:
    return f"{contracts_url(session)}/{contract_id}" + (f"/{action}" if action else "")


def opened(edit, session, contract: dict = ANN_15_DIAMONDS, **headers) -> dict:
    response = edit.post(contracts_url(session), contract, **headers)
    assert response.status_code == 201, response.content
    return response.json()


def outlook_at(outlook: dict, points: int) -> dict:
    (row,) = [row for row in outlook["rows"] if row["from"] <= points <= row["to"]]
    return row


# --- the whole life of a hand in progress ---------------------------------------------------------


def test_a_contract_opened_when_the_auction_ends_is_read_back_by_another_phone(edit, view, session):
    contract = opened(edit, session)

    assert contract["status"] == "open"
    assert contract["entry"] == ANN_15_DIAMONDS
    assert contract["version"] == 1 and contract["hand"] is None
    # another phone, even with the view link, finds it
    (listed,) = view.get(contracts_url(session), status="open").json()["results"]
    assert listed == contract
    assert view.get(contract_url(session, contract["id"])).json() == contract


def test_completing_it_records_the_session_next_hand_scored_like_any_other(edit, session):
    contract = opened(edit, session)

    response = edit.post(contract_url(session, contract["id"], "complete"),
                         {"version": contract["version"], "partners": ["Cy"], "points": 16})

    assert response.status_code == 200, response.content
    completed = response.json()
    assert completed["status"] == "completed" and completed["hand"] == 1 and completed["version"] == 2
    hand = edit.get(f"/api/v1/sessions/{session.pk}/hands/1").json()
    # pagat example 1: 15♦ made with 16
    assert hand["payments"] == {"Ann": 10, "Cy": 5, "Bo": -5, "Di": -5, "Ed": -5}
    assert hand["entry"] == {**ANN_15_DIAMONDS, "partners": ["Cy"], "points": 16}
    assert edit.get(f"/api/v1/sessions/{session.pk}").json()["totals"]["Ann"] == 10
    assert edit.get(contracts_url(session), status="open").json()["results"] == []


def test_throwing_it_in_scores_nothing_and_frees_the_session_for_the_next(edit, session):
    contract = opened(edit, session)

    response = edit.post(contract_url(session, contract["id"], "abandon"), {"version": contract["version"]})

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "abandoned"
    session.refresh_from_db()
    assert session.hand_count == 0 and set(session.totals.values()) == {0}
    opened(edit, session, ANN_16_NT)


def test_every_change_keeps_a_revision(edit, session):
    first = opened(edit, session)
    edit.post(contract_url(session, first["id"], "abandon"), {"version": 1})
    second = opened(edit, session)
    edit.post(contract_url(session, second["id"], "complete"), {"version": 1, "partners": ["Cy"], "points": 16})

    revisions = Revision.objects.filter(session=session, subject="contract").order_by("id")
    assert [(r.action, (r.after or {}).get("status")) for r in revisions] == [
        (Revision.CREATED, "open"), (Revision.DELETED, "abandoned"),
        (Revision.CREATED, "open"), (Revision.AMENDED, "completed"),
    ]
    assert revisions.last().hand.number == 1
    assert all(r.by == "API" for r in revisions)


def test_every_change_moves_the_session_revision_on(edit, session):
    revisions = []
    contract = opened(edit, session)
    session.refresh_from_db()
    revisions.append(session.revision)
    edit.post(contract_url(session, contract["id"], "abandon"), {"version": 1})
    session.refresh_from_db()
    revisions.append(session.revision)

    assert revisions[0] > 0 and revisions[1] > revisions[0]


# --- what each seat would win or lose ------------------------------------------------------------

# RULES.md §9.1, pagat-standard: declarer, partner and each defender at a count of points
OUTLOOKS = [
    pytest.param(ANN_15_DIAMONDS, 16, (10, 5, -5), id="pagat-example-1"),
    pytest.param(ANN_15_DIAMONDS, 13, (-4, -2, 2), id="pagat-example-2"),
    pytest.param(ANN_16_NT, 18, (32, 16, -16), id="pagat-example-3"),
    pytest.param(ANN_16_NT, 13, (-12, -6, 6), id="pagat-example-4"),
    pytest.param(ANN_16_NT_ALONE, 17, (112, None, -28), id="pagat-example-6"),
    pytest.param(ANN_16_NT_ALONE, 15, (-16, None, 4), id="pagat-example-7"),
]


@pytest.mark.parametrize(("contract", "points", "expected"), OUTLOOKS)
def test_the_outlook_says_what_each_side_wins_or_pays_at_each_count(edit, session, contract, points, expected):
    outlook = opened(edit, session, contract)["outlook"]

    row = outlook_at(outlook, points)
    assert (row["declarer"], row["partner"], row["defender"]) == expected
    assert row["made"] == (points >= contract["contract"]["points"])


def test_the_outlook_covers_every_count_once(edit, session):
    outlook = opened(edit, session)["outlook"]

    covered = [points for row in outlook["rows"] for points in range(row["from"], row["to"] + 1)]
    assert covered == list(range(outlook["total"] + 1))
    assert outlook["alone"] is False and outlook["partner"] is None  # a card call: the partner is not known yet


def test_a_player_call_names_the_partner_in_the_outlook(db):
    session = SessionFactory(preset="korean-standard")
    edit = Api(session.group.edit_token)

    response = edit.post(contracts_url(session), {**ANN_15_DIAMONDS, "partner_call": {"type": "player", "seat": "Cy"}})

    assert response.status_code == 201, response.content
    assert response.json()["outlook"]["partner"] == "Cy"


# --- one at a time ----------------------------------------------------------------------------------


def test_a_second_contract_is_refused_with_the_one_being_played(edit, session):
    first = opened(edit, session)

    response = edit.post(contracts_url(session), ANN_16_NT)

    assert_error_shape(response, 409, "contract_in_progress")
    assert response.json()["contract"] == first
    assert Contract.objects.filter(session=session).count() == 1


def test_replacing_the_one_being_played_throws_it_in(edit, session):
    first = opened(edit, session)

    response = edit.post(contracts_url(session), {**ANN_16_NT, "replacing": first["id"]})

    assert response.status_code == 201, response.content
    assert edit.get(contract_url(session, first["id"])).json()["status"] == "abandoned"
    (playing,) = edit.get(contracts_url(session), status="open").json()["results"]
    assert playing["entry"]["contract"] == {"points": 16, "trump": "NT"}


def test_the_database_itself_refuses_a_second_open_contract(session):
    Contract.objects.create(session=session, entry=ANN_15_DIAMONDS)

    with pytest.raises(IntegrityError), transaction.atomic():
        Contract.objects.create(session=session, entry=ANN_16_NT)
    # closed ones do not count
    Contract.objects.create(session=session, entry=ANN_16_NT, status=Contract.ABANDONED)


def test_each_session_has_its_own(edit, session):
    other = SessionFactory(group=session.group)
    opened(edit, session)

    opened(edit, other)


# --- versions and conflicts ---------------------------------------------------------------------------


def test_a_stale_version_is_refused_with_the_contract_as_it_is(edit, session):
    contract = opened(edit, session)

    response = edit.post(contract_url(session, contract["id"], "complete"), {"version": 7, "partners": ["Cy"], "points": 16})

    assert_error_shape(response, 409, "stale_version")
    assert response.json()["contract"]["version"] == 1
    assert Hand.objects.filter(session=session).count() == 0


@pytest.mark.parametrize("action", ["complete", "abandon"])
def test_a_hand_completed_by_another_phone_cannot_be_closed_again(edit, session, action):
    contract = opened(edit, session)
    edit.post(contract_url(session, contract["id"], "complete"), {"version": 1, "partners": ["Cy"], "points": 16})

    response = edit.post(contract_url(session, contract["id"], action), {"version": 1, "partners": ["Cy"], "points": 16})

    assert_error_shape(response, 409, "contract_closed")
    assert response.json()["contract"]["status"] == "completed"
    assert Hand.objects.filter(session=session).count() == 1


@pytest.mark.parametrize("body", [{}, {"version": "1"}, {"version": True}, []], ids=["missing", "text", "bool", "list"])
def test_closing_needs_the_version_read(edit, session, body):
    contract = opened(edit, session)

    assert_error_shape(edit.post(contract_url(session, contract["id"], "abandon"), body), 400)


# --- bad input -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("contract", "field"), [
    pytest.param({**ANN_15_DIAMONDS, "contract": {"points": 12, "trump": "D"}}, "contract.points", id="below-the-minimum"),
    pytest.param({**ANN_15_DIAMONDS, "declarer": "Zed"}, "declarer", id="not-a-seat"),
    pytest.param({**ANN_15_DIAMONDS, "partner_call": {"type": "card", "cards": ["ZZ"]}}, "partner_call.cards[0]", id="no-such-card"),
    pytest.param({key: v for key, v in ANN_15_DIAMONDS.items() if key != "contract"}, "contract", id="no-contract"),
])
def test_an_illegal_contract_is_refused_beside_its_field(edit, session, contract, field):
    response = edit.post(contracts_url(session), contract)

    problems = assert_error_shape(response, 400)
    assert field in [p["field"] for p in problems], problems
    assert not Contract.objects.filter(session=session).exists()


def test_a_result_the_rules_refuse_leaves_the_hand_in_progress_open(edit, session):
    contract = opened(edit, session)

    response = edit.post(contract_url(session, contract["id"], "complete"), {"version": 1, "partners": ["Cy"], "points": 21})

    assert_error_shape(response, 400, "points_out_of_range")
    assert edit.get(contract_url(session, contract["id"])).json()["status"] == "open"
    assert Hand.objects.filter(session=session).count() == 0


def test_a_view_link_can_read_but_not_open_complete_or_throw_in(edit, view, session):
    contract = opened(edit, session)

    assert_error_shape(view.post(contracts_url(session), ANN_16_NT), 403)
    assert_error_shape(view.post(contract_url(session, contract["id"], "complete"), {"version": 1, "points": 16}), 403)
    assert_error_shape(view.post(contract_url(session, contract["id"], "abandon"), {"version": 1}), 403)


def test_another_groups_contract_is_not_found(edit, session):
    stranger = SessionFactory()
    theirs, _ = services.contract_open(session=stranger, entry=ANN_15_DIAMONDS)

    assert_error_shape(edit.get(contract_url(session, theirs.pk)), 404)
    assert_error_shape(Api(stranger.group.edit_token).get(contract_url(session, theirs.pk)), 404)


def test_an_unknown_status_filter_is_refused(edit, session):
    assert_error_shape(edit.get(contracts_url(session), status="maybe"), 400, "bad_status")


# --- the schema ----------------------------------------------------------------------------------------------


def test_the_schema_describes_the_hand_in_progress(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)

    paths = schema["paths"]
    base = "/api/v1/sessions/{session_id}/contracts"
    assert {"get", "post"} <= set(paths[base])
    assert "get" in paths[f"{base}/{{contract_id}}"]
    for action in ("complete", "abandon"):
        responses = paths[f"{base}/{{contract_id}}/{action}"]["post"]["responses"]
        assert {"200", "400", "401", "403", "404", "409", "422"} <= set(responses)
    assert {"201", "200", "409", "422"} <= set(paths[base]["post"]["responses"])


# --- the session as a live client reads it ------------------------------------------------------


def test_a_session_says_its_revision_and_its_board_for_the_link_used(edit, view, session):
    for api, token in ((edit, session.group.edit_token), (view, session.group.view_token)):
        body = api.get(f"/api/v1/sessions/{session.pk}").json()

        assert body["revision"] == 0
        assert body["web_url"] == f"http://testserver/g/{token}/s/{session.pk}/"


def test_the_revision_moves_on_with_a_hand_and_with_the_hand_in_progress(edit, session):
    edit.post(f"/api/v1/sessions/{session.pk}/hands", {**ANN_15_DIAMONDS, "partners": ["Cy"], "points": 16})
    after_hand = edit.get(f"/api/v1/sessions/{session.pk}").json()["revision"]
    opened(edit, session)
    after_contract = edit.get(f"/api/v1/sessions/{session.pk}").json()["revision"]

    assert 0 < after_hand < after_contract


def test_the_session_list_links_each_board(view, session):
    (listed,) = view.get("/api/v1/sessions").json()["results"]

    assert listed["web_url"].endswith(f"/g/{session.group.view_token}/s/{session.pk}/")
    assert listed["revision"] == session.revision
