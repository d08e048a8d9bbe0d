"""The stake agreed when the table settles: the settle page changes what the session is played for,
through the same service as the API, and the money follows from the points."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from mighty_ledger.models import Revision
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    """Ann made 15 ♦ with Cy and 18 points, played for points alone."""
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS | {"points": 18})
    return session


def stakes_url(session, token=None) -> str:
    return reverse("session_stakes", args=[token or session.group.edit_token, session.pk])


def test_a_stake_set_on_the_settle_page_prices_the_evening(client, evening):
    answer = client.post(stakes_url(evening), {"stake_per_point": "100", "currency": "KRW"},
                         HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 302
    page = client.get(answer["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Bo pays Ann ₩700" in page and "Played for ₩100 a point" in page
    evening.refresh_from_db()
    assert evening.totals == {"Ann": 14, "Bo": -7, "Cy": 7, "Di": -7, "Ed": -7}


def test_chips_instead_of_money(client, evening):
    client.post(stakes_url(evening), {"stake_per_point": "100", "currency": "KRW"})
    client.post(stakes_url(evening), {"chips_start": "100", "chips_per_point": "2"})
    evening.refresh_from_db()
    assert (evening.stake_per_point, evening.chips_start, evening.chips_per_point) == (None, 100, 2)


def test_a_bad_stake_is_said_beside_its_box_and_nothing_changes(client, evening):
    answer = client.post(stakes_url(evening), {"stake_per_point": "-5"}, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400
    assert answer.context["stakes_form"].errors["stake_per_point"]
    evening.refresh_from_db()
    assert evening.stake_per_point is None


def test_a_view_link_cannot_change_the_stakes_nor_sees_the_form(client, evening):
    view = evening.group.view_token
    assert client.post(stakes_url(evening, view), {"stake_per_point": "100"}).status_code == 403
    page = client.get(reverse("session_settle", args=[view, evening.pk])).content.decode()
    assert 'id="stakes-form"' not in page


def test_the_change_is_kept_in_the_history(client, evening):
    client.post(stakes_url(evening), {"stake_per_point": "100", "currency": "KRW"})
    change = Revision.objects.get(session=evening, subject="session", action=Revision.AMENDED)
    assert change.after["stakes"]["stake_per_point"] == str(Decimal("100.00"))
    history = client.get(reverse("session_history", args=[evening.group.edit_token, evening.pk]),
                         HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Stakes changed" in history
    assert "Before: points only" in history and "After: ₩100 a point" in history


def test_the_settle_page_lists_each_transfer_once(client, evening):
    client.post(stakes_url(evening), {"stake_per_point": "100", "currency": "KRW"})
    page = client.get(reverse("session_settle", args=[evening.group.edit_token, evening.pk]),
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    settle_list = page[page.index('data-testid="settle-transfers"'):page.index("</ul>", page.index('data-testid="settle-transfers"'))]
    # share, pay and mark as paid beside each line of the one list
    assert settle_list.count("data-share-line=") == settle_list.count("<li ") == 3
    assert settle_list.count("Mark as paid") == 3
    # the card drawn into the page shows the payments marked, not the list again
    card = client.get(reverse("session_payments", args=[evening.group.edit_token, evening.pk]),
                      HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en",
                      HTTP_HX_CURRENT_URL="http://testserver" + reverse("session_settle", args=[evening.group.edit_token, evening.pk]))
    assert 'data-testid="payments-owed"' not in card.content.decode()
