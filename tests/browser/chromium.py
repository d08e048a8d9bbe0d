"""Debian's Chromium for the browser tests: started once per package and worker, started again
when it had to be stopped, and each phone's context closed within a bounded time.

Chromium now and then never answers the closing of a context whose service worker is still at
work (a fetch of the worker's own held by a route, an outbox being sent): Playwright then waits
on it for ever, and so does the test run. Seen twice in a day with two workers each driving a
Chromium on two cores, both times in tests whose phones have the app installed. A context that
is not closed within CLOSE_SECONDS gets its browser stopped instead (the test is told, as a
warning), and the next test that asks for the browser gets a new one.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
import warnings
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Playwright
from playwright.sync_api import Error as PlaywrightError

EXECUTABLE = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # the network is closed: background fetches make Chromium hang or fill the log with refusals
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # a headless window still builds the address bar's suggestion popups, each a WebUI page in a
    # renderer of its own: unseen work that was some 40% of Chromium's CPU in a browser test
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
]
CLOSE_SECONDS = 30


class Chromium:
    """The browser of one package's tests in one worker."""

    def __init__(self, playwright: Playwright) -> None:
        self.playwright = playwright
        self.browser = self._launched()

    def _launched(self) -> Browser:
        return self.playwright.chromium.launch(executable_path=EXECUTABLE, args=ARGS)

    def connected(self) -> Browser:
        """The browser, started again if it was stopped."""
        if not self.browser.is_connected():
            self.browser = self._launched()
        return self.browser

    def close(self) -> None:
        if self.browser.is_connected():
            self.browser.close()


def close_context(context: BrowserContext) -> None:
    """Close a phone's context, or stop its browser when Chromium does not answer in time."""
    stopped, closed = threading.Event(), threading.Event()
    deadline = time.monotonic() + CLOSE_SECONDS

    def watch() -> None:
        # time.sleep, not a timed wait (threading.Timer): under libfaketime a timed wait on a lock
        # reckons from the moved clock and does not end (the suite runs with the clock a year ahead)
        while not closed.is_set():
            if time.monotonic() >= deadline:
                stopped.set()
                _stop_chromium()
                return
            time.sleep(0.05)

    threading.Thread(target=watch, daemon=True).start()
    try:
        context.close()
    except PlaywrightError:
        if not stopped.is_set():
            raise  # not the stop above: a real error
    finally:
        closed.set()
    if stopped.is_set():
        warnings.warn(f"Chromium did not close a context in {CLOSE_SECONDS} s and was stopped; "
                      "the next test starts a new one", stacklevel=2)


# the phone's outbox (static/js/outbox.js) as the failure left it, or why it could not be read
OUTBOX_AS_LEFT = """() => new Promise((resolve) => {
  window.setTimeout(() => resolve("no answer in 2 s"), 2000);
  const opened = indexedDB.open("mighty-ledger");
  opened.onerror = () => resolve(String(opened.error));
  opened.onsuccess = () => {
    try {
      const all = opened.result.transaction("outbox").objectStore("outbox").getAll();
      all.onsuccess = () => resolve(JSON.stringify(all.result.map(
        ({ id, kind, state, key, number, message }) => ({ id, kind, state, key, number, message }))));
    } catch (error) { resolve(String(error)); }
  };
})"""
HEARD = 40  # the last things a page said and asked, in a failed test's report
# each button tapped and each form submitted, said on the page's console as it happens: a Save that
# stays on its form, with nothing in the outbox, then says whether the page ever took it
TAKEN = """
addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target : null;
  const button = target && target.closest("button");
  if (button) console.debug(`tapped ${button.dataset.testid || button.textContent.trim().slice(0, 30)}`);
  // a tap that met no button: where it landed (a Save whose click found something else over it)
  else if (target) console.debug(`tapped beside: ${target.tagName.toLowerCase()}${target.id ? "#" + target.id : ""}` +
                                 `${target.dataset.testid ? " " + target.dataset.testid : ""} at ${event.clientX},${event.clientY}`);
}, true);
addEventListener("submit", (event) => console.debug(`submitted #${event.target.id}`), true);
"""


def listen(page) -> None:
    """What a page says on its console and asks of the network, kept for a failed test's report: a
    Save that never leaves its form says nothing on the page itself."""
    page.heard = heard = []
    clock = time.monotonic

    def hear(line: str) -> None:
        heard.append(f"{clock():.2f} {line}")
        del heard[:-HEARD]

    def asked(mark: str):
        # the app's own files left out: a page's load of them would push out what came before it
        return lambda request: hear(f"{mark} {request.method} {request.url}") if "/static/" not in request.url else None

    page.on("console", lambda message: hear(f"console.{message.type}: {message.text}"))
    page.on("request", asked(">"))
    page.on("requestfinished", asked("<"))
    page.on("requestfailed", lambda request: hear(f"x {request.method} {request.url} {request.failure}"))
    page.on("framenavigated", lambda frame: hear(f"navigated {frame.url}") if frame.parent_frame is None else None)
    page.add_init_script(TAKEN)


def _stop_chromium() -> None:
    """Kill this process's Chromium (the browser process below Playwright's driver); the driver
    then answers every pending call with an error, the context's close among them."""
    for pid in _descendants(os.getpid()):
        with contextlib.suppress(OSError):
            if Path(f"/proc/{pid}/exe").resolve().name == "chromium":
                os.kill(pid, signal.SIGKILL)


def _descendants(root: int) -> list[int]:
    """Every process below ``root``, as each one's threads list the processes they started."""
    found, waiting = [], [root]
    while waiting:
        pid = waiting.pop()
        with contextlib.suppress(OSError):
            for listed in Path(f"/proc/{pid}/task").glob("*/children"):
                for child in map(int, listed.read_text().split()):
                    found.append(child)
                    waiting.append(child)
    return found
