"""The history page says what each change did, in the reader's language, and which kind of link made it."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.models import Session
from tests.factories import MADE_15_DIAMONDS, SessionFactory

pytestmark = pytest.mark.django_db

EDIT = services.Actor("edit link")
API = services.Actor("API")


@pytest.fixture
def evening():
    """A hand recorded, edited, deleted and restored; a hand in progress abandoned; a payment marked
    and undone; then the same hand in progress again, finished as hand 2."""
    session = SessionFactory(stake_per_point=Decimal(100), currency="KRW")
    hand, _ = services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS), by=EDIT)
    hand = services.hand_amend(hand=hand, entry={**MADE_15_DIAMONDS, "points": 18}, version=hand.version, by=EDIT)
    hand = services.hand_delete(hand=hand, by=EDIT)
    services.hand_restore(hand=hand, by=API)
    fresh = Session.objects.get(pk=session.pk)
    bid = {key: MADE_15_DIAMONDS[key] for key in ("dealer", "declarer", "contract", "partner_call")}
    contract, _ = services.contract_open(session=fresh, entry=bid, by=EDIT)
    services.contract_abandon(contract=contract, by=EDIT)
    payment, _ = services.payment_record(session=Session.objects.get(pk=session.pk), payer="Bo", payee="Ann",
                                      amount=Decimal(700), by=EDIT)
    services.payment_undo(payment=payment, by=EDIT)
    contract, _ = services.contract_open(session=Session.objects.get(pk=session.pk), entry=bid, by=EDIT)
    services.contract_complete(contract=contract, result={"partners": ["Cy"], "points": 16}, by=API)
    return session


def history(client, session, language: str) -> str:
    page = client.get(reverse("session_history", args=[session.group.view_token, session.pk]),
                      HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    return re.sub(r"\s+", " ", page.content.decode())


def test_every_change_is_a_sentence_in_english(client, evening):
    text = history(client, evening, "en")
    for sentence in ("Session started", "Hand 1 recorded", "Hand 1 edited", "Hand 1 deleted", "Hand 1 restored",
                     "Hand in progress: contract announced", "Hand in progress thrown in",
                     "Bo paid Ann ₩700", "Payment undone: Bo to Ann, ₩700",
                     "Hand in progress finished as hand 2", "Hand 2 recorded"):
        assert sentence in text, sentence
    assert "edit link" in text and "API" in text
    assert "took None" not in text  # a hand in progress is not summarised as a hand


def test_and_in_korean(client, evening):
    text = history(client, evening, "ko")
    for sentence in ("게임 시작", "1번 판 기록", "1번 판 수정", "1번 판 삭제", "1번 판 복구",
                     "Bo → Ann 700원 지불함", "지불 취소: Bo → Ann 700원", "진행 중인 판이 2번 판으로 끝남", "편집 링크"):
        assert sentence in text, sentence
    for english in ("Hand 1", "recorded", "edit link", "Payment undone"):
        assert english not in text, english
