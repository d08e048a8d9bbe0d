"""A player who has lost more chips than they started with owes chips: the settlement prints
that with the real minus sign, as it prints every other negative figure (−18, not -18)."""

import re

from django.urls import reverse

from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory


def test_chips_below_zero_are_printed_with_the_minus_sign(client, db):
    session = SessionFactory(chips_start=0, chips_per_point=3)
    HandFactory(session=session, entry=MADE_15_DIAMONDS)  # the defenders lose: below no chips at all

    page = client.get(reverse("session_settle", args=[session.group.edit_token, session.pk])).text
    totals = page.split('id="settle-totals"')[1].split("</table>")[0]
    figures = re.findall(r"<td[^>]*>([^<]*)</td>", totals)

    assert "−15" in figures and not any("-" in figure for figure in figures), figures


def test_the_board_prints_chips_below_zero_with_the_minus_sign_too(client, db):
    session = SessionFactory(chips_start=0, chips_per_point=3)
    HandFactory(session=session, entry=MADE_15_DIAMONDS)

    board = client.get(reverse("session_board", args=[session.group.edit_token, session.pk])).text
    chips = re.findall(r'<span class="chips">([^<]*)</span>', board)

    assert "−15" in chips and not any("-" in figure for figure in chips), chips
