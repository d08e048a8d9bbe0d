"""A session's event stream: every page of the session follows it, and it says only what changed."""

from __future__ import annotations

import asyncio
from contextlib import suppress

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.live import broker
from mighty_ledger.live.brokers import Change, Watch
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]

# how long a test waits to be sure that nothing comes
QUIET = 0.5


def _stream_path(session, *, view: bool = False) -> str:
    token = session.group.view_token if view else session.group.edit_token
    return reverse("session_events", args=[token, session.pk])


@sync_to_async
def _seat_two_sessions():
    table = SessionFactory()
    other = SessionFactory()
    return table, other


@sync_to_async
def _record(session, entry=MADE_15_DIAMONDS):
    hand, _ = services.hand_record(session=session, entry=dict(entry))
    return hand


async def test_a_recorded_hand_reaches_its_sessions_watchers_and_no_other(open_stream):
    table, other = await _seat_two_sessions()
    edit = await open_stream(_stream_path(table))
    view = await open_stream(_stream_path(table, view=True))
    elsewhere = await open_stream(_stream_path(other))
    for stream in (edit, view, elsewhere):
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["cache-control"] == "no-cache"
        assert stream.headers["x-accel-buffering"] == "no"
        assert await stream.next_event() == ("hello", {"revision": 0})

    hand = await _record(table)

    expected = ("change", {"session": table.pk, "revision": 1, "what": "hand_recorded"})
    assert await edit.next_event() == expected
    assert await view.next_event() == expected  # the view link is enough to follow the table
    assert await elsewhere.next_event(QUIET) is None
    assert hand.number == 1


async def test_the_hello_carries_the_revision_the_page_should_compare(open_stream):
    table, _ = await _seat_two_sessions()
    await _record(table)
    await _record(table)
    stream = await open_stream(_stream_path(table, view=True))
    assert await stream.next_event() == ("hello", {"revision": 2})


async def test_edits_deletes_and_restores_are_heard_with_the_new_revision(open_stream):
    table, _ = await _seat_two_sessions()
    hand = await _record(table)
    stream = await open_stream(_stream_path(table))
    assert await stream.next_event() == ("hello", {"revision": 1})

    await sync_to_async(services.hand_amend)(hand=hand, entry={**MADE_15_DIAMONDS, "points": 18}, version=1)
    assert await stream.next_event() == ("change", {"session": table.pk, "revision": 2, "what": "hand_amended"})
    await sync_to_async(services.hand_delete)(hand=hand)
    assert await stream.next_event() == ("change", {"session": table.pk, "revision": 3, "what": "hand_deleted"})
    await sync_to_async(services.hand_restore)(hand=hand)
    assert await stream.next_event() == ("change", {"session": table.pk, "revision": 4, "what": "hand_restored"})


async def test_a_rolled_back_write_sends_nothing(open_stream):
    table, _ = await _seat_two_sessions()
    stream = await open_stream(_stream_path(table))
    assert (await stream.next_event())[0] == "hello"

    class ChangedMind(Exception):
        pass

    @sync_to_async
    def record_then_roll_back():
        with suppress(ChangedMind), transaction.atomic():
            services.hand_record(session=table, entry=dict(MADE_15_DIAMONDS))
            raise ChangedMind

    await record_then_roll_back()
    assert await stream.next_event(QUIET) is None
    await _record(table)  # the same hand, committed this time
    assert await stream.next_event() == ("change", {"session": table.pk, "revision": 1, "what": "hand_recorded"})


async def test_the_group_stream_hears_each_of_its_sessions_and_no_other_group(open_stream):
    table, other = await _seat_two_sessions()
    group = await open_stream(reverse("group_events", args=[table.group.view_token]))
    assert await group.next_event() == ("hello", {})
    await _record(other)
    assert await group.next_event(QUIET) is None
    await _record(table)
    assert await group.next_event() == ("change", {"session": table.pk, "revision": 1, "what": "hand_recorded"})


async def test_deleting_and_restoring_the_session_is_heard(open_stream):
    table, _ = await _seat_two_sessions()
    stream = await open_stream(_stream_path(table))
    assert (await stream.next_event())[0] == "hello"
    await sync_to_async(services.session_delete)(session=table)
    assert (await stream.next_event())[1]["what"] == "session_deleted"
    await sync_to_async(services.session_restore)(session=table)
    assert (await stream.next_event())[1]["what"] == "session_restored"


@pytest.mark.parametrize("path", [
    pytest.param(lambda s, o: reverse("session_events", args=["no-such-link", s.pk]), id="unknown-link"),
    pytest.param(lambda s, o: reverse("session_events", args=[s.group.edit_token, o.pk]), id="other-groups-session"),
    pytest.param(lambda s, o: reverse("session_events", args=[s.group.edit_token, 2**64]), id="id-past-64-bits"),
    pytest.param(lambda s, o: reverse("group_events", args=["x" * 65]), id="overlong-link"),
])
async def test_a_stream_is_only_for_a_session_the_link_reaches(open_stream, path):
    table, other = await _seat_two_sessions()
    stream = await open_stream(path(table, other))
    assert stream.status == 404


