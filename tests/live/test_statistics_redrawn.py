"""The statistics a group looks at are drawn again as each hand comes, before anybody asks.

A phone at the table follows the board (its stream is open); someone has opened the statistics.
When the next hand is recorded, the stream process draws the statistics again into the cache,
and the next look at them is read from there: the same page the view would have drawn.
"""

from __future__ import annotations

import logging
import re
import time
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.live import brokers
from mighty_ledger.live.brokers import LOOK_SECONDS, Change
from mighty_ledger.live.redraws import Redraws
from mighty_ledger.live.streams import on_the_redraw_thread
from mighty_ledger.models import Hand, Session
from mighty_ledger.pages.views import stats_looks, stats_redrawn
from tests.drawn import Drawn
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]

STATISTICS = "table/stats.html"
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


@sync_to_async
def _seated() -> Session:
    session = SessionFactory()
    HandFactory(session=session)
    return Session.objects.select_related("group").get(pk=session.pk)


@sync_to_async
def _record(session) -> None:
    services.hand_record(session=Session.objects.get(pk=session.pk), entry=dict(MADE_15_DIAMONDS))


def _statistics_url(session, *, view: bool = True, query: str = "") -> str:
    token = session.group.view_token if view else session.group.edit_token
    return reverse("group_stats", args=[token]) + (f"?{query}" if query else "")


@sync_to_async
def _look(url: str, language: str = "en") -> tuple[str, list[str]]:
    """A phone opening the statistics: the page (without its CSRF token) and the templates drawn for it."""
    with Drawn() as drawn:
        answer = Client(HTTP_ACCEPT_LANGUAGE=language).get(url)
    assert answer.status_code == 200
    return CSRF.sub(r"\1", answer.content.decode()), drawn.names


@sync_to_async
def _drawn_afresh(url: str, language: str = "en") -> str:
    """The page as the view draws it with nothing kept: what the drawing made ahead must equal."""
    from django.core.cache import cache

    cache.clear()
    answer = Client(HTTP_ACCEPT_LANGUAGE=language).get(url)
    return CSRF.sub(r"\1", answer.content.decode())


async def _redrawn() -> None:
    # the redrawing was handed to its thread as the stream heard the change, before the event was
    # sent; the thread runs one thing at a time, in order: once this has run, so has the redrawing
    await on_the_redraw_thread(lambda: None)


async def _the_table(open_stream, session):
    """A phone at the table follows the board: its stream process hears the group's looks and changes."""
    stream = await open_stream(reverse("session_events", args=[session.group.edit_token, session.pk]) + "?board=en")
    await stream.next_event()
    return stream


async def _a_hand(stream, session) -> None:
    """A hand is recorded; the phone hears it, and whatever it set off is done."""
    await _record(session)
    assert (await stream.next_event())[0] == "change"
    await _redrawn()


def _at(monkeypatch, seconds: float) -> None:
    """The clocks that tell how old a look is, ``seconds`` from now."""
    wall, monotonic = time.time() + seconds, time.monotonic() + seconds
    monkeypatch.setattr(stats_looks, "time", SimpleNamespace(time=lambda: wall))
    monkeypatch.setattr(brokers, "time", SimpleNamespace(monotonic=lambda: monotonic))


async def test_the_statistics_looked_at_come_from_the_cache_after_the_next_hand(open_stream):
    session = await _seated()
    table = await _the_table(open_stream, session)
    url = _statistics_url(session)
    _page, drawn = await _look(url)
    assert STATISTICS in drawn

    await _a_hand(table, session)

    page, drawn = await _look(url)
    assert drawn == []  # drawn before it was asked for
    assert 'data-testid="stats-hands">2<' in page  # the new hand counted
    assert page == await _drawn_afresh(url)


