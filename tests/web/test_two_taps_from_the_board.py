"""What a player asks at the table is two taps from the board: the rules of this session in words,
the redeal calculator for this session's system (and the way back), and the guide."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import SessionFactory
from tests.web.test_rules_pages import WEAK_HAND


def links_of(page: str) -> dict[str, str]:
    """The page's links by their data-testid."""
    return {testid: href for href, testid in re.findall(r'<a[^>]*href="([^"]+)"[^>]*data-testid="([^"]+)"', page)}


@pytest.fixture
def chicago(db):
    return SessionFactory(preset="chicago-5p")


@pytest.mark.parametrize("right", ["edit", "view"])
def test_the_board_links_the_rules_the_calculator_of_its_system_and_the_guide(client, chicago, right):
    token = getattr(chicago.group, f"{right}_token")
    board = client.get(reverse("session_board", args=[token, chicago.pk])).content.decode()

    links = links_of(board)
    assert links["board-rules-link"] == reverse("session_rules", args=[token, chicago.pk])
    assert links["board-redeal-link"] == reverse("session_redeal", args=[token, chicago.pk])
    assert links["board-guide-link"] == reverse("guide")


def test_the_calculator_from_a_board_has_the_sessions_system_chosen_and_the_way_back(client, chicago):
    token = chicago.group.view_token
    page = client.get(reverse("session_redeal", args=[token, chicago.pk])).content.decode()

    assert '<option value="chicago-5p" selected>' in page
    assert links_of(page)["back-to-board"] == reverse("session_board", args=[token, chicago.pk])
    # its form stays on this address, so the way back stays after every tap
    assert f'action="{reverse("session_redeal", args=[token, chicago.pk])}"' in page


def test_the_calculator_from_a_board_judges_a_hand_as_the_public_one(client, evening):
    url = reverse("session_redeal", args=[evening.group.edit_token, evening.pk])
    page = client.get(url, {"system": "pagat-standard", "card": WEAK_HAND}).content.decode()

    assert "Deal miss: this hand may demand a redeal." in page
    assert 'data-testid="back-to-board"' in page


def test_the_public_calculator_has_no_way_back_to_a_board(client):
    assert 'data-testid="back-to-board"' not in client.get(reverse("redeal")).content.decode()


def test_the_calculator_of_another_groups_session_is_not_found(client, chicago):
    stranger = SessionFactory()

    assert client.get(reverse("session_redeal", args=[stranger.group.edit_token, chicago.pk])).status_code == 404


def test_the_rules_tab_links_the_calculator_and_every_system(client, chicago):
    token = chicago.group.edit_token
    page = client.get(reverse("session_rules", args=[token, chicago.pk])).content.decode()

    links = links_of(page)
    assert links["rules-redeal-link"] == reverse("session_redeal", args=[token, chicago.pk])
    assert links["rules-systems-link"] == reverse("systems_list")


def test_the_group_page_links_the_guide_and_the_rules(client, chicago):
    page = client.get(reverse("group_page", args=[chicago.group.view_token])).content.decode()

    links = links_of(page)
    assert links["group-guide-link"] == reverse("guide")
    assert links["group-rules-link"] == reverse("systems_list")


def test_the_board_says_its_links_in_korean(client, chicago):
    board = client.get(reverse("session_board", args=[chicago.group.edit_token, chicago.pk]),
                       HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert "딜 미스 계산기" in board
    assert "안내서" in board


def test_the_calculator_from_a_board_uses_the_deal_miss_rule_the_table_changed(client, db):
    # pagat: a hand may ask for a redeal at a value of ½ or less; this table allows it up to 1
    looser = SessionFactory(preset="pagat-standard", overrides={"deal_miss": {"threshold": "1"}})

    page = client.get(reverse("session_redeal", args=[looser.group.edit_token, looser.pk])).content.decode()
    public = client.get(reverse("redeal"), {"system": "pagat-standard"}).content.decode()

    assert 'data-testid="session-rules-used"' in page
    assert 'title="46497179/443161355"' in page  # 1 in 10, not pagat's 1 in 23
    assert 'title="18990476/443161355"' in public
