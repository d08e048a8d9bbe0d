"""The redeal calculator says a system's deal-miss odds once, as a player says them ("1 in 23
(4.3%)"), while the API keeps its numbers (HAND_JSON: probability, probability_exact)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.urls import reverse

from mighty_ledger.pages.views.rules import percent_said
from tests.web.test_rules_pages import WEAK_HAND, redeal_url


@pytest.mark.parametrize(("chance", "said"), [
    pytest.param(Fraction(18990476, 443161355), "4.3", id="pagat-standard-4.285-percent"),
    pytest.param(Fraction(1, 240), "0.42", id="one-in-240"),
    pytest.param(Fraction(1, 4), "25", id="a-quarter"),
    pytest.param(Fraction(996, 10000), "10", id="rounded-up-to-ten"),
    pytest.param(Fraction(995, 100000), "1.0", id="rounded-up-to-one"),
    pytest.param(Fraction(1, 1), "100", id="every-hand"),
    pytest.param(Fraction(1, 1_000_000), "0.00010", id="one-in-a-million"),
    pytest.param(Fraction(0), "0", id="never"),
])
def test_a_chance_is_said_to_two_significant_figures(chance, said):
    assert percent_said(chance) == said


def test_the_calculator_says_the_odds_once_as_players_say_them(client):
    page = client.get(redeal_url("pagat-standard", WEAK_HAND)).content.decode()

    # pagat-standard: 18990476/443161355 ≈ 0.04285, about 1 in 23
    assert page.count("A random hand qualifies") == 1
    assert "A random hand qualifies 1 in 23 (4.3%)." in page
    # no float printed to its last digit, and the exact fraction only where a pointer finds it
    assert not re.search(r"\d\.\d{6,}", page)
    assert 'title="18990476/443161355"' in page


def test_the_verdict_alone_says_no_odds_the_section_under_it_does(client):
    verdict = client.get(redeal_url("pagat-standard", WEAK_HAND), HTTP_HX_TARGET="redeal-verdict",
                         HTTP_HX_REQUEST="true").content.decode()

    assert "Deal miss: this hand may demand a redeal." in verdict
    assert "A random hand qualifies" not in verdict


def test_each_criterion_of_a_system_with_several_is_said_the_same_way(client):
    page = client.get(reverse("system_detail", args=["korean-minsa"])).content.decode()
    criteria = re.findall(r'<li title="\d+/\d+">[^<]*: <strong>([^<]*)</strong>', page)

    assert len(criteria) > 1, "korean-minsa has more than one deal-miss criterion"
    assert all(re.fullmatch(r"1 in [\d,]+ \([\d.]+%\)|never", said) for said in criteria), criteria


def test_the_odds_read_in_korean(client):
    page = client.get(redeal_url("pagat-standard", WEAK_HAND), HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert "23번에 한 번 (4.3%)" in page


def test_the_api_keeps_its_numbers(client):
    body = client.post("/api/v1/redeal", {"system": "pagat-standard", "hand": WEAK_HAND},
                       content_type="application/json").json()

    assert body["probability_exact"] == "18990476/443161355"
    assert body["probability"] == pytest.approx(18990476 / 443161355)
