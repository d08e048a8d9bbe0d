"""An error names the field as the request wrote it, and a value as the request meant it.

Each case is a finding of an outside client's probe of the API: an error naming a field
the request never had (``payer``), a value the session fixes taken and ignored, a date
that does not exist said to be in the wrong format.
"""

import pytest

from mighty_ledger.models import Group, Hand, Season
from tests.factories import SEATS, HandFactory, SessionFactory

from .conftest import MADE_15_DIAMONDS, Api, assert_error_shape, hands_url

# --- payments: "from" and "to" -------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        pytest.param({"from": "Zed", "to": "Ann"}, "from", "unknown_seat", id="payer-not-seated"),
        pytest.param({"from": "Bo", "to": "pot"}, "to", "unknown_seat", id="paid-to-the-pot"),
        pytest.param({"from": "Bo", "to": "Bo"}, "to", "same_seat", id="paid-to-themselves"),
    ],
)
def test_a_payment_error_names_from_and_to_as_the_request_does(edit, session, body, field, code):
    HandFactory(session=session)  # Ann made 15 D: Bo owes her 5
    response = edit.post(f"/api/v1/sessions/{session.pk}/payments", {**body, "amount": "5"})

    errors = assert_error_shape(response, 400, code)
    assert [e["field"] for e in errors] == [field]


# --- a new group's players: players[i] ------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "field", "code"),
    [
        pytest.param(["Ann", "Ann"], "players[1]", "duplicate_player", id="the-same-name-twice"),
        pytest.param(["Ann", " Ann "], "players[1]", "duplicate_player", id="the-same-name-spaced"),
        pytest.param(["Ann", "Bo", "pot"], "players[2]", "reserved_name", id="the-pot"),
        pytest.param(["\u200b"], "players[0]", "missing", id="nothing-visible"),
    ],
)
def test_a_new_groups_player_problem_names_the_player(anonymous, db, players, field, code):
    response = anonymous.post("/api/v1/groups", {"name": "Thursday", "players": players})

    errors = assert_error_shape(response, 400, code)
    assert [e["field"] for e in errors] == [field]
    assert not Group.objects.exists()


# --- a hand of a session: the session's system, options and seats ---------------------------


@pytest.mark.parametrize(
    ("change", "field"),
    [
        pytest.param({"system": "nope"}, "system", id="an-unknown-system"),
        pytest.param({"system": "korean-standard"}, "system", id="another-system"),
        pytest.param({"options": {"bogus": 1}}, "options", id="an-unknown-option"),
        pytest.param({"options": {"min_bid": 14}}, "options", id="another-option"),
        pytest.param({"options": []}, "options", id="options-a-list"),
        pytest.param({"seats": ["A", "B"]}, "seats", id="other-seats"),
        pytest.param({"seats": ["Bo", "Ann", "Cy", "Di", "Ed"]}, "seats", id="the-seats-in-another-order"),
        pytest.param({"seats": "Ann"}, "seats", id="seats-a-name"),
    ],
)
def test_a_hand_naming_another_system_options_or_seats_than_its_sessions_is_refused(edit, session, change, field):
    # the probe: 201, the value silently ignored, while the same body on /score is 400
    response = edit.post(hands_url(session), {**MADE_15_DIAMONDS, **change})

    errors = assert_error_shape(response, 400, "fixed_by_session")
    assert [e["field"] for e in errors] == [field]
    assert not Hand.objects.filter(session=session).exists()


def test_a_hand_sending_the_sessions_own_system_options_and_seats_is_recorded(db):
    session = SessionFactory(overrides={"min_bid": 14})
    edit = Api(session.group.edit_token)
    same = {"system": "pagat-standard", "options": {"min_bid": 14}, "seats": list(SEATS)}
    every_option = {"options": session.system_options}

    assert edit.post(hands_url(session), {**MADE_15_DIAMONDS, **same}).status_code == 201
    assert edit.post(hands_url(session), {**MADE_15_DIAMONDS, **every_option}).status_code == 201
    # null is no options, as on /score: the session's
    assert edit.post(hands_url(session), {**MADE_15_DIAMONDS, "options": None}).status_code == 201


def test_an_amended_hand_may_not_change_the_system_either(edit, session):
    HandFactory(session=session)
    url = f"{hands_url(session)}/1"

    response = edit.put(url, {**MADE_15_DIAMONDS, "system": "korean-standard", "version": 1})

    assert_error_shape(response, 400, "fixed_by_session")
    assert edit.get(url).json()["version"] == 1


def test_a_hand_of_16_0_points_is_kept_as_16(edit, session):
    # the probe: stored as 16.0 while 15.5 was bad_type; a client counting in floats is read, and
    # what is kept is written whole
    response = edit.post(hands_url(session), {**MADE_15_DIAMONDS, "points": 16.0})
    assert response.status_code == 201
    assert response.json()["entry"]["points"] == 16 and isinstance(response.json()["entry"]["points"], int)
    assert_error_shape(edit.post(hands_url(session), {**MADE_15_DIAMONDS, "points": 15.5}), 400, "bad_type")


