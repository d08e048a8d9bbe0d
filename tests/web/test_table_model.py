"""The table as its players use it, on two or three phones at once: a model of what they meant,
checked against what the ledger stored after every step (issue 20).

Each phone opens forms, taps them in any order, saves, taps Save twice, goes Back and saves
again, reloads, records a contract, enters its result (sometimes forgetting who the partner
was), throws it in, edits, deletes and restores. The pages are read and sent as a browser sends
them (tests/web/form_pages.py): what a page arrives with pre-set goes along, chosen or not. After
every step the live hands are exactly the hands the players meant, each once, none with a value
nobody chose, and every payment is the engine's for those hands.

`make test` runs a bounded number of examples; a longer run:
    TABLE_MODEL_EXAMPLES=500 .venv/bin/python -m pytest tests/web/test_table_model.py
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from mighty_ledger import reads
from mighty_ledger.models import Contract, Hand, Payment, Revision, Session
from mighty_ledger.pages.templatetags.ledger import points
from mighty_ledger.pages.views.board_steps import board_step_for
from mighty_ledger.reads import balance, kept_counts, ratings, stats
from scoring.interface import score_hand
from scoring.problems import InvalidInput
from tests.board_parts import parts_of, row_of
from tests.factories import SEATS, SessionFactory

from .form_pages import FormPage, form_on

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("TABLE_MODEL_EXAMPLES", "30"))
PHONES = ("A", "B", "C")
# called cards picked by suit then rank, as on the picker
CALLED = {"AS": ("S", "A"), "KH": ("H", "K"), "QD": ("D", "Q"), "JC": ("C", "J"), "10S": ("S", "10")}


@dataclass(frozen=True)
class Bid:
    """What the auction ended on, as the declarer's phone taps it."""

    declarer: str
    points: int
    trump: str
    called: str

    def taps(self) -> dict:
        suit, rank = CALLED[self.called]
        return {"declarer": self.declarer, "contract_points": str(self.points), "contract_trump": self.trump,
                "call_type": "card", "call_pick": suit, "call_rank": rank}

    def entry(self, dealer: str) -> dict:
        return {"dealer": dealer, "declarer": self.declarer,
                "contract": {"points": self.points, "trump": self.trump},
                "partner_call": {"type": "card", "cards": [self.called]}}


@dataclass(frozen=True)
class Trick:
    """What the last trick told: the partner (None: the player forgot to tap it) and the points."""

    partner: str | None
    points: int

    def taps(self) -> dict:
        taps = {"points": str(self.points)}
        if self.partner is not None:
            taps["partners"] = self.partner
        return taps

    def added_to(self, contract: dict) -> dict | None:
        """The hand meant, or None when a question was left unanswered."""
        if self.partner is None:
            return None
        partners = [] if self.partner == "alone" else [self.partner]
        return {**contract, "partners": partners, "points": self.points}


bids = st.builds(Bid, declarer=st.sampled_from(SEATS), points=st.integers(13, 20),
                 trump=st.sampled_from(["S", "H", "D", "C", "NT"]), called=st.sampled_from(sorted(CALLED)))
tricks = st.builds(Trick, partner=st.one_of(st.sampled_from([*SEATS, "alone"]), st.none()),
                   points=st.integers(0, 20))


@dataclass
class Page:
    """A form on a phone's screen: what it arrived with, what its player tapped and meant."""

    kind: str  # "hand", "complete", "contract", "edit"
    url: str
    form: FormPage
    taps: dict
    meant: dict | None  # HAND_JSON meant; None when the player left a question unanswered
    number: int | None = None  # the hand an edit changes
    asked: bool = False  # "another phone saved first" is on screen
    # what its player answers when the open form hears that another phone saved a hand: "same"
    # ("That's the hand I'm entering"), "next" ("I'm entering the next hand"), or "unheard"
    # (no signal, or no script: the form stays as it was and Save asks)
    hears: str = "unheard"

    @property
    def key(self) -> str | None:
        return self.form.value("request_key")

    @property
    def seen(self) -> int:
        return int(self.form.value("seen_hand_count") or 0)


