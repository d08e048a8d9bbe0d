"""Capability tokens: a view token reads but never writes, an unknown token reaches nothing,
and one group's token never reaches another group's data.

No Authorization header: 401 (with WWW-Authenticate: Bearer). A Bearer token that is no
group's link: 404, as an unknown link is on the web.
"""

import pytest

from mighty_ledger.models import Hand, Player, Session
from tests.factories import HandFactory, SessionFactory
from tests.offenders import offenders

from .conftest import MADE_15_DIAMONDS, Api, assert_error_shape

# (method, path, body); {s} is the session's id. Hand 1 exists in session {s}.
READS = [
    ("get", "/api/v1/group", None),
    ("get", "/api/v1/players", None),
    ("get", "/api/v1/sessions", None),
    ("get", "/api/v1/sessions/{s}", None),
    ("get", "/api/v1/sessions/{s}/hands", None),
    ("get", "/api/v1/sessions/{s}/hands/1", None),
    ("get", "/api/v1/sessions/{s}/settlement", None),
    ("get", "/api/v1/revisions", None),
]
WRITES = [
    ("post", "/api/v1/players", {"name": "Fay"}),
    ("post", "/api/v1/sessions", {"seats": ["Ann", "Bo", "Cy", "Di", "Ed"], "preset": "pagat-standard"}),
    ("delete", "/api/v1/sessions/{s}", None),
    ("post", "/api/v1/sessions/{s}/restore", None),
    ("post", "/api/v1/sessions/{s}/hands", MADE_15_DIAMONDS),
    ("post", "/api/v1/sessions/{s}/events", {"kind": "all_pass", "dealer": "Ann"}),
    ("put", "/api/v1/sessions/{s}/hands/1", {**MADE_15_DIAMONDS, "version": 1}),
    ("delete", "/api/v1/sessions/{s}/hands/1", None),
    ("post", "/api/v1/sessions/{s}/hands/1/restore", None),
]
ENDPOINTS = READS + WRITES


def _ids(endpoints):
    return [_name(endpoint) for endpoint in endpoints]


def _name(endpoint) -> str:
    method, path, _ = endpoint
    return f"{method.upper()} {path}"


@pytest.fixture
def played(session):
    HandFactory(session=session)
    return session


def call(api: Api, method: str, path: str, body, session):
    url = path.format(s=session.pk)
    if method in ("get", "delete"):
        return getattr(api, method)(url)
    return getattr(api, method)(url, body)


def state(group) -> tuple:
    """Everything a write could change in a group."""
    sessions = Session.objects.filter(group=group)
    return (
        Player.objects.filter(group=group).count(),
        list(sessions.values_list("id", "deleted_at", "hand_count")),
        list(Hand.objects.filter(session__group=group).values_list("id", "version", "deleted_at")),
    )


@pytest.mark.parametrize(("method", "path", "body"), WRITES, ids=_ids(WRITES))
def test_a_view_token_cannot_write(played, method, path, body):
    before = state(played.group)

    response = call(Api(played.group.view_token), method, path, body, played)

    assert_error_shape(response, 403, "view_only_link")
    assert state(played.group) == before


@pytest.mark.parametrize(("method", "path", "body"), READS, ids=_ids(READS))
def test_a_view_token_can_read(played, method, path, body):
    assert call(Api(played.group.view_token), method, path, body, played).status_code == 200


@pytest.mark.parametrize(("method", "path", "body"), WRITES, ids=_ids(WRITES))
def test_an_edit_token_can_write(played, method, path, body):
    response = call(Api(played.group.edit_token), method, path, body, played)

    assert response.status_code in (200, 201), response.content


def test_no_token_is_401(played):
    def check(endpoint):
        response = call(Api(), *endpoint, played)

        assert_error_shape(response, 401, "not_authenticated")
        assert response.headers["WWW-Authenticate"].startswith("Bearer")

    assert offenders(ENDPOINTS, check, name=_name) == {}


@pytest.mark.parametrize("authorization", ["Basic YW5uOmJv", "Token abc"])
def test_another_scheme_is_401(played, authorization):
    api = Api()
    api.client.credentials(HTTP_AUTHORIZATION=authorization)

    assert_error_shape(api.get("/api/v1/group"), 401, "not_authenticated")


def test_a_bearer_header_without_a_token_is_401(played):
    api = Api()
    api.client.credentials(HTTP_AUTHORIZATION="Bearer")

    assert_error_shape(api.get("/api/v1/group"), 401)


@pytest.mark.parametrize("token", ["not-a-real-token", "x" * 65, "ünïcode"])
def test_an_unknown_token_is_404(played, token):
    before = state(played.group)

    def check(endpoint):
        assert_error_shape(call(Api(token), *endpoint, played), 404, "unknown_link")

    assert offenders(ENDPOINTS, check, name=_name) == {}
    assert state(played.group) == before


def test_a_deleted_groups_token_is_404(played):
    from mighty_ledger import services

    services.group_delete(group=played.group)

    assert_error_shape(Api(played.group.edit_token).get("/api/v1/group"), 404)


@pytest.mark.parametrize("right", ["edit_token", "view_token"])
def test_another_groups_token_never_reaches_this_group(played, right):
    other = SessionFactory()
    before = state(played.group)

    def check(endpoint):
        method, path, _ = endpoint
        response = call(Api(getattr(other.group, right)), *endpoint, played)
        if "{s}" in path:
            # the session is not in the token's group: as if it did not exist
            assert_error_shape(response, 403 if right == "view_token" and method != "get" else 404)
        else:
            # group-wide endpoints act on the token's own group (see the test below)
            assert response.status_code in (200, 201, 403)

    assert offenders(ENDPOINTS, check, name=_name) == {}
    assert state(played.group) == before


def test_group_wide_lists_show_only_the_tokens_group(played):
    other = SessionFactory()
    api = Api(other.group.edit_token)

    assert [s["id"] for s in api.get("/api/v1/sessions").json()["results"]] == [other.pk]
    assert {r["session"] for r in api.get("/api/v1/revisions").json()["results"]} <= {None, other.pk}
    assert api.get("/api/v1/group").json()["id"] == other.group.pk
    assert_error_shape(api.get("/api/v1/revisions", session=played.pk), 404)


def test_calculators_and_group_creation_need_no_token(anonymous, db):
    assert anonymous.get("/api/v1/systems").status_code == 200
    assert anonymous.post("/api/v1/groups", {"name": "New table"}).status_code == 201
