"""A Save as a player feels it: from tapping Save to the hand on the board, on the phone that saved
it and on another phone following the table.

Real Chromium (Debian's), the real service worker, the app under uvicorn (pages and event streams,
as `make run` serves them), and between them a line that delays every byte each way
(tests/relay.py): the pages, the outbox's requests and the open event streams alike, which a
browser's own network emulation does not. At 0, 150 and 300 ms round trip, each the median of a
few Saves. The moments are the phones' own clock (one browser, one clock): the tap, and the first
moment the hand is on the board (the saving phone: its waiting row or the server's; the other
phone: the server's row).

Targets: the same phone <= 100 ms at any round trip (the Save is kept on the phone and shown at
once); another phone <= the round trip + 150 ms (half a round trip for the Save to reach the
server, half for the event to reach the phone, the hand's row inside it).
"""

from __future__ import annotations

import asyncio
import os
import socket
import statistics
import threading
import time

from .django_setup import django_on_sqlite
from .measure import Figure

ROUND_TRIPS_MS = (0, 150, 300)
SAVES = 5
SAME_PHONE_MS = 100
ANOTHER_PHONE_MS = 150  # over the round trip
PHONE = {"width": 390, "height": 844}
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
# on every page of both phones: when Save was tapped, and when the hand awaited first showed
WATCH = """
(() => {
  const seen = () => {
    const number = sessionStorage.getItem("awaited");
    if (!number || sessionStorage.getItem("shownAt")) return;
    if (document.querySelector(`#hand-${number}, #outbox-rows [data-testid=pending-hand]`)) {
      sessionStorage.setItem("shownAt", String(Date.now()));
    }
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("[data-testid=save-hand]")) {
      sessionStorage.setItem("tappedAt", String(Date.now()));
    }
  }, true);
})();
"""


def _serve():
    """The app under uvicorn on a free port of 127.0.0.1, in a thread; (port, stop)."""
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from mighty_ledger.asgi import application

    listening = socket.socket()
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(ASGIStaticFilesHandler(application), lifespan="off",
                                           log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[listening])), daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)

    def stop() -> None:
        server.should_exit = True
        thread.join(10)
        listening.close()

    return listening.getsockname()[1], stop


def _tap_a_hand(page) -> None:
    """Di 14 ♠ alone, made with 14 (pagat), and the preview of those taps in."""
    for name, value in (("declarer", "Di"), ("contract_trump", "S"), ("call_type", "none")):
        page.locator(f"label.pick:has(input[name='{name}'][value='{value}'])").click()
    for name, value in (("contract_points", "14"), ("points", "14")):
        pick = page.locator(f"#field-{name} .pick-value[data-value='{value}']")
        if pick.count():
            pick.click()
        else:
            page.locator(f"input[name='{name}']").fill(value)
    page.wait_for_selector("#preview[data-preview-state=scored]")


def _installed(context, url: str):
    page = context.new_page()
    page.goto(url)
    # functions, not strings: the page's Content-Security-Policy forbids evaluating a string
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return page


def _moment(page, name: str) -> int:
    """A moment the page wrote down (its own clock), read once it is there; the page may be between
    two documents as it is asked (the Save goes to the board)."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            value = page.evaluate("name => sessionStorage.getItem(name)", name)
        except PlaywrightError:
            value = None
        if value:
            return int(value)
        time.sleep(0.02)
    raise TimeoutError(f"{name} was never written down")


def _saves(browser, base: str, hands: list[int]) -> tuple[list[int], list[int]]:
    """Each Save's time to the saving phone's board and to the other phone's, in ms."""
    saving, following = (browser.new_context(viewport=PHONE, device_scale_factor=1) for _ in range(2))
    for context in (saving, following):
        context.add_init_script(WATCH)
    phone, other = _installed(saving, base), _installed(following, base)
    other.wait_for_selector("[data-testid=app-status]:has-text('live')")
    same, another = [], []
    for number in hands:
        phone.goto(base + "hands/new/")
        _tap_a_hand(phone)
        # the board may have been shown and kept before the last hand: kept fresh as the form opened
        phone.wait_for_timeout(300)
        for page in (phone, other):
            page.evaluate(f"sessionStorage.removeItem('shownAt'); sessionStorage.setItem('awaited', '{number}')")
        phone.get_by_test_id("save-hand").click()
        tapped = _moment(phone, "tappedAt")
        same.append(_moment(phone, "shownAt") - tapped)
        another.append(_moment(other, "shownAt") - tapped)
        phone.wait_for_selector(f"#hand-{number}")
    saving.close()
    following.close()
    return same, another


def run() -> list[Figure]:
    django_on_sqlite()
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread, and Django refuses ORM calls
    # from a thread with a running loop unless told it is intended (as the browser tests say it)
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

    from mighty_ledger import services
    from tests.relay import Relay

    port, stop = _serve()
    figures = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for round_trip in ROUND_TRIPS_MS:
                group = services.group_create(name=f"Save at {round_trip} ms", player_names=["Ann", "Bo", "Cy", "Di", "Ed"])
                session = services.session_start(group=group, seats=["Ann", "Bo", "Cy", "Di", "Ed"],
                                                 preset="pagat-standard")
                relay = Relay(port, delay=round_trip / 2000).start()
                try:
                    base = f"{relay.url}/g/{group.edit_token}/s/{session.pk}/"
                    same, another = _saves(browser, base, list(range(1, SAVES + 1)))
                finally:
                    relay.stop()
                figures += [
                    Figure(f"Save → the hand on this phone's board, {round_trip} ms round trip (ms)",
                           statistics.median(same), f"≤ {SAME_PHONE_MS}", f"median of {SAVES}: {same}"),
                    Figure(f"Save → the hand on another phone's board, {round_trip} ms round trip (ms over the round trip)",
                           statistics.median(another) - round_trip, f"≤ {ANOTHER_PHONE_MS}",
                           f"median of {SAVES}, in all: {another}"),
                ]
            browser.close()
    finally:
        stop()
    return figures


if __name__ == "__main__":
    for figure in run():
        print(figure.row())
