"""Hostile input is refused at the door with a 4xx, never a 500 (issue 12, points 2 to 4).

The figures come from a probe of `make serve`: JSON about 926 levels deep raised
RecursionError on every JSON endpoint, a lone surrogate made PostgreSQL refuse the
row, and NUL in a token made it refuse the query.
"""

import json

import pytest
from django.conf import settings

from mighty_ledger.models import Hand, Revision
from tests.factories import MADE_15_DIAMONDS, SEATS, HandFactory

from .conftest import assert_error_shape

CALCULATORS = ["/api/v1/score", "/api/v1/check", "/api/v1/auction/check", "/api/v1/redeal", "/api/v1/next"]


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def hands_url(session) -> str:
    return f"/api/v1/sessions/{session.pk}/hands"


@pytest.mark.parametrize("path", CALCULATORS)
@pytest.mark.parametrize("levels", [pytest.param(926, id="probe-926-levels"), pytest.param(10_000, id="10k-levels")])
def test_deeply_nested_json_is_400_on_every_calculator(anonymous, path, levels):
    response = anonymous.raw("post", path, '{"seats": ' + nested(levels) + "}")

    assert_error_shape(response, 400, "too_deep")


@pytest.mark.parametrize("method", ["post", "put"])
def test_deeply_nested_json_is_400_on_the_ledger_too(edit, session, method):
    HandFactory(session=session)
    url = hands_url(session) if method == "post" else f"{hands_url(session)}/1"

    response = edit.raw(method, url, json.dumps({**MADE_15_DIAMONDS, "version": 1})[:-1] + ', "extra": ' + nested(922) + "}")

    assert_error_shape(response, 400, "too_deep")
    assert not Hand.objects.filter(session=session, number=2).exists()


def test_a_hand_nested_as_deep_as_allowed_is_stored_and_its_pages_still_render(edit, session, client):
    depth = settings.API_MAX_JSON_DEPTH - 1  # the body itself is one level
    response = edit.raw("post", hands_url(session), json.dumps(MADE_15_DIAMONDS)[:-1] + ', "note": ' + nested(depth) + "}")
    assert response.status_code == 201, response.content

    token = session.group.edit_token
    for page in (f"/g/{token}/s/{session.pk}/history/", f"/g/{token}/s/{session.pk}/h/1/", f"/g/{token}/s/{session.pk}/"):
        assert client.get(page).status_code == 200, page


def test_a_body_over_the_limit_is_413_in_the_error_shape(anonymous):
    body = json.dumps({"seats": ["Ann"], "padding": "x" * settings.API_MAX_BODY_BYTES})

    assert_error_shape(anonymous.raw("post", "/api/v1/score", body), 413, "too_large")


LONE_SURROGATE = '"\\ud800"'


@pytest.mark.parametrize(("where", "body"), [
    pytest.param("hand-field", '{"declarer": ' + LONE_SURROGATE + "}", id="hand-field"),
    pytest.param("key", '{"\\udfff": 1, "declarer": "Ann"}', id="key"),
    pytest.param("overrides", '{"seats": ["Ann", "Bo", "Cy", "Di", "Ed"], "overrides": {"name": ' + LONE_SURROGATE + "}}",
                 id="session-overrides"),
])
def test_a_lone_surrogate_is_400_wherever_it_is(edit, session, where, body):
    url = "/api/v1/sessions" if where == "overrides" else hands_url(session)
    revisions = Revision.objects.count()

    assert_error_shape(edit.raw("post", url, body), 400, "bad_unicode")
    assert Revision.objects.count() == revisions


def test_a_surrogate_pair_is_one_character_and_welcome(anonymous):
    # U+1F0A1 (🂡, the ace of spades) written as its UTF-16 pair
    response = anonymous.raw("post", "/api/v1/score", '{"note": "\\ud83c\\udca1"}')

    assert response.status_code != 500
    assert not any(e["code"] == "bad_unicode" for e in response.json().get("errors", []))


