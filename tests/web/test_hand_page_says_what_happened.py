"""A hand's page says what happened to the hand, however it was recorded.

Recorded over the API, a thrown-in hand's page said the declarer played alone and that
"the declarer's team took" nothing at all (a blank where the points go); a conceded hand's
page did not say it was conceded; and a bid that differed from the contract was printed
with its trump as a letter ("bid 13S") where every other page prints ♠.
"""

import pytest
from django.urls import reverse

from mighty_ledger import services
from tests.factories import MADE_15_DIAMONDS


def hand_page(client, session, language="en"):
    url = reverse("hand_detail", args=[session.group.edit_token, session.pk, 1])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).text


def facts(page: str) -> str:
    return page.split('<dl class="facts">')[1].split("</dl>")[0]


def test_a_thrown_in_hand_names_no_partner_and_no_points(client, session):
    entry = {k: v for k, v in MADE_15_DIAMONDS.items() if k not in ("partners", "points")} | {"outcome": "void"}
    services.hand_record(session=session, entry=entry)

    page = facts(hand_page(client, session))

    assert "Void: not scored" in page
    assert "declarer alone" not in page and "took" not in page


@pytest.mark.parametrize(
    ("by", "said"),
    [
        pytest.param("defenders", "Conceded by the defenders", id="defenders"),
        pytest.param("declarer_team", "Conceded by the declarer’s team", id="declarer-team"),
    ],
)
def test_a_conceded_hand_says_who_conceded(client, session, by, said):
    services.hand_record(session=session, entry=MADE_15_DIAMONDS | {"outcome": "conceded", "conceded_by": by})

    assert said in facts(hand_page(client, session))


def test_a_played_hand_says_nothing_more(client, session):
    services.hand_record(session=session, entry=MADE_15_DIAMONDS)

    page = facts(hand_page(client, session))

    assert "Void" not in page and "Conceded" not in page


def test_a_bid_that_differs_is_printed_with_its_suit_sign(client, session):
    services.hand_record(session=session, entry=MADE_15_DIAMONDS | {"bid": {"points": 13, "trump": "S"}})

    assert "(bid 13♠)" in facts(hand_page(client, session))


def test_a_bid_the_same_as_the_contract_is_not_printed_again(client, session):
    services.hand_record(session=session, entry=MADE_15_DIAMONDS | {"bid": MADE_15_DIAMONDS["contract"]})

    assert "bid" not in facts(hand_page(client, session))


def test_what_happened_is_said_in_korean(client, session):
    services.hand_record(session=session, entry=MADE_15_DIAMONDS | {"outcome": "conceded", "conceded_by": "defenders"})

    assert "야당이 포기" in facts(hand_page(client, session, "ko"))
