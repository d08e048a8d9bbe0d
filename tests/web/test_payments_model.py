"""Settling up as a table does it, on two phones and a client of the API at once: a model of the
payments the players meant, checked against what the ledger stored after every step.

Each phone holds the payments card as it last drew it, so a phone may tap "Mark as paid" on a
card another phone has overtaken (and be asked "record it anyway?"). Players tap twice, tap the
confirmation twice, cancel it, undo a payment (twice); the table plays on (a hand more, or the
last one deleted: what is owed moves under the cards the phones hold); the API's client sends
its payments again under the same Idempotency-Key as a client does when an answer is lost.
After every step the payments stored are exactly the ones the players meant, each once, the
undone ones undone.

`make test` runs a bounded number of examples; a longer run:
    PAYMENTS_MODEL_EXAMPLES=300 .venv/bin/python -m pytest tests/web/test_payments_model.py
"""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass, field
from decimal import Decimal

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

from mighty_ledger import services
from mighty_ledger.models import Payment
from tests.factories import SEATS, HandFactory, SessionFactory

from .form_pages import mark_forms

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("PAYMENTS_MODEL_EXAMPLES", "25"))
PHONES = ("A", "B")
HTMX = {"HTTP_HX_REQUEST": "true"}
# a hand the defenders lose and one they win: the evening ends with several transfers to settle
SET_HAND = {"dealer": "Ed", "declarer": "Bo", "contract": {"points": 15, "trump": "S"},
            "partner_call": {"type": "card", "cards": ["AH"]}, "partners": ["Di"], "points": 11}


@dataclass(frozen=True)
class Meant:
    payer: str
    payee: str
    amount: Decimal
    undone: bool = False


@dataclass
class Phone:
    client: Client
    card: list[dict] = field(default_factory=list)  # the "mark as paid" forms its card shows
    asked: dict | None = None  # "record it anyway?" on screen: the confirmation's form


