"""Every game word on the hand form is explained where it appears: a "?" at the end of its row
opens a short note (a native popover: no script, closed by a tap outside), in English and Korean."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

# each row of the form with game words, its tip, and words the tip explains
TIPS = {
    "call": ["first trick", "no friend", "last hand"],
    "called-card": ["Mighty", "Ripper", "Trump A", "Trump K"],
    "partner": ["declarer alone"],
    "counted": ["Points", "defenders", "Discards"],
}


def form(client, session, name: str = "hand_new", language: str = "en") -> str:
    return client.get(reverse(name, args=[session.group.edit_token, session.pk]),
                      HTTP_ACCEPT_LANGUAGE=language).content.decode()


def popover(page: str, tip: str) -> str:
    found = re.search(rf'<div id="tip-{tip}" popover[^>]*>(.*?)</div>', page, re.S)
    assert found, f"no popover tip-{tip}"
    return found.group(1)


@pytest.mark.parametrize(("tip", "words"), TIPS.items())
def test_each_row_of_game_words_has_a_question_mark_opening_what_they_mean(client, session, tip, words):
    page = form(client, session)

    button = re.search(rf'<button type="button" class="word-tip-button" popovertarget="tip-{tip}" aria-label="([^"]+)"', page)
    assert button and button.group(1) == "What these words mean"
    note = popover(page, tip)
    for word in words:
        assert f"<dt>{word}" in note or f"· {word}</dt>" in note, word


def test_the_notes_sit_outside_the_rows_so_a_choice_is_found_by_its_words_alone(client, session):
    page = form(client, session)
    fieldsets = "".join(re.findall(r"<fieldset.*?</fieldset>", page, re.S))

    assert "popover" not in fieldsets.replace("popovertarget", "")


def test_the_notes_in_korean(client, session):
    note = popover(form(client, session, language="ko"), "called-card")

    assert "<dt>조커콜</dt>" in note
    assert "조커를 나오게 하는 카드" in note


def test_the_contract_form_explains_its_calls_too(client, session):
    page = form(client, session, "contract_new")

    assert 'popovertarget="tip-call"' in page
    assert "Whoever wins the first trick is the partner." in popover(page, "call")