async def _each_drawn_ahead(table, session, looks: list[tuple[str, str]]) -> list[str]:
    """Each (url, language) looked at, then a hand: each next look is read from the cache, and is the
    page the view draws with nothing kept. The pages, in the order of ``looks``."""
    for url, language in looks:
        await _look(url, language)

    await _a_hand(table, session)

    pages = []
    for url, language in looks:
        page, drawn = await _look(url, language)
        assert drawn == [], url
        pages.append(page)
    for (url, language), page in zip(looks, pages, strict=True):
        assert page == await _drawn_afresh(url, language)
    return pages


async def test_every_page_looked_at_is_drawn_again_with_its_link_filters_and_language(open_stream):
    session = await _seated()
    table = await _the_table(open_stream, session)
    looks = [(_statistics_url(session), "en"), (_statistics_url(session, view=False), "ko"),
             (_statistics_url(session, query=f"period=s{session.pk}"), "en")]

    pages = await _each_drawn_ahead(table, session, looks)

    assert "통계" in pages[1]


async def test_a_group_that_has_not_looked_is_not_drawn(open_stream):
    session = await _seated()
    table = await _the_table(open_stream, session)

    await _a_hand(table, session)

    _page, drawn = await _look(_statistics_url(session))
    assert STATISTICS in drawn  # drawn when asked, as it always was


async def test_a_look_keeps_the_page_drawn_for_half_an_hour(open_stream, monkeypatch):
    session = await _seated()
    table = await _the_table(open_stream, session)
    url = _statistics_url(session)
    await _look(url)
    _at(monkeypatch, LOOK_SECONDS + 1)

    await _a_hand(table, session)

    _page, drawn = await _look(url)
    assert STATISTICS in drawn


async def test_drawing_the_page_again_is_not_a_look_at_it(open_stream, monkeypatch):
    session = await _seated()
    table = await _the_table(open_stream, session)
    url = _statistics_url(session)
    await _look(url)
    _at(monkeypatch, 20 * 60)
    await _a_hand(table, session)  # drawn again, twenty minutes after the look

    _at(monkeypatch, LOOK_SECONDS + 1)
    await _a_hand(table, session)

    _page, drawn = await _look(url)
    assert STATISTICS in drawn  # nobody looked for half an hour: the view draws it


async def test_a_stream_process_hears_of_a_look_through_the_broker_and_no_page_does(open_stream):
    session = await _seated()
    table = await _the_table(open_stream, session)
    group_page = await open_stream(reverse("group_events", args=[session.group.view_token]))
    await group_page.next_event()
    assert not brokers.broker().hub.looked_at(session.group.pk)

    await _look(_statistics_url(session))
    await _a_hand(table, session)  # heard after the look, which came first

    assert brokers.broker().hub.looked_at(session.group.pk)
    # the group's page hears the hand alone: a look is not a change of the table
    assert await group_page.next_event() == ("change", {"session": session.pk, "revision": 2,
                                                        "what": "hand_recorded"})


def _looked_at_by_a_group() -> Session:
    """A session with a hand, in a group that has just looked at its statistics."""
    session = SessionFactory()
    HandFactory(session=session)
    Client().get(reverse("group_stats", args=[session.group.view_token]))
    return session


@pytest.mark.django_db(transaction=True)
def test_one_stream_process_draws_a_change_that_every_one_hears():
    session = _looked_at_by_a_group()
    group = session.group
    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
    session.refresh_from_db()
    change = (group.pk, session.pk, session.revision, "hand_recorded")

    with Drawn() as first:
        stats_redrawn.redrawn(*change)
    with Drawn() as second:  # another stream process, a moment later
        stats_redrawn.redrawn(*change)

    assert STATISTICS in first.names and second.names == []


@pytest.mark.django_db(transaction=True)
def test_a_page_whose_link_was_rotated_since_is_not_drawn():
    session = _looked_at_by_a_group()
    group = session.group
    services.group_rotate_link(group=group, which="view")
    hand, _ = services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))

    with Drawn() as drawn:
        stats_redrawn.redrawn(group.pk, session.pk, hand.session.revision, "hand_recorded")

    assert drawn.names == []


