"""HEAD on an event stream (issue 36): the headers GET would send, no body, and no stream held open."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.urls import reverse

from tests.factories import SessionFactory

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]


async def _head(app, path: str) -> tuple[int, dict[str, str], bytes]:
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "HEAD", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"127.0.0.1")], "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 80)}
    await asyncio.wait_for(app(scope, receive, send), 5)  # ends: nothing held open
    start = sent[0]
    headers = {name.decode(): value.decode() for name, value in start["headers"]}
    return start["status"], headers, b"".join(message.get("body", b"") for message in sent[1:])


async def test_head_on_a_stream_checks_the_link_and_sends_no_body(asgi_app):
    session = await sync_to_async(SessionFactory)()
    status, headers, body = await _head(asgi_app, reverse("session_events", args=[session.group.view_token, session.pk]))
    assert (status, body) == (200, b"")
    assert headers["content-type"].startswith("text/event-stream")
    assert headers["x-robots-tag"] == "noindex, nofollow"
    status, _, _ = await _head(asgi_app, reverse("group_events", args=["no-such-link"]))
    assert status == 404

    from mighty_ledger.live import broker

    assert len(broker().hub) == 0  # the HEAD's watch was let go
    await broker().close()
    # the connection of the thread the session was made on (sync_to_async's own), as the stream
    # tests' fixture does: left open, it keeps PostgreSQL's test database from being dropped
    await sync_to_async(connections.close_all)()
