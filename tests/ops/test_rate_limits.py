"""Rate limits: a friendly 429 once an address passes its limit, counted in the shared cache."""

import os
import uuid

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings

from mighty_ledger.ratelimit import Rule, count_hit, rules_from_settings

CALCULATORS_TWICE = [{"name": "calculators", "method": "POST", "paths": [r"^/api/v1/score$"],
                      "limit": 2, "window": 60}]
GROUPS_ONCE = [{"name": "group_create", "method": "POST", "paths": [r"^/g/new/$"], "limit": 1, "window": 3600}]


@pytest.fixture
def counts():
    cache.clear()
    yield cache
    cache.clear()


def test_rate_limits_are_off_in_tests_unless_a_test_turns_them_on():
    assert settings.RATE_LIMITS_ENABLED is False


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=CALCULATORS_TWICE)
def test_the_api_answers_429_in_the_error_shape_with_retry_after(client, counts):
    for _ in range(2):
        assert client.post("/api/v1/score", {}, content_type="application/json").status_code != 429

    response = client.post("/api/v1/score", {}, content_type="application/json")

    assert response.status_code == 429
    retry_after = int(response["Retry-After"])
    assert 1 <= retry_after <= 60
    (error,) = response.json()["errors"]
    assert (error["field"], error["code"]) == ("", "rate_limited")
    assert f"try again in {retry_after} second" in error["message"]


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=CALCULATORS_TWICE)
def test_other_paths_and_methods_are_not_counted(client, counts):
    for _ in range(3):
        client.post("/api/v1/score", {}, content_type="application/json")

    assert client.get("/api/v1/score").status_code != 429
    assert client.post("/api/v1/check", {}, content_type="application/json").status_code != 429


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=GROUPS_ONCE)
def test_a_page_gets_a_small_html_429(client, counts, db):
    client.post("/g/new/", {"name": "Thursday", "player_names": "Ann\nBo\nCy\nDi\nEd"})

    response = client.post("/g/new/", {"name": "Thursday again", "player_names": "Ann\nBo\nCy\nDi\nEd"})

    assert response.status_code == 429
    assert response["Content-Type"].startswith("text/html")
    assert "try again in" in response.content.decode()
    assert int(response["Retry-After"]) <= 3600


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=CALCULATORS_TWICE, TRUSTED_PROXY=True)
def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_count(client, counts):
    def post(forwarded_for):
        return client.post("/api/v1/score", {}, content_type="application/json",
                           headers={"X-Forwarded-For": forwarded_for})

    for _ in range(2):
        post("203.0.113.7, 10.0.0.1")

    assert post("203.0.113.7, 10.0.0.1").status_code == 429
    assert post("198.51.100.4, 10.0.0.1").status_code != 429


@override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS=CALCULATORS_TWICE, TRUSTED_PROXY=False)
def test_without_a_trusted_proxy_a_forged_forwarded_for_changes_nothing(client, counts):
    for forged in ("203.0.113.1", "203.0.113.2"):
        client.post("/api/v1/score", {}, content_type="application/json", headers={"X-Forwarded-For": forged})

    response = client.post("/api/v1/score", {}, content_type="application/json",
                           headers={"X-Forwarded-For": "203.0.113.3"})
    assert response.status_code == 429


def test_the_production_rules_cover_the_calculators_and_group_creation():
    rules = rules_from_settings()
    for path in ("/api/v1/score", "/api/v1/check", "/api/v1/redeal", "/api/v1/auction/check",
                 "/api/v1/groups", "/g/new/"):
        assert any(rule.matches("POST", path) for rule in rules), path
    assert not any(rule.matches("POST", "/api/v1/sessions/1/hands") for rule in rules)


def test_a_new_window_starts_a_new_count(counts):
    rule = Rule("test", "POST", (), limit=1, window=60)

    assert count_hit(counts, rule, "192.0.2.1", now=120.0) == (True, 60)
    assert count_hit(counts, rule, "192.0.2.1", now=150.5) == (False, 30)
    assert count_hit(counts, rule, "192.0.2.1", now=180.0)[0] is True


REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


def _redis_answers() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except Exception:
        return False


@pytest.mark.skipif(not _redis_answers(), reason=f"no Redis at {REDIS_URL}")
def test_two_workers_with_their_own_redis_clients_share_one_count():
    from django.core.cache.backends.redis import RedisCache

    prefix = f"test-{uuid.uuid4().hex}"
    # two cache objects, as two gunicorn workers would each hold their own
    first, second = (RedisCache(REDIS_URL, {"KEY_PREFIX": prefix}) for _ in range(2))
    rule = Rule("shared", "POST", (), limit=3, window=60)
    try:
        assert count_hit(first, rule, "192.0.2.9", now=600.0)[0]
        assert count_hit(second, rule, "192.0.2.9", now=601.0)[0]
        assert count_hit(first, rule, "192.0.2.9", now=602.0)[0]

        assert count_hit(second, rule, "192.0.2.9", now=603.0) == (False, 57)
    finally:
        first.delete("ratelimit:shared:10:192.0.2.9")
        first.close()
        second.close()
