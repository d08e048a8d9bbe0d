"""Hand numbers after a deletion run 1, 3, 4: where the numbers skip, the board says which hands
were deleted, in a slim row that opens the session's changes."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from mighty_ledger import reads, services
from mighty_ledger.models import Hand
from mighty_ledger.pages.views.board_rows import DeletedHands, deleted_between
from mighty_ledger.pages.views.board_steps import board_step_for
from tests.factories import HandFactory, SessionFactory


@pytest.mark.parametrize(("numbers", "after", "through", "gaps"), [
    pytest.param([1, 2, 3], 0, 3, {}, id="nothing-deleted"),
    pytest.param([1, 3, 4], 0, 4, {3: DeletedHands(2, 2)}, id="hand-2-deleted"),
    pytest.param([2, 3], 0, 3, {2: DeletedHands(1, 1)}, id="the-first-hand-deleted"),
    pytest.param([1, 2], 0, 4, {5: DeletedHands(3, 4)}, id="the-last-two-deleted"),
    pytest.param([1, 5], 0, 5, {5: DeletedHands(2, 4)}, id="three-in-a-row"),
    pytest.param([7, 9], None, 9, {9: DeletedHands(8, 8)}, id="an-earlier-page-unknown"),
    pytest.param([7, 9], 5, None, {7: DeletedHands(6, 6), 9: DeletedHands(8, 8)}, id="after-hand-5"),
    pytest.param([], 0, 2, {3: DeletedHands(1, 2)}, id="every-hand-deleted"),
])
def test_the_gaps_between_the_rows(numbers, after, through, gaps):
    assert deleted_between(numbers, after=after, through=through) == gaps


@pytest.fixture
def four_hands(db):
    session = SessionFactory()
    for _ in range(4):
        HandFactory(session=session)
    return session


def delete(session, number: int) -> None:
    services.hand_delete(hand=Hand.objects.get(session=session, number=number))
    session.refresh_from_db()


def board_numbers(page: str) -> list[str]:
    """The first column of the board's rows as a player reads it, top to bottom."""
    rows = re.findall(r'<tr (?:id="hand-(\d+)"|id="deleted-\d+"[^>]*>\s*<td[^>]*><a[^>]*>([^<]*)</a>)', page)
    return [number or words for number, words in rows]


def test_a_deleted_hand_is_said_where_its_number_was(client, four_hands):
    delete(four_hands, 2)

    page = client.get(reverse("session_board", args=[four_hands.group.edit_token, four_hands.pk])).content.decode()

    assert board_numbers(page) == ["1", "Hand 2 deleted", "3", "4"]
    history = reverse("session_history", args=[four_hands.group.edit_token, four_hands.pk])
    assert f'<a href="{history}">Hand 2 deleted</a>' in page


def test_the_last_hands_deleted_are_said_after_the_rest(client, four_hands):
    delete(four_hands, 3)
    delete(four_hands, 4)

    page = client.get(reverse("session_board", args=[four_hands.group.edit_token, four_hands.pk])).content.decode()

    assert board_numbers(page) == ["1", "2", "Hands 3–4 deleted"]


def test_a_restored_hand_takes_its_row_back(client, four_hands):
    delete(four_hands, 2)
    services.hand_restore(hand=Hand.objects.get(session=four_hands, number=2))

    page = client.get(reverse("session_board", args=[four_hands.group.edit_token, four_hands.pk])).content.decode()

    assert board_numbers(page) == ["1", "2", "3", "4"]


def test_the_deleted_row_in_korean(client, four_hands):
    delete(four_hands, 2)

    page = client.get(reverse("session_board", args=[four_hands.group.edit_token, four_hands.pk]),
                      HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert "2번 판은 삭제됨" in page


def test_a_new_hands_step_brings_the_deleted_row_before_it(four_hands):
    # hand 4 deleted, then hand 5 saved: the phones add hand 5's row from the step, and the gap with it
    delete(four_hands, 4)
    HandFactory(session=four_hands)
    four_hands.refresh_from_db()

    html = board_step_for(four_hands.group.edit_token, four_hands.pk, four_hands.revision, "en")["html"]

    assert re.findall(r'<tr id="(deleted-\d+|hand-\d+)"', html) == ["deleted-4", "hand-5"]


def test_an_earlier_page_says_the_hands_deleted_within_it(client, db):
    session = SessionFactory()
    for _ in range(reads.BOARD_ROWS + 3):
        HandFactory(session=session)
    delete(session, 2)

    page = client.get(reverse("session_board", args=[session.group.edit_token, session.pk]), {"before": 4},
                      HTTP_HX_REQUEST="true").content.decode()

    assert board_numbers(page) == ["1", "Hand 2 deleted", "3"]