@pytest.mark.parametrize("path", [
    "/g/%00/", "/g/%00/s/1/", "/g/abc%00def/export.json", "/rules/%00/",
])
def test_nul_in_a_page_path_is_404(client, db, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize("path", ["/api/v1/sessions/%00", "/api/v1/systems/%00"])
def test_nul_in_an_api_path_is_404_in_the_error_shape(edit, path):
    assert_error_shape(edit.client.get(path), 404)


def test_nul_in_a_bearer_token_is_refused_not_a_500(db):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer abc\x00def")

    assert_error_shape(client.get("/api/v1/group"), 400, "bad_character")


def test_nul_in_an_idempotency_key_is_refused(edit, session):
    response = edit.post(hands_url(session), MADE_15_DIAMONDS, **{"Idempotency-Key": "k\x00"})

    assert_error_shape(response, 400, "bad_character")
    assert not session.hands.exists()


def test_nul_in_a_query_string_is_400(client, session):
    response = client.get(f"/g/{session.group.view_token}/s/{session.pk}/", {"before": "1\x00"})

    assert response.status_code == 400


# --- what schemathesis found quietly accepted ------------------------------------------------------------


@pytest.mark.parametrize(("path", "body"), [
    ("/api/v1/groups", {"name": 0}),
    ("/api/v1/groups", {"name": "Friday", "players": ["Ann", 7]}),
], ids=["group-name", "player-name"])
def test_a_name_sent_as_a_number_is_400_not_a_group_called_0(db, anonymous, path, body):
    assert_error_shape(anonymous.post(path, body), 400, "invalid")


def test_a_player_name_sent_as_a_number_is_400(edit):
    assert_error_shape(edit.post("/api/v1/players", {"name": 0}), 400, "invalid")


@pytest.mark.parametrize("query", ["page_size=abc", "page_size=0", "page_size=5&page_size=6", "deleted=maybe",
                                   "page=", "page=abc", "page=0", "page=1&page=2", "page=%C2%B2", "page_size=%C2%B2"])
def test_a_query_parameter_that_says_nothing_sensible_is_400(edit, query):
    assert_error_shape(edit.client.get(f"/api/v1/sessions?{query}"), 400)


def test_a_page_past_the_last_is_404_and_the_first_is_there(edit):
    assert edit.client.get("/api/v1/sessions?page=1").status_code == 200
    assert_error_shape(edit.client.get("/api/v1/sessions?page=9"), 404)


@pytest.mark.parametrize("path", ["/api/v1/check", "/api/v1/auction/check", "/api/v1/score"])
def test_a_calculator_post_without_a_body_is_400(anonymous, path):
    assert_error_shape(anonymous.client.post(path), 400, "missing_body")


# --- what an outside client's probe found said in words for programmers ----------------------------

HAND_JSON = {**MADE_15_DIAMONDS, "system": "pagat-standard", "seats": list(SEATS)}


@pytest.mark.parametrize("label", ["application/json", "text/plain"])
def test_a_number_too_long_to_read_is_said_so_plainly(anonymous, label):
    # Python reads at most 4300 digits and said "use sys.set_int_max_str_digits()"
    body = '{"points": ' + "1" * 5000 + "}"
    response = anonymous.client.post("/api/v1/score", body, content_type=label)

    errors = assert_error_shape(response, 400, "parse_error")
    assert [e["message"] for e in errors] == ["A number in the body is too long."]


def test_a_long_value_is_echoed_cut_short(anonymous):
    # 4001 digits of points came back whole in the message
    hand = {**HAND_JSON, "points": int("1" * 4001)}

    for response in (anonymous.post("/api/v1/score", hand), anonymous.post("/api/v1/check", hand)):
        (error,) = response.json()["errors"]
        assert error["field"] == "points"
        assert "1" * 40 + "…" in error["message"] and "1" * 41 not in error["message"]
        assert len(error["message"]) < 200


def test_a_long_seat_name_is_echoed_cut_short(anonymous):
    errors = assert_error_shape(anonymous.post("/api/v1/score", {**HAND_JSON, "declarer": "Z" * 5000}), 400,
                                "unknown_seat")
    assert all(len(e["message"]) < 200 for e in errors)


def test_an_unknown_long_path_is_echoed_cut_short(anonymous):
    errors = assert_error_shape(anonymous.client.get("/api/v1/" + "x" * 3000), 404, "not_found")
    assert len(errors[0]["message"]) < 100
