"""Real-browser tests: Debian's Chromium, driven by Playwright, at the size of a phone.

The browser is never downloaded (`playwright install` cannot work on a closed
network): `make test` installs Debian's chromium through scripts/ensure_browser.sh.
One browser serves every test of this package (tests/browser/chromium.py); each test gets a
fresh context, so no cookie (the language, above all) leaks from one test to the next.
"""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from .chromium import EXECUTABLE, HEARD, OUTBOX_AS_LEFT, Chromium, close_context, listen
from .steps import ARTIFACTS, LEAVING_PAGE, PHONE, WAIT_SECONDS

expect.set_options(timeout=WAIT_SECONDS * 1000)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that fails says where each of its phones was and what it showed, in the
    report (a CI run's log is all there is of it afterwards), with a capture of each page in
    tests/artifacts/failures/: a race seen once in a thousand runs is otherwise gone."""
    report = (yield).get_result()
    browser = item.funcargs.get("browser") if report.when == "call" and report.failed else None
    if browser is None:
        return
    folder = ARTIFACTS / "failures" / re.sub(r"[^\w.-]+", "_", item.nodeid)[-120:]
    lines = []
    for number, context in enumerate(browser.contexts, 1):
        for tab, page in enumerate(context.pages, 1):
            name = f"phone-{number}" if tab == 1 else f"phone-{number}-tab-{tab}"
            try:
                shown = " ".join(page.locator("body").inner_text(timeout=2000).split())[:600]
                folder.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=folder / f"{name}.png", full_page=True, timeout=5000)
                (folder / f"{name}.html").write_text(page.content())
            except Exception as error:  # a page gone or hung: what can still be said of it
                shown = f"not read ({type(error).__name__})"
            try:
                outbox = page.evaluate(OUTBOX_AS_LEFT)
            except Exception as error:
                outbox = f"not read ({type(error).__name__})"
            lines += [f"{name} at {page.url}: {shown}", f"    outbox: {outbox}"]
            # heard as it happened: said even of a page that no longer answers
            lines.extend(f"    {line}" for line in getattr(page, "heard", ())[-HEARD:])
    if lines:
        report.sections.append(("the phones when it failed", "\n".join(lines)))


@pytest.fixture(scope="package")
def chromium():
    if not os.access(EXECUTABLE, os.X_OK):
        reason = f"{EXECUTABLE} is missing: run `bash scripts/ensure_browser.sh` as root (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    # Package scope, not session: the loop Playwright runs in the test thread stops,
    # and the variable below is unset, before the tests of other packages run (one of
    # them runs `manage.py check --deploy`, which rightly warns about the variable).
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        # Playwright's sync API keeps an event loop running in the test thread, and
        # Django refuses ORM calls from a thread with a running loop unless told it is
        # intended (Django's "Async safety" docs, the way to use Playwright with it).
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        chromium = Chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def browser(chromium):
    """The package's Chromium (a new one if the last was stopped: tests/browser/chromium.py)."""
    return chromium.connected()


def _unexpected(message) -> bool:
    # pages without our icon link (Django error pages) make the browser ask for /favicon.ico; htmx
    # reports a preview it was asking for as "aborted" when a Save takes the page elsewhere; a test
    # that cut the line hears the browser say so of whatever the page asked for then (what the
    # player sees offline is that test's own assertions)
    return (message.type == "error" and not message.location.get("url", "").endswith("/favicon.ico")
            and not message.text.startswith(LEAVING_PAGE) and "net::ERR_INTERNET_DISCONNECTED" not in message.text)


@pytest.fixture
def phones(browser):
    """Phones at a table, one each call: its own browser context at 390×844, twenty seconds for each
    step, and no script error left unnoticed. A console error counts as one when ``console`` says
    it is unexpected (None: the console is not watched, for a page that reports an error it means
    to, such as a 409 the test asks for); ``cookies`` go into the context before the first page,
    ``init_script`` runs before each page's own; ``size`` and other ``options`` are the context's.
    Every context is closed after the test, then the errors are told."""
    contexts, errors = [], []

    def phone(locale: str = "en-US", *, console=_unexpected, cookies: tuple = (), size: dict = PHONE,
              init_script: str | None = None, **options):
        context = browser.new_context(viewport=size, locale=locale, device_scale_factor=1, **options)
        if init_script:
            context.add_init_script(init_script)
        if cookies:
            context.add_cookies(list(cookies))
        # two workers each drive a Chromium on the machine's two cores (make test runs the suite on
        # every core): a page can wait longer for its turn than it ever takes to do its work
        context.set_default_timeout(WAIT_SECONDS * 1000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        listen(page)
        if console is not None:
            page.on("console", lambda message: errors.append(f"{message.text} ({message.location.get('url', '')})")
                    if console(message) else None)
        return page

    yield phone
    for context in contexts:
        close_context(context)
    assert not errors, f"errors in the browser: {errors}"


@pytest.fixture
def page(phones):
    """A phone at a table: 390×844, English, and no JavaScript error left unnoticed; htmx reports a
    swap it cannot place (an out-of-band target missing) on the console."""
    return phones()
