"""The table's model in the browser (issue 35): two or three Chromium phones on one session, driven
by hypothesis's stateful testing, checked after every step through the HTTP API.

The model is tests/web/test_table_model.py's, at the size of a player's fingers: what each phone's
player meant (the taps on its hand form), the hands the table meant, each once, and the payments
marked. The phones tap the hand form in any order (declarer, contract, trump, called card, partner,
points) and Save, which lands on the board at once whatever the line does (issue 46); two phones
tap Save at the same moment; a form left open while another phone saves must ask ("That's the hand
I'm entering" / "I'm entering the next hand") and never move by itself, and a Save that arrives
second is asked the same question over the board; a phone goes Back to the form it saved, reloads
a half-tapped form, saves while offline or while its request is cut before or after it reaches the
server (the hand waits on the phone and is sent once when the line is back), and marks payments. After every step the session's hands read
through the API (the group's edit link as Bearer) are exactly the hands meant, each once, and the
settlement's ``outstanding`` settles the balances net of the payments marked.

Phones: A in English at 390×844, B in Korean at 360×740, C in English at 360×740. Served by
uvicorn (test_live_table.py's fixture) so the event stream the live form hears stays open, each
phone through a line of its own (tests/relay.py), where its cuts are made.

One module because the rules share one model of the table and of each phone: a rule read apart
from the state it changes, or from the checks made after it, would not say what it proves. The
phone's side (its form, its taps, a cut line) is in table_phones.py.

Two tests: the paths the issue names, each walked on purpose (STORIES), and random runs of the
same rules. The server is uvicorn in this process, which runs Django's views one at a time: two
Saves tapped together arrive together, but are decided one after the other here; the threads
that post at once on PostgreSQL are tests/web/test_table_model.py's and test_saves_at_once.py's.

`make test` runs a bounded number of random examples (a few, derandomized, without shrinking:
about a minute with the stories); a longer run, random each time:
    BROWSER_TABLE_MODEL_EXAMPLES=40 BROWSER_TABLE_MODEL_STEPS=30 \\
        .venv/bin/python -m pytest tests/browser/test_table_model_in_the_browser.py
and BROWSER_TABLE_MODEL_SHRINK=1 shrinks a failure to its fewest steps (minutes: each is a browser's).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import urllib.request
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from scoring.interface import score_hand
from scoring.problems import InvalidInput
from tests.factories import SEATS, SessionFactory
from tests.relay import Relay

from .chromium import HEARD, close_context, listen
from .steps import QUESTION_SETTLES_MS
from .table_phones import (
    CALLS,
    Form,
    Phone,
    Waiting,
    asked_by_the_server,
    asked_live,
    can_go_back,
    can_open,
    can_tap,
    check_taps,
    entry_of,
    has_a_conflict,
    line_down,
    previewed,
    quiet_is_wrong,
    ready,
    sent,
    tap,
)
from .test_live_table import asgi_server  # noqa: F401 (a fixture)
from .test_offline import (
    OUTBOX,
    go_offline,
    go_online,
    open_as_app,
    outbox_items,
    wait_until_settled,
)

pytestmark = pytest.mark.browser

EXAMPLES = int(os.environ.get("BROWSER_TABLE_MODEL_EXAMPLES", "2"))
STEPS = int(os.environ.get("BROWSER_TABLE_MODEL_STEPS", "10"))
# each phone: its language, the browser's locale, its screen
PHONES = {"A": ("en", "en-US", {"width": 390, "height": 844}),
          "B": ("ko", "ko-KR", {"width": 360, "height": 740}),
          "C": ("en", "en-US", {"width": 360, "height": 740})}
# the live form's promise is 2 s; a loaded machine gets more
HEARS_MS = 8000
FIELDS = ("declarer", "contract", "trump", "call", "partner", "points")
# a hand as its player taps it in: every question answered, or one left for later
HANDS = st.fixed_dictionaries({
    "declarer": st.sampled_from(SEATS), "contract": st.integers(13, 20), "trump": st.sampled_from(["S", "H", "D", "C", "NT"]),
    "call": st.sampled_from(sorted(CALLS)), "partner": st.sampled_from(["alone", *SEATS]), "points": st.integers(0, 20)})
TAPS = st.one_of(
    st.tuples(st.just("declarer"), st.sampled_from(SEATS)),
    st.tuples(st.just("contract"), st.integers(13, 20)),
    st.tuples(st.just("trump"), st.sampled_from(["S", "H", "D", "C", "NT"])),
    st.tuples(st.just("call"), st.sampled_from(sorted(CALLS))),
    st.tuples(st.just("partner"), st.sampled_from(["alone", *SEATS])),
    st.tuples(st.just("points"), st.integers(0, 20)),
)


class TheTableInTheBrowser(RuleBasedStateMachine):
    server = browser = None  # set by the test below

    @initialize()
    def a_session_and_its_phones(self):
        self.session = SessionFactory()
        self.token = self.session.group.edit_token
        self.path = f"/g/{self.token}/s/{self.session.pk}/"
        self.hands: list[dict] = []
        self.keys: dict[str, int] = {}  # one-time keys that saved a hand: its number
        self.payments: list[tuple[str, str, Decimal]] = []
        self.contexts, self.errors = [], []
        self.phones = {name: Phone() for name in PHONES}

    def teardown(self):
        for context in getattr(self, "contexts", []):
            close_context(context)
        for phone in getattr(self, "phones", {}).values():
            if phone.line is not None:
                phone.line.stop()
        assert not getattr(self, "errors", []), f"errors in the browser: {self.errors}"

    def browser_page(self, phone: Phone, language: str, locale: str, screen: dict) -> Page:
        phone.line = Relay(int(self.server.url.rsplit(":", 1)[1])).start()
        context = self.browser.new_context(viewport=screen, locale=locale, device_scale_factor=1)
        context.add_cookies([{"name": "django_language", "value": language, "url": phone.line.url}])
        context.set_default_timeout(20_000)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", lambda message: self.errors.append(message.text) if quiet_is_wrong(message) else None)
        listen(page)
        open_as_app(page, phone.line.url + self.path)
        return page

    def any(self, can) -> bool:
        return any(can(phone) for phone in self.phones.values())

    def one(self, data, can) -> Phone:
        """A phone that can do the step, drawn among those that can."""
        name = data.draw(st.sampled_from([name for name, phone in self.phones.items() if can(phone)]))
        phone = self.phones[name]
        if phone.page is None:
            phone.page = self.browser_page(phone, *PHONES[name])
        return phone

    # --- what the model expects ----------------------------------------------------------------

    def scored(self, entry: dict) -> dict | None:
        request = {**entry, "system": self.session.preset, "options": self.session.system_options,
                   "seats": self.session.seats}
        try:
            return score_hand(request).as_json()
        except InvalidInput:
            return None

    def likeness(self, entry: dict) -> tuple:
        """Two hands are the same hand at the table: the same declarer, contract, partners and payments."""
        return (entry["declarer"], entry["contract"], tuple(entry["partners"]), self.scored(entry)["payments"])

    def expected(self, entry: dict | None, number: int, seen: int, key: str, *, deliberate: bool = False) -> str:
        """What a Save should do now: "saved", "used" (its key saved a hand), "asked" or "refused"."""
        if key in self.keys:
            return "used"
        if entry is None or self.scored(entry) is None:
            return "refused"
        if deliberate:
            return "saved" if number == len(self.hands) + 1 or number == 0 else "asked"
        if number != len(self.hands) + 1:
            return "asked"
        if any(self.likeness(hand) == self.likeness(entry) for hand in self.hands[seen:]):
            return "asked"
        return "saved"

    def saved(self, entry: dict, key: str) -> None:
        self.hands.append(entry)
        self.keys[key] = len(self.hands)

    # --- the phone's screen ----------------------------------------------------------------------

    def dealer_on(self, page: Page) -> str:
        return page.locator("#hand-form input[name=dealer]:checked").get_attribute("value")

    def form_on(self, page: Page, taps: dict) -> Form:
        hidden = page.locator("#hand-form")
        return Form(number=int(hidden.locator("input[name=number]").input_value()),
                    seen=int(hidden.locator("input[name=seen_hand_count]").input_value()),
                    key=hidden.locator("input[name=request_key]").input_value(), taps=taps)

    def board(self, phone: Phone) -> None:
        phone.page.goto(phone.line.url + self.path)
        phone.left = None  # Back leads elsewhere now

    @staticmethod
    def saying(page: Page) -> str:
        """What the form's line of news says, for a Save that did not go as the model meant."""
        with contextlib.suppress(PlaywrightError):
            return page.locator("#hand-form [data-testid=draft-notice]").inner_text(timeout=2000)
        return f"(no line of news at {page.url})"

    def outcome_of(self, page: Page) -> str:
        """What became of a Save: the form kept it, saying what is missing or wrong ("refused"), or
        it went to the board, where the server took it ("left") or asks about it ("asked")."""
        kept = page.locator("#hand-form [data-testid=draft-notice][data-save-kept]")
        deadline = time.monotonic() + 20
        while "/hands/new/" in page.url:
            with contextlib.suppress(PlaywrightError):  # the page may be leaving as it is asked
                if kept.is_visible():
                    return "refused"
            assert time.monotonic() < deadline, "the Save neither left the form nor said why it stayed"
            page.wait_for_timeout(50)
        page.wait_for_url(f"**{self.path}")
        states = [item["state"] for item in sent(page)]
        if "conflict" in states:
            expect(page.locator("#board-question")).to_be_visible()
            return "asked"
        return "left"

    def the_others_ask(self, *savers: Phone) -> None:
        """The table changed: every other form left open on a hand that is taken asks, and nothing on
        it moves (the pages the Saves themselves drew are not among them: drawn after the hand, they
        hear of it at the next change)."""
        for phone in self.phones.values():
            form = phone.form
            if phone in savers or form is None or form.asked == "live" or phone.line_down:
                continue
            if form.number > len(self.hands):
                continue
            question = phone.page.locator("#live-form-question")
            expect(question).to_be_visible(timeout=HEARS_MS)
            expect(question.locator("[data-choice=same]")).to_be_visible()
            # it shows the hand saved at its number, with the payments
            expect(question).to_contain_text(self.hands[form.number - 1]["declarer"])
            expect(question.get_by_test_id("saved-payments")).to_be_visible()
            expect(phone.page.locator("#hand-form input[name=number]")).to_have_value(str(form.number))
            expect(phone.page.locator("#hand-form input[name=seen_hand_count]")).to_have_value(str(form.seen))
            form.asked = "live"

    def nothing_moved(self, phone: Phone) -> None:
        """A form whose Save it kept (a question left unanswered, a hand the rules refuse) is the one
        tapped: its number, the hands it had seen, its key and every tap."""
        again = self.form_on(phone.page, phone.form.taps)
        assert (again.number, again.seen, again.key) == (phone.form.number, phone.form.seen, phone.form.key), (
            again, phone.form)
        check_taps(phone.page, phone.form.taps)

    def landed(self, phone: Phone, form: Form, outcome: str) -> None:
        """The model follows one Save that the phone saw answered."""
        if outcome == "saved":
            self.saved(entry_of(form.taps, form.dealer), form.key)
        if outcome in ("saved", "used"):
            phone.form, phone.left, phone.draft_may_stay = None, form, False
        elif outcome == "asked":
            form.asked, form.next_number = "server", len(self.hands) + 1
        else:  # the form shows what is missing or wrong beside its field, the taps stay
            form.refused = True

    # --- opening and tapping ---------------------------------------------------------------------

    @precondition(lambda self: self.any(can_open))
    @rule(data=st.data(), hand=HANDS, order=st.permutations(FIELDS),
          left_out=st.one_of(st.none(), st.sampled_from(FIELDS)), save_now=st.booleans())
    def open_the_hand_form_and_tap_a_hand(self, data, hand, order, left_out, save_now):
        """The player taps "Enter a hand" on the board and taps the hand in, in any order; saved at
        once, or left open while the other phones go on."""
        phone = self.one(data, can_open)
        page = phone.page
        self.board(phone)
        with page.expect_response(lambda response: "/events/" in response.url):
            page.get_by_test_id("enter-hand").click()
        page.wait_for_url("**/hands/new/**")
        notice = page.get_by_test_id("draft-notice")
        if notice.count() and notice.is_visible():
            # nothing this phone saved or dropped comes back; what its player left for later may
            assert phone.draft_may_stay, "a draft came back that was saved or dropped"
            notice.get_by_role("button").first.click()
        phone.form = self.form_on(page, {})
        phone.draft_may_stay = False
        assert (phone.form.number, phone.form.seen) == (len(self.hands) + 1, len(self.hands))
        for what in order:
            if what != left_out:
                tap(page, what, hand[what])
                phone.form.taps[what] = hand[what]
        if save_now:
            self.save_on(phone)

    @precondition(lambda self: self.any(can_tap))
    @rule(data=st.data(), taps=st.lists(TAPS, min_size=1, max_size=3),
          then_reload=st.sampled_from([False, False, True]))
    def tap_the_hand_form(self, data, taps, then_reload):
        """A few taps more (a correction, a question answered late), and now and then a reload."""
        phone = self.one(data, can_tap)
        for what, value in taps:
            tap(phone.page, what, value)
            phone.form.taps[what] = value
        phone.form.refused = False
        if then_reload:
            self.reload_the_form(phone)

    # --- saving ------------------------------------------------------------------------------------

    @precondition(lambda self: self.any(ready))
    @rule(data=st.data())
    def save(self, data):
        self.save_on(self.one(data, ready))

    def save_on(self, phone: Phone) -> None:
        form = phone.form
        form.dealer = self.dealer_on(phone.page)
        expected = self.expected(entry_of(form.taps, form.dealer), form.number, form.seen, form.key)
        previewed(phone.page)
        phone.page.get_by_test_id("save-hand").click()
        seen = self.outcome_of(phone.page)
        assert seen == {"saved": "left", "used": "left"}.get(expected, expected), (
            expected, seen, form, self.saying(phone.page), *phone.page.heard[-HEARD:])
        self.landed(phone, form, expected)
        if phone.form is not None and phone.form.refused:
            self.nothing_moved(phone)  # kept on the form: as it was
        if expected == "saved":
            self.the_others_ask(phone)

    @precondition(lambda self: sum(ready(phone) for phone in self.phones.values()) >= 2)
    @rule(data=st.data())
    def two_phones_tap_save_at_the_same_moment(self, data):
        names = data.draw(st.permutations([name for name, phone in self.phones.items() if ready(phone)]))
        phones = [self.phones[name] for name in names[:2]]
        for phone in phones:
            phone.form.dealer = self.dealer_on(phone.page)
            previewed(phone.page)
        # both clicks leave before either answer comes back
        for phone in phones:
            phone.page.evaluate("document.querySelector('[data-testid=save-hand]').click()")
        seen = [self.outcome_of(phone.page) for phone in phones]
        # the server decides one after the other, in an order the phones cannot know: the model
        # follows the order the outcomes show
        for order in (phones, phones[::-1]):
            hands, keys = list(self.hands), dict(self.keys)
            outcomes = {}
            for phone in order:
                form = phone.form
                outcomes[id(phone)] = self.expected(entry_of(form.taps, form.dealer), form.number, form.seen, form.key)
                if outcomes[id(phone)] == "saved":
                    self.saved(entry_of(form.taps, form.dealer), form.key)
            self.hands, self.keys = hands, keys
            if [{"saved": "left", "used": "left"}.get(outcomes[id(p)], outcomes[id(p)]) for p in phones] == seen:
                break
        else:
            raise AssertionError(f"two Saves at once ended as {seen}, which no order of them explains")
        for phone in order:
            self.landed(phone, phone.form, outcomes[id(phone)])
            if phone.form is not None and phone.form.refused:
                self.nothing_moved(phone)  # kept on the form: as it was
        if "saved" in outcomes.values():
            self.the_others_ask(*phones)

    # --- the form left open --------------------------------------------------------------------------

    @precondition(lambda self: self.any(asked_live))
    @rule(data=st.data(), same=st.booleans())
    def answer_the_question_another_phones_save_asks(self, data, same):
        phone = self.one(data, asked_live)
        page, form = phone.page, phone.form
        page.wait_for_timeout(QUESTION_SETTLES_MS)  # a tap on its way as the question opened answers nothing
        question = page.locator("#live-form-question")
        if same:
            with page.expect_navigation():
                question.locator("[data-choice=same]").click()
            assert "/hands/new/" not in page.url
            phone.form, phone.left, phone.draft_may_stay = None, None, False
            return
        question.locator("[data-choice=next]").click()
        expect(question).to_be_hidden()
        # then, and only then, the form moves; the taps stay, and so does the count of hands it saw
        form.number, form.asked = len(self.hands) + 1, ""
        expect(page.locator("#hand-form input[name=number]")).to_have_value(str(form.number))
        expect(page.locator("#hand-form input[name=seen_hand_count]")).to_have_value(str(form.seen))
        check_taps(page, form.taps)

    @precondition(lambda self: self.any(asked_by_the_server))
    @rule(data=st.data(), also_mine=st.booleans())
    def answer_the_server_that_asked(self, data, also_mine):
        """The Save arrived second: over the board, the question the form left open asks, in the same
        words. The same hand is discarded; the next hand is saved as the number the server offered."""
        phone = self.one(data, asked_by_the_server)
        page, form = phone.page, phone.form
        question = page.locator("#board-question")
        expect(question).to_be_visible()
        page.wait_for_timeout(QUESTION_SETTLES_MS)  # a tap on its way as the question opened answers nothing
        if not also_mine:
            question.locator("[data-choice=same]").click()
            expect(question).to_be_hidden()
            wait_until_settled(page, f"() => {OUTBOX}.then(items => items.length === 0)")
            phone.form, phone.left, phone.draft_may_stay = None, None, False
            return
        key = f"another:{form.key}"  # sent again under a key of its own: the old one's answer was the question
        expected = self.expected(entry_of(form.taps, form.dealer), form.next_number, form.seen, key, deliberate=True)
        question.locator("[data-choice=next]").click()
        expect(question).to_be_hidden()
        states = [item["state"] for item in sent(page)]
        assert states == (["conflict"] if expected == "asked" else []), (states, expected)
        if expected == "saved":
            self.saved(entry_of(form.taps, form.dealer), key)
            phone.form, phone.left = None, None
            self.the_others_ask(phone)
        else:
            form.next_number = len(self.hands) + 1

    # --- Back, reload ----------------------------------------------------------------------------------

    @precondition(lambda self: self.any(can_go_back))
    @rule(data=st.data())
    def back_to_the_form_just_saved(self, data):
        phone = self.one(data, can_go_back)
        left, phone.left = phone.left, None
        page = phone.page
        page.go_back()
        page.wait_for_load_state()
        page.wait_for_timeout(300)  # a page kept in memory whose key was used reloads itself
        page.wait_for_load_state()
        kept = page.locator(f"#hand-form input[name=request_key][value='{left.key}']")
        if kept.count() and page.get_by_test_id("save-hand").is_visible():
            # the very form, as it was: Save again sends the key that already saved a hand
            page.get_by_test_id("save-hand").click()
            assert self.outcome_of(page) == "left"
        self.board(phone)

    def reload_the_form(self, phone: Phone) -> None:
        """The page is loaded again: the taps stay on the phone (drafts.js), on the form for the next hand."""
        page, form = phone.page, phone.form
        with page.expect_response(lambda response: "/events/" in response.url):
            page.reload()
        check_taps(page, form.taps)
        again = self.form_on(page, form.taps)
        assert again.number == len(self.hands) + 1, (again, form)
        phone.form = again

    # --- lines that drop ---------------------------------------------------------------------------------

    def would_save(self, phone: Phone) -> bool:
        """Its Save would store a hand, or be asked about: only a whole hand waits on a phone (the
        dealer, the flow's, changes no payment)."""
        form = phone.form
        return ready(phone) and self.expected(entry_of(form.taps, SEATS[0]), form.number, form.seen, form.key) in (
            "saved", "asked")

    @precondition(lambda self: self.any(self.would_save))
    @rule(data=st.data(), how=st.sampled_from(["offline", "cut", "cut_after"]))
    def save_as_the_line_drops(self, data, how):
        phone = self.one(data, self.would_save)
        form = phone.form
        form.dealer = self.dealer_on(phone.page)
        page, entry = phone.page, entry_of(form.taps, form.dealer)
        phone.line.break_writes("cut" if how == "offline" else how)
        page.get_by_test_id("save-hand").click()
        if how == "offline":
            go_offline(page.context)
        page.wait_for_url(f"**{self.path}")
        # on the board at once: waiting at its end, or (the server had it) the server's own row
        expect(page.locator(f"#outbox-rows [data-testid=pending-hand], #hand-{form.number}")).not_to_have_count(0)
        if how != "offline":
            deadline = time.monotonic() + 20  # the Save meets the line as it is
            while not phone.line.reached and time.monotonic() < deadline:
                page.wait_for_timeout(50)
        (kept,) = outbox_items(page)
        assert kept["key"] == form.key and kept["meant"] == form.number, kept
        if how == "cut_after" and self.expected(entry, form.number, form.seen, form.key) == "saved":
            self.saved(entry, form.key)  # the server has it; the phone never heard
            self.the_others_ask(phone)
        phone.waiting.append(Waiting(entry, form.number, form.seen, form.key))
        phone.form, phone.line_down = None, True

    @precondition(lambda self: self.any(line_down))
    @rule(data=st.data())
    def the_line_comes_back(self, data):
        self.send_what_waits(self.one(data, line_down))

    def send_what_waits(self, phone: Phone) -> None:
        """The signal is back: the outbox sends each waiting hand once, with its key and the number
        it meant; one another phone saved first waits on the board with the server's words."""
        page = phone.page
        phone.line.heal()
        go_online(page.context)
        phone.line_down = False
        before = len(self.hands)
        for waiting in phone.waiting:
            outcome = self.expected(waiting.entry, waiting.number, waiting.seen, waiting.key,
                                    deliberate=waiting.deliberate)
            if outcome == "saved":
                self.saved(waiting.entry, waiting.key)
            elif outcome == "asked":
                # its number is free: asked because the very hand was saved since its form was opened
                waiting.copy = waiting.number == len(self.hands) + 1
                waiting.next_number = len(self.hands) + 1
                phone.conflicts.append(waiting)
            else:
                assert outcome == "used", outcome
        phone.waiting = []
        states = [item["state"] for item in sent(page)]
        assert states == ["conflict"] * len(phone.conflicts), (states, phone.conflicts)
        if len(self.hands) > before:
            self.the_others_ask(phone)

    @precondition(lambda self: self.any(has_a_conflict))
    @rule(data=st.data(), same=st.booleans())
    def answer_a_hand_the_server_asked_about(self, data, same):
        """The waiting hand another phone saved first is asked about over the board, as a form left
        open asks: the same hand is discarded; another is saved as the next hand."""
        phone = self.one(data, has_a_conflict)
        page, waiting = phone.page, phone.conflicts.pop(0)
        self.board(phone)
        question = page.locator("#board-question")
        expect(question).to_be_visible()
        expect(question.get_by_test_id("saved-payments")).to_be_visible()
        page.wait_for_timeout(QUESTION_SETTLES_MS)
        if same:
            question.locator("[data-choice=same]").click()
            expect(question).to_be_hidden()
            wait_until_settled(page, f"count => {OUTBOX}.then(items => items.length === count)", len(phone.conflicts))
            return
        question.locator("[data-choice=next]").click()
        expect(question).to_be_hidden()
        waiting.key = f"another:{waiting.key}"  # a key of its own: the old one's answer was the question
        waiting.number, waiting.deliberate = waiting.next_number, True
        phone.waiting.append(waiting)
        self.send_what_waits(phone)

    # --- payments ------------------------------------------------------------------------------------------

    @precondition(lambda self: any(self.net_balances().values()) and self.any(can_open))
    @rule(data=st.data(), pick=st.integers(0, 10))
    def mark_a_payment(self, data, pick):
        """A player pays another what the payments card says is still owed, and taps "Mark as paid"."""
        phone = self.one(data, can_open)
        page = phone.page
        page.goto(phone.line.url + self.path + "payments/")
        phone.left = None
        owed = page.get_by_test_id("payments-owed").locator("li[data-from]")
        lines = [(line.get_attribute("data-from"), line.get_attribute("data-to"),
                  Decimal(line.get_attribute("data-amount"))) for line in owed.all()]
        # the card shows the API's list, line for line
        assert lines == [(t["from"], t["to"], Decimal(t["amount"])) for t in self.api("settlement")["outstanding"]]
        markable = [index for index, line in enumerate(owed.all()) if line.locator("form").count()]
        if not markable:
            return
        index = markable[pick % len(markable)]
        owed.nth(index).locator("form button[type=submit]").click()
        # marked on the card at once, then sent: once the server has it, the card is its own again
        wait_until_settled(page, f"() => {OUTBOX}.then(items => items.length === 0)")
        self.payments.append(lines[index])
        # the table changed: a form open on a hand that is taken asks now, whenever it was drawn
        self.the_others_ask(phone)

    # --- after every step -----------------------------------------------------------------------------------

    def api(self, path: str) -> dict:
        request = urllib.request.Request(f"{self.server.url}/api/v1/sessions/{self.session.pk}/{path}",
                                         headers={"Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    @invariant()
    def the_server_holds_the_hands_meant_each_once(self):
        if not hasattr(self, "session"):
            return
        stored = self.api("hands?page_size=200")
        assert [(hand["number"], hand["entry"]) for hand in stored["results"]] == list(enumerate(self.hands, 1))

    @invariant()
    def what_is_still_owed_is_the_balances_net_of_the_payments(self):
        if not hasattr(self, "session"):
            return
        net = self.net_balances()
        owing = sum(1 for amount in net.values() if amount)
        outstanding = self.api("settlement")["outstanding"]
        for transfer in outstanding:
            net[transfer["from"]] += Decimal(transfer["amount"])
            net[transfer["to"]] -= Decimal(transfer["amount"])
        assert set(net.values()) <= {0}, (net, outstanding, self.payments)
        # the fewest: never more transfers than the players who owe or are owed, less one
        assert len(outstanding) <= max(0, owing - 1), (outstanding, owing)

    def net_balances(self) -> dict[str, Decimal]:
        """Each player's points over the hands meant, less what they paid, plus what they were paid."""
        net = dict.fromkeys(self.session.seats, Decimal(0))
        for hand in self.hands:
            for seat, points in self.scored(hand)["payments"].items():
                net[seat] += points
        for payer, payee, amount in self.payments:
            net[payer] += amount
            net[payee] -= amount
        return net

class Picks:
    """The phones a step is played on, given in order where hypothesis would draw them."""

    def __init__(self, *picks):
        self.picks = list(picks)

    def draw(self, strategy):
        pick = self.picks.pop(0)
        # None: whichever phone can (the one the server asked, after two Saves at once)
        return strategy.elements[0] if pick is None else pick


# pagat example 1 as a player taps it (RULES.md §9.1): Ann 15 ♦ calling the ♠A, Cy the partner, 16 taken
ANN = {"declarer": "Ann", "contract": 15, "trump": "D", "call": "AS", "partner": "Cy", "points": 16}
# another hand of the evening: Di 14 ♠ calling the Joker, alone after all, 14 taken
DI = {"declarer": "Di", "contract": 14, "trump": "S", "call": "JOKER", "partner": "alone", "points": 14}


def tapped(phone: str, hand: dict, *, save_now: bool = False, order=FIELDS):
    return ("open_the_hand_form_and_tap_a_hand", Picks(phone),
            {"hand": hand, "order": list(order), "left_out": None, "save_now": save_now})


# the paths the issue names, each walked on purpose, whatever the random examples happen to draw
STORIES = {
    "an-open-form-asks-and-moves-only-when-told": [
        tapped("B", DI), tapped("C", ANN), tapped("A", ANN, save_now=True),
        ("answer_the_question_another_phones_save_asks", Picks("C"), {"same": True}),
        ("answer_the_question_another_phones_save_asks", Picks("B"), {"same": False}),
        ("tap_the_hand_form", Picks("B"), {"taps": [("points", 15)], "then_reload": True}),
        ("save", Picks("B"), {}),
        ("mark_a_payment", Picks("A"), {"pick": 1}),
    ],
    "the-same-hand-waiting-offline-is-asked-about": [
        tapped("A", ANN), tapped("B", ANN, save_now=True, order=FIELDS[::-1]),
        ("answer_the_question_another_phones_save_asks", Picks("A"), {"same": False}),
        ("save_as_the_line_drops", Picks("A"), {"how": "offline"}),
        ("the_line_comes_back", Picks("A"), {}),
        ("answer_a_hand_the_server_asked_about", Picks("A"), {"same": True}),
        ("back_to_the_form_just_saved", Picks("B"), {}),
    ],
}


@pytest.mark.parametrize("story", STORIES)
def test_the_table_s_known_paths_in_the_browser(asgi_server, browser, story):  # noqa: F811
    TheTableInTheBrowser.server, TheTableInTheBrowser.browser = asgi_server, browser
    table = TheTableInTheBrowser()
    table.a_session_and_its_phones()
    try:
        for step, picks, arguments in STORIES[story]:
            getattr(table, step)(picks, **arguments)
            table.the_server_holds_the_hands_meant_each_once()
            table.what_is_still_owed_is_the_balances_net_of_the_payments()
    finally:
        table.teardown()


def test_the_table_in_the_browser_stores_what_its_players_meant(asgi_server, browser):  # noqa: F811
    TheTableInTheBrowser.server, TheTableInTheBrowser.browser = asgi_server, browser
    run_state_machine_as_test(TheTableInTheBrowser, settings=settings(
        max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None, database=None,
        # a browser's steps take seconds: shrinking a failure takes minutes, asked for by name
        phases=[Phase.explicit, Phase.generate, *([Phase.shrink] if os.environ.get("BROWSER_TABLE_MODEL_SHRINK") else [])],
        derandomize=os.environ.get("BROWSER_TABLE_MODEL_EXAMPLES") is None,
        suppress_health_check=list(HealthCheck),
    ))
