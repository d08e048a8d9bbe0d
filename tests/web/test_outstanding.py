"""One settlement, net of what was paid (issue 35).

After "Bo pays Ann ₩1,300" was marked as paid, the settlement page's list, the text for the
group's chat and the "this phone is me" line still said "Bo pays Ann ₩1,300"; only the payments
card knew. After later hands the card (matching payments to transfers by who paid whom) and the
list disagreed outright. Now one read (reads.balance.session_outstanding) gives what is still
owed: the fewest transfers over each party's balance after the payments, an overpayment leaving
its payee owing it back. Every face shows that list; these tests read each face as a player does.
"""

from __future__ import annotations

import contextlib
import json
import re
from decimal import Decimal
from html.parser import HTMLParser

import pytest
import yaml
from django.test import Client
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mighty_ledger import services
from mighty_ledger.models import Hand, Payment
from mighty_ledger.pages.templatetags.money import amount_text
from mighty_ledger.reads import session_settlement
from mighty_ledger.reads.balance import session_outstanding
from scoring.problems import InvalidInput
from scoring.settle import POT, fewest_transfers
from tests.factories import MADE_15_DIAMONDS, SEATS, GroupFactory, HandFactory, SessionFactory
from tests.scoring.strategies import legal_hands

pytestmark = pytest.mark.django_db

WON = {"stake_per_point": 100, "currency": "KRW"}
# Bo declares 15 ♦ with Di and makes it with 18: Bo +16, Di +8, the others −8 each
BO_MAKES = MADE_15_DIAMONDS | {"declarer": "Bo", "partners": ["Di"], "points": 18}
HX = {"HTTP_HX_REQUEST": "true"}


# --- reading the faces ----------------------------------------------------------------------------


class _Lists(HTMLParser):
    """The words of every line of each list of transfers (templates/partials/transfers.html), by
    its data-testid; the "this phone is me" lines by the seat they are shown to; the chat text."""

    def __init__(self):
        super().__init__()
        self.lists: dict[str, list[str]] = {}
        self.me: list[tuple[str, str]] = []
        self.chat = ""
        self._list: str | None = None
        self._words: list[str] | None = None  # inside a line's span
        self._me: str | None = None
        self._in_chat = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "ul" and "data-transfers" in attrs:
            self._list = attrs["data-testid"]
            self.lists.setdefault(self._list, [])
        elif tag == "span" and self._list and self._words is None:
            self._words = []
        elif tag == "li" and "data-me-if" in attrs:
            self._me, self._words = attrs["data-me-if"], []
        elif tag == "textarea" and attrs.get("data-testid") == "share-text":
            self._in_chat = True

    def handle_endtag(self, tag):
        if tag == "ul":
            self._list = None
        elif tag == "span" and self._list and self._words is not None:
            self.lists[self._list].append(" ".join("".join(self._words).split()))
            self._words = None
        elif tag == "li" and self._me is not None:
            self.me.append((self._me, " ".join("".join(self._words).split())))
            self._me, self._words = None, None
        elif tag == "textarea":
            self._in_chat = False

    def handle_data(self, data):
        if self._words is not None:
            self._words.append(data)
        if self._in_chat:
            self.chat += data


def read(html: str) -> _Lists:
    parser = _Lists()
    parser.feed(html)
    return parser


def me_lines_as_transfers(me: list[tuple[str, str]]) -> list[str]:
    """ "You pay Ann ₩1,300" shown to Bo is "Bo pays Ann ₩1,300"; each transfer is shown to both."""
    found = set()
    for seat, words in me:
        if (paying := re.fullmatch(r"You pay (.+?) (\S+)", words)) is not None:
            found.add(f"{seat} pays {paying[1]} {paying[2]}")
        elif (paid := re.fullmatch(r"(.+?) pays you (\S+)", words)) is not None:
            found.add(f"{paid[1]} pays {seat} {paid[2]}")
    return sorted(found)


def chat_transfers(text: str) -> list[str]:
    # the chat names the pot "the pot", the pages "pot"
    return [line.replace("the pot", POT) for line in text.splitlines() if " pays " in line]


def api_transfers(session) -> list[tuple[str, str, Decimal]]:
    api = Client(HTTP_AUTHORIZATION=f"Bearer {session.group.view_token}")
    answer = api.get(f"/api/v1/sessions/{session.pk}/settlement").json()
    return [(line["from"], line["to"], Decimal(line["amount"])) for line in answer["outstanding"]]


