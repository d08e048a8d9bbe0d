"""The ratings drawn again by the stream process as production runs it, not in the test's process.

As for the statistics (test_statistics_drawn_by_the_stream_process.py, whose stream process this
shares): `make serve-streams` on the production cache and broker on a real redis-server, this
process the web worker. A phone follows the board, someone looks at the ratings, a hand is
recorded: the stream process rates it and draws the page into Redis, and the web worker's next
view draws nothing and shows the hand rated.
"""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from mighty_ledger import services
from mighty_ledger.http.access import access_for
from mighty_ledger.pages.views.conditional import drawn_once_key
from mighty_ledger.pages.views.stats import selection_of
from tests.drawn import Drawn
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory
from tests.hardening.test_statistics_drawn_by_the_stream_process import stream_process  # noqa: F401 (the fixture)
from tests.live.test_stream_server import Stream

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True)]

HANDS = re.compile(r'data-testid="rating">[^<]*</td>\s*<td class="num">(\d+)</td>')


def _kept_page(url: str, token: str) -> bytes | None:
    """Where the web worker looks for the ratings page at ``url``, as a phone reading English asks."""
    from django.core.cache import cache

    request = RequestFactory().get(url)
    with translation.override("en"):
        access = access_for(token)
        key = drawn_once_key(selection_of(request, access).drawn_once_key(request, "ratings", access.right))
    return cache.get(key)


def test_the_stream_process_draws_the_ratings_a_group_looks_at_into_the_shared_cache(
        stream_process):  # noqa: F811 (the fixture imported above)
    session = SessionFactory()
    HandFactory(session=session)
    group = session.group
    board = Stream(stream_process, reverse("session_events", args=[group.edit_token, session.pk]) + "?board=en")
    try:
        assert board.next_event()[0] == "hello"
        url = reverse("group_ratings", args=[group.view_token])
        assert Client(HTTP_ACCEPT_LANGUAGE="en").get(url).status_code == 200  # a look, told through Redis

        services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
        name, change = board.next_event()
        assert (name, change["revision"]) == ("change", 2)

        deadline = time.monotonic() + 10
        while _kept_page(url, group.view_token) is None:  # drawn by the stream process, not asked for
            assert time.monotonic() < deadline, "the stream process did not draw the ratings"
            time.sleep(0.05)
        with Drawn() as drawn:
            page = Client(HTTP_ACCEPT_LANGUAGE="en").get(url)
        assert drawn.names == []
        assert HANDS.findall(page.content.decode()) == ["2"] * 5  # the new hand rated
    finally:
        board.close()
