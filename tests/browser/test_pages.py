"""The main pages with the longest problems they show, in English and in Korean, and in dark mode,
at a phone's size: axe-core finds no accessibility violation, every choice among several is a
fieldset with a legend, nothing scrolls sideways at 360 px, and a screenshot of each lands in
tests/artifacts/pages/ for review. Every page as it first opens is checked the same way by
test_every_page.py."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.factories import HandFactory, SessionFactory
from tests.web.test_table import PAGAT_EXAMPLES

from .chromium import close_context
from .steps import PHONE, has_no_horizontal_scroll, screenshot

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}


@pytest.fixture
def evening(db):
    session = SessionFactory(stake_per_point=100, currency="KRW", rounding_unit=100)
    for example in PAGAT_EXAMPLES[:4]:
        HandFactory(session=session, entry=example.values[0])
    return session


def main_pages(session) -> dict[str, str]:
    edit, view = session.group.edit_token, session.group.view_token
    s = f"/g/{edit}/s/{session.pk}"
    return {
        "home": "/",
        "group": f"/g/{edit}/",
        "group-view-only": f"/g/{view}/",
        "session-new": f"/g/{edit}/sessions/new/",
        "board": f"{s}/",
        "hand-new": f"{s}/hands/new/",
        "hand-detail": f"{s}/h/1/",
        "hand-edit": f"{s}/h/1/edit/",
        "event-new": f"{s}/events/new/",
        "settle": f"{s}/settle/",
        "history": f"{s}/history/",
        "session-rules": f"{s}/rules/",
        "systems": "/rules/",
        "redeal": "/redeal/",
    }


def violations(page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']}: {node['target']} {node.get('failureSummary', '')[:200]}"
        for v in results.response["violations"] for node in v["nodes"]
    ]


# every choice among several (radios, or checkboxes sharing a name) is a fieldset with a legend, so
# "Declarer → Ann" is found by role and name; a lone yes/no checkbox has its own label
UNGROUPED_CHOICES = """() => {
    const inputs = [...document.querySelectorAll('input[type=radio], input[type=checkbox]')];
    const several = (input) => input.type === 'radio' || inputs.filter(i => i.name === input.name).length > 1;
    return inputs.filter(several)
        .filter(input => !(input.closest('fieldset') && input.closest('fieldset').querySelector('legend')))
        .map(input => input.name);
}"""


def look(page, name: str, language: str, found: list[str]) -> None:
    """Check the page as it is now: axe, choice groups, sideways scroll at 360 px, and a screenshot at 390×844."""
    found += [f"{name} ({language}) {problem}" for problem in violations(page)]
    found += [f"{name} ({language}) {field} is not in a fieldset with a legend"
              for field in page.evaluate(UNGROUPED_CHOICES)]
    page.set_viewport_size(NARROW)
    if not has_no_horizontal_scroll(page):
        found.append(f"{name} ({language}) scrolls sideways at 360 px")
    page.set_viewport_size(PHONE)
    screenshot(page, f"pages/{name}-{language}", full_page=False)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_longest_problems_pass_axe_and_fit_a_phone(browser, live_server, evening, language):
    context = browser.new_context(viewport=PHONE, locale=language, device_scale_factor=1)
    page = context.new_page()
    found: list[str] = []
    try:
        # the longest problems the table meets, shown where they belong
        page.goto(live_server.url + main_pages(evening)["hand-new"])
        page.get_by_role("group").nth(1).get_by_role("radio").first.check()
        page.locator("#more-fold > summary").click()
        page.locator("#id_bid_differs").check()
        page.locator("#id_points").fill("25")
        # the live preview lists what is still empty; Save keeps the hand and says each beside its field
        page.locator("[data-testid=save-hand]").click()
        expect(page.locator("#problems-bid_points [role=alert]")).to_be_visible()
        look(page, "hand-new-problems", language, found)

        # a trump change the rules refuse: the engine's longest sentences, beside the contract
        page.goto(live_server.url + main_pages(evening)["hand-new"])
        page.locator("#field-declarer label").first.click()
        page.locator("#field-contract_points [data-value='14']").click()
        page.locator("label[for=id_contract_trump_2]").click()  # ♦
        # the first Save's draft comes back here, and its preview opens this fold by itself when it
        # marks a field inside: a tap on the summary at that moment would fold it shut again
        page.locator("#more-fold").evaluate("fold => { fold.open = true }")
        page.locator("#id_bid_differs").check()
        page.locator("#id_bid_points").fill("13")
        page.locator("label[for=id_bid_trump_0]").click()  # ♠
        page.locator("#field-partners label").nth(2).click()
        page.locator("#field-points [data-value='15']").click()
        # the live preview shows these problems already, and Save keeps the hand on the form
        expect(page.locator("#hand-form[data-preview-current]")).to_have_count(1)
        expect(page.locator(".problems [role=alert]").first).to_be_visible()
        page.locator("[data-testid=save-hand]").click()
        expect(page.get_by_test_id("draft-notice")).to_be_visible()
        expect(page.locator(".problems [role=alert]").first).to_be_visible()
        look(page, "hand-new-trump-change", language, found)

        page.goto(live_server.url + main_pages(evening)["session-new"])
        page.locator("[data-seats-clear]").click()
        page.locator("[data-player]").first.click()
        page.locator("[data-testid=start]").click()
        expect(page.locator("#field-seats [role=alert]").first).to_be_visible()
        look(page, "session-new-problems", language, found)

        # the rule controls unfolded: every choice is one of the engine's sentences, the longest text on the page
        page.goto(live_server.url + main_pages(evening)["session-new"])
        page.locator("details:has(.option-group) > summary").click()
        expect(page.locator(".option-group").first).to_be_visible()
        look(page, "session-new-rules", language, found)

        page.goto(live_server.url + "/")
        page.locator("#id_name").fill("Thursday")
        page.locator("#id_player_names").fill("Ann\n" + "B" * 60)
        page.locator("#group-create-form [type=submit]").click()
        look(page, "home-problems", language, found)
    finally:
        close_context(context)
    assert found == []


@pytest.mark.parametrize("name", ["board", "hand-new", "settle", "session-new"])
def test_dark_mode_follows_the_system_and_stays_readable(browser, live_server, evening, name):
    context = browser.new_context(viewport=PHONE, locale="en", color_scheme="dark", device_scale_factor=1)
    page = context.new_page()
    try:
        page.goto(live_server.url + main_pages(evening)[name])
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(23, 25, 27)", background
        found: list[str] = []
        look(page, f"{name}-dark", "en", found)
    finally:
        close_context(context)
    assert found == []


def test_a_rule_too_long_for_its_drop_down_is_written_out_under_it(page, live_server):
    group = SessionFactory().group
    page.goto(f"{live_server.url}/g/{group.edit_token}/sessions/new/")
    page.get_by_text("Change the rules").click()
    base = page.locator("select[name=option__base]")
    words = base.locator("xpath=following-sibling::p[contains(@class, 'chosen-words')]")

    # pagat's base, cut to its first words at 390 px, is there in full
    expect(words).to_be_visible()
    expect(words).to_have_text(base.locator("option:checked").inner_text())
    base.select_option("hard")
    expect(words).to_have_text(base.locator("option:checked").inner_text())
    # a sentence that fits says nothing twice
    expect(page.locator("select[name=option__set]").locator(
        "xpath=following-sibling::p[contains(@class, 'chosen-words')]")).to_be_hidden()
