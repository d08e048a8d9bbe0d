"""The API answers in its error shape under the development server too (`make run`: runserver,
which is daphne's, over ASGI), not only under gunicorn and the test client.

An outside client's probe: a malformed multipart/form-data body to /api/v1/score answered
400 with an empty body under runserver, where gunicorn answers 415 in the error shape.
Twisted, under daphne, read the form itself and gave up before Django saw the request.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.servers import free_port, listening

REPO = Path(__file__).resolve().parents[2]
MALFORMED_FORM = {"Content-Type": "multipart/form-data; boundary=x"}


@pytest.fixture(scope="module")
def runserver_log(tmp_path_factory) -> Path:
    """Where runserver writes its log (its request lines go to stderr)."""
    return tmp_path_factory.mktemp("runserver") / "stderr.log"


@pytest.fixture(scope="module")
def runserver(runserver_log):
    """`manage.py runserver` on a free port of 127.0.0.1, stopped after the module."""
    port = free_port()
    with runserver_log.open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=REPO, env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.DEVNULL, stderr=log,
        )
    try:
        if not listening(port, server):
            pytest.fail("runserver did not start")
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def _post(port: int, path: str, body: bytes, headers: dict) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("body", [b"garbage", b'{"seats": ["Ann"]}', b"--x\r\n\r\n"],
                         ids=["not-a-form", "json-labelled-a-form", "a-part-without-headers"])
def test_a_malformed_form_body_is_415_in_the_error_shape_under_runserver(runserver, body):
    status, answer = _post(runserver, "/api/v1/score", body, MALFORMED_FORM)

    assert status == 415, answer
    (error,) = json.loads(answer)["errors"]
    assert error["code"] == "unsupported_media_type"
    assert "Content-Type: application/json" in error["message"]


def test_runserver_still_scores_a_json_hand(runserver):
    from tests.api.conftest import HAND_JSON_EXAMPLE

    status, answer = _post(runserver, "/api/v1/score", json.dumps(HAND_JSON_EXAMPLE).encode(),
                           {"Content-Type": "application/json"})

    assert status == 200 and json.loads(answer)["score"] == 14


def test_runserver_writes_no_link_in_its_log(runserver, runserver_log):
    token = "AnEditLinkNobodyMayRead22"
    connection = http.client.HTTPConnection("127.0.0.1", runserver, timeout=10)
    try:
        connection.request("GET", f"/g/{token}/")
        connection.getresponse().read()
        connection.request("GET", "/api/v1/sessions", headers={"Authorization": f"Bearer {token}"})
        connection.getresponse().read()
    finally:
        connection.close()

    deadline = time.monotonic() + 10
    while "/api/v1/sessions" not in runserver_log.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    log = runserver_log.read_text()
    assert "/g/***/" in log and "/api/v1/sessions" in log
    assert token not in log


def test_the_asgi_application_answers_a_malformed_form_in_the_error_shape(db):
    # the application runserver and the stream server load, called as an ASGI server calls it
    from mighty_ledger.asgi import application

    messages = []
    incoming = [{"type": "http.request", "body": b"garbage", "more_body": False}]

    async def receive():
        if incoming:
            return incoming.pop(0)
        await asyncio.sleep(3600)  # the client stays connected until the answer is sent

    async def send(message):
        messages.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/api/v1/score", "query_string": b"", "client": ("127.0.0.1", 5000),
             "server": ("127.0.0.1", 80),
             "headers": [(b"host", b"127.0.0.1"), (b"content-type", MALFORMED_FORM["Content-Type"].encode()),
                         (b"content-length", b"7")]}
    asyncio.run(application(scope, receive, send))

    start, *bodies = messages
    assert start["status"] == 415
    body = b"".join(message.get("body", b"") for message in bodies)
    assert json.loads(body)["errors"][0]["code"] == "unsupported_media_type"
