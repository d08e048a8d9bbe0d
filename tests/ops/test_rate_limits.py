"""Rate limits: a friendly 429 once an address passes its limit, counted in the shared cache.

The API counts through DRF's throttling, pages through django-ratelimit; both use the
rules in settings.RATE_LIMITS and one count per rule and address.
"""

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings

CALCULATORS_TWICE = {
    "calculators": {"rate": "2/m", "views": {"api:score": "POST", "api:check": "POST", "api:redeal": "POST",
                                              "api:auction-check": "POST", "api:next-hand": "POST",
                                              "redeal": "GET"}},
}
GROUPS_ONCE = {"group_create": {"rate": "1/h", "views": {"api:groups": "POST", "group_create": "POST"}}}


@pytest.fixture
def counts():
    cache.clear()
    yield cache
    cache.clear()


def post(client, path, body=None, **headers):
    return client.post(path, body or {}, content_type="application/json", headers=headers)


def test_rate_limits_are_off_in_tests_unless_a_test_turns_them_on():
    assert settings.RATE_LIMITS_ENABLED is False


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=CALCULATORS_TWICE)
def test_the_api_answers_429_in_the_error_shape_with_retry_after(client, counts):
    for _ in range(2):
        assert post(client, "/api/v1/score").status_code != 429

    response = post(client, "/api/v1/score")

    assert response.status_code == 429
    retry_after = int(response["Retry-After"])
    assert 1 <= retry_after <= 60
    (error,) = response.json()["errors"]
    assert (error["field"], error["code"]) == ("", "rate_limited")
    assert f"try again in {retry_after} second" in error["message"]


def calculator_operations() -> list[str]:
    """Every POST the schema tags as a calculator: a new calculator is covered the day it is added."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(path for path, operations in schema["paths"].items()
                  if "calculators" in operations.get("post", {}).get("tags", ()))


def test_the_schema_lists_the_five_calculators():
    # the probe found /api/v1/next missing from the old path list
    assert calculator_operations() == ["/api/v1/auction/check", "/api/v1/check", "/api/v1/next",
                                       "/api/v1/redeal", "/api/v1/score"]


@pytest.fixture
def one_window():
    """The rate limit's clock held still: the production limit takes a hundred and twenty requests
    to reach, and on a slow machine a minute's window could end among them and start the count
    again (a fixed window, django-ratelimit's)."""
    import time
    from types import SimpleNamespace
    from unittest import mock

    now = time.time()
    with mock.patch("django_ratelimit.core.time", SimpleNamespace(time=lambda: now)):
        yield


@pytest.mark.parametrize("path", calculator_operations())
@override_settings(RATE_LIMITS_ENABLED=True)
def test_every_calculator_is_limited_by_the_production_rules(client, counts, one_window, path):
    limit = int(settings.RATE_LIMITS["calculators"]["rate"].split("/")[0])
    for _ in range(limit):
        post(client, path)

    assert post(client, path).status_code == 429


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=CALCULATORS_TWICE)
def test_the_calculators_share_one_count(client, counts):
    post(client, "/api/v1/score")
    post(client, "/api/v1/next")

    assert post(client, "/api/v1/check").status_code == 429


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=CALCULATORS_TWICE)
def test_other_views_and_methods_are_not_counted(client, counts, db):
    for _ in range(3):
        post(client, "/api/v1/score")

    assert client.get("/api/v1/score").status_code != 429
    assert client.get("/api/v1/systems").status_code == 200


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=CALCULATORS_TWICE)
def test_the_redeal_calculator_page_is_counted_with_the_api(client, counts):
    post(client, "/api/v1/redeal")
    client.get("/redeal/")

    response = client.get("/redeal/")

    assert response.status_code == 429
    assert response["Content-Type"].startswith("text/html")


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=GROUPS_ONCE)
def test_a_page_gets_a_small_html_429(client, counts, db):
    client.post("/g/new/", {"name": "Thursday", "player_names": "Ann\nBo\nCy\nDi\nEd"})

    response = client.post("/g/new/", {"name": "Thursday again", "player_names": "Ann\nBo\nCy\nDi\nEd"})

    assert response.status_code == 429
    assert response["Content-Type"].startswith("text/html")
    assert "try again in" in response.content.decode()
    assert int(response["Retry-After"]) <= 3600


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=GROUPS_ONCE)
def test_groups_made_through_the_api_and_the_page_share_one_count(client, counts, db):
    assert post(client, "/api/v1/groups", {"name": "Thursday"}).status_code == 201

    assert client.post("/g/new/", {"name": "Friday", "player_names": "Ann\nBo\nCy\nDi\nEd"}).status_code == 429


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=CALCULATORS_TWICE, TRUSTED_PROXY=True)
def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_count(client, counts):
    for _ in range(2):
        post(client, "/api/v1/score", X_Forwarded_For="203.0.113.7, 10.0.0.1")

    assert post(client, "/api/v1/score", X_Forwarded_For="203.0.113.7, 10.0.0.1").status_code == 429
    assert post(client, "/api/v1/score", X_Forwarded_For="198.51.100.4, 10.0.0.1").status_code != 429


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=CALCULATORS_TWICE, TRUSTED_PROXY=False)
def test_without_a_trusted_proxy_a_forged_forwarded_for_changes_nothing(client, counts):
    for forged in ("203.0.113.1", "203.0.113.2"):
        post(client, "/api/v1/score", X_Forwarded_For=forged)

    assert post(client, "/api/v1/score", X_Forwarded_For="203.0.113.3").status_code == 429


def test_hand_recording_is_never_limited():
    from django.urls import resolve

    limited = {name for rule in settings.RATE_LIMITS.values() for name in rule["views"]}
    assert resolve("/api/v1/sessions/1/hands").view_name not in limited
    assert resolve("/g/t/s/1/hands/new/").view_name not in limited