def in_words(session, transfers) -> list[str]:
    unit = session_settlement(session, per_hand=False).unit
    return [f"{frm} pays {to} {amount_text(amount, unit, session.currency)}" for frm, to, amount in transfers]


def every_face(session) -> dict[str, list[str]]:
    """What each face says is still owed, in English words, in the order it lists them."""
    client, token = Client(), session.group.edit_token
    with translation.override("en"):
        settle = read(client.get(reverse("session_settle", args=[token, session.pk]),
                                 HTTP_ACCEPT_LANGUAGE="en").content.decode())
        card = read(client.get(reverse("session_payments", args=[token, session.pk]), HTTP_ACCEPT_LANGUAGE="en",
                               **HX).content.decode())
        group = read(client.get(reverse("group_page", args=[token]), HTTP_ACCEPT_LANGUAGE="en").content.decode())
        api = in_words(session, api_transfers(session))
    return {
        "settle": settle.lists["settle-transfers"],
        "chat": chat_transfers(settle.chat),
        "me": me_lines_as_transfers(settle.me),
        "card": card.lists["payments-owed"],
        "group": group.lists.get("balance-transfers", []),
        "api": api,
    }


def assert_every_face_shows(session, expected: list[str]) -> None:
    faces = every_face(session)
    for face, shown in faces.items():
        # "this phone is me" shows each player their own lines: compared as a set
        wanted = sorted(expected) if face == "me" else expected
        assert shown == wanted, (face, shown, wanted)


# --- the evening of the issue ---------------------------------------------------------------------


@pytest.fixture
def evening(db):
    """Ann made 15 ♦ with Cy: Ann +10, Cy +5, the others −5 each; at ₩100 a point."""
    session = SessionFactory(**WON)
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    session.refresh_from_db()
    return session


def test_before_any_payment_every_face_shows_the_evenings_transfers(evening):
    evening_words = in_words(evening, [(t.frm, t.to, t.amount) for t in session_outstanding(evening).evening])

    assert evening_words == ["Bo pays Ann ₩500", "Di pays Ann ₩500", "Ed pays Cy ₩500"]
    assert_every_face_shows(evening, evening_words)


def test_a_transfer_marked_paid_leaves_every_face(evening):
    services.payment_record(session=evening, payer="Bo", payee="Ann", amount=Decimal(500))
    evening.refresh_from_db()

    assert_every_face_shows(evening, ["Di pays Ann ₩500", "Ed pays Cy ₩500"])


def test_part_of_a_transfer_paid_leaves_the_rest_on_every_face(evening):
    services.payment_record(session=evening, payer="Bo", payee="Ann", amount=Decimal(200))
    evening.refresh_from_db()

    assert_every_face_shows(evening, ["Bo pays Ann ₩300", "Di pays Ann ₩500", "Ed pays Cy ₩500"])


def test_an_overpayment_makes_its_receiver_owe_it_back(evening):
    # Cy was owed ₩500, all of it by Ed; Ed handed him ₩800, confirmed with "Record it anyway"
    services.payment_record(session=evening, payer="Ed", payee="Cy", amount=Decimal(800), overpay=True)
    evening.refresh_from_db()

    owed = session_outstanding(evening)
    assert (owed.owed["Cy"], owed.owed["Ed"]) == (-300, 300)
    assert_every_face_shows(evening, ["Bo pays Ann ₩500", "Cy pays Ed ₩300", "Di pays Ann ₩500"])


def test_an_overpayment_to_a_player_owed_by_others_too_is_netted(evening):
    # Ann was owed ₩500 by Bo and ₩500 by Di; Bo handed her ₩800: she is owed ₩200 more, Bo ₩300,
    # and Di settles both in two transfers, nobody passing money on
    services.payment_record(session=evening, payer="Bo", payee="Ann", amount=Decimal(800), overpay=True)
    evening.refresh_from_db()

    assert_every_face_shows(evening, ["Di pays Ann ₩200", "Di pays Bo ₩300", "Ed pays Cy ₩500"])


def test_after_a_later_hand_the_card_and_the_list_agree(evening):
    # the second half: the card matched Bo's payment to "Bo pays Ann" by name; after a
    # hand Bo made, the evening's transfers pair other players, and the two lists told different
    # players to pay different people
    services.payment_record(session=evening, payer="Bo", payee="Ann", amount=Decimal(500))
    HandFactory(session=evening, entry=BO_MAKES)
    evening.refresh_from_db()

    owed = session_outstanding(evening)
    expected = fewest_transfers(net_of_payments(evening))
    assert [(t.frm, t.to, t.amount) for t in owed.transfers] == [(t.frm, t.to, t.amount) for t in expected]
    assert_every_face_shows(evening, in_words(evening, [(t.frm, t.to, t.amount) for t in owed.transfers]))


