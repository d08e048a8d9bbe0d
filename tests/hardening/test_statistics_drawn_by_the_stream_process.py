"""The statistics and the ratings drawn again by the stream process as production runs it, not in the test's process.

`make serve-streams` on a free port, with the production cache and broker on a real redis-server;
this process plays the web worker on the same Redis and PostgreSQL. A phone follows the board,
someone looks at the statistics (or the ratings), a hand is recorded: the stream process hears the
look and the hand (rating it, for the ratings), draws the page into Redis, and the web worker's next
view of it draws nothing and shows the new hand.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest
from django.db import connection
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation

from mighty_ledger import services
from mighty_ledger.http.access import access_for
from mighty_ledger.pages.views.conditional import drawn_once_key
from mighty_ledger.pages.views.stats import selection_of
from tests.drawn import Drawn
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory
from tests.live.test_stream_server import Stream
from tests.servers import REPO, free_port, serving_streams

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def stream_process(redis_cache, settings, tmp_path):
    """`make serve-streams` on the test's PostgreSQL database and Redis; this process on the same Redis."""
    settings.REDIS_URL = redis_cache.url  # this process's broker: Redis, as the stream process's
    database = connection.settings_dict
    password = f":{database['PASSWORD']}" if database["PASSWORD"] else ""
    port = free_port()
    env = {
        key: value for key, value in os.environ.items()
        if key not in ("DJANGO_SETTINGS_MODULE", "WEB_CONCURRENCY", "GUNICORN_ACCESS_LOG", "LIVE_BROKER")
    } | {
        "DATABASE_URL": (f"postgres://{database['USER']}{password}@{database['HOST'] or '127.0.0.1'}:"
                         f"{database['PORT'] or 5432}/{database['NAME']}"),
        "REDIS_URL": redis_cache.url, "SECRET_KEY": "stream-process-test-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "false", "STREAM_BIND": f"127.0.0.1:{port}",
        "STATIC_ROOT": str(tmp_path / "static"),
    }
    # the page it draws names its static files by their hashed names, as `make serve` collects them first
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"], cwd=REPO,
                   env=env | {"DEBUG": "false"}, check=True, timeout=120)
    with serving_streams(env, port, tmp_path / "streams.log"):
        yield port


def _kept_page(url: str, token: str, page_name: str) -> bytes | None:
    """Where the web worker looks for the page at ``url``, as a phone reading English asks."""
    from django.core.cache import cache

    request = RequestFactory().get(url)
    with translation.override("en"):
        access = access_for(token)
        key = drawn_once_key(selection_of(request, access).drawn_once_key(request, page_name, access.right))
    return cache.get(key)


RATED_HANDS = re.compile(r'data-testid="rating">[^<]*</td>\s*<td class="num">(\d+)</td>')


def _counts_two_hands(page: str) -> bool:
    return 'data-testid="stats-hands">2<' in page


def _rates_every_player_twice(page: str) -> bool:
    return RATED_HANDS.findall(page) == ["2"] * 5  # the new hand rated


@pytest.mark.parametrize(("url_name", "page_name", "shows_the_new_hand"), [
    pytest.param("group_stats", "stats", _counts_two_hands, id="statistics"),
    pytest.param("group_ratings", "ratings", _rates_every_player_twice, id="ratings"),
])
def test_the_stream_process_draws_the_page_a_group_looks_at_into_the_shared_cache(
        stream_process, url_name, page_name, shows_the_new_hand):
    session = SessionFactory()
    HandFactory(session=session)
    group = session.group
    board = Stream(stream_process, reverse("session_events", args=[group.edit_token, session.pk]) + "?board=en")
    try:
        assert board.next_event()[0] == "hello"
        url = reverse(url_name, args=[group.view_token])
        assert Client(HTTP_ACCEPT_LANGUAGE="en").get(url).status_code == 200  # a look, told through Redis

        services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
        name, change = board.next_event()
        assert (name, change["revision"]) == ("change", 2)

        deadline = time.monotonic() + 10
        while _kept_page(url, group.view_token, page_name) is None:  # drawn by the stream process, not asked for
            assert time.monotonic() < deadline, f"the stream process did not draw the {page_name}"
            time.sleep(0.05)
        with Drawn() as drawn:
            page = Client(HTTP_ACCEPT_LANGUAGE="en").get(url)
        assert drawn.names == []
        assert shows_the_new_hand(page.content.decode())
    finally:
        board.close()
