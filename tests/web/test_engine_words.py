"""The engine's sentences reach a Korean table in Korean: problems, explanations, reasons."""

from __future__ import annotations

from django.utils.html import escape

from mighty_ledger.models import Hand
from tests.factories import MADE_15_DIAMONDS, HandFactory
from tests.web.test_rules_pages import WEAK_HAND, redeal_url
from tests.web.test_table import form_data, url


def test_a_korean_preview_of_an_illegal_hand_names_the_problem_in_korean(client, session):
    entry = dict(MADE_15_DIAMONDS, contract={"points": 12, "trump": "D"})

    response = client.post(
        url("hand_preview", session), form_data(entry), HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="ko"
    )

    # 12 is read 십이, so the particle is 는, never "은(는)"
    assert response.context["form"].errors["contract_points"] == ["공약 12는 이 시스템의 최소 13보다 낮습니다."]
    assert escape("공약 12는 이 시스템의 최소 13보다 낮습니다.") in response.text
    assert "is below this system" not in response.text


def test_an_english_preview_keeps_the_engines_english(client, session):
    entry = dict(MADE_15_DIAMONDS, contract={"points": 12, "trump": "D"})

    response = client.post(
        url("hand_preview", session), form_data(entry), HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en"
    )

    assert response.context["form"].errors["contract_points"] == [
        "A contract of 12 is below this system's minimum of 13."
    ]


def test_a_korean_preview_explains_the_score_in_korean(client, session):
    response = client.post(
        url("hand_preview", session), form_data(MADE_15_DIAMONDS), HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="ko"
    )

    assert "여당이 20장 중 16장을 가져감: 성공." in response.text
    assert "기본 점수(성공): 2×(15−13)+(16−15) = 5." in response.text


def test_the_hand_page_explains_a_stored_hand_in_korean(client, session):
    HandFactory(session=session)

    response = client.get(
        url("hand_detail", session, 1, token=session.group.view_token), HTTP_ACCEPT_LANGUAGE="ko"
    )

    assert "기본 점수(성공)" in response.text
    assert escape(response.context["hand"].result["explanation"][0]) not in response.text


def test_the_hand_page_shows_the_stored_lines_of_a_hand_the_engine_now_explains_otherwise(client, session):
    # what the 0005 migration keeps for a hand whose stored English the engine no longer gives
    hand = HandFactory(session=session)
    Hand.objects.filter(pk=hand.pk).update(
        result={**hand.result, "explanation": ["Scored by an older rule."]},
        explanation=["Scored by an older rule."],
    )

    response = client.get(
        url("hand_detail", session, 1, token=session.group.view_token), HTTP_ACCEPT_LANGUAGE="ko"
    )

    assert "Scored by an older rule." in response.text


def test_the_redeal_calculator_gives_its_reasons_in_korean(client):
    response = client.get(redeal_url("pagat-standard", WEAK_HAND), HTTP_ACCEPT_LANGUAGE="ko")

    assert "(으)로 세면" in response.text
    assert "Counting" not in response.text