def test_everything_paid_leaves_nothing_to_pay(evening):
    for transfer in session_outstanding(evening).transfers:
        services.payment_record(session=evening, payer=transfer.frm, payee=transfer.to, amount=transfer.amount)
    evening.refresh_from_db()

    assert_every_face_shows(evening, [])
    with translation.override("en"):
        page = Client().get(reverse("session_settle", args=[evening.group.view_token, evening.pk]),
                            HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Everything owed is paid." in page


def test_the_evenings_transfers_are_shown_before_payments_and_labelled_so(evening):
    url = reverse("session_settle", args=[evening.group.view_token, evening.pk])
    assert "evening-transfers" not in Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    services.payment_record(session=evening, payer="Bo", payee="Ann", amount=Decimal(500))
    page = Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "The evening's transfers, before payments" in page
    assert read(page).lists["evening-transfers"] == ["Bo pays Ann ₩500", "Di pays Ann ₩500", "Ed pays Cy ₩500"]
    assert read(page).lists["settle-transfers"] == ["Di pays Ann ₩500", "Ed pays Cy ₩500"]


def test_each_line_of_the_card_is_marked_paid_in_one_tap(evening):
    token = evening.group.edit_token
    card = Client().get(reverse("session_payments", args=[token, evening.pk]), **HX).content.decode()

    forms = re.findall(r'<li data-from="(\w+)" data-to="(\w+)" data-amount="(\d+)">.*?'
                       r'name="amount" value="(\d+)"', card, flags=re.S)
    assert [(frm, to, amount) for frm, to, amount, _ in forms] == [("Bo", "Ann", "500"), ("Di", "Ann", "500"),
                                                                   ("Ed", "Cy", "500")]
    assert all(amount == value for _, _, amount, value in forms)
    # the tap: its own form, nothing to type
    Client().post(reverse("payment_mark", args=[token, evening.pk]),
                  {"payer": "Bo", "payee": "Ann", "amount": "500"})
    assert list(Payment.objects.values_list("payer", "payee", "amount")) == [("Bo", "Ann", Decimal(500))]


def test_the_mark_button_reads_as_an_action_in_korean(evening):
    card = Client().get(reverse("session_payments", args=[evening.group.edit_token, evening.pk]),
                        HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert ">지불 완료로 표시</button>" in card
    assert ">지불 완료</button>" not in card


def test_korean_pages_show_the_same_list(evening):
    services.payment_record(session=evening, payer="Bo", payee="Ann", amount=Decimal(500))
    page = Client().get(reverse("session_settle", args=[evening.group.view_token, evening.pk]),
                        HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert read(page).lists["settle-transfers"] == ["Di → Ann 500원", "Ed → Cy 500원"]
    assert "남은 송금" in page and "지불 전 오늘의 송금" in page
    assert chat_transfers(read(page).chat.replace("→", "pays")) == ["Di pays Ann 500원", "Ed pays Cy 500원"]


# --- the API ----------------------------------------------------------------------------------------


def _owed(answer: dict) -> list[dict]:
    """The API's outstanding transfers without the payee's buttons (tests/web/test_pay_in_one_tap.py)."""
    return [{key: value for key, value in line.items() if key != "pay"} for line in answer["outstanding"]]


def test_the_api_answers_outstanding_beside_the_evenings_transfers(evening):
    api = Client(HTTP_AUTHORIZATION=f"Bearer {evening.group.edit_token}")
    url = f"/api/v1/sessions/{evening.pk}/settlement"
    before = api.get(url).json()
    assert _owed(before) == before["money_transfers"] == [
        {"from": "Bo", "to": "Ann", "amount": "500"}, {"from": "Di", "to": "Ann", "amount": "500"},
        {"from": "Ed", "to": "Cy", "amount": "500"}]

    paid = api.post(f"/api/v1/sessions/{evening.pk}/payments", json.dumps({"from": "Ed", "to": "Cy", "amount": "800",
                                                                           "overpay": True}),
                    content_type="application/json")
    assert paid.status_code == 201
    after = api.get(url).json()

    assert after["money_transfers"] == before["money_transfers"]  # the evening's, before payments
    # Ed paid Cy ₩300 more than he owed him: Cy owes it back
    assert _owed(after) == [{"from": "Bo", "to": "Ann", "amount": "500"},
                            {"from": "Cy", "to": "Ed", "amount": "300"},
                            {"from": "Di", "to": "Ann", "amount": "500"}]
    assert [payment["amount"] for payment in after["payments"]] == ["800.00"]


def test_the_api_outstanding_counts_points_and_chips_whole(db):
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS)
    services.payment_record(session=session, payer="Bo", payee="Ann", amount=Decimal(2))
    api = Client(HTTP_AUTHORIZATION=f"Bearer {session.group.view_token}")

    answer = api.get(f"/api/v1/sessions/{session.pk}/settlement").json()

    assert answer["settle_in"] == "points"
    assert _owed(answer) == [{"from": "Bo", "to": "Ann", "amount": "3"}, {"from": "Di", "to": "Ann", "amount": "5"},
                             {"from": "Ed", "to": "Cy", "amount": "5"}]


def test_the_schema_documents_outstanding(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    output = schema["components"]["schemas"]["SettlementOutput"]

    assert "outstanding" in output["required"]
    assert "still owed" in output["properties"]["outstanding"]["description"]
    assert "before payments" in output["properties"]["money_transfers"]["description"]


# --- whatever was played and paid ------------------------------------------------------------------


def net_of_payments(session) -> dict:
    """Each party's money (or points) in the evening's settlement, less what was marked paid, in seat
    order with the pot last: counted here from the settlement's own amounts, not from its transfers."""
    settlement = session_settlement(session, per_hand=False)
    evening = settlement.money if settlement.money is not None else settlement.totals
    net = {party: Decimal(evening.get(party, 0)) for party in [*session.seats, POT]}
    for payment in session.payments.standing():
        net[payment.payer] += payment.amount
        net[payment.payee] -= payment.amount
    return {party: amount for party, amount in net.items() if amount}


payments = st.tuples(st.sampled_from(SEATS), st.sampled_from(SEATS), st.integers(1, 30))
steps = st.lists(st.one_of(
    st.tuples(st.just("hand"), legal_hands(slugs=["pagat-standard"])),
    st.tuples(st.just("deal miss"), st.integers(1, 3)),
    st.tuples(st.just("pay"), payments),
    st.tuples(st.just("undo"), st.integers(0, 20)),
), min_size=1, max_size=12)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(steps=steps, stake=st.sampled_from([None, 100]))
def test_outstanding_is_the_fewest_transfers_over_the_balances_net_of_payments(db, steps, stake):
    session = SessionFactory(group=GroupFactory(), **({"stake_per_point": stake, "currency": "KRW"} if stake else {}))
    for kind, what in steps:
        if kind == "hand":
            request, _system = what
            with contextlib.suppress(InvalidInput):  # one this table's legality refuses is not recorded
                HandFactory(session=session, entry={k: v for k, v in request.items() if k not in ("system", "seats")})
        elif kind == "deal miss":
            with contextlib.suppress(InvalidInput):
                HandFactory(session=session, kind=Hand.DEAL_MISS, entry={"dealer": "Ann", "shown_by": "Cy", "fine": what})
        elif kind == "pay":
            payer, payee, count = what
            if payer != payee:  # overpayments and the wrong way round included, confirmed
                services.payment_record(session=session, payer=payer, payee=payee,
                                        amount=Decimal(count * (stake or 1)), overpay=True)
        elif standing := list(session.payments.standing()):
            services.payment_undo(payment=standing[what % len(standing)])
        session.refresh_from_db()
        owed = session_outstanding(session)
        expected = fewest_transfers(net_of_payments(session))
        assert [(t.frm, t.to, t.amount) for t in owed.transfers] == [(t.frm, t.to, t.amount) for t in expected]
    assert_every_face_shows(session, in_words(session, [(t.frm, t.to, t.amount) for t in owed.transfers]))


def test_the_card_on_the_settlement_page_follows_the_table_unless_it_is_asking(evening):
    token = evening.group.edit_token
    follows = 'hx-trigger="live:updated from:document"'
    client = Client()

    assert follows in client.get(reverse("session_payments", args=[token, evening.pk]), **HX).content.decode()
    # its own page, without the settlement's live regions: nothing to follow
    assert follows not in client.get(reverse("session_payments", args=[token, evening.pk])).content.decode()
    # "record it anyway?" waits for its answer: a hand elsewhere does not wipe the question
    asking = client.post(reverse("payment_mark", args=[token, evening.pk]),
                         {"payer": "Ed", "payee": "Cy", "amount": "900"}, **HX).content.decode()
    assert 'data-testid="payment-beyond-owed"' in asking and follows not in asking