class SettlingUp(RuleBasedStateMachine):
    @initialize()
    def an_evening_played_for_money(self):
        self.session = SessionFactory(stake_per_point=100, currency="KRW")
        HandFactory(session=self.session)
        HandFactory(session=self.session, entry=SET_HAND)
        token = self.session.group.edit_token
        self.card_url = reverse("session_payments", args=[token, self.session.pk])
        self.mark_url = reverse("payment_mark", args=[token, self.session.pk])
        self.undo_url = lambda pk: reverse("payment_undo", args=[token, self.session.pk, pk])
        self.api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
        self.phones = {name: Phone(Client()) for name in PHONES}
        self.meant: list[Meant] = []
        self.saved_keys: set[str] = set()  # the one-time keys that saved a payment
        for phone in self.phones.values():
            self.draw(phone, phone.client.get(self.card_url))

    # --- helpers ------------------------------------------------------------------------------

    def draw(self, phone: Phone, response) -> None:
        """The phone shows what the server answered: the card again, or its question."""
        assert response.status_code in (200, 204), response.status_code
        if response.status_code == 204:  # a repeat of a saved mark: htmx reloads the page
            assert response["HX-Refresh"] == "true"
            response = phone.client.get(self.card_url)
        forms = mark_forms(response.content.decode())
        asked = [form for form in forms if form.get("overpay") == "1"]
        phone.asked = asked[0] if asked else None
        phone.card = [form for form in forms if form.get("overpay") != "1"]

    def post_mark(self, phone: Phone, form: dict) -> None:
        """One tap: what the server does is checked against what was meant by the form's key."""
        before = Payment.objects.count()
        response = phone.client.post(self.mark_url, form, **HTMX)
        saved = Payment.objects.count() - before
        if form["request_key"] in self.saved_keys:
            assert saved == 0, "a repeat of a saved mark was saved again"
            assert response.status_code == 204
        elif saved:
            assert saved == 1
            self.saved_keys.add(form["request_key"])
            self.meant.append(Meant(form["payer"], form["payee"], Decimal(form["amount"])))
        self.draw(phone, response)

    def standing(self) -> list[int]:
        return [index for index, payment in enumerate(self.meant) if not payment.undone]

    # --- the phones ---------------------------------------------------------------------------

    @rule(name=st.sampled_from(PHONES))
    def look_at_the_card_again(self, name):
        phone = self.phones[name]
        self.draw(phone, phone.client.get(self.card_url))

    @precondition(lambda self: any(phone.card for phone in self.phones.values()))
    @rule(name=st.sampled_from(PHONES), pick=st.integers(0, 100), taps=st.integers(1, 2),
          answer=st.one_of(st.none(), st.integers(0, 2)))
    def mark_as_paid(self, name, pick, taps, answer):
        # on the card as this phone drew it: another phone may have marked it meanwhile. Asked
        # "record it anyway?", the player answers at once (taps on it, 0 for Cancel) or later
        phone = self.phones[name]
        if not phone.card:
            return
        form = phone.card[pick % len(phone.card)]
        for _tap in range(taps):
            self.post_mark(phone, form)
        if answer is not None and phone.asked is not None:
            self.answer_record_it_anyway(name, answer)

    @precondition(lambda self: any(phone.asked for phone in self.phones.values()))
    @rule(name=st.sampled_from(PHONES), taps=st.integers(0, 2))
    def answer_record_it_anyway(self, name, taps):
        # 0 taps: Cancel
        phone = self.phones[name]
        if phone.asked is None:
            return
        confirm, phone.asked = phone.asked, None
        for _tap in range(taps):
            self.post_mark(phone, confirm)
        if not taps:
            self.draw(phone, phone.client.get(self.card_url, **HTMX))

    @precondition(lambda self: bool(self.standing()))
    @rule(name=st.sampled_from(PHONES), pick=st.integers(0, 100), taps=st.integers(1, 2))
    def undo_a_payment(self, name, pick, taps):
        phone = self.phones[name]
        standing = self.standing()
        index = standing[pick % len(standing)]
        stored = list(Payment.objects.filter(session=self.session).order_by("id"))[index]
        for _tap in range(taps):
            response = phone.client.post(self.undo_url(stored.pk), **HTMX)
            assert response.status_code == 200
        self.meant[index] = Meant(**{**self.meant[index].__dict__, "undone": True})
        self.draw(phone, response)

    # --- the evening goes on --------------------------------------------------------------------

    @rule(which=st.sampled_from(["another hand", "the last hand deleted"]))
    def the_table_plays_on(self, which):
        # what is owed moves under the cards the phones hold: their next marks may be asked about
        if which == "another hand":
            HandFactory(session=self.session, entry=SET_HAND)
        elif last := self.session.hands.live().latest_first().first():
            services.hand_delete(hand=last)

    # --- the API's client ---------------------------------------------------------------------

    @rule(payer=st.sampled_from(SEATS), payee=st.sampled_from(SEATS), hundreds=st.integers(1, 30),
          sends=st.integers(1, 3))
    def the_api_records_a_payment(self, payer, payee, hundreds, sends):
        body = {"from": payer, "to": payee, "amount": str(hundreds * 100), "overpay": True}
        key = str(uuid.uuid4())
        answers = [self.api.post(f"/api/v1/sessions/{self.session.pk}/payments", body,
                                 content_type="application/json", HTTP_IDEMPOTENCY_KEY=key) for _send in range(sends)]
        if payer == payee:
            assert {answer.status_code for answer in answers} == {400}
            return
        assert [answer.status_code for answer in answers] == [201] + [200] * (sends - 1)
        assert len({answer.content for answer in answers}) == 1
        self.meant.append(Meant(payer, payee, Decimal(hundreds * 100)))

    # --- after every step ---------------------------------------------------------------------

    @invariant()
    def the_ledger_holds_the_payments_the_players_meant(self):
        if not hasattr(self, "session"):
            return
        stored = Payment.objects.filter(session=self.session).order_by("id")
        assert [Meant(p.payer, p.payee, p.amount, p.undone_at is not None) for p in stored] == self.meant


def test_the_payments_stored_are_the_ones_the_players_meant(db):
    run_state_machine_as_test(SettlingUp, settings=settings(
        max_examples=EXAMPLES, stateful_step_count=20, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    ))
