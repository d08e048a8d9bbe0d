"""The hand form on a small phone: what the player types counts as a tap, and nothing a thumb taps
hides half under the Save bar.

- Points typed in the box (rather than tapped) fill in the preview, as a tap does.
- At 360×740, on first load, axe finds nothing, target-size included: no button is left with
  less than 24 px to tap beside the sticky Save bar, which waits at the end of the form until
  the player's first tap.

At both phone sizes, in English and Korean. A hand number that skips says why in its title
(tests/web/test_form_title.py: the title is the server's, no script touches it).
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.factories import HandFactory, SessionFactory

from .test_live_table import asgi_server, board  # noqa: F401 (a fixture)
from .test_no_shift import choose
from .test_pages import violations

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 740}
PHONES = [pytest.param("en", {"width": 390, "height": 844}, id="en-390x844"),
          pytest.param("ko", SMALL_PHONE, id="ko-360x740")]
# WCAG 2.5.8 (axe's target-size): what is left of a target to tap
SMALLEST_PX = 24
HALF_HIDDEN = """(smallest) => {
  const bar = document.querySelector('.save-bar').getBoundingClientRect();
  return [...document.querySelectorAll('#hand-form .pick span, #hand-form .pick-value, #hand-form summary')]
    .filter((target) => !target.closest('.save-bar'))
    .map((target) => [target, target.getBoundingClientRect()])
    .filter(([, box]) => box.height > 0 && box.top < bar.top && box.bottom > bar.top && bar.top - box.top < smallest)
    .map(([target, box]) => `${target.closest('fieldset').id} ${target.textContent.trim()}: ${Math.round(bar.top - box.top)} px`);
}"""


def target_size(page) -> list[str]:
    results = Axe().run(page, options={"runOnly": ["target-size"]})
    return [f"{node['target']} {node.get('failureSummary', '')[:160]}"
            for violation in results.response["violations"] for node in violation["nodes"]]


@pytest.fixture
def phone(phones):
    """A phone of the given language and size; ``options`` are its browser context's."""
    return lambda language, size, **options: phones(language, console=None, size=size, **options)


@pytest.mark.parametrize(("language", "size"), PHONES)
def test_points_typed_in_the_box_fill_in_the_preview(asgi_server, phone, language, size):  # noqa: F811
    session = SessionFactory()
    page = phone(language, size, is_mobile=True, has_touch=True)
    page.goto(board(asgi_server, session) + "hands/new/?declarer=Ann")
    page.locator("#field-contract_points [data-value='15']").tap()
    choose(page, "contract_trump", "D")
    choose(page, "call_type", "card")
    choose(page, "call_pick", "S")
    choose(page, "call_rank", "A")
    with page.expect_response("**/hands/preview/"):
        choose(page, "partners", "Cy")
    # the points typed on the phone's keyboard, one digit at a time, as a thumb does
    page.locator("#id_points").tap()
    with page.expect_response("**/hands/preview/"):
        page.keyboard.type("16", delay=120)
    # pagat example 1: Ann +10, Cy +5, each defender −5
    expect(page.get_by_test_id("preview").locator("tr", has=page.get_by_role("rowheader", name="Ann"))).to_contain_text("+10")
    expect(page.locator("#field-points [data-value='16']")).to_have_attribute("aria-pressed", "true")


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_hand_form_at_360x740_leaves_every_target_whole_above_the_save_bar(asgi_server, phone, language):  # noqa: F811
    session = SessionFactory()
    HandFactory(session=session)  # a hand before: the called card is suggested, as most nights
    page = phone(language, SMALL_PHONE)
    for opened in ["hands/new/", "hands/new/?declarer=Bo"]:
        page.goto(board(asgi_server, session) + opened)
        page.wait_for_load_state("networkidle")
        assert violations(page) == [], opened
        # axe leaves target-size (WCAG 2.2) out unless asked
        assert target_size(page) == [], opened
        assert page.evaluate(HALF_HIDDEN, SMALLEST_PX) == [], opened
    # the first tap: the bar comes back over the form, Save in view, as after every tap
    choose(page, "contract_trump", "S")
    expect(page.get_by_test_id("save-hand")).to_be_in_viewport()
