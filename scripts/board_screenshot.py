"""The README's picture of a board: a board's page, as a phone 390 px wide shows it, to a PNG.

    .venv/bin/python scripts/board_screenshot.py http://127.0.0.1:8000/g/<link>/s/<id>/ docs/images/board-en.png [en|ko]

The page comes from a running server (`make run`) with an evening of hands in it; Chromium is the
system's (/usr/bin/chromium, as the tests use it), never a downloaded one.
"""

from __future__ import annotations

import sys

from playwright.sync_api import sync_playwright

PHONE = {"width": 390, "height": 844}


def board_screenshot(url: str, path: str, language: str = "en") -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            context = browser.new_context(viewport=PHONE, locale=language, device_scale_factor=2,
                                          service_workers="block")
            page = context.new_page()
            page.goto(url)
            # the chart under the board is loaded after the page: wait for it, for a still picture
            page.wait_for_function("() => document.querySelector('[hx-trigger=load], .htmx-request') === null")
            page.screenshot(path=path)
        finally:
            browser.close()


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    board_screenshot(*sys.argv[1:])
