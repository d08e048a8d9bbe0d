"""A figure is never broken across two lines on the smallest phone (320 px).

On the seasons page a 320-px phone printed "2026-11-" on one line and "20" on the next, in
every row of the table, and the history's times the same way; the group page's list of
sessions put a player's name at the end of one line and their total on the next.
"""

from __future__ import annotations

import datetime

import pytest

from mighty_ledger.services.seasons import season_create
from tests.factories import HandFactory, SessionFactory, bulk_hands

from .chromium import close_context

pytestmark = pytest.mark.browser

SMALLEST = {"width": 320, "height": 640}

# every date written Y-m-d on the page whose characters do not all sit on one line
BROKEN_DATES = r"""() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('[hidden], details:not([open]) > :not(summary), option, textarea')) continue;
    for (const match of node.textContent.matchAll(/\d{4}-\d{2}-\d{2}/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (lines.size > 1) broken.push(`${match[0]} in "${node.textContent.trim().slice(0, 40)}"`);
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("locale", ["ko-KR"])  # the longer dates; English: the next test
def test_no_date_is_broken_on_the_seasons_page_or_the_history(browser, live_server, db, locale):
    session = SessionFactory()
    HandFactory(session=session)
    group = session.group
    for name, starts in (("Autumn league", datetime.date(2026, 9, 1)), ("Winter league", datetime.date(2026, 11, 20)),
                         ("Next year", datetime.date(2027, 1, 1))):
        season_create(group=group, name=name, starts=starts)
    context = browser.new_context(viewport=SMALLEST, locale=locale, device_scale_factor=1,
                                  extra_http_headers={"Accept-Language": locale[:2]})
    try:
        page = context.new_page()
        broken = []
        for path in (f"/g/{group.edit_token}/seasons/", f"/g/{group.edit_token}/s/{session.pk}/history/"):
            page.goto(f"{live_server.url}{path}")
            broken += page.evaluate(BROKEN_DATES)
    finally:
        close_context(context)

    assert broken == []


# every "name points" pair of the group page's session list whose two halves sit on two lines
BROKEN_PAIRS = r"""() => [...document.querySelectorAll('.totals-line span')]
  .filter(span => new Set([...span.getClientRects()].map(r => Math.round(r.top))).size > 1)
  .map(span => span.textContent)"""


def test_a_players_total_in_the_session_list_stays_beside_their_name(browser, live_server, db):
    # seven seats: the line under a session wraps, and it did between "재훈" and his "0"
    session = SessionFactory(preset="korean-7", seats=["민수", "지영", "철수", "영희", "동현", "수진", "재훈"])
    context = browser.new_context(viewport=SMALLEST, locale="ko-KR", device_scale_factor=1,
                                  extra_http_headers={"Accept-Language": "ko"})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/g/{session.group.edit_token}/")
        broken = page.evaluate(BROKEN_PAIRS)
    finally:
        close_context(context)

    assert broken == []


# every seat's cell on the board whose figures do not fit it (cut to "−…" or run into the next)
CUT_CELLS = r"""() => [...document.querySelectorAll('#scoreboard td.num')]
  .filter(cell => cell.scrollWidth > cell.clientWidth)
  .map(cell => cell.textContent.trim())"""


@pytest.mark.parametrize("locale", ["en-US"])
def test_three_figure_totals_fit_a_seven_seat_board(browser, live_server, db, locale):
    # pagat's seven: 18 NT set, twice: the declarer −48, the partner −24 by the second hand,
    # and −144 / −72 after six; the totals row printed them "−…"
    seats = ["Alexandrina", "Bartholomew", "Cy", "Dmitri", "Eun-ji", "Fay", "Gyu"]
    session = SessionFactory(preset="pagat-7p-knockout", seats=seats, stake_per_point=1000, currency="KRW")
    set_18_nt = {"dealer": "Gyu", "declarer": "Alexandrina", "contract": {"points": 18, "trump": "NT"},
                 "partner_call": {"type": "card", "cards": ["AS"]}, "partners": ["Bartholomew"],
                 "sitting_out": ["Fay", "Gyu"], "points": 12}
    bulk_hands(session, 6, set_18_nt)
    context = browser.new_context(viewport=SMALLEST, locale=locale, device_scale_factor=1,
                                  extra_http_headers={"Accept-Language": locale[:2]})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/g/{session.group.edit_token}/s/{session.pk}/")
        assert "−144" in page.locator("#totals").inner_text()
        cut = page.evaluate(CUT_CELLS)
    finally:
        close_context(context)

    assert cut == []
