"""A Korean table: the language switcher, and the game's Korean words on the pages."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import HandFactory, SessionFactory

from .steps import has_no_horizontal_scroll, screenshot

pytestmark = pytest.mark.browser


def test_switching_to_korean_shows_the_korean_game_words(page, live_server):
    session = SessionFactory()
    HandFactory(session=session)
    page.goto(f"{live_server.url}/g/{session.group.edit_token}/s/{session.pk}/")
    expect(page.get_by_role("link", name="Enter a hand")).to_be_visible()

    page.get_by_label("Language").select_option(label="한국어")
    page.get_by_role("button", name="Change").click()

    expect(page.locator("html")).to_have_attribute("lang", "ko")
    expect(page.locator("#totals")).to_contain_text("합계")
    # the switcher's button stays one word on one line at 390 px, not 바/꾸/기
    change = page.get_by_role("button", name="바꾸기")
    assert change.bounding_box()["height"] <= 46
    assert has_no_horizontal_scroll(page)
    screenshot(page, "board-ko")

    page.get_by_role("link", name="판 입력").click()
    expect(page.get_by_role("group", name="주공", exact=True)).to_be_visible()
    trump = page.get_by_role("group", name="기루다", exact=True)
    expect(trump.get_by_text("노기루다", exact=True)).to_be_visible()
    expect(
        page.get_by_role("group", name="프렌드 부르기", exact=True).get_by_text("노프렌드")
    ).to_be_visible()
    screenshot(page, "hand-form-ko")
