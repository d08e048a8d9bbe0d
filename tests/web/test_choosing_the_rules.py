"""The rules chosen with help on the start page: the systems in families and by player count, the
likeliest first for the phone's language and the group's size, each with its one line, and a link
that puts two systems side by side."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from mighty_ledger.pages.preset_choice import likeliest_preset, system_groups
from scoring.presets import all_presets, get_preset
from tests.factories import GroupFactory

pytestmark = pytest.mark.django_db


def new_group(names):
    group = GroupFactory()
    for name in names:
        group.players.create(name=name)
    return group


def start_page(client, group, language):
    return client.get(reverse("session_new", args=[group.edit_token]), HTTP_ACCEPT_LANGUAGE=language).text


def chosen(page) -> str:
    return re.search(r'name="preset" value="([^"]+)"[^>]* checked', page)[1]


def first_offered(page) -> str:
    return re.search(r'name="preset" value="([^"]+)"', page)[1]


@pytest.mark.parametrize(("language", "players", "likeliest"), [
    ("ko", 5, "korean-standard"), ("en", 5, "pagat-standard"), ("ko", 6, "korean-6"), ("en", 4, "pagat-4p-jun"),
    ("ko", 8, "chicago-8p"), ("en", 2, "korean-2"), ("ko", 1, "korean-standard"),
])
def test_the_likeliest_system_for_the_language_and_the_table(language, players, likeliest):
    assert likeliest_preset(language=language, players=players) == likeliest


def test_a_korean_phone_with_five_players_is_offered_pyojun_5ma_first(client):
    group = new_group(["민준", "서연", "도윤", "하은", "지호"])
    page = start_page(client, group, "ko")
    assert chosen(page) == first_offered(page) == "korean-standard"


def test_an_english_phone_with_five_players_is_offered_pagats_standard_first(client):
    group = new_group(["Ann", "Bo", "Cy", "Di", "Ed"])
    page = start_page(client, group, "en")
    assert chosen(page) == first_offered(page) == "pagat-standard"


def test_every_system_is_offered_once_in_a_group_of_its_own_family_and_size():
    groups = system_groups(language="en", players=5)
    offered = [choice.slug for group in groups for choice in group.choices]
    assert sorted(offered) == sorted(preset.slug for preset in all_presets())
    for group in groups:
        assert {get_preset(choice.slug).system().players for choice in group.choices} == {group.players}
    assert [group.players for group in groups][:3] == [5, 5, 5]  # the table's own size first


def test_each_system_has_its_line_beside_it(client):
    page = start_page(client, new_group(["Ann", "Bo", "Cy", "Di", "Ed"]), "en")
    for choice in (choice for group in system_groups(language="en", players=5) for choice in group.choices):
        assert choice.line, choice.slug
        assert choice.line in page.replace("&#x27;", "'"), choice.slug


def test_the_compare_link_puts_the_choice_beside_the_next_likeliest(client):
    page = start_page(client, new_group(["민준", "서연", "도윤", "하은", "지호"]), "ko")
    link = re.search(r'href="([^"]+)" data-testid="compare-systems"', page)[1].replace("&amp;", "&")
    assert link.startswith(reverse("systems_compare") + "?a=korean-standard&b=")
    compared = client.get(link, HTTP_ACCEPT_LANGUAGE="ko")
    assert compared.status_code == 200 and "표준 5마" in compared.text


def test_the_group_that_played_before_is_offered_its_own_system(client):
    from tests.factories import SessionFactory

    session = SessionFactory(preset="chicago-5p")
    page = start_page(client, session.group, "ko")
    assert chosen(page) == "chicago-5p"
    # its fold is open, so the choice is seen
    fold = page[:page.index('value="chicago-5p"')].rsplit("<details", 1)[1]
    assert fold.startswith(' class="systems-more" open')
