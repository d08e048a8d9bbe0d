import os
import shutil
import subprocess
import time

import pytest
import redis
from rest_framework.test import APIClient

from tests.servers import free_port


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


# --- a real Redis, started for the tests that need one --------------------------------------

class RedisServer:
    """A throwaway redis-server on 127.0.0.1; ``stop`` and ``start`` play an outage and its end."""

    def __init__(self, executable: str):
        self.executable = executable
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.executable, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture(scope="session")
def redis_server():
    executable = shutil.which("redis-server")
    if executable is None:
        message = "redis-server is not installed (apt-get install redis-server)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message}; CI runs the Redis outage tests, it does not skip them")
        pytest.skip(message)
    server = RedisServer(executable)
    server.start()
    yield server
    server.stop()


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
