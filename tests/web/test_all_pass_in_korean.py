"""An all-pass has one Korean name on every page: "모두 패스", as the board, the hand form and a
hand's page call it; the statistics alone said "올패스"."""

import pytest
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.models import Hand
from tests.factories import SessionFactory

pytestmark = pytest.mark.django_db


def test_the_statistics_call_an_all_pass_what_the_board_calls_it():
    session = SessionFactory()
    services.hand_record(session=session, kind=Hand.ALL_PASS, entry={"dealer": "Ed"})
    from django.test import Client

    client = Client()
    token = session.group.edit_token
    stats = client.get(reverse("group_stats", args=[token]), HTTP_ACCEPT_LANGUAGE="ko").text
    board = client.get(reverse("session_board", args=[token, session.pk]), HTTP_ACCEPT_LANGUAGE="ko").text

    assert "올패스" not in stats and "모두 패스" in stats
    assert "모두 패스" in board