@dataclass
class Meant:
    """A hand as the table meant it, at the number the ledger gave it."""

    entry: dict
    version: int = 1
    deleted: bool = False


@dataclass
class Phone:
    client: Client
    page: Page | None = None
    left: Page | None = None  # the form page before the last save: what Back brings again


@dataclass
class Model:
    hands: list[Meant] = field(default_factory=list)
    # one-time keys that saved something: a hand's number, or ("contract", its id)
    keys: dict[str, int | tuple] = field(default_factory=dict)
    contract: dict | None = None  # the hand in progress as meant: {"id", "entry", "version"}
    completed: dict[int, int] = field(default_factory=dict)  # a contract's id: the hand it became
    payments: list[tuple[str, str, int]] = field(default_factory=list)  # payer, payee, amount marked


def likeness(session, entry: dict) -> tuple:
    """What makes two hands the same hand at the table, as the players would say it: the declarer,
    the contract, the partners and what it paid."""
    request = {**entry, "system": session.preset, "options": session.system_options, "seats": session.seats}
    return (entry["declarer"], entry["contract"]["points"], entry["contract"]["trump"],
            tuple(sorted(entry.get("partners") or ())), score_hand(request).as_json()["payments"])


def legal(session, entry: dict) -> bool:
    try:
        score_hand({**entry, "system": session.preset, "options": session.system_options, "seats": session.seats})
    except InvalidInput:
        return False
    return True