def test_a_redrawing_that_fails_is_logged_by_its_kind_and_once_per_change(caplog):
    def fails(*change):
        raise RuntimeError("postgres://secret-link-in-the-message")

    redraws = Redraws(fails, lambda work, *args: work(*args), lambda group: True)
    with caplog.at_level(logging.WARNING, logger="mighty_ledger.live.redraws"):
        redraws.heard(Change(session=1, group=1, revision=2, what="hand_recorded"))
        redraws.heard(Change(session=1, group=1, revision=2, what="hand_recorded"))  # a second stream

    assert [record.getMessage() for record in caplog.records] == [
        "the group's pages were not drawn again (RuntimeError); the next view draws them"]


def test_nothing_is_drawn_for_a_resync():
    handed = []
    redraws = Redraws(lambda *change: handed.append(change), lambda work, *args: work(*args), lambda group: True)
    redraws.heard(Change(session=0, group=0, revision=None, what="resync"))
    assert handed == []


def test_a_group_nobody_looks_at_is_not_even_handed_to_the_thread():
    handed = []
    redraws = Redraws(lambda *change: None, lambda work, *args: handed.append(args), lambda group: group == 7)
    redraws.heard(Change(session=1, group=3, revision=2, what="hand_recorded"))
    redraws.heard(Change(session=2, group=7, revision=2, what="hand_recorded"))
    assert [change.group for (change,) in handed] == [7]


# the kind of hand the redrawing follows is any: a hand deleted changes the statistics as much
async def test_a_hand_deleted_is_drawn_again_too(open_stream):
    session = await _seated()
    stream = await open_stream(reverse("session_events", args=[session.group.edit_token, session.pk]))
    await stream.next_event()
    url = _statistics_url(session)
    await _look(url)

    await sync_to_async(lambda: services.hand_delete(hand=Hand.objects.get(session=session, number=1)))()
    assert (await stream.next_event())[0] == "change"
    await _redrawn()

    page, drawn = await _look(url)
    assert drawn == []
    assert 'data-testid="stats-hands">0<' in page


def test_only_a_process_whose_drawing_the_pages_read_draws_again(monkeypatch, settings):
    from mighty_ledger import asgi

    # runserver: the streams and the pages in one process, one cache
    monkeypatch.delenv("SERVE_ROLE", raising=False)
    assert asgi._pages_read_what_the_streams_draw()
    # a stream process beside web workers, each with a cache of its own: it would draw for nobody
    monkeypatch.setenv("SERVE_ROLE", "streams")
    assert not asgi._pages_read_what_the_streams_draw()
    # a stream process writing to the cache the web workers read
    settings.CACHES = {"default": {"BACKEND": "mighty_ledger.http.cache.FailOpenRedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0"}}
    assert asgi._pages_read_what_the_streams_draw()


def test_with_the_cache_away_a_look_is_not_told(settings, monkeypatch):
    told = []
    monkeypatch.setattr(stats_looks, "group_looked_at", told.append)
    stats_looks.looked_at(7, "/g/x/stats/", "en")
    stats_looks.looked_at(7, "/g/x/stats/?period=30d", "en")  # the same group within the minute
    assert told == [7]

    # Redis does not answer (nothing listens on port 1): the drawings could not be kept either
    settings.CACHES = {"default": {"BACKEND": "mighty_ledger.http.cache.FailOpenRedisCache",
                                   "LOCATION": "redis://127.0.0.1:1/0"}}
    stats_looks.looked_at(8, "/g/y/stats/", "en")
    assert told == [7]


def test_a_busy_table_queues_one_drawing_at_a_time():
    queued = []
    redraws = Redraws(lambda *change: None, lambda work, *args: queued.append((work, args)), lambda group: True)
    for revision in (2, 3, 4):  # three hands while the thread draws another group's pages
        redraws.heard(Change(session=1, group=7, revision=revision, what="hand_recorded"))
    assert len(queued) == 1  # the drawing reads the group as it is when it begins: all three hands

    work, args = queued.pop()
    work(*args)  # it begins; a hand from now on may come after what it reads
    redraws.heard(Change(session=1, group=7, revision=5, what="hand_recorded"))
    assert len(queued) == 1
