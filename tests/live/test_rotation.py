"""A rotated link ends the streams open on it within a second (issue 36); the other link's go on.

Before, a stream checked its link only when it opened, and heard every change of the table on
the old link until it ended by itself, up to ten minutes later.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from mighty_ledger import services
from tests.factories import MADE_15_DIAMONDS, SessionFactory

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]

WITHIN_SECONDS = 1.0


async def _ended(stream) -> bool:
    try:
        await asyncio.wait_for(asyncio.shield(stream.task), WITHIN_SECONDS)
    except TimeoutError:
        return False
    return True


@pytest.mark.parametrize("which", ["edit", "view"])
async def test_rotating_a_link_ends_its_streams_and_no_other(open_stream, which):
    table = await sync_to_async(SessionFactory)()
    group = table.group
    kept = "view" if which == "edit" else "edit"
    links = {"edit": group.edit_token, "view": group.view_token}
    old = [await open_stream(reverse("session_events", args=[links[which], table.pk])),
           await open_stream(reverse("session_events", args=[links[which], table.pk]) + "?board=en"),
           await open_stream(reverse("group_events", args=[links[which]]))]
    other = [await open_stream(reverse("session_events", args=[links[kept], table.pk])),
             await open_stream(reverse("group_events", args=[links[kept]]))]
    for stream in old + other:
        assert stream.status == 200
        assert (await stream.next_event())[0] == "hello"

    await sync_to_async(services.group_rotate_link)(group=group, which=which)

    for stream in old:
        assert await _ended(stream), f"a stream on the old {which} link is still open"
    for stream in other:
        assert not await _ended(stream)
    await sync_to_async(services.hand_record)(session=table, entry=dict(MADE_15_DIAMONDS))
    for stream in other:
        assert await stream.next_event() == ("change", {"session": table.pk, "revision": 1, "what": "hand_recorded"})


async def test_a_rotation_elsewhere_ends_nothing(open_stream):
    table, elsewhere = await sync_to_async(SessionFactory)(), await sync_to_async(SessionFactory)()
    stream = await open_stream(reverse("session_events", args=[table.group.edit_token, table.pk]))
    assert (await stream.next_event())[0] == "hello"
    await sync_to_async(services.group_rotate_link)(group=elsewhere.group, which="edit")
    assert not await _ended(stream)