class TheTable(RuleBasedStateMachine):
    @initialize()
    def a_session(self):
        self.in_flight: tuple[Page, ...] = ()  # pages whose Save is on its way (sent together)
        self.session = SessionFactory()
        self.token = self.session.group.edit_token
        self.phones = {name: Phone(Client()) for name in PHONES}
        self.model = Model()

    # --- helpers ------------------------------------------------------------------------------

    def url(self, name: str, *args) -> str:
        return reverse(name, args=[self.token, self.session.pk, *args])

    def open(self, phone: Phone, kind: str, url: str, taps: dict, meant, number=None) -> Page:
        response = phone.client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        form = form_on(response.content.decode(), "event-form" if kind == "event" else "hand-form")
        assert form.found, url
        page = Page(kind, url, form, taps, meant, number)
        phone.page = page
        return page

    def dealer_on(self, page: Page) -> str:
        return page.form.value("dealer")

    def expected(self, page: Page, confirm: bool) -> str:
        """What Save should do now, from the model alone: "saved", "used", "asked", "refused" or "stale"."""
        model = self.model
        if page.kind == "edit":
            meant = model.hands[page.number - 1]
            if int(page.form.value("version")) != meant.version:
                return "stale"
            return "saved" if legal(self.session, page.meant) else "refused"
        if page.key in model.keys:
            return "used"
        # the form asks for what nobody answered first, then the engine judges the hand, and only
        # then, as it lands, does the server ask whether another phone saved it meanwhile
        if page.meant is None:
            return "refused"
        # a contract is checked as the engine checks it once played: alone, whatever the count
        whole = {**page.meant, "partners": [], "points": 0} if page.kind == "contract" else page.meant
        if not legal(self.session, whole):
            return "refused"
        if not confirm and self.saved_meanwhile(page):
            return "asked"
        if page.kind == "contract" and model.contract is not None:
            return "asked"
        return "saved"

    def number_meant(self, page: Page) -> int:
        return int(page.taps.get("number") or page.form.value("number"))

    def saved_meanwhile(self, page: Page) -> bool:
        """Another phone saved the hand this page means: its number is taken, or (a hand) the very
        hand it holds was saved since the page was opened, under whatever number."""
        if self.number_meant(page) != len(self.model.hands) + 1:
            return True
        if page.kind == "contract":
            return False
        mine = likeness(self.session, page.meant)
        return any(likeness(self.session, hand.entry) == mine
                   for hand in self.model.hands[page.seen:] if not hand.deleted)

    def send(self, phone: Phone, *, confirm: bool = False, answer_lost: bool = False):
        """Tap Save. With ``answer_lost`` the request reaches the server but its answer never comes
        back (the line dropped): the phone still shows the form as it was, and taps Save again later."""
        page = phone.page
        outcome = self.expected(page, confirm)
        data = page.form.posted(page.taps | ({"confirm": "1"} if confirm else {}))
        response = phone.client.post(page.form.action, data)
        if outcome in ("saved", "used"):
            assert response.status_code == 302, (outcome, response.status_code, page.kind, _errors(response))
        elif outcome in ("asked", "stale"):  # a stale edit: both versions side by side, 409
            assert response.status_code == 409, (outcome, response.status_code)
        else:
            assert response.status_code == 200, (outcome, response.status_code)
        if outcome == "saved":
            self.saved(page)
        if answer_lost:
            return
        if outcome in ("saved", "used"):
            phone.left, phone.page = page, None
        elif outcome == "asked":
            page.asked = True
        elif outcome == "stale":
            phone.page = None  # they read what is there now, and keep it
        else:
            phone.page = None  # the player sees the question, and puts the phone down for now

    def saved(self, page: Page) -> None:
        model = self.model
        if page.kind == "edit":
            meant = model.hands[page.number - 1]
            meant.entry, meant.version = page.meant, meant.version + 1
            return
        if page.kind == "contract":
            opened = self.session.contracts.get(status=Contract.OPEN)
            model.contract = {"id": opened.pk, "entry": page.meant, "version": opened.version}
            model.keys[page.key] = ("contract", opened.pk)
            return
        model.hands.append(Meant(page.meant))
        model.keys[page.key] = len(model.hands)
        self.heard_by_the_open_forms()
        in_progress = page.form.value("in_progress")
        if model.contract is not None and in_progress == str(model.contract["id"]):
            model.completed[model.contract["id"]] = len(model.hands)
            model.contract = None

    def heard_by_the_open_forms(self) -> None:
        """Every form left open on another phone hears of the hand just saved (static/js/live_form.js)
        and asks its player, who answers as they would: the form closes, or moves to the next
        number, the taps kept. It never moves by itself."""
        for phone in self.phones.values():
            page = phone.page
            if page is None or page.kind not in ("hand", "complete") or page.asked or page.hears == "unheard":
                continue
            if any(page is sent for sent in self.in_flight):
                continue  # its Save is on its way already: what it meant was sent before it could hear
            if self.number_meant(page) > len(self.model.hands):
                continue  # the number it enters is still free: nothing to ask
            if page.hears == "same":
                phone.page = None
            else:
                page.taps = {**page.taps, "number": str(len(self.model.hands) + 1)}

    # --- opening forms ------------------------------------------------------------------------

    # each form is opened, tapped and (``save_now``) saved in one step, or left open while
    # other phones go on: both orders are the table's

    @rule(name=st.sampled_from(PHONES), bid=bids, trick=tricks, save_now=st.booleans(), hears=st.sampled_from(["same", "next", "unheard"]))
    def open_a_new_hand(self, name, bid, trick, save_now, hears):
        phone = self.phones[name]
        page = self.open(phone, "hand", self.url("hand_new"), {**bid.taps(), **trick.taps()}, None)
        page.meant, page.hears = trick.added_to(bid.entry(self.dealer_on(page))), hears
        if save_now:
            self.send(phone)

    @precondition(lambda self: any(phone.page and phone.page.kind == "hand" for phone in self.phones.values()))
    @rule(name=st.sampled_from(PHONES), other=st.sampled_from(PHONES), save_now=st.booleans(), hears=st.sampled_from(["same", "next", "unheard"]))
    def another_phone_enters_the_same_hand(self, name, other, save_now, hears):
        """Two phones at the table enter the hand just played: the same taps, each on its own form."""
        theirs = self.phones[other].page
        if name == other or theirs is None or theirs.kind != "hand":
            return
        phone = self.phones[name]
        taps = {key: value for key, value in theirs.taps.items() if key != "number"}
        page = self.open(phone, "hand", self.url("hand_new"), taps, None)
        page.meant = theirs.meant and {**theirs.meant, "dealer": self.dealer_on(page)}
        page.hears = hears
        if save_now:
            self.send(phone)

    @rule(name=st.sampled_from(PHONES), bid=bids, save_now=st.booleans())
    def record_the_contract(self, name, bid, save_now):
        phone = self.phones[name]
        page = self.open(phone, "contract", self.url("contract_new"), bid.taps(), None)
        page.meant = bid.entry(self.dealer_on(page))
        if save_now:
            self.send(phone)

    @precondition(lambda self: self.model.contract is not None)
    @rule(name=st.sampled_from(PHONES), trick=tricks, save_now=st.booleans(), hears=st.sampled_from(["same", "next", "unheard"]))
    def enter_the_result_of_the_hand_in_progress(self, name, trick, save_now, hears):
        # the player taps what the last trick told, and nothing else
        phone, contract = self.phones[name], self.model.contract
        page = self.open(phone, "complete", self.url("contract_complete", contract["id"]), trick.taps(),
                         trick.added_to(contract["entry"]))
        page.hears = hears
        if save_now:
            self.send(phone)

    @precondition(lambda self: any(not hand.deleted for hand in self.model.hands))
    @rule(name=st.sampled_from(PHONES), pick=st.integers(0, 1000), points=st.integers(0, 20),
          save_now=st.booleans())
    def correct_a_hand(self, name, pick, points, save_now):
        live = [number for number, hand in enumerate(self.model.hands, 1) if not hand.deleted]
        number = live[pick % len(live)]
        meant = {**self.model.hands[number - 1].entry, "points": points}
        phone = self.phones[name]
        self.open(phone, "edit", self.url("hand_edit", number), {"points": str(points)}, meant, number)
        if save_now:
            self.send(phone)

    # --- saving -------------------------------------------------------------------------------

    @precondition(lambda self: any(phone.page for phone in self.phones.values()))
    @rule(name=st.sampled_from(PHONES))
    def save(self, name):
        phone = self.phones[name]
        if phone.page is not None:
            self.send(phone)

    @precondition(lambda self: any(phone.page for phone in self.phones.values()))
    @rule(name=st.sampled_from(PHONES))
    def double_tap_save(self, name):
        phone = self.phones[name]
        if phone.page is None:
            return
        page = phone.page
        self.send(phone)
        # the second tap sends the very same form
        phone.page = replace(page, asked=False)
        self.send(phone)
        if phone.page is page or (phone.page is not None and phone.page.form is page.form):
            phone.page = None

    @precondition(lambda self: any(phone.page and phone.page.asked for phone in self.phones.values()))
    @rule(name=st.sampled_from(PHONES), also_mine=st.booleans())
    def answer_another_phone_saved_first(self, name, also_mine):
        phone = self.phones[name]
        if phone.page is None or not phone.page.asked:
            return
        if also_mine and phone.page.kind != "contract":
            self.send(phone, confirm=True)  # "Also save mine, as a new hand": deliberate
        else:
            phone.page = None  # the highlighted choice: keep theirs

    @precondition(lambda self: any(phone.page for phone in self.phones.values()))
    @rule(name=st.sampled_from(PHONES), confirm=st.booleans())
    def save_but_the_answer_is_lost(self, name, confirm):
        phone = self.phones[name]
        if phone.page is not None:
            self.send(phone, confirm=confirm and phone.page.asked, answer_lost=True)

    @precondition(lambda self: any(phone.page and phone.page.kind == "hand" and phone.page.meant
                                   for phone in self.phones.values()))
    @rule(name=st.sampled_from(PHONES))
    def the_outbox_sends_it_by_the_api(self, name):
        """The form's Save never reached the server (offline, cut): the outbox sends the hand with
        the form's key as its Idempotency-Key, the number the form meant and the hands it had seen."""
        phone = self.phones[name]
        page = phone.page
        if page is None or page.kind != "hand" or page.meant is None:
            return
        outcome = self.expected(page, confirm=False)
        number = self.number_meant(page)
        # and how many hands the form had seen, as the outbox sends it (static/js/outbox.js)
        seen = {"seen_hand_count": page.seen} if page.seen < number else {}
        response = phone.client.post(
            reverse("api:hands", args=[self.session.pk]), {**page.meant, "number": number, **seen},
            content_type="application/json",
            headers={"Authorization": f"Bearer {self.token}", "Idempotency-Key": page.key})
        assert response.status_code == {"saved": 201, "used": 200, "asked": 409, "refused": 400}[outcome], (
            outcome, response.status_code, response.content[:300])
        if outcome == "saved":
            self.saved(page)
        if outcome in ("saved", "used"):
            phone.left, phone.page = page, None
        elif outcome == "asked":
            # the outbox shows the hand the server has, with "Fix" (the form again) and "Discard"
            assert response.json()["errors"][0]["code"] == "hand_saved_meanwhile"
            page.asked = True

    @precondition(lambda self: bool(self.model.hands))
    @rule(name=st.sampled_from(PHONES), pick=st.integers(0, 1000), part=st.sampled_from(["all", "some", "more"]))
    def mark_a_payment(self, name, pick, part):
        """A player pays another what the settle page says is still owed (or part of it, or more),
        and a phone marks it as paid."""
        outstanding = balance.session_outstanding(Session.objects.get(pk=self.session.pk))
        transfers = [t for t in outstanding.transfers if outstanding.markable(t)]
        if not transfers:
            return
        transfer = transfers[pick % len(transfers)]
        amount = {"all": transfer.amount, "some": max(1, int(transfer.amount) // 2),
                  "more": int(transfer.amount) + 1}[part]
        response = self.phones[name].client.post(
            self.url("payment_mark"), {"payer": transfer.frm, "payee": transfer.to, "amount": str(amount),
                                       "overpay": "1"})
        assert response.status_code == 302, response.status_code
        self.model.payments.append((transfer.frm, transfer.to, int(amount)))

    # --- Back, reload ---------------------------------------------------------------------------

    @precondition(lambda self: any(phone.left for phone in self.phones.values()))
    @rule(name=st.sampled_from(PHONES))
    def back_from_memory_and_save_again(self, name):
        # the browser shows the page it kept, as it was: the same key, the same taps
        phone = self.phones[name]
        if phone.left is None or phone.left.kind == "edit":
            return
        phone.page, phone.left = replace(phone.left, asked=False), None
        self.send(phone)

    @precondition(lambda self: any(phone.left for phone in self.phones.values()))
    @rule(name=st.sampled_from(PHONES))
    def back_and_reload(self, name):
        # the page asks the server again with the key in its address (static/js/form_key.js)
        phone = self.phones[name]
        left, phone.left = phone.left, None
        if left is None or left.kind == "edit":
            return
        url = f"{left.url}?key={left.key}"
        response = phone.client.get(url)
        body = " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())
        made = self.model.keys.get(left.key)
        if isinstance(made, tuple):
            made = self.model.completed.get(made[1])
            if made is None:
                assert "This contract was already recorded" in body
        if isinstance(made, int):
            assert f"This hand was saved as hand {made}" in body, body[:300]
            assert 'name="request_key"' not in response.content.decode()

    # --- the hand in progress, deletes --------------------------------------------------------

    @precondition(lambda self: self.model.contract is not None)
    @rule(name=st.sampled_from(PHONES))
    def throw_it_in(self, name):
        contract = self.model.contract
        response = self.phones[name].client.post(self.url("contract_abandon", contract["id"]),
                                                  {"version": contract["version"]})
        assert response.status_code == 302
        self.model.contract = None

    @precondition(lambda self: bool(self.model.hands))
    @rule(pick=st.integers(0, 1000), name=st.sampled_from(PHONES))
    def delete_or_restore(self, pick, name):
        number = pick % len(self.model.hands) + 1
        meant = self.model.hands[number - 1]
        action = "hand_restore" if meant.deleted else "hand_delete"
        response = self.phones[name].client.post(self.url(action, number))
        assert response.status_code == 302
        meant.deleted, meant.version = not meant.deleted, meant.version + 1

    # --- after every step ---------------------------------------------------------------------

    def where_the_table_stands(self) -> tuple:
        """What the checks below read, in a few rows: the stored hands, contracts, payments and
        revisions, and what the players meant."""
        session = self.session
        return (
            Session.objects.filter(pk=session.pk).values_list("revision", "totals", "hand_count").get(),
            list(Hand.objects.filter(session=session).values_list("pk", "version", "updated_at", "deleted_at")),
            list(Contract.objects.filter(session=session).values_list("pk", "status", "version")),
            list(Payment.objects.filter(session=session).values_list("pk", "undone_at")),
            Revision.objects.filter(session=session).order_by("-pk").values_list("pk", flat=True).first(),
            repr((self.model.hands, self.model.contract, self.model.payments)),
        )

    @invariant()
    def the_table_is_what_its_players_meant(self):
        """After every step that moved the table or what its players meant: a step that only opened
        or tapped a form leaves both as they were, and the checks would read the same again."""
        if not hasattr(self, "session"):
            return
        now = self.where_the_table_stands()
        if now == getattr(self, "checked_at", None):
            return
        self.the_ledger_holds_what_the_players_meant()
        self.what_is_still_owed_is_the_balances_net_of_the_payments()
        self.a_phone_following_the_table_sees_what_was_stored()
        self.the_statistics_kept_hand_by_hand_are_the_hands_counted_afresh()
        self.the_ratings_kept_hand_by_hand_are_every_hand_rated_afresh()
        self.checked_at = now

    def the_ledger_holds_what_the_players_meant(self):
        stored = list(Hand.objects.filter(session=self.session).order_by("number"))
        assert [(hand.number, hand.entry, hand.deleted_at is not None) for hand in stored] == [
            (number, meant.entry, meant.deleted) for number, meant in enumerate(self.model.hands, 1)]
        totals = dict.fromkeys(self.session.seats, 0)
        for hand in stored:
            request = {**hand.entry, "system": self.session.preset, "options": self.session.system_options,
                       "seats": self.session.seats}
            payments = score_hand(request).as_json()["payments"]
            assert hand.result["payments"] == payments
            if hand.deleted_at is None:
                totals = {seat: totals[seat] + payments[seat] for seat in totals}
        self.session.refresh_from_db()
        assert self.session.totals == totals
        open_contract = self.session.contracts.filter(status=Contract.OPEN).first()
        assert (open_contract.pk if open_contract else None) == (self.model.contract or {}).get("id")

    def what_is_still_owed_is_the_balances_net_of_the_payments(self):
        """The settle page's list (and every surface that shows it, from the same read) settles
        each player's total less what they paid plus what they were paid, in the fewest transfers."""
        session = Session.objects.get(pk=self.session.pk)
        net = dict(session.totals)
        for payer, payee, amount in self.model.payments:
            net[payer] += amount
            net[payee] -= amount
        outstanding = balance.session_outstanding(session)
        settled = dict.fromkeys(net, 0)
        for transfer in outstanding.transfers:
            settled[transfer.frm] += transfer.amount
            settled[transfer.to] -= transfer.amount
        assert {seat: net[seat] + settled[seat] for seat in net} == dict.fromkeys(net, 0), (
            net, outstanding.transfers)
        # fewest: never more transfers than the players who are owed or owe, less one
        assert len(outstanding.transfers) <= max(0, sum(1 for owed in net.values() if owed) - 1)

    def a_phone_following_the_table_sees_what_was_stored(self):
        """The board's live regions come from what was drawn before, row by row and part by part
        (partials/board_region.html): after any step they show the stored hands, totals, who deals
        next and the hand in progress, never a copy drawn before an edit, delete or restore."""
        self.session.refresh_from_db()
        fragments = Client().get(self.url("session_live")).content.decode()
        shown = {int(number): re.findall(r'<span class="total">([^<]*)</span>', cells)
                 for number, cells in re.findall(r'<tr id="hand-(\d+)"[^>]*>(.*?)</tr>', fragments, re.S)}
        live = Hand.objects.filter(session=self.session, deleted_at__isnull=True).order_by("number")
        assert shown == {hand.number: [points(hand.running_totals[seat]) for seat in self.session.seats]
                         for hand in live}
        for seat in self.session.seats:
            assert f'data-points-of="{seat}">{points(self.session.totals[seat])}<' in fragments
        assert f'data-next-dealer="{reads.next_state(self.session).dealer}"' in fragments
        assert ('data-testid="start-hand"' in fragments) == (self.model.contract is None)
        # the step a phone would be sent had this revision recorded its latest hand: read from the
        # latest two hands alone, it must show what the regions show, after throw-ins and edits too
        step = board_step_for(self.session.group.edit_token, self.session.pk, self.session.revision, "en")
        if live:
            assert row_of(step["html"], live.last().number) in fragments
            assert all(part in fragments for part in parts_of(step["html"]).values())

    def the_statistics_kept_hand_by_hand_are_the_hands_counted_afresh(self):
        """The statistics add each new hand to counts kept from before (reads/kept_counts.py), and
        count a session again when its hands are rewritten: after any step, what they keep is
        what counting every stored hand from nothing gives."""
        sessions = [Session.objects.get(pk=self.session.pk)]
        kept = kept_counts.stats_for(sessions)
        afresh = stats.stats_from_counts(sessions, [stats.count_sessions(sessions)[sessions[0].pk]])
        assert (kept.players, kept.pairs, kept.contracts, kept.hands, kept.events) == (
            afresh.players, afresh.pairs, afresh.contracts, afresh.hands, afresh.events)

    def the_ratings_kept_hand_by_hand_are_every_hand_rated_afresh(self):
        sessions = [Session.objects.get(pk=self.session.pk)]
        assert ratings.ratings_of(sessions).players == ratings.ratings_from_scratch(sessions).players


def _errors(response) -> str:
    context = getattr(response, "context", None)
    form = context.get("form") if context else None
    return str(form.errors) if form is not None else ""


def test_the_table_stores_what_its_players_meant(db):
    run_state_machine_as_test(TheTable, settings=settings(
        max_examples=EXAMPLES, stateful_step_count=25, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    ))


# --- the defects the model was grown to see, each as the table met it ------------------------------


def test_the_model_sees_a_form_that_moved_to_the_next_hand_and_saved_the_same_hand_again(db):
    # phone B heard phone A save hand 1 and said "I'm entering the next hand", then tapped in hand 1
    table = TheTable()
    table.a_session()
    table.open_a_new_hand("A", Bid("Ann", 15, "D", "AS"), Trick("Cy", 16), save_now=False, hears="next")
    table.another_phone_enters_the_same_hand("B", "A", save_now=False, hears="next")
    table.save("A")
    assert table.phones["B"].page.taps["number"] == "2"

    table.save("B")  # asked, not stored as hand 2

    assert table.phones["B"].page.asked
    table.the_ledger_holds_what_the_players_meant()


def test_the_model_sees_a_form_that_hears_the_hand_it_enters_and_closes(db):
    table = TheTable()
    table.a_session()
    table.open_a_new_hand("A", Bid("Bo", 14, "S", "KH"), Trick("alone", 15), save_now=False, hears="same")
    table.another_phone_enters_the_same_hand("B", "A", save_now=False, hears="same")
    table.save("A")

    assert table.phones["B"].page is None  # "That's the hand I'm entering": nothing saved twice
    table.the_ledger_holds_what_the_players_meant()


def test_the_model_sees_a_payment_leave_what_is_still_owed(db):
    table = TheTable()
    table.a_session()
    table.open_a_new_hand("A", Bid("Ann", 15, "D", "AS"), Trick("Cy", 16), save_now=True, hears="unheard")
    for part in ("some", "more", "all"):
        table.mark_a_payment("B", 0, part)
        table.what_is_still_owed_is_the_balances_net_of_the_payments()
