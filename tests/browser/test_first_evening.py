"""The first evening: a group that has never seen the app starts, plays and settles without a wrong
turn, in English on a 390×844 phone and in Korean on a 360×740 one, from an empty database.

They make a group, start a session by tapping the players clockwise as the page says (not in the
order of their names), take the rules the first screen offers (표준 5마 on the Korean phone), record
three hands, agree a stake only when they settle, settle, mark a payment, and open the redeal
calculator from the board and come back. Every page is axe-clean on the way.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from mighty_ledger.models import Session

from .steps import TRUMP_BUTTONS, has_no_horizontal_scroll, pick_number, screenshot, tap
from .test_pages import UNGROUPED_CHOICES, violations

pytestmark = pytest.mark.browser

EVENINGS = {
    "en": {
        "locale": "en-US", "size": {"width": 390, "height": 844},
        "players": ["Ann", "Bo", "Cy", "Di", "Ed"],
        # as they sit round the table: not the order of their names
        "clockwise": ["Cy", "Ed", "Ann", "Di", "Bo"],
        "system": "pagat-standard",
        "help": "Tap the players in clockwise order, starting anywhere",
        "two_more": "Tap 2 more players.", "all_seated": "Everyone is seated.",
        "words": {"Declarer": "Declarer", "Contract": "Contract", "Trump": "Trump", "Partner call": "Partner call",
                  "a card": "a card", "Called card": "Called card", "Rank": "Rank", "Partner": "Partner",
                  "Points": "Points", "Mark as paid": "Mark as paid"},
        "money": re.compile(r"^\S+ pays \S+ ₩[\d,]+$"), "not_money": "원",
    },
    "ko": {
        "locale": "ko-KR", "size": {"width": 360, "height": 740},
        "players": ["민준", "서연", "도윤", "하은", "지호"],
        "clockwise": ["도윤", "지호", "민준", "하은", "서연"],
        "system": "korean-standard",
        "help": "아무 자리에서나 시작해 시계 방향으로 플레이어를 누르세요",
        "two_more": "2명을 더 누르세요.", "all_seated": "모두 앉았습니다.",
        "words": {"Declarer": "주공", "Contract": "공약", "Trump": "기루다", "Partner call": "프렌드 부르기",
                  "a card": "카드 부르기", "Called card": "부른 카드", "Rank": "숫자", "Partner": "프렌드",
                  "Points": "점수", "Mark as paid": "지불 완료로 표시"},
        "money": re.compile(r"^\S+ → \S+ [\d,]+원$"), "not_money": "₩",
    },
}

# three hands by seat: the declarer, the contract and trump, the partner who held the ♠A called, the points
HANDS = [
    (0, 15, "D", 2, 17),  # made with an overtrick
    (3, 14, "S", 1, 12),  # set
    (4, 14, "H", 0, 14),  # made exactly
]


def check(page, name: str, found: list[str]) -> None:
    """axe finds nothing, every choice among several is a fieldset with a legend, nothing scrolls sideways:
    the page at rest, once a hand just saved has stopped flashing (its 2 s "arrived" animation)."""
    page.wait_for_function("document.getAnimations().every(animation => animation.playState !== 'running')")
    found += [f"{name}: {problem}" for problem in violations(page)]
    found += [f"{name}: {field} is not in a fieldset with a legend" for field in page.evaluate(UNGROUPED_CHOICES)]
    if not has_no_horizontal_scroll(page):
        found.append(f"{name}: scrolls sideways")


def enter_hand(page, words: dict, seats: list[str], hand: tuple) -> None:
    declarer, contract, trump, partner, points = hand
    tap(page, words["Declarer"], seats[declarer])
    pick_number(page, words["Contract"], contract)
    tap(page, words["Trump"], TRUMP_BUTTONS[trump])
    tap(page, words["Partner call"], words["a card"])
    tap(page, words["Called card"], "♠")
    tap(page, words["Rank"], "A")
    tap(page, words["Partner"], seats[partner])
    pick_number(page, words["Points"], points)


@pytest.mark.parametrize("language", EVENINGS)
def test_a_group_new_to_the_app_starts_plays_and_settles_without_a_wrong_turn(phones, live_server, language):
    evening = EVENINGS[language]
    words = evening["words"]
    page = phones(evening["locale"], size=evening["size"])
    found: list[str] = []

    # a group, from the empty home page
    page.goto(live_server.url + "/")
    check(page, "home", found)
    page.locator("#id_name").fill("Friday table")
    page.locator("#id_player_names").fill("\n".join(evening["players"]))
    page.locator("#group-create-form [type=submit]").click()
    start = page.locator("a[href$='/sessions/new/']").first
    expect(start).to_be_visible()
    check(page, "group", found)
    start.click()

    # nobody is seated yet, and the page says what to do: tap them clockwise
    seats = page.locator("[data-seats]")
    expect(seats.locator("[data-seats-help]")).to_contain_text(evening["help"])
    expect(seats.locator("[data-player][aria-pressed=true]")).to_have_count(0)
    # the rules from the first screen: the likeliest for this phone and five players, chosen already
    systems = page.locator("#field-preset input[name=preset]")
    expect(systems.first).to_have_attribute("value", evening["system"])
    expect(systems.first).to_be_checked()
    check(page, "start", found)

    clockwise = evening["clockwise"]
    for name in clockwise[:3]:
        seats.locator(f"[data-player='{name}']").click()
    expect(seats.locator("[data-seats-count]")).to_have_text(evening["two_more"])
    # Start with three seated: the page says how many more to tap, and keeps the three
    page.get_by_test_id("start").click()
    expect(page.locator("#field-seats [role=alert]").first).to_contain_text(evening["two_more"])
    check(page, "start-too-few", found)
    seats = page.locator("[data-seats]")
    for name in clockwise[3:]:
        seats.locator(f"[data-player='{name}']").click()
    # each name shows its seat, in the order tapped
    for number, name in enumerate(clockwise, start=1):
        expect(seats.locator(f"[data-player='{name}'] [data-seat-number]")).to_have_text(str(number))
    expect(seats.locator("[data-seats-count]")).to_have_text(evening["all_seated"])
    page.locator(f"#field-preset input[value='{evening['system']}']").check()
    screenshot(page, f"first-evening-start-{language}")
    page.get_by_test_id("start").click()

    enter = page.get_by_test_id("enter-hand")
    expect(enter).to_be_visible()
    session = Session.objects.get()
    assert session.seats == clockwise and session.preset == evening["system"]
    check(page, "board", found)

    for number, hand in enumerate(HANDS, start=1):
        page.get_by_test_id("enter-hand").click()
        enter_hand(page, words, clockwise, hand)
        if number == 1:
            check(page, "hand-form", found)
        page.get_by_test_id("save-hand").click()
        expect(page.locator(f"#hand-{number}")).to_be_visible()
    check(page, "board-three-hands", found)

    # the stake agreed only now, on the settle page: the points price at once
    page.locator("a[href$='/settle/']").first.click()
    owed = page.get_by_test_id("settle-transfers")
    expect(owed.locator("li[data-from]").first).to_be_visible()
    check(page, "settle-points", found)
    page.get_by_test_id("stakes").locator("summary").click()
    page.locator("#stakes-form [name=stake_per_point]").fill("100")
    page.locator("#stakes-form [name=currency]").fill("KRW")
    page.get_by_test_id("stakes-save").click()
    lines = owed.locator("li[data-from] > span:first-child")
    expect(lines.first).to_have_text(evening["money"])
    assert all(evening["not_money"] not in line for line in lines.all_inner_texts())
    check(page, "settle-money", found)
    screenshot(page, f"first-evening-settle-{language}")

    # one transfer paid, marked on its line of the one list
    before = owed.locator("li[data-from]").count()
    first = owed.locator("li[data-from]").first
    payer, payee = first.get_attribute("data-from"), first.get_attribute("data-to")
    first.get_by_role("button", name=words["Mark as paid"]).click()
    expect(page.get_by_test_id("payments-marked").locator("li")).to_have_count(1)
    expect(owed.locator(f"li[data-from='{payer}'][data-to='{payee}']")).to_have_count(0)
    expect(owed.locator("li[data-from]")).to_have_count(before - 1)
    check(page, "settle-paid", found)
    assert found == []

    # the redeal calculator from the board, and back (the board's link and the calculator's way back)
    board = page.url.rsplit("settle/", 1)[0]
    page.goto(board)
    page.get_by_test_id("board-redeal-link").click()
    back = page.get_by_test_id("back-to-board")
    expect(back).to_be_visible()
    check(page, "redeal", found)
    back.click()
    expect(page.get_by_test_id("enter-hand")).to_be_visible()
    assert page.url.split("?")[0].split("#")[0] == board
    assert found == []
