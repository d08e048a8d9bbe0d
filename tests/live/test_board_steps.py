"""A new hand's step on the board, inside the event: what the hand changed, drawn once for the table.

A board that shows the latest hands opens its stream with ``?board=<language>``; when a hand is
recorded its event carries the hand's row and the parts of the board the hand changed, and the
phone fetches nothing. The step must show exactly what the live regions show after the hand.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.models import Hand, Session
from mighty_ledger.pages.views.board_steps import board_step_for
from tests.board_parts import PARTS, parts_of, row_of
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

pytestmark = [pytest.mark.anyio, pytest.mark.django_db(transaction=True)]

QUIET = 0.5  # how long a test waits to be sure that nothing comes
DEAL_MISS = {"dealer": "Ann", "shown_by": "Bo"}


def _events(session, *, view: bool = False, board: str | None = "en") -> str:
    token = session.group.view_token if view else session.group.edit_token
    path = reverse("session_events", args=[token, session.pk])
    return f"{path}?board={board}" if board else path


@sync_to_async
def _seated(**options) -> Session:
    session = SessionFactory(**options)
    HandFactory(session=session)
    return Session.objects.select_related("group").get(pk=session.pk)  # its links read without a query


@sync_to_async
def _record(session, entry=MADE_15_DIAMONDS, kind=Hand.SCORED) -> Hand:
    hand, _ = services.hand_record(session=Session.objects.get(pk=session.pk), entry=dict(entry), kind=kind)
    return hand


@sync_to_async
def _live_regions(session, *, view: bool = False, language: str = "en"):
    """What a phone fetching the board's live regions gets now: (its ETag, its HTML)."""
    token = session.group.view_token if view else session.group.edit_token
    answer = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("session_live", args=[token, session.pk]))
    assert answer.status_code == 200
    return answer["ETag"], answer.content.decode()


@pytest.mark.parametrize("language", ["en", "ko"])
@pytest.mark.parametrize("view", [False, True])
async def test_a_new_hand_comes_inside_the_event_as_the_live_regions_show_it(open_stream, view, language):
    session = await _seated()
    stream = await open_stream(_events(session, view=view, board=language))
    assert await stream.next_event() == ("hello", {"revision": 1})

    hand = await _record(session)

    name, change = await stream.next_event()
    assert (name, change["revision"], change["what"]) == ("change", 2, "hand_recorded")
    step = change["board"]
    assert step["from"] == 1  # applied only to the board as it stood just before the hand
    etag, regions = await _live_regions(session, view=view, language=language)
    assert step["etag"] == etag  # the phone's next poll of the regions is answered 304
    # the hand's row and every part the hand changed, as the regions draw them after the hand
    assert row_of(step["html"], hand.number) in regions
    parts = parts_of(step["html"])
    assert set(parts) == set(PARTS)
    for name, part in parts.items():
        assert part in regions, name
    assert 'id="hand-1"' not in step["html"]  # the rows the phone shows already are not sent again
    assert ("hands/new/" in step["html"]) is not view  # a view link's step has no way to enter a hand
    assert ("합계" if language == "ko" else "Total") in parts["totals"]


@pytest.mark.parametrize(("kind", "entry"), [(Hand.SCORED, MADE_15_DIAMONDS), (Hand.DEAL_MISS, DEAL_MISS)],
                         ids=["hand", "deal-miss"])
async def test_a_step_for_money_and_for_a_redeal_shows_what_the_regions_show(open_stream, kind, entry):
    session = await _seated(stake_per_point="100", currency="KRW", rounding_unit="100")
    stream = await open_stream(_events(session))
    await stream.next_event()

    await _record(session, entry, kind)

    _name, change = await stream.next_event()
    _etag, regions = await _live_regions(session)
    parts = parts_of(change["board"]["html"])
    assert "data-money-of" in parts["totals"]
    for name, part in parts.items():
        assert part in regions, name


async def test_a_page_that_does_not_show_the_latest_hands_hears_the_change_alone(open_stream):
    session = await _seated()
    plain = await open_stream(_events(session, board=None))
    unknown = await open_stream(_events(session, board="xx"))
    for stream in (plain, unknown):
        await stream.next_event()

    await _record(session)

    for stream in (plain, unknown):
        assert await stream.next_event() == ("change", {"session": session.pk, "revision": 2, "what": "hand_recorded"})


async def test_other_changes_come_alone(open_stream):
    session = await _seated()
    stream = await open_stream(_events(session))
    await stream.next_event()

    await sync_to_async(lambda: services.hand_delete(hand=Hand.objects.get(session=session, number=1)))()

    _name, change = await stream.next_event()
    assert change["what"] == "hand_deleted" and "board" not in change


async def test_the_table_shares_one_drawing_per_link_and_language():
    from mighty_ledger.asgi import django_application
    from mighty_ledger.live.asgi import with_streams

    from .conftest import EventStream

    draws = []

    def counted(*key):
        draws.append(key[1:])
        return board_step_for(*key)

    app = with_streams(django_application, board_steps=counted)
    session = await _seated()
    streams = [EventStream(app, _events(session)) for _ in range(4)]
    streams += [EventStream(app, _events(session, view=True)), EventStream(app, _events(session, board="ko"))]
    try:
        for stream in streams:
            assert await stream.open() == 200
            await stream.next_event()

        await _record(session)

        heard = [await stream.next_event() for stream in streams]
        assert all("board" in change for _name, change in heard)
        assert heard[0] == heard[1] == heard[2] == heard[3]  # the same bytes for the four phones on the edit link
        assert sorted(draws) == [(session.pk, 2, "en"), (session.pk, 2, "en"), (session.pk, 2, "ko")]
    finally:
        for stream in streams:
            await stream.close()


@pytest.mark.django_db
def test_a_step_is_drawn_only_for_the_revision_the_session_is_at():
    session = SessionFactory()
    HandFactory(session=session)
    HandFactory(session=session)
    token = session.group.edit_token

    assert board_step_for(token, session.pk, 2, "en")["from"] == 1
    assert board_step_for(token, session.pk, 1, "en") is None  # moved on since: the phones fetch the regions
    assert board_step_for("not-a-link", session.pk, 2, "en") is None
    assert board_step_for(SessionFactory().group.edit_token, session.pk, 2, "en") is None  # another group's link
    services.session_delete(session=Session.objects.get(pk=session.pk))
    assert board_step_for(token, session.pk, 2, "en") is None


@pytest.mark.django_db
@pytest.mark.parametrize("token", ["", "x" * 65, "a\x00b"])
def test_a_step_for_what_cannot_be_a_link_asks_the_database_nothing(token, django_assert_num_queries):
    session = HandFactory().session
    with django_assert_num_queries(0):
        assert board_step_for(token, session.pk, 1, "en") is None
        assert board_step_for(session.group.edit_token, 2**63, 1, "en") is None


@pytest.mark.django_db
def test_a_step_reads_the_link_the_session_and_its_latest_hands_in_three_queries(django_assert_num_queries):
    session = SessionFactory()
    for _ in range(3):
        HandFactory(session=session)
    session.refresh_from_db()
    token = session.group.view_token
    with django_assert_num_queries(3):
        # 1. the session with its group, by the link; 2. its latest two hands; 3. whether a hand is in progress
        step = board_step_for(token, session.pk, session.revision, "en")
    assert step["from"] == session.revision - 1
    assert 'id="hand-3"' in step["html"] and 'id="hand-2"' not in step["html"]
