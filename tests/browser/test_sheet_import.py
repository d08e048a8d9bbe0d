"""Bringing the group's history in on a phone, in English and Korean at 390×844: a score sheet with
a name near one of the group's sent, its preview read, the near name chosen, imported, undone."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from playwright.sync_api import expect

from mighty_ledger import services
from mighty_ledger.models import Session
from tests.web.test_sheet_imports import KOREAN_PLAYERS, SCORE_SHEET_KOREAN, csv_bytes

from .steps import has_no_horizontal_scroll, screenshot

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"link": "Bring your history in", "preview": "Preview", "new": "a new player", "import": "Import",
           "undo": "Undo this import", "imported": "Imported: 3 hands."},
    "ko": {"link": "기록 가져오기", "preview": "미리 보기", "new": "새 플레이어", "import": "가져오기",
           "undo": "이 가져오기 되돌리기", "imported": "가져왔습니다: 3판."},
}


@pytest.fixture(params=["en", "ko"])
def phone(request, phones):
    return phones(request.param, console=None), request.param


def test_the_preview_offers_the_near_name_and_imports_with_it(phone, live_server, db, tmp_path):
    page, language = phone
    words = WORDS[language]
    group = services.group_create(name="Thursday", player_names=KOREAN_PLAYERS)
    rows = [list(row) for row in SCORE_SHEET_KOREAN]
    rows[0][1] = "가영이"
    sheet = tmp_path / "scores.csv"
    sheet.write_bytes(csv_bytes(rows, "cp949"))

    page.goto(live_server.url + reverse("group_page", args=[group.edit_token]))
    page.get_by_test_id("sheet-import-link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(words["link"])
    page.locator("input[type=file]").set_input_files(str(sheet))
    page.get_by_role("button", name=words["preview"], exact=True).click()

    choice = page.get_by_test_id("near-가영이")
    expect(choice).to_be_visible()
    expect(choice.locator("option")).to_have_text([words["new"], "가영"])
    expect(page.get_by_test_id("sheet-session")).to_have_count(2)
    assert has_no_horizontal_scroll(page)
    screenshot(page, f"sheet-preview-{language}")
    results = Axe().run(page)
    assert [v["id"] for v in results.response["violations"]] == []
    assert not Session.objects.exists()

    choice.select_option("가영")
    page.get_by_test_id("sheet-import").click()
    expect(page.locator(".messages")).to_contain_text(words["imported"])
    assert Session.objects.get(played_on="2024-04-01").seats[0] == "가영"

    page.goto(live_server.url + reverse("sheet_import", args=[group.edit_token]))
    page.get_by_role("button", name=words["undo"]).click()
    expect(page.get_by_test_id("sheet-imports")).to_have_count(0)
    assert not Session.objects.live().exists()


DUPLICATE_WORDS = {
    "en": {"already": "Already in the group: left out", "too": "Import the evenings already in the group too",
           "too_large": "The file is larger than 5 MB", "imported": "Imported: 3 hands."},
    "ko": {"already": "이미 모임에 있음: 빼고 가져옴", "too": "이미 모임에 있는 게임도 가져오기",
           "too_large": "파일이 5MB보다 큽니다", "imported": "가져왔습니다: 3판."},
}


def test_evenings_already_in_the_group_are_named_and_a_file_too_large_is_said_beside_it(phone, live_server, db,
                                                                                      tmp_path):
    from mighty_ledger.services.sheet_imports import sheet_import
    from tests.web.test_sheet_imports import xlsx_bytes

    page, language = phone
    words, buttons = DUPLICATE_WORDS[language], WORDS[language]
    group = services.group_create(name="Thursday", player_names=KOREAN_PLAYERS)
    sheet_import(group=group, content=xlsx_bytes(SCORE_SHEET_KOREAN), preset="korean-standard")
    same = tmp_path / "scores.csv"
    same.write_bytes(csv_bytes(SCORE_SHEET_KOREAN, "utf-8"))
    too_large = tmp_path / "big.csv"
    too_large.write_bytes(b"x" * (5 * 1024 * 1024 + 1))
    page.goto(live_server.url + reverse("sheet_import", args=[group.edit_token]))

    page.locator("input[type=file]").set_input_files(str(too_large))
    page.get_by_role("button", name=buttons["preview"], exact=True).click()
    expect(page.locator("#problems-file")).to_contain_text(words["too_large"])

    page.locator("input[type=file]").set_input_files(str(same))
    page.get_by_role("button", name=buttons["preview"], exact=True).click()
    expect(page.get_by_test_id("already-in-group")).to_have_count(2)
    expect(page.get_by_text(words["already"]).first).to_be_visible()
    assert has_no_horizontal_scroll(page)
    screenshot(page, f"sheet-duplicates-{language}")
    results = Axe().run(page)
    assert [v["id"] for v in results.response["violations"]] == []

    page.get_by_label(words["too"]).check()
    page.get_by_test_id("sheet-import").click()
    expect(page.locator(".messages")).to_contain_text(words["imported"])
    assert Session.objects.filter(group=group, played_on="2024-04-01").count() == 2