async def test_a_deleted_sessions_stream_is_gone(open_stream):
    table, _ = await _seat_two_sessions()
    await sync_to_async(services.session_delete)(session=table)
    stream = await open_stream(_stream_path(table))
    assert stream.status == 404


async def test_a_watcher_that_leaves_is_forgotten(open_stream):
    table, _ = await _seat_two_sessions()
    stream = await open_stream(_stream_path(table))
    assert (await stream.next_event())[0] == "hello"
    assert len(broker().hub) == 1
    await stream.close()
    assert len(broker().hub) == 0


async def test_a_slow_watcher_is_owed_only_the_latest_changes(open_stream):
    table, _ = await _seat_two_sessions()
    stream = await open_stream(_stream_path(table))
    assert (await stream.next_event())[0] == "hello"
    live = broker()
    for revision in range(1, 21):
        live.hub.deliver(Change(table.pk, table.group_id, revision, "hand_recorded"))
    # the page re-fetches whatever it is told, so the latest 16 are as good as all 20
    assert [(await stream.next_event())[1]["revision"] for _ in range(16)] == list(range(5, 21))


async def test_a_mailbox_hands_over_a_change_or_says_nothing_came():
    mailbox = Watch()
    change = Change(3, 1, 7, "hand_recorded")
    asyncio.get_running_loop().call_later(0.01, mailbox.put, change)
    assert await mailbox.next(5) == change
    assert await mailbox.next(0.01) is None  # a heartbeat's worth of quiet
    mailbox.put(change)
    assert await mailbox.next(0) == change  # one that waited is handed over at once


async def test_a_phone_that_leaves_as_a_change_comes_is_let_go():
    """The stream's task is cancelled (the phone left) just as a change wakes it: it ends, rather
    than sending the change and waiting for the next heartbeat."""
    mailbox = Watch()
    waiting = asyncio.ensure_future(mailbox.next(30))
    await asyncio.sleep(0)
    mailbox.put(Change(3, 1, 7, "hand_recorded"))
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert mailbox.waiter is None


def test_a_page_on_a_wsgi_server_gets_the_revision_and_polls(client, db):
    """gunicorn's sync workers and the test server cannot hold a stream: the page polls instead."""
    session = HandFactory().session
    response = client.get(_stream_path(session, view=True))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    assert response.content.decode() == 'retry: 30000\nevent: hello\ndata: {"revision":1}\n\n'


def test_the_wsgi_stream_checks_the_link_too(client, db):
    session = SessionFactory()
    assert client.get(reverse("session_events", args=["nope", session.pk])).status_code == 404
    assert client.post(_stream_path(session)).status_code == 405


async def test_changes_on_the_wire_are_checked_before_anyone_hears_them():
    assert Change.decode('[3, 1, 7, "hand_recorded"]') == Change(3, 1, 7, "hand_recorded")
    assert Change.decode('[3, 1, null, "resync"]') == Change(3, 1, None, "resync")
    assert Change.decode('[0, 1, null, "link_rotated"]') == Change(0, 1, None, "link_rotated")  # names no session
    for junk in ["", "{}", "[1,2,3]", '["3", 1, 7, "x"]', '[true, 1, 7, "x"]', '[3, 1, -1, "x"]', "\xff",
                 '[0, 1, 7, "hand_recorded"]', '[0, 0, null, "link_rotated"]']:
        assert Change.decode(junk) is None
    await asyncio.sleep(0)


@pytest.mark.parametrize("path", ["/g/\x00/events/", "/g/\x00/s/1/events/"])
async def test_a_nul_in_a_streams_path_is_404_in_the_error_shape(open_stream, path):
    stream = await open_stream(path)
    assert stream.status == 404
    assert b'"not_found"' in await stream.body()


async def test_a_stream_opened_while_the_database_is_away_is_503_with_retry_after(open_stream, monkeypatch):
    table, _ = await _seat_two_sessions()
    from django.db import connections

    await open_stream(_stream_path(table))  # the process's subscription is up (PostgreSQL: its LISTEN)
    # the stream's check connects afresh on a pool thread: to a database that is not there
    engine = connections.settings["default"]["ENGINE"]
    if engine.endswith("sqlite3"):
        monkeypatch.setitem(connections.settings["default"], "NAME", "/nonexistent/ledger.sqlite3")
    else:
        monkeypatch.setitem(connections.settings["default"], "PORT", "1")
    stream = await open_stream(_stream_path(table))

    assert stream.status == 503
    assert int(stream.headers["retry-after"]) >= 1
    assert b'"database_unavailable"' in await stream.body()
