"""Nothing moves under a finger, and nothing hides under the thumb.

- The board and every form load without a layout shift (CLS ≤ 0.1, Lighthouse's "good"): what
  the page's scripts add as it loads (the live stream's status line, the rows of likely numbers,
  "this phone is me", the draft brought back) has its place in the page as served, or comes
  below what a player taps. Measured as Lighthouse does, from the browser's own layout-shift
  entries (PerformanceObserver, buffered), at both phone sizes, in English and Korean.
- At 360×740 the sticky Save bar leaves the points row's buttons whole (axe: target-size).
- Points typed in the box (rather than tapped) fill in the preview, as a tap does.
- A hand number that skips says why: the hands before it were deleted.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .test_live_table import asgi_server, board  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

# Lighthouse's line between "good" and "needs improvement"
GOOD = 0.1
# the longer words on the narrower phone, and the other pair: a shift comes from what is drawn late,
# which is the same in either language at either width
PHONES = [pytest.param("en", {"width": 390, "height": 844}, id="en-390x844"),
          pytest.param("ko", {"width": 360, "height": 740}, id="ko-360x740")]

# every shift not caused by a tap, with what moved, kept from the first paint on (buffered)
WATCH = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) continue;
    window.__shifts.push({
      value: entry.value,
      moved: entry.sources.map((source) => source.node && source.node.nodeType === 1
        ? source.node.tagName.toLowerCase() + (source.node.id ? "#" + source.node.id : "") : "text"),
    });
  }
}).observe({ type: "layout-shift", buffered: true });
"""
SETTLED = "() => document.querySelector('#app-status:not([hidden])') !== null && !document.querySelector('.htmx-request')"


def layout_shift(page) -> tuple[float, list]:
    """The page's cumulative layout shift so far (every shift counted: stricter than Lighthouse's
    worst window), and what moved."""
    found = page.evaluate("window.__shifts")
    return sum(entry["value"] for entry in found), found


def load(page, url: str) -> None:
    """Open ``url`` and let it settle: the live stream connected (the status line says so), the
    scripts and the htmx parts it asks for in."""
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.wait_for_function(SETTLED)
    page.wait_for_timeout(500)


def choose(page, field: str, value: str) -> None:
    """Tap the choice ``value`` of a row, found by its value: the same in every language."""
    page.locator(f"#field-{field} label").filter(has=page.locator(f"input[value='{value}']")).click()


def fill_in(page, entry: dict) -> None:
    """Tap in pagat example 1 (Ann 15♦, the ♠A called, Cy, 16) in any language, the declarer
    tapped on the board already."""
    page.locator(f"#field-contract_points [data-value='{entry['contract']['points']}']").click()
    choose(page, "contract_trump", entry["contract"]["trump"])
    choose(page, "call_type", "card")
    choose(page, "call_pick", "S")
    choose(page, "call_rank", "A")
    choose(page, "partners", entry["partners"][0])
    page.locator(f"#field-points [data-value='{entry['points']}']").click()


@pytest.fixture
def phone(phones):
    """A phone of the given language and size whose layout shifts are counted (WATCH)."""
    return lambda language, size: phones(language, console=None, size=size, init_script=WATCH)


@pytest.mark.parametrize(("language", "size"), PHONES)
def test_the_board_and_every_form_load_without_a_shift(asgi_server, phone, language, size):  # noqa: F811
    session = SessionFactory()
    for _ in range(3):
        HandFactory(session=session)
    page = phone(language, size)
    found = []
    # the board as a phone first opens it ("this phone is me" to pick), then each form
    for name, path in [("board", ""), ("hand form", "hands/new/"), ("contract form", "playing/new/"),
                       ("event form", "events/new/?kind=deal_miss")]:
        load(page, board(asgi_server, session) + path)
        shift, moved = layout_shift(page)
        if shift > GOOD:
            found.append(f"{name}: {shift:.3f} {moved}")
    # the hand form with a draft put back (its line of news), then the board after a Save (its
    # message with Undo, the latest hand arriving on the live board)
    load(page, board(asgi_server, session) + "hands/new/")
    choose(page, "declarer", "Bo")
    page.wait_for_timeout(400)
    load(page, board(asgi_server, session) + "hands/new/")
    expect(page.get_by_test_id("draft-notice")).to_be_visible()
    shift, moved = layout_shift(page)
    if shift > GOOD:
        found.append(f"hand form with its draft: {shift:.3f} {moved}")
    load(page, board(asgi_server, session) + "hands/new/?declarer=Ann")
    fill_in(page, MADE_15_DIAMONDS)
    with page.expect_response("**/hands/preview/"):
        pass
    page.get_by_test_id("save-hand").click()
    page.wait_for_url("**/s/*/")
    page.wait_for_load_state("networkidle")
    page.wait_for_function(SETTLED)
    HandFactory(session=session)  # another phone's hand arrives on the live board
    expect(page.locator("#board-rows tr[id^='hand-']")).to_have_count(5)
    shift, moved = layout_shift(page)
    if shift > GOOD:
        found.append(f"board after a save: {shift:.3f} {moved}")
    assert found == [], "\n".join(found)
