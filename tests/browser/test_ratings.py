"""The group's long game on a phone: the rating table, a player's trend, "this phone is me",
and joining the table by QR code, in English and Korean at 390 px.

"This phone is me" is kept on the phone only: the tests check it survives a
reload, changes what the board and the settlement say, and that no request
the phone makes afterwards carries the name.
"""

from __future__ import annotations

import datetime
import shutil
import subprocess
from decimal import Decimal

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse
from playwright.sync_api import expect

from tests.factories import HandFactory, SessionFactory

from .steps import has_no_horizontal_scroll, screenshot

pytestmark = pytest.mark.browser

# a name no link or page path could spell by chance, so a request carrying it is this phone's choice
ME = "Chaeyoung"
SEATS = ["Ann", "Bo", ME, "Di", "Ed"]
WORDS = {
    "en": {"rating": "Ratings", "provisional": "provisional", "me": "This phone is me", "deal": "You deal next.",
           "pays_you": "pays you", "you_pay": "You pay", "show_edit": "Show the code of the edit link",
           "understand": "I understand: show the edit code", "change": "Not me? Change",
           "nobody": "This phone is nobody's"},
    "ko": {"rating": "레이팅", "provisional": "잠정", "me": "이 폰은 나", "deal": "다음 판은 내가 딜합니다.",
           "pays_you": "→ 나", "you_pay": "나 →", "show_edit": "편집 링크의 코드 보기",
           "understand": "알겠습니다. 편집 코드 보기", "change": "내가 아닌가요? 바꾸기",
           "nobody": "이 폰의 주인 지우기"},
}


def entry(declarer: str, partner: str | None, made: bool, dealer: str) -> dict:
    return {
        "dealer": dealer, "declarer": declarer, "contract": {"points": 15, "trump": "D"},
        "partner_call": {"type": "card", "cards": ["AS"]} if partner else {"type": "none"},
        "partners": [partner] if partner else [], "points": 16 if made else 10,
    }


@pytest.fixture
def table(db):
    """Two evenings: the second for money, its next dealer the phone's player."""
    first = SessionFactory(seats=SEATS, played_on=datetime.date(2026, 11, 12))
    HandFactory(session=first, entry=entry(ME, "Ann", True, "Ed"))
    HandFactory(session=first, entry=entry("Bo", None, False, "Ann"))
    second = SessionFactory(group=first.group, seats=SEATS, played_on=datetime.date(2026, 11, 19),
                            stake_per_point=Decimal(100), currency="KRW")
    HandFactory(session=second, entry=entry(ME, "Di", True, "Ed"))
    # ME made a contract and was owed: the settlement has someone paying ME
    HandFactory(session=second, entry=entry("Ann", "Bo", False, "Ann"))
    return second


def violations(page) -> list[str]:
    results = Axe().run(page)
    return [f"{v['id']}: {node['target']}" for v in results.response["violations"] for node in v["nodes"]]


@pytest.fixture(params=["en", "ko"])
def phone(request, phones):
    return phones(request.param, console=None), request.param


def test_the_rating_table_and_a_players_trend(phone, live_server, table):
    page, language = phone
    words = WORDS[language]
    page.goto(live_server.url + reverse("group_ratings", args=[table.group.view_token]))

    expect(page.get_by_role("heading", level=1)).to_have_text(words["rating"])
    rows = page.get_by_test_id("rating-table").locator("tbody tr")
    expect(rows).to_have_count(5)
    ratings = [float(text.replace("−", "-")) for text in rows.locator('[data-testid="rating"]').all_inner_texts()]
    assert ratings == sorted(ratings, reverse=True)
    expect(rows.first.get_by_test_id("provisional")).to_have_text(words["provisional"])
    assert violations(page) == []
    assert has_no_horizontal_scroll(page)
    screenshot(page, f"ratings-{language}")

    page.get_by_role("link", name=ME, exact=True).click()
    expect(page.get_by_test_id("player-rating")).to_be_visible()
    trend = page.get_by_test_id("rating-trend")
    expect(trend.locator("path.series-line")).to_have_count(1)
    expect(trend.locator("svg.chart-plot path.series-marker")).to_have_count(2)  # after each of the two sessions
    assert violations(page) == []
    assert has_no_horizontal_scroll(page)
    screenshot(page, f"player-rating-{language}")


