
import pytest
from rest_framework.test import APIClient

from tests.servers import throwaway_redis


class Api:
    """A JSON client that sends a link's token as 'Authorization: Bearer <token>'."""

    def __init__(self, token: str | None = None):
        self.client = APIClient()
        if token is not None:
            self.client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    def raw(self, method: str, url: str, body: bytes | str, **extra):
        return getattr(self.client, method)(url, body, content_type="application/json", **extra)

    def post(self, url, body=None, **headers):
        return self.client.post(url, body, format="json", headers=headers)


@pytest.fixture
def edit(session):
    return Api(session.group.edit_token)


@pytest.fixture
def anonymous():
    return Api()


def assert_error_shape(response, status: int, code: str | None = None) -> list[dict]:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    errors = response.json()["errors"]
    assert errors and all(set(e) == {"field", "code", "message"} for e in errors)
    if code is not None:
        assert code in [e["code"] for e in errors], errors
    return errors


# --- a real Redis, started for the tests that need one (tests/servers.py) ------------------------

@pytest.fixture(scope="session")
def redis_server():
    with throwaway_redis() as server:
        yield server


@pytest.fixture
def redis_cache(redis_server, settings):
    """The production cache (mighty_ledger.http.cache) on the test Redis, emptied before and after."""
    if redis_server.process is None:
        redis_server.start()
    settings.CACHES = {"default": {
        "BACKEND": "mighty_ledger.http.cache.FailOpenRedisCache", "LOCATION": redis_server.url,
        "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
    }}
    from django.core.cache import cache

    cache.clear()
    yield redis_server
    if redis_server.process is None:  # a test stopped it: bring it back for the next one
        redis_server.start()
    cache.clear()
