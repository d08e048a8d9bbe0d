"""A phone at the table, as the browser run of the table's model (test_table_model_in_the_browser.py)
sees it: the form on its screen and what its player tapped, the hands waiting on it, and the taps,
cuts and waits a player's phone goes through, each found by a field's name (the same in every
language)."""

from __future__ import annotations

from dataclasses import dataclass, field

from playwright.sync_api import Page, expect

from tests.relay import Relay

from .conftest import _unexpected
from .test_offline import OUTBOX, outbox_items, wait_until_settled

# called cards as the picker takes them: a suit then a rank, or the Joker by name
CALLS = {"AS": ("S", "A"), "KH": ("H", "K"), "QD": ("D", "Q"), "JC": ("C", "J"), "JOKER": ("joker", None)}

@dataclass
class Form:
    """A hand form on a phone's screen: what it was opened with, and what its player tapped."""

    number: int  # the hand it enters (moved only by "I'm entering the next hand")
    seen: int  # the hands the session had when it was opened
    key: str
    taps: dict = field(default_factory=dict)
    asked: str = ""  # "live": the question over the form; "server": the same question over the board after Save
    refused: bool = False  # its last Save was refused: Save again only after another tap
    dealer: str = ""  # as the form shows it at Save (the flow's, unless its player corrected it)
    next_number: int = 0  # asked by the server: the number "the next hand" would save it as


@dataclass
class Waiting:
    """A hand kept on a phone (offline, or its request cut) until the server has it."""

    entry: dict
    number: int
    seen: int
    key: str
    deliberate: bool = False  # "save as the next hand", chosen after the server asked
    next_number: int = 0  # a conflict: the number the server offered
    copy: bool = False  # a conflict over the very hand saved since its form was opened, not its number


@dataclass
class Phone:
    page: Page | None = None  # its browser, opened the first time its player does something
    line: Relay | None = None  # its own line to the server (tests/relay.py): cut for it alone
    form: Form | None = None
    left: Form | None = None  # the form saved last: what Back brings again
    line_down: bool = False
    waiting: list[Waiting] = field(default_factory=list)
    conflicts: list[Waiting] = field(default_factory=list)
    draft_may_stay: bool = False


def can_open(phone: Phone) -> bool:
    return phone.form is None and not phone.line_down


def can_tap(phone: Phone) -> bool:
    return phone.form is not None and not phone.form.asked and not phone.line_down


def ready(phone: Phone) -> bool:
    """A form whose Save posts now: nothing asked on it, nothing of this phone's waits before it."""
    return can_tap(phone) and not phone.form.refused and not (phone.waiting or phone.conflicts)


def asked_live(phone: Phone) -> bool:
    return phone.form is not None and phone.form.asked == "live"


def asked_by_the_server(phone: Phone) -> bool:
    return phone.form is not None and phone.form.asked == "server" and not phone.line_down


def can_go_back(phone: Phone) -> bool:
    return phone.left is not None and can_open(phone)


def line_down(phone: Phone) -> bool:
    return phone.line_down


def has_a_conflict(phone: Phone) -> bool:
    return bool(phone.conflicts) and can_open(phone)


def entry_of(taps: dict, dealer: str) -> dict | None:
    """The hand the taps mean, in HAND_JSON; None while a question the form asks is unanswered."""
    if not {"declarer", "contract", "trump", "call", "partner", "points"} <= taps.keys():
        return None
    return {"dealer": dealer, "declarer": taps["declarer"],
            "contract": {"points": taps["contract"], "trump": taps["trump"]},
            "partner_call": {"type": "card", "cards": [taps["call"]]},
            "partners": [] if taps["partner"] == "alone" else [taps["partner"]], "points": taps["points"]}


def tap(page: Page, what: str, value) -> None:
    """One tap on the hand form, found by the field's name (the same in every language)."""
    def choose(name: str, choice: str) -> None:
        page.locator(f"#hand-form label.pick:has(input[name='{name}'][value='{choice}'])").click()

    def number(name: str, choice: int) -> None:
        pick = page.locator(f"#field-{name} .pick-value[data-value='{choice}']")
        if pick.count():
            pick.click()
        else:
            page.locator(f"#hand-form input[name='{name}']").fill(str(choice))

    if what == "declarer":
        choose("declarer", value)
    elif what == "contract":
        number("contract_points", value)
    elif what == "trump":
        choose("contract_trump", value)
    elif what == "call":
        pick, rank = CALLS[value]
        choose("call_pick", pick)
        if rank:
            choose("call_rank", rank)
    elif what == "partner":
        choose("partners", value)
    else:
        number("points", value)


def check_taps(page: Page, taps: dict) -> None:
    """Every tap its player made is still on the form."""
    form = page.locator("#hand-form")
    inputs = {"declarer": "declarer", "trump": "contract_trump", "partner": "partners"}
    for what, value in taps.items():
        if what in inputs:
            expect(form.locator(f"input[name={inputs[what]}][value='{value}']")).to_be_checked()
        elif what in ("contract", "points"):
            expect(form.locator(f"input[name={'contract_points' if what == 'contract' else 'points'}]")).to_have_value(
                str(value))
        else:
            expect(form.locator(f"input[name=call_pick][value='{CALLS[value][0]}']")).to_be_checked()


def previewed(page: Page) -> None:
    """The preview of the taps on the form is in, as a player sees it before Save: what it says of
    them (their payments, what is missing or wrong) is what Save goes by."""
    expect(page.locator("#hand-form[data-preview-current]")).to_have_count(1)


def sent(page: Page) -> list[dict]:
    """The line is back: the page sends its outbox by itself, until nothing is left but what waits
    for its player; what is left."""
    wait_until_settled(page, f"() => {OUTBOX}.then(items => items.every("
                             "item => item.state === 'conflict' || item.state === 'refused'))")
    return outbox_items(page)


def quiet_is_wrong(message) -> bool:
    """A console error is one unless the model asked for it: a 409 the server answers a Save it
    asks about, a request cut on purpose, the stream of a phone offline, and the preview htmx was
    fetching when the page left or the line went (htmx reports the abort, or the failure, as an error)."""
    if not _unexpected(message):
        return False
    text = message.text
    return not any(words in text for words in ("409 (Conflict)", "ERR_", "/events/", "htmx:sendAbort",
                                               "htmx:afterRequest", "htmx:sendError"))
