"""Two phones at one table: a hand saved on one shows on the other without a reload, even after
the other lost its stream.

The pages are served by an ASGI server (uvicorn, in a thread of this process, on a free port)
so that the event stream stays open as in production; pytest-django's live server is WSGI,
where the stream only says hello and the page polls every 30 s.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from functools import partial
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .steps import LEAVING_PAGE, all_sent, fill_contract, fill_hand

pytestmark = pytest.mark.browser

# pagat example 3's contract, as the declarer's phone records it when the auction ends
ANN_16_NT_CALLING_THE_JOKER = {"declarer": "Ann", "contract": {"points": 16, "trump": "NT"},
                               "partner_call": {"type": "card", "cards": ["JOKER"]}}
# how long a page without its stream is watched for a hand that must not reach it; how soon a hand
# reaches a phone that has its stream is make bench's figure (save, streams), not a wait here
QUIET_MS = 1500


@pytest.fixture
def asgi_server(transactional_db):
    """The whole app under uvicorn, streams included, on 127.0.0.1; stopped after the test."""
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from mighty_ledger.asgi import application

    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    config = uvicorn.Config(ASGIStaticFilesHandler(application), lifespan="off", log_level="warning",
                            timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[listening])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield SimpleNamespace(url=f"http://127.0.0.1:{port}")
    server.should_exit = True
    thread.join(10)
    listening.close()


def _unexpected(message) -> bool:
    # a Content-Security-Policy refusal is a console error too; a stream cut on purpose is not, nor
    # a request the page was making as a Save took it to the board
    return (message.type == "error" and "/events/" not in message.location.get("url", "")
            and "ERR_FAILED" not in message.text and not message.text.startswith(LEAVING_PAGE))


@pytest.fixture
def phones(phones):
    """Phones at the table (the conftest's), where a stream cut on purpose is no error."""
    return partial(phones, console=_unexpected)


def board(server, session, *, view: bool = False) -> str:
    token = session.group.view_token if view else session.group.edit_token
    return f"{server.url}/g/{token}/s/{session.pk}/"


def save_hand(page, entry: dict) -> None:
    """Enter a hand and Save: on the board at once, and the server's once the outbox is empty."""
    page.get_by_test_id("enter-hand").click()
    fill_hand(page, entry)
    page.get_by_test_id("save-hand").click()
    page.wait_for_url("**/s/*/")
    all_sent(page)


def test_a_hand_saved_on_one_phone_shows_on_the_other_and_a_cut_stream_still_catches_up(asgi_server, phones):
    session = SessionFactory()
    scorer, watcher = phones(), phones()
    scorer.goto(board(asgi_server, session))
    # the view link is enough to follow; the stream's answer comes once the server listens for it
    with watcher.expect_response(lambda response: "/events/" in response.url) as stream:
        watcher.goto(board(asgi_server, session, view=True))
    assert stream.value.status == 200
    # looked at again with nothing new: the board asks for its live regions with the ETag it was
    # served, and gets 304
    watcher_board = board(asgi_server, session, view=True)
    with watcher.expect_response(watcher_board + "live/") as unchanged:
        watcher.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert unchanged.value.status == 304

    fetched = []
    watcher.on("request", lambda request: fetched.append(request.url) if request.url.endswith("/live/") else None)
    save_hand(scorer, MADE_15_DIAMONDS)

    expect(watcher.locator("#hand-1")).to_be_visible()
    # the hand came inside the event, with its step on the board: the phone fetched nothing
    assert fetched == []
    # the new hand stands out for a moment, and a screen reader is told of it
    expect(watcher.locator("#hand-1")).to_have_class("arrived")
    expect(watcher.get_by_test_id("board-news")).to_have_text("Hand 1: Ann 15♦, made")
    assert watcher.locator("#totals td strong").first.inner_text().strip() == "10"  # Ann, made 15♦ with 16
    assert "/s/" in watcher.url and watcher.url.endswith(f"/s/{session.pk}/")  # no reload, no navigation

    # the stream is cut: every attempt to reach it fails from now on, and the open one is dropped
    def the_stream(url: str) -> bool:
        return "/events/" in url

    watcher.route(the_stream, lambda route: route.abort())
    with watcher.expect_event("requestfailed", lambda request: the_stream(request.url)):
        watcher.evaluate("window.stop()")

    save_hand(scorer, {**MADE_15_DIAMONDS, "declarer": "Bo", "partners": ["Di"]})
    watcher.wait_for_timeout(QUIET_MS)
    expect(watcher.locator("#hand-2")).to_have_count(0)  # nothing reaches a page without its stream…

    # …until the phone is looked at again: the page asks for itself and catches up
    watcher.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(watcher.locator("#hand-2")).to_be_visible()
    # the latest hand is the one marked, though hand 1's row was drawn (and kept) as the latest
    marked = "row => getComputedStyle(row).backgroundColor"
    expect(watcher.get_by_test_id("board-news")).to_have_text("Hand 2: Bo 15♦, made")
    expect(watcher.locator("#hand-1")).not_to_have_class("arrived")  # only what is new stands out
    watcher.wait_for_timeout(2100)  # the moment it stands out
    assert watcher.eval_on_selector("#hand-2", marked) != watcher.eval_on_selector("#hand-1", marked)

    # a hand saved while the stream is still down comes with the stream's return: its hello
    # carries the session's revision, newer than the page's (the browser retries every 2 s,
    # the page reopens a refused stream after 5 s)
    save_hand(scorer, {**MADE_15_DIAMONDS, "declarer": "Cy", "partners": ["Ed"]})
    watcher.unroute(the_stream)
    expect(watcher.locator("#hand-3")).to_be_visible(timeout=10_000)


def test_the_contract_shows_on_every_phone_while_it_is_played_and_leaves_when_thrown_in(asgi_server, phones):
    session = SessionFactory()
    declarer, watcher = phones(), phones()
    watcher.goto(board(asgi_server, session, view=True))
    declarer.goto(board(asgi_server, session))

    # the auction is over: the declarer's phone records the contract, and sees what it is worth
    declarer.get_by_test_id("start-hand").click()
    fill_contract(declarer, ANN_16_NT_CALLING_THE_JOKER)
    outlook = declarer.get_by_test_id("outlook")
    expect(outlook.get_by_role("row", name="18 +32 +16 −16")).to_be_visible()  # pagat example 3: 16 NT made with 18
    declarer.get_by_test_id("save-contract").click()

    # every phone shows it at the top of the board, the view link too, without a reload
    playing = watcher.get_by_test_id("in-progress")
    expect(playing).to_contain_text("Ann 16 NT, calling the Joker, playing now")
    expect(playing.get_by_test_id("abandon-hand")).to_have_count(0)  # the view link only looks

    declarer.get_by_test_id("throw-in").click()  # asked first: the contract is lost
    declarer.get_by_test_id("abandon-hand").click()
    expect(declarer.locator("ul.messages")).to_contain_text("The hand was thrown in; nothing was scored.")
    expect(playing).not_to_contain_text("playing now")


def test_a_hand_in_progress_that_came_live_can_be_thrown_in_from_that_phone(asgi_server, phones):
    session = SessionFactory()
    declarer, other = phones(), phones()
    other.goto(board(asgi_server, session))
    declarer.goto(board(asgi_server, session))

    declarer.get_by_test_id("start-hand").click()
    fill_contract(declarer, ANN_16_NT_CALLING_THE_JOKER)
    declarer.get_by_test_id("save-contract").click()

    # the other phone got the hand in progress from the fragments every phone shares, which carry
    # no CSRF token: its throw-in form holds this phone's own
    expect(other.get_by_test_id("throw-in")).to_be_visible()
    other.get_by_test_id("throw-in").click()
    other.get_by_test_id("abandon-hand").click()
    expect(other.locator("ul.messages")).to_contain_text("The hand was thrown in; nothing was scored.")


def test_the_chart_follows_a_change_when_it_is_in_view_and_waits_until_seen_when_it_is_not(asgi_server, phones):
    """The chart below the rows is drawn again after a change only for a phone that looks at it; a
    phone that does not keeps the chart it had until it looks."""
    session = SessionFactory()
    # an evening under way: its rows put the chart well below the first screen of a phone
    for _ in range(12):
        HandFactory(session=session, entry=dict(MADE_15_DIAMONDS))
    scorer, watcher, reader = phones(), phones(), phones()
    scorer.goto(board(asgi_server, session))
    last_hand_charted = "#score-chart [data-testid='chart-end']"  # the chart's right edge: the last hand
    for page in (watcher, reader):
        page.goto(board(asgi_server, session, view=True))
        expect(page.locator(last_hand_charted)).to_have_text("12")
    assert watcher.evaluate("document.getElementById('score-over-time').getBoundingClientRect().top") > \
        watcher.viewport_size["height"] + 200  # the watcher stays at the rows, the chart well below them
    reader.locator("#score-over-time").scroll_into_view_if_needed()

    save_hand(scorer, {**MADE_15_DIAMONDS, "declarer": "Bo", "partners": ["Di"]})

    expect(reader.locator(last_hand_charted)).to_have_text("13")
    expect(watcher.locator("#hand-13")).to_be_visible()
    # not drawn again for a phone not looking at it, and never gone from it meanwhile…
    expect(watcher.locator(last_hand_charted)).to_have_text("12")
    watcher.locator("#score-over-time").scroll_into_view_if_needed()
    expect(watcher.locator(last_hand_charted)).to_have_text("13")  # …until it is seen


def test_a_phone_with_its_stream_open_polls_every_two_minutes_and_without_one_every_30_seconds(asgi_server, phones):
    """Every phone's poll is a request to the server; with the stream open its events bring every
    change, so the poll only guards against a stream gone without a word."""
    session = SessionFactory()
    watcher = phones()
    watcher.clock.install()
    asked = []
    watcher.on("request", lambda request: asked.append(request.url) if request.url.endswith("/live/") else None)
    with watcher.expect_response(lambda response: "/events/" in response.url):
        watcher.goto(board(asgi_server, session, view=True))

    watcher.clock.run_for(31_000)
    watcher.wait_for_timeout(300)
    assert asked == []  # the stream is open: no poll after 30 s…
    with watcher.expect_request(lambda request: request.url.endswith("/live/")):
        watcher.clock.run_for(90_000)  # …but one by two minutes

    # the stream cut: every attempt to reach it fails, and the page polls every 30 s again
    watcher.route(lambda url: "/events/" in url, lambda route: route.abort())
    with watcher.expect_event("requestfailed", lambda request: "/events/" in request.url):
        watcher.evaluate("window.stop()")
    with watcher.expect_request(lambda request: request.url.endswith("/live/")):
        watcher.clock.run_for(31_000)
