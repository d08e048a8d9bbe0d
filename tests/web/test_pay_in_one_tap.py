"""Pay in one tap (issue 39): each transfer still owed carries its payee's buttons.

The link forms are the ones docs/table.md ("Paying in one tap") names, from public sources:
Toss's ``https://toss.me/<ID>/<amount>``, the payee's own ``https://qr.kakaopay.com/<code>``
(no amount), and an account number copied with the amount. The handles are the edit link's
holders' business: a view link's pages never show them.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from mighty_ledger.models import Player, Revision
from mighty_ledger.reads.balance import session_outstanding
from mighty_ledger.reads.pay_links import (
    PayHandles,
    bank_of,
    checked_handles,
    kakaopay_link_of,
    pay_links,
    toss_id_of,
)
from mighty_ledger.services.pay import player_pay_set
from scoring.problems import InvalidInput
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

WON = {"stake_per_point": 100, "currency": "KRW"}
ANN = {"toss": "annkim", "kakaopay": "https://qr.kakaopay.com/Ej8ZBFvdw", "bank": "kakaobank",
       "account": "3333-01-1234567"}


# --- the link forms (pure) ----------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "kept"), [
    ("annkim", "annkim"),
    ("김앤1234", "김앤1234"),
    ("toss.me/annkim", "annkim"),  # the link Toss shares, pasted whole
    ("https://toss.me/annkim/5000", "annkim"),  # with an amount after it
    ("  annkim ", "annkim"),
])
def test_a_toss_id_or_its_link_is_kept_as_the_id(typed, kept):
    assert toss_id_of(typed) == kept


@pytest.mark.parametrize("typed", ["a", "ann kim", "ann.kim", "https://evil.example/annkim", "toss.me/",
                                   "javascript:alert(1)", "toss.me/a/b/c", "ann<b>"])
def test_anything_else_is_not_a_toss_id(typed):
    assert toss_id_of(typed) is None


@pytest.mark.parametrize(("typed", "kept"), [
    ("https://qr.kakaopay.com/Ej8ZBFvdw", "https://qr.kakaopay.com/Ej8ZBFvdw"),
    ("qr.kakaopay.com/FUI1VLcBZ", "https://qr.kakaopay.com/FUI1VLcBZ"),
    ("http://qr.kakaopay.com/FUI1VLcBZ/", "https://qr.kakaopay.com/FUI1VLcBZ"),
])
def test_a_kakaopay_money_link_is_kept_on_its_host(typed, kept):
    assert kakaopay_link_of(typed) == kept


@pytest.mark.parametrize("typed", ["https://qr.kakaopay.com.evil.example/Ej8", "https://kakaopay.com/Ej8ZBFvdw",
                                   "https://qr.kakaopay.com/", "https://qr.kakaopay.com/Ej8?amount=1",
                                   "https://user@qr.kakaopay.com/Ej8ZBFvdw", "javascript:alert(1)",
                                   "https://qr.kakaopay.com/Ej8/../x"])
def test_a_link_anywhere_else_is_not_a_kakaopay_link(typed):
    assert kakaopay_link_of(typed) is None


def test_a_bank_by_its_code_english_or_korean_name():
    assert bank_of("kakaobank") == bank_of("KakaoBank") == bank_of("카카오뱅크") == "kakaobank"
    assert bank_of("Bank of Nowhere") is None


@pytest.mark.parametrize(("typed", "code"), [
    ("국민은행", "kb"), ("KB국민은행", "kb"), ("KB 국민은행", "kb"), ("Kookmin", "kb"), ("kb kookmin bank", "kb"),
    ("농협", "nh"), ("신한은행", "shinhan"), ("우리은행", "woori"), ("기업은행", "ibk"), ("대구은행", "im"),
    ("Toss Bank", "tossbank"), ("토스뱅크", "tossbank"),
])
def test_a_bank_by_the_name_players_say(typed, code):
    assert bank_of(typed) == code


def test_an_unknown_bank_is_told_the_codes():
    _handles, problems = checked_handles(current=PayHandles(), changes={"bank": "Bank of Nowhere",
                                                                         "account": "110243217120"})
    assert [problem.code for problem in problems] == ["bank_unknown"]
    assert "kb, shinhan, woori" in problems[0].message


@pytest.mark.parametrize(("account", "ok"), [
    ("3333-01-1234567", True), ("110243217120", True), ("12345", False), ("3333--01", False),
    ("-3333011234", False), ("3333 01 1234567", False), ("1" * 21, False), ("٣٣٣٣٠١١٢٣٤٥٦٧", False),
])
def test_an_account_number_is_digits_and_dashes(account, ok):
    _, problems = checked_handles(current=PayHandles(), changes={"bank": "kb", "account": account})
    assert (not problems) is ok


def test_a_bank_goes_with_an_account_number():
    _, problems = checked_handles(current=PayHandles(), changes={"bank": "kb"})
    assert [p.code for p in problems] == ["bank_without_account"]
    _, problems = checked_handles(current=PayHandles(), changes={"account": "110243217120"})
    assert [p.code for p in problems] == ["account_without_bank"]


def test_an_empty_string_clears_a_handle_and_the_rest_stay():
    handles, problems = checked_handles(current=PayHandles(toss="annkim", kakaopay="https://qr.kakaopay.com/Ej8"),
                                        changes={"toss": ""})
    assert not problems and handles == PayHandles(kakaopay="https://qr.kakaopay.com/Ej8")


def test_toss_carries_the_amount_in_whole_won_kakaopay_and_the_account_do_not():
    handles, _ = checked_handles(current=PayHandles(), changes=ANN)
    toss, kakaopay, account = pay_links(handles, amount=Decimal("2100.00"), currency="KRW")
    assert (toss.url, toss.carries_amount) == ("https://toss.me/annkim/2100", True)
    assert (kakaopay.url, kakaopay.carries_amount) == ("https://qr.kakaopay.com/Ej8ZBFvdw", False)
    assert (account.url, account.text) == (None, "카카오뱅크 3333-01-1234567 2100원")


def test_toss_opens_without_the_amount_in_another_currency():
    toss, account = pay_links(PayHandles(toss="annkim", bank="kb", account="110243217120"),
                              amount=Decimal("12.50"), currency="EUR")
    assert (toss.url, toss.carries_amount) == ("https://toss.me/annkim", False)
    assert account.text == "KB국민은행 110243217120 12.5 EUR"


def test_a_korean_toss_id_is_percent_encoded_in_its_link():
    (toss,) = pay_links(PayHandles(toss="김앤김앤"), amount=Decimal(500), currency="KRW")
    assert toss.url == "https://toss.me/%EA%B9%80%EC%95%A4%EA%B9%80%EC%95%A4/500"


# --- the pages ----------------------------------------------------------------------------------


@pytest.fixture
def evening(db):
    """Ann made 15 ♦ with Cy and 18 points at ₩100 a point: Bo, Di and Ed pay; Ann keeps all three handles."""
    session = SessionFactory(**WON)
    HandFactory(session=session, entry=MADE_15_DIAMONDS | {"points": 18})
    player_pay_set(player=Player.objects.get(group=session.group, name="Ann"), changes=dict(ANN))
    session.refresh_from_db()
    return session


def settle(client, session, token):
    return client.get(reverse("session_settle", args=[token, session.pk]))


def test_the_settle_page_gives_each_transfer_to_ann_her_buttons(client, evening):
    body = settle(client, evening, evening.group.edit_token).content.decode()
    to_ann = [t for t in session_outstanding(evening).transfers if t.to == "Ann"]
    assert to_ann
    for transfer in to_ann:
        whole = int(transfer.amount)
        assert f'href="https://toss.me/annkim/{whole}"' in body
        assert f'data-pay-copy="카카오뱅크 3333-01-1234567 {whole}원"' in body
    assert 'href="https://qr.kakaopay.com/Ej8ZBFvdw"' in body
    # each with its "Mark as paid" for the payer and the payee
    assert body.count('data-testid="pay-buttons"') >= len(to_ann)
    assert "Paid in the app? Mark it here in one tap." in body


def test_the_view_link_pages_never_show_a_handle(client, evening):
    view = evening.group.view_token
    pages = [
        reverse("session_settle", args=[view, evening.pk]),
        reverse("session_board", args=[view, evening.pk]),
        reverse("session_payments", args=[view, evening.pk]),
        reverse("group_page", args=[view]),
        reverse("player_page", args=[view, "Ann"]),
    ]
    for path in pages:
        body = client.get(path).content.decode()
        for secret in ("3333-01-1234567", "33330112", "toss.me", "annkim", "qr.kakaopay.com", "pay-buttons"):
            assert secret not in body, (path, secret)
    assert client.get(reverse("player_pay", args=[view, Player.objects.get(name="Ann").pk])).status_code == 403


def test_a_handle_changed_draws_the_settle_page_again(client, evening):
    first = settle(client, evening, evening.group.edit_token)
    ann = Player.objects.get(group=evening.group, name="Ann")
    player_pay_set(player=ann, changes={"toss": "annlee"})
    again = client.get(reverse("session_settle", args=[evening.group.edit_token, evening.pk]),
                       HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and "toss.me/annlee/" in again.content.decode()


def test_the_english_page_writes_won_as_english_does_and_copies_the_amount_whole(client, evening):
    with translation.override("en"):
        body = client.get(reverse("session_settle", args=[evening.group.edit_token, evening.pk]),
                          HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # only what is copied into a banking app keeps "원": every amount shown is written "₩700"
    shown = re.sub(r'data-pay-copy="[^"]*"', "", body)
    assert "₩700" in shown and "700원" not in shown
    # the account shown in English; what is copied stays as Korean banking apps read it
    assert "Account: KakaoBank 3333-01-1234567" in body
    assert 'data-pay-copy="700"' in body and 'data-pay-copy="700.00"' not in body


def test_the_korean_page_writes_won_as_korean_does(client, evening):
    with translation.override("ko"):
        body = client.get(reverse("session_settle", args=[evening.group.edit_token, evening.pk]),
                          HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "700원" in body and "₩700" not in body


def test_the_korean_page_says_it_in_korean(client, evening):
    with translation.override("ko"):
        body = client.get(reverse("session_settle", args=[evening.group.edit_token, evening.pk]),
                          HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "토스로 보내기" in body and "카카오페이로 보내기" in body and "계좌번호 복사" in body


def test_the_pay_page_keeps_the_handles_and_says_what_is_wrong(client, evening):
    ann = Player.objects.get(group=evening.group, name="Ann")
    path = reverse("player_pay", args=[evening.group.edit_token, ann.pk])
    assert 'value="annkim"' in client.get(path).content.decode()

    refused = client.post(path, {"toss": "ann kim", "kakaopay": "https://pay.example/x", "bank": "kb",
                                 "account": "12-ab"})
    assert refused.status_code == 400
    words = refused.content.decode()
    assert "A Toss ID is 2 to 30 letters" in words and "A KakaoPay money link starts with" in words
    assert "An account number is 6 to 20 digits" in words
    ann.refresh_from_db()
    assert ann.pay_toss == "annkim"  # nothing kept when one is refused

    saved = client.post(path, {"toss": "https://toss.me/annlee", "kakaopay": "", "bank": "shinhan",
                               "account": "110-243-217120"})
    assert saved.status_code == 302
    ann.refresh_from_db()
    assert (ann.pay_toss, ann.pay_kakaopay, ann.pay_bank, ann.pay_account) == ("annlee", "", "shinhan", "110-243-217120")


def test_the_history_names_what_changed_never_the_handles(evening):
    revision = Revision.objects.filter(group=evening.group, subject="player").first()
    assert revision.after == {"name": "Ann", "pay": ["toss", "kakaopay", "account"]}


def test_a_refused_handle_is_a_problem_beside_its_field(db):
    session = SessionFactory()
    with pytest.raises(InvalidInput) as refused:
        player_pay_set(player=session.group.players.get(name="Bo"), changes={"kakaopay": "https://toss.me/bo"})
    assert [(p.field, p.code) for p in refused.value.problems] == [("kakaopay", "kakaopay_link")]


def test_the_player_page_and_group_page_lead_to_the_pay_page_with_the_edit_link_only(client, evening):
    ann = Player.objects.get(group=evening.group, name="Ann")
    pay_path = reverse("player_pay", args=[evening.group.edit_token, ann.pk])
    assert pay_path in client.get(reverse("player_page", args=[evening.group.edit_token, "Ann"])).content.decode()
    assert pay_path in client.get(reverse("group_page", args=[evening.group.edit_token])).content.decode()
    view_group = client.get(reverse("group_page", args=[evening.group.view_token])).content.decode()
    assert not re.search(r"/pay/\d+/", view_group)


def test_a_session_played_for_points_offers_no_app(client, db):
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS | {"points": 18})
    player_pay_set(player=Player.objects.get(group=session.group, name="Ann"), changes=dict(ANN))

    body = client.get(reverse("session_settle", args=[session.group.edit_token, session.pk])).content.decode()

    assert 'data-transfers="outstanding"' in body and "pay-buttons" not in body and "toss.me" not in body
