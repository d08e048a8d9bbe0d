"""The browser tests' own Chromium: a context Chromium does not close in time gets its browser
stopped, so the run goes on, and the next test that asks for the browser gets a new one."""

from __future__ import annotations

import pytest

from . import chromium as module
from .chromium import close_context

pytestmark = pytest.mark.browser


class NeverClosed:
    """A context whose closing Chromium never answers: it waits on its page until the browser is
    gone (waiting on the page keeps Playwright's loop turning, as a real close does)."""

    def __init__(self, page):
        self.page = page

    def close(self) -> None:
        while True:
            self.page.wait_for_timeout(50)  # raises once the browser is stopped


def test_a_context_that_is_not_closed_in_time_stops_its_browser_and_the_next_test_gets_another(
        chromium, monkeypatch):
    browser = chromium.connected()
    page = browser.new_context().new_page()
    page.set_content("<p>a phone</p>")
    monkeypatch.setattr(module, "CLOSE_SECONDS", 0.5)

    with pytest.warns(UserWarning, match="was stopped"):
        close_context(NeverClosed(page))

    assert not browser.is_connected()
    again = chromium.connected()
    assert again is not browser and again.is_connected()
    page = again.new_context().new_page()
    page.set_content("<p>the next phone</p>")
    assert page.inner_text("p") == "the next phone"
    close_context(page.context)


def test_a_context_closed_in_time_leaves_the_browser_as_it_was(browser):
    context = browser.new_context()
    context.new_page().set_content("<p>a phone</p>")
    close_context(context)
    assert browser.is_connected()
