"""Share the night, mark what was paid, and carry what is still owed across sessions.

The evening is test_stats.py's (pagat's five-player game), played for 100 won a
point: Cy ends +255, Bo −43, Di −43, Ann −66, Ed −103, so Cy is owed 25,500원
and each of the others pays him what they lost; nobody else is up, so the
fewest transfers are those four.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from mighty_ledger import reads, services
from mighty_ledger.models import Payment
from mighty_ledger.pages.templatetags.money import (
    amount_text,
    currency_mark,
    format_money,
    money_in_column,
    share_text,
)
from mighty_ledger.reads import balance, stats
from scoring.problems import InvalidInput
from tests.factories import GroupFactory, SessionFactory
from tests.web.test_stats import EVENING, play

WON = {"stake_per_point": Decimal(100), "currency": "KRW"}


@pytest.fixture
def night(db):
    return play(SessionFactory(played_on=datetime.date(2026, 11, 20), title="Friday", **WON))


# --- money as the players read it ------------------------------------------------------------------


@pytest.mark.parametrize(("amount", "currency", "language", "text"), [
    (10500, "KRW", "ko", "10,500원"),
    (10500, "원", "en", "₩10,500"),
    (-10500, "₩", "en", "−₩10,500"),
    (Decimal("3.5"), "EUR", "en", "€3.50"),
    (Decimal("1234.5"), "CHF", "en", "1,234.50 CHF"),
    (1000, "JPY", "ko", "1,000엔"),
    (Decimal("0.50"), "KRW", "en", "₩0.5"),
    (Decimal("0.125"), "EUR", "en", "€0.125"),
], ids=["issue-10500-won", "won-sign-in-english", "minus-sign", "euro-cents", "code-after", "yen-in-korean",
        "half-a-won-is-not-rounded-away", "a-stake-finer-than-a-cent"])
def test_money_is_written_for_the_currency_and_the_language(amount, currency, language, text):
    assert format_money(amount, currency, language) == text


@pytest.mark.parametrize(("amount", "currency", "language", "text"), [
    (16000, "KRW", "en", "16K"),
    (-32000, "KRW", "ko", "−3.2만"),
    (12300, "KRW", "ko", "1.23만"),
    (-123400, "KRW", "en", "−123.4K"),
    (12345, "KRW", "en", "12,345"),
    (9900, "KRW", "ko", "9,900"),
    (Decimal("-1234.50"), "EUR", "en", "−1,234.50"),
    # amounts with no decimal places (a session started by the API without a rounding unit)
    (Decimal("20000"), "KRW", "en", "20K"),
    (Decimal("100000"), "KRW", "ko", "10만"),
    (1500000, "KRW", "en", "1,500K"),
    (Decimal("20000.00"), "KRW", "ko", "2만"),
], ids=["thousands", "man-in-korean", "exact-to-the-hundred", "minus", "no-shorter", "under-ten-thousand", "cents",
        "twenty-thousand", "a-hundred-thousand-in-korean", "a-million-and-a-half", "stored-with-cents"])
def test_the_boards_narrow_columns_write_money_without_its_currency_and_shorter_when_exact(
        amount, currency, language, text):
    # eight seats at ₩1,000 a point: "₩16,000" does not fit a column; the currency is said once
    with translation.override(language):
        assert money_in_column(amount, currency) == text
        assert currency_mark(currency) == {"KRW": {"en": "₩", "ko": "원"}, "EUR": {"en": "€"}}[currency][language]


def test_counts_of_chips_and_points_agree_with_the_number():
    with translation.override("en"):
        assert amount_text(1, "chips", "") == "1 chip"
        assert amount_text(Decimal(3), "chips", "") == "3 chips"
        assert amount_text(1, "points", "") == "1 point"


# --- share the night ----------------------------------------------------------------------------


def test_the_share_text_says_who_pays_whom_in_won(night):
    with translation.override("en"):
        text = share_text(night, reads.session_settlement(night, per_hand=False))

    assert text.splitlines() == [
        "Mighty, 2026-11-20 · Friday",
        "Cy +255, Bo −43, Di −43, Ann −66, Ed −103",
        "Ann pays Cy ₩6,600",
        "Bo pays Cy ₩4,300",
        "Di pays Cy ₩4,300",
        "Ed pays Cy ₩10,300",
    ]


def test_the_settlement_page_offers_the_share_text_and_the_hands_as_csv(client, night):
    token = night.group.view_token
    page = client.get(reverse("session_settle", args=[token, night.pk]))

    text = page.content.decode()
    assert 'data-testid="share-text"' in text and "Ed pays Cy ₩10,300" in text
    assert reverse("session_hands_csv", args=[token, night.pk]) in text
    assert reverse("session_payments", args=[token, night.pk]) in text


def test_the_scoreboard_links_its_chart_and_the_hands_as_csv(client, night):
    token = night.group.view_token
    text = client.get(reverse("session_board", args=[token, night.pk])).content.decode()

    assert reverse("session_chart", args=[token, night.pk]) in text
    assert reverse("session_hands_csv", args=[token, night.pk]) in text


# --- mark as paid -----------------------------------------------------------------------------------


def test_marking_a_transfer_paid_keeps_it_in_the_history_and_undo_brings_it_back(client, night):
    token = night.group.edit_token
    mark = reverse("payment_mark", args=[token, night.pk])

    client.post(mark, {"payer": "Ed", "payee": "Cy", "amount": "10300"})
    page = client.get(reverse("session_payments", args=[token, night.pk]))
    # paid in full: no longer among what is still owed
    assert "Ed" not in {transfer.frm for transfer in page.context["outstanding"].transfers}
    payment = Payment.objects.get()
    assert (payment.unit, payment.currency) == (Payment.MONEY, "KRW")
    assert night.revisions.filter(subject="payment").count() == 1

    client.post(reverse("payment_undo", args=[token, night.pk, payment.pk]))
    page = client.get(reverse("session_payments", args=[token, night.pk]))
    ed = next(transfer for transfer in page.context["outstanding"].transfers if transfer.frm == "Ed")
    assert ed.amount == Decimal(10300) and page.context["payments"] == []
    assert night.revisions.filter(subject="payment").count() == 2  # the undo is a change of its own


def test_a_view_link_cannot_mark_a_payment(client, night):
    response = client.post(reverse("payment_mark", args=[night.group.view_token, night.pk]),
                           {"payer": "Ed", "payee": "Cy", "amount": "10300"})

    assert response.status_code in (403, 404)
    assert not Payment.objects.exists()


@pytest.mark.parametrize(("payer", "payee", "amount", "code"), [
    ("Nobody", "Cy", "1", "unknown_seat"),
    ("Cy", "Cy", "1", "same_seat"),
    ("Ed", "Cy", "0", "not_positive"),
    ("Ed", "Cy", "0.001", "bad_amount"),
])
def test_a_payment_that_cannot_be_is_refused(night, payer, payee, amount, code):
    with pytest.raises(InvalidInput) as refused:
        services.payment_record(session=night, payer=payer, payee=payee, amount=Decimal(amount))

    assert code in {problem.code for problem in refused.value.problems}


def test_a_bad_amount_on_the_page_is_a_message_not_an_error(client, night):
    response = client.post(reverse("payment_mark", args=[night.group.edit_token, night.pk]),
                           {"payer": "Ed", "payee": "Cy", "amount": "lots"}, follow=True)

    assert response.status_code == 200
    assert "The amount must be more than 0." in response.content.decode()


# --- the group's balance -------------------------------------------------------------------------------


def test_unpaid_amounts_carry_across_sessions_and_payments_clear_them(db):
    group = GroupFactory()
    first = play(SessionFactory(group=group, played_on=datetime.date(2026, 11, 13), **WON))
    second = play(SessionFactory(group=group, played_on=datetime.date(2026, 11, 20), **WON))
    services.payment_record(session=first, payer="Ed", payee="Cy", amount=Decimal(10300))

    [owed] = balance.group_balance([first, second], balance.standing_payments([first, second]))

    # two evenings owed, one of Ed's payments made
    assert (owed.unit, owed.currency) == (Payment.MONEY, "KRW")
    assert owed.amounts == {"Cy": 2 * 25500 - 10300, "Ann": -13200, "Bo": -8600, "Di": -8600, "Ed": -10300}
    assert {(t.frm, t.to, t.amount) for t in owed.transfers} == {
        ("Ann", "Cy", 13200), ("Bo", "Cy", 8600), ("Di", "Cy", 8600), ("Ed", "Cy", 10300),
    }


def test_points_and_money_are_never_added_together_in_the_balance(db):
    group = GroupFactory()
    money = play(SessionFactory(group=group, **WON))
    points = play(SessionFactory(group=group))

    balances = balance.group_balance([money, points], [])

    assert [(b.unit, b.currency) for b in balances] == [(Payment.MONEY, "KRW"), (Payment.POINTS, "")]
    assert balances[1].amounts["Cy"] == 255


def test_the_group_page_draws_the_season_and_what_is_still_owed(client, night):
    services.payment_record(session=night, payer="Ed", payee="Cy", amount=Decimal(10300))
    page = client.get(reverse("group_page", args=[night.group.view_token]))

    text = page.content.decode()
    assert text.count('class="series-line"') == 5  # the season's chart, one line per player
    assert "Ann pays Cy ₩6,600" in text and "Ed pays Cy" not in text
    assert reverse("group_stats", args=[night.group.view_token]) in text
    assert reverse("player_page", args=[night.group.view_token, "Cy"]) in text


def test_payments_never_change_the_scores(night):
    totals = dict(night.totals)
    services.payment_record(session=night, payer="Ed", payee="Cy", amount=Decimal(10300))
    night.refresh_from_db()

    assert night.totals == totals


def test_money_per_session_and_in_total_and_the_best_and_worst_session(db):
    group = GroupFactory()
    good = play(SessionFactory(group=group, played_on=datetime.date(2026, 11, 13), **WON))
    # the second evening only the first hand: 15♦ made, Ann +10, Cy +5, the defenders −5 each
    short = play(SessionFactory(group=group, played_on=datetime.date(2026, 11, 20), **WON), EVENING[:1])

    ann = stats.group_stats(group).player("Ann")

    assert [(line.session_id, line.points, line.money) for line in ann.sessions] == [
        (good.pk, -66, Decimal(-6600)), (short.pk, 10, Decimal(1000)),
    ]
    assert ann.money == {"KRW": Decimal(-5600)} and ann.points == -56
    assert (ann.best_session.session_id, ann.worst_session.session_id) == (short.pk, good.pk)


def test_won_written_as_a_symbol_or_a_code_is_one_balance(db):
    group = GroupFactory()
    by_code = play(SessionFactory(group=group, **WON))
    by_symbol = play(SessionFactory(group=group, stake_per_point=Decimal(100), currency="원"))

    [owed] = balance.group_balance([by_code, by_symbol], [])

    assert (owed.currency, owed.amounts["Cy"]) == ("KRW", 2 * 25500)