def test_a_called_card_given_alone_is_kept_as_a_list(edit, session):
    # HAND_JSON: "card (with cards: one code, two in a double deck)"
    for call in ({"type": "card", "cards": "JOKER"}, {"type": "card", "card": "JOKER"}):
        response = edit.post(hands_url(session), {**MADE_15_DIAMONDS, "partner_call": call})
        assert response.status_code == 201
        assert response.json()["entry"]["partner_call"] == {"type": "card", "cards": ["JOKER"]}
    errors = assert_error_shape(
        edit.post(hands_url(session), {**MADE_15_DIAMONDS, "partner_call": {"type": "card", "cards": 7}}), 400)
    assert [e["field"] for e in errors] == ["partner_call.cards"]


def test_a_session_named_with_two_systems_is_refused(edit, group):
    body = {"seats": list(SEATS), "preset": "pagat-standard", "system": "korean-standard"}

    errors = assert_error_shape(edit.post("/api/v1/sessions", body), 400, "conflicting_system")

    assert [e["field"] for e in errors] == ["system"]
    assert group.sessions.count() == 1  # the fixture's


def test_a_session_may_name_its_system_twice_alike(edit, group):
    body = {"seats": list(SEATS), "preset": "korean-standard", "system": "korean-standard"}
    response = edit.post("/api/v1/sessions", body)
    assert response.status_code == 201 and response.json()["preset"] == "korean-standard"


# --- dates --------------------------------------------------------------------------------


@pytest.mark.parametrize("day", ["2026-02-30", "2026-13-01", "2025-02-29"])
def test_a_day_that_does_not_exist_is_said_not_to(edit, group, day):
    message = f"{day} is not a date: that day does not exist."
    for url, body, field in [
        ("/api/v1/sessions", {"seats": list(SEATS), "played_on": day}, "played_on"),
        ("/api/v1/seasons", {"name": "Spring", "starts": day}, "starts"),
    ]:
        errors = assert_error_shape(edit.post(url, body), 400)
        assert [(e["field"], e["message"]) for e in errors] == [(field, message)]
    assert [(e["field"], e["message"]) for e in assert_error_shape(edit.get("/api/v1/stats", since=day), 400)] == [
        ("since", message)]
    assert not Season.objects.exists()


def test_a_date_in_another_format_is_still_said_to_be_in_the_wrong_format(edit, group):
    errors = assert_error_shape(edit.post("/api/v1/seasons", {"name": "Spring", "starts": "30/02/2026"}), 400)
    assert "wrong format" in errors[0]["message"]


# --- pages ----------------------------------------------------------------------------------


@pytest.mark.parametrize("asked", ["0", "201", "1e21"])
def test_a_page_size_out_of_range_is_400_whatever_side_it_is_on(view, session, asked):
    # the probe: 201 was quietly read as 200, while 0 was refused
    errors = assert_error_shape(view.get(hands_url(session), page_size=asked), 400, "bad_page_size")
    assert errors[0]["message"] == "page_size must be one whole number from 1 to 200."


def test_the_largest_page_size_is_200(view, session):
    assert view.get(hands_url(session), page_size="200").status_code == 200


# --- what a session or a night is played for: one rule for both creates ---------------------


STARTS = {
    "session": ("/api/v1/sessions", {"seats": SEATS, "preset": "pagat-standard"}),
    "night": ("/api/v1/nights", {"players": [*SEATS, "Flo", "Gus", "Hal", "Ivy", "Jo"], "preset": "pagat-standard"}),
}


@pytest.mark.parametrize("what", list(STARTS))
@pytest.mark.parametrize(
    ("stakes", "field"),
    [
        pytest.param({"stake_per_point": 100, "currency": 0}, "currency", id="a-number-for-a-currency"),
        pytest.param({"stake_per_point": 100, "currency": "Korean won"}, "currency", id="a-currency-too-long"),
        pytest.param({"stake_per_point": -1, "currency": "KRW"}, "stake_per_point", id="a-negative-stake"),
        pytest.param({"stake_per_point": 100, "rounding_unit": 0}, "rounding_unit", id="rounding-to-nothing"),
        pytest.param({"chips_start": 100, "chips_per_point": 0}, "chips_per_point", id="no-chips-a-point"),
    ],
)
def test_a_session_and_a_night_refuse_the_same_stakes(edit, what, stakes, field):
    path, body = STARTS[what]
    response = edit.post(path, {**body, **stakes})

    errors = assert_error_shape(response, 400)
    assert [e["field"] for e in errors] == [field]


@pytest.mark.parametrize("what", list(STARTS))
def test_a_session_and_a_night_take_the_same_stakes(edit, what):
    path, body = STARTS[what]
    stakes = {"stake_per_point": "100.00", "currency": "KRW", "rounding_unit": "100.00", "chips_start": None,
              "chips_per_point": None}
    response = edit.post(path, {**body, **stakes})

    assert response.status_code == 201, response.content
    assert {name: response.json()[name] for name in stakes} == stakes