def test_this_phone_is_me_is_kept_on_the_phone_and_sends_nothing(phone, live_server, table):
    page, language = phone
    words = WORDS[language]
    board = live_server.url + reverse("session_board", args=[table.group.view_token, table.pk])
    page.goto(board)
    picker = page.get_by_test_id("me-pick")
    expect(picker.get_by_role("heading")).to_have_text(words["me"])
    assert violations(page) == []

    sent: list[str] = []
    page.on("request", lambda request: sent.append(
        " ".join([request.url, request.post_data or "", *request.all_headers().values()])))
    picker.get_by_role("button", name=ME, exact=True).click()
    card = page.get_by_test_id("me-card")
    expect(card).to_be_visible()
    expect(picker).to_be_hidden()
    expect(card).to_contain_text(ME)
    # Ann dealt the last hand: Bo deals next (pagat: to the right); the phone's player sits where they sit
    next_dealer = page.get_by_test_id("next-hand").get_attribute("data-next-dealer")
    expect(card.get_by_text(words["deal"])).to_be_visible() if next_dealer == ME else \
        expect(card.get_by_text(words["deal"])).to_be_hidden()
    total = page.locator(f'#totals [data-points-of="{ME}"]').inner_text()
    expect(card.locator("[data-me-points]")).to_have_text(total)
    expect(card.locator("[data-me-money]")).not_to_be_empty()
    expect(page.locator(f'#totals td[data-seat="{ME}"]')).to_have_class("num me")
    expect(page.locator("#score-chart g.series.me")).to_have_count(1)  # the chart htmx brought after
    assert has_no_horizontal_scroll(page)
    screenshot(page, f"board-me-{language}")

    page.reload()
    expect(page.get_by_test_id("me-card")).to_contain_text(ME)  # remembered by the phone

    page.goto(live_server.url + reverse("session_settle", args=[table.group.view_token, table.pk]))
    settle = page.get_by_test_id("me-settle")
    expect(settle).to_be_visible()
    expect(settle.locator("li:visible")).to_have_count(1)
    expect(settle.locator("li:visible")).to_contain_text(words["pays_you"])
    assert violations(page) == []
    screenshot(page, f"settle-me-{language}")

    assert sent, "the pages were asked for"
    assert not [request for request in sent if ME in request], "a request carried the phone's player"

    page.goto(board)
    page.get_by_role("button", name=words["change"]).click()
    page.get_by_role("button", name=words["nobody"]).click()
    expect(page.get_by_test_id("me-card")).to_be_hidden()
    page.reload()
    expect(page.get_by_test_id("me-pick")).to_be_visible()


def decoded(page, locator, tmp_path, name: str) -> str:
    """What a real QR decoder (zbarimg) reads from the code as the phone shows it."""
    image = tmp_path / f"{name}.png"
    locator.screenshot(path=image)
    answer = subprocess.run(["zbarimg", "--raw", "-q", str(image)], capture_output=True, text=True, check=False)
    assert answer.returncode == 0, f"zbarimg read nothing: {answer.stderr}"
    return answer.stdout.strip()


def test_the_invitation_codes_scan_to_the_links(phone, live_server, table, tmp_path):
    if shutil.which("zbarimg") is None:
        import os

        reason = "zbarimg is missing: run `bash scripts/ensure_browser.sh` as root (apt-get install zbar-tools)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    page, language = phone
    words = WORDS[language]
    group = table.group
    page.goto(live_server.url + reverse("session_board", args=[group.edit_token, table.pk]))
    page.get_by_test_id("invite").click()

    view_link = live_server.url + reverse("session_board", args=[group.view_token, table.pk])
    code = page.get_by_test_id("view-code").locator("svg")
    assert code.bounding_box()["width"] >= 250  # scanned across a table
    assert decoded(page, code, tmp_path, "view") == view_link
    expect(page.get_by_test_id("edit-code")).to_have_count(0)  # behind a second, deliberate tap
    assert violations(page) == []
    assert has_no_horizontal_scroll(page)

    page.get_by_text(words["show_edit"]).click()
    page.get_by_role("link", name=words["understand"]).click()
    edit_link = live_server.url + reverse("session_board", args=[group.edit_token, table.pk])
    assert decoded(page, page.get_by_test_id("edit-code").locator("svg"), tmp_path, "edit") == edit_link
    assert violations(page) == []
    screenshot(page, f"invite-{language}")

    page.emulate_media(color_scheme="dark")  # still black on white, with its quiet zone
    assert decoded(page, page.get_by_test_id("view-code").locator("svg"), tmp_path, "dark") == view_link

    # the view link's invitation shows no edit code at all
    page.goto(live_server.url + reverse("session_invite", args=[group.view_token, table.pk]) + "?show=edit")
    expect(page.get_by_test_id("edit-code")).to_have_count(0)
    assert group.edit_token not in page.content()
