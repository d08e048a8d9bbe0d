"""The hand form's title names the hand the form enters: its ``number`` field, which only the
player moves (static/js/live_form.js), not the session's count read again when the form comes
back; and a number after deleted hands says why it skips."""

from __future__ import annotations

import re

import pytest

from mighty_ledger import services
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory
from tests.web.test_table import form_data, url


def title(response) -> str:
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", response.content.decode(), re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", heading).split())


def test_a_form_sent_back_keeps_the_number_it_was_entering(client, db):
    session = SessionFactory()
    for _ in range(3):
        HandFactory(session=session)
    # a form opened for hand 3 before another phone saved it, the points left out
    data = {**form_data(MADE_15_DIAMONDS), "number": 3, "seen_hand_count": 2}
    data.pop("points")

    response = client.post(url("hand_new", session), data)

    assert response.status_code in (200, 409, 422)
    assert title(response) == "Hand 3"  # not the session's next, 4


@pytest.mark.parametrize(("language", "words"), [
    ("en", ("Hand 4", "(hand 3 was deleted)", "(hands 2 to 3 were deleted)")),
    ("ko", ("4번째 판", "(3번째 판은 지웠습니다)", "(2~3번째 판은 지웠습니다)")),
])
def test_a_number_after_deleted_hands_says_why_it_skips(client, db, language, words):
    session = SessionFactory()
    hands = [HandFactory(session=session) for _ in range(3)]

    def shown() -> str:
        return title(client.get(url("hand_new", session), headers={"Accept-Language": language}))

    assert shown() == words[0]  # nothing deleted: nothing said
    services.hand_delete(hand=hands[2])
    assert shown() == f"{words[0]} {words[1]}"
    services.hand_delete(hand=hands[1])
    assert shown() == f"{words[0]} {words[2]}"
