"""Whatever goes wrong, the API answers in HAND_JSON's error shape."""

import json

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions

from mighty_ledger.api.exceptions import api_exception_handler, flatten

from .conftest import HAND_JSON_EXAMPLE, assert_error_shape


def test_wrong_method_is_405(anonymous):
    assert_error_shape(anonymous.get("/api/v1/score"), 405, "method_not_allowed")
    assert_error_shape(anonymous.delete("/api/v1/systems"), 405, "method_not_allowed")


def test_a_form_body_is_415(anonymous):
    response = anonymous.client.post("/api/v1/score", {"seats": "Ann"})

    errors = assert_error_shape(response, 415, "unsupported_media_type")
    assert "Content-Type: application/json" in errors[0]["message"]


@pytest.mark.parametrize("label", [
    pytest.param("application/x-www-form-urlencoded", id="curl-d"),
    pytest.param("text/plain", id="text"),
    pytest.param("", id="no-label"),
])
def test_a_json_body_labelled_as_clients_forget_to_is_read_as_json(anonymous, edit, label):
    body = json.dumps(HAND_JSON_EXAMPLE)
    scored = anonymous.client.generic("POST", "/api/v1/score", body, content_type=label)
    assert scored.status_code == 200 and scored.json() == anonymous.post("/api/v1/score", HAND_JSON_EXAMPLE).json()
    # a group's writes too (a form on another site cannot send the link they need)
    made = edit.client.generic("POST", "/api/v1/players", json.dumps({"name": "Fay"}), content_type=label)
    assert made.status_code == 201, made.content


def test_a_new_group_wants_its_json_labelled(anonymous):
    # it needs no link: another site's form, posting text that looks like JSON, makes nothing
    response = anonymous.client.generic("POST", "/api/v1/groups", json.dumps({"name": "Spam"}),
                                        content_type="text/plain")
    assert_error_shape(response, 415, "unsupported_media_type")


def test_asking_for_html_is_406(anonymous):
    response = anonymous.client.post("/api/v1/score", HAND_JSON_EXAMPLE, format="json", HTTP_ACCEPT="text/html")

    assert_error_shape(response, 406, "not_acceptable")


@pytest.mark.parametrize("path", ["/api/v1/nothing-here", "/api/v1/sessions/abc", "/api/v1/"])
def test_an_unknown_endpoint_is_404_in_the_error_shape(anonymous, path):
    assert_error_shape(anonymous.get(path), 404, "not_found")


@pytest.mark.parametrize("path", ["/api/v1/nothing-here/", "/api/v1/score//", "/api/v1//"])
def test_an_unknown_endpoint_with_a_slash_is_404_too(anonymous, path):
    assert_error_shape(anonymous.get(path), 404, "not_found")


def test_an_endpoint_written_with_a_slash_too_many_answers_as_itself(anonymous, edit):
    # as many clients write it: the same answer as without the slash, never a 404 or a redirect
    scored = anonymous.post("/api/v1/score/", HAND_JSON_EXAMPLE)
    assert scored.status_code == 200 and scored.json() == anonymous.post("/api/v1/score", HAND_JSON_EXAMPLE).json()
    assert anonymous.get("/api/v1/systems/pagat-standard/").json()["slug"] == "pagat-standard"
    assert edit.get("/api/v1/group/").status_code == 200
    assert_error_shape(anonymous.get("/api/v1/group/"), 401)


def test_a_serializer_error_names_the_field(edit):
    errors = assert_error_shape(edit.post("/api/v1/sessions", {"seats": "Ann", "chips_start": -1}), 400)

    assert {(e["field"], e["code"]) for e in errors} >= {("seats", "not_a_list"), ("chips_start", "min_value")}


@pytest.mark.parametrize(
    ("exc", "status", "code"),
    [
        (exceptions.Throttled(wait=30), 429, "rate_limited"),
        (exceptions.NotAuthenticated(), 401, "not_authenticated"),
        (exceptions.AuthenticationFailed(), 401, "authentication_failed"),
        (exceptions.PermissionDenied(), 403, "permission_denied"),
        (DjangoPermissionDenied("This is a view-only link."), 403, "permission_denied"),
        (Http404("No such hand in this session."), 404, "not_found"),
        (exceptions.ParseError(), 400, "parse_error"),
        (exceptions.MethodNotAllowed("PATCH"), 405, "method_not_allowed"),
    ],
    ids=["throttled", "no-token", "bad-token", "drf-denied", "django-denied", "django-404", "bad-json", "method"],
)
def test_every_drf_error_becomes_the_error_shape(exc, status, code):
    response = api_exception_handler(exc, {})

    assert response.status_code == status
    assert [e["code"] for e in response.data["errors"]] == [code]
    assert all(set(e) == {"field", "code", "message"} for e in response.data["errors"])


def test_throttling_says_when_to_come_back():
    response = api_exception_handler(exceptions.Throttled(wait=30), {})

    assert response["Retry-After"] == "30"


def test_nested_validation_errors_become_field_paths():
    detail = exceptions.ValidationError({
        "seats": {0: ["This field may not be blank."]},
        "auction": [{}, {"bid": {"points": ["A valid integer is required."]}}],
        "non_field_errors": ["Something about the whole request."],
    }).detail

    fields = [problem["field"] for problem in flatten(detail)]

    assert fields == ["seats[0]", "auction[1].bid.points", ""]


def test_an_unexpected_error_is_left_to_django():
    assert api_exception_handler(RuntimeError("bug"), {}) is None
