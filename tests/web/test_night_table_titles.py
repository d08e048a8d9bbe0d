"""A club night's tables are named in the reader's language, from their round and number, on every
page that lists them: not in the language of whoever drew the round, whose words were stored."""

from __future__ import annotations

import datetime
import random

import pytest
from django.urls import reverse
from django.utils import translation

from mighty_ledger import services
from mighty_ledger.models import Session
from mighty_ledger.models.nights import table_title
from mighty_ledger.services import nights as night_services
from tests.web.night_tables import play_some

TEN = [f"P{index:02d}" for index in range(10)]
NIGHT = datetime.date(2026, 11, 28)


@pytest.fixture
def drawn_night(db):
    """Two tables of five drawn in English (the stored titles are English), a hand at each."""
    group = services.group_create(name="Club", player_names=TEN)
    night = night_services.night_create(group=group, players=TEN, preset="pagat-standard", seed=7, played_on=NIGHT)
    with translation.override("en"):
        night_services.night_round_draw(night=night)
    play_some(night, random.Random(3), 1)
    return night


@pytest.mark.parametrize(("language", "title"), [
    ("en", "Round 2, table 1"), ("ko", "2라운드 1번 테이블"),
])
def test_a_table_is_named_from_its_round_and_number(language, title):
    with translation.override(language):
        assert table_title(night_title="", round_number=2, table=1) == title


def test_a_titled_night_names_its_tables_after_it():
    with translation.override("ko"):
        assert table_title(night_title="가을 대회", round_number=1, table=2) == "가을 대회, 1라운드 2번 테이블"


def test_the_stored_english_title_is_left_as_it_was(drawn_night):
    # the data stays as it was saved (exports and the API carry it); only what pages show changes
    assert set(Session.objects.filter(night_round__night=drawn_night).values_list("title", flat=True)) == {
        "2026-11-28, round 1, table 1", "2026-11-28, round 1, table 2"}


@pytest.mark.parametrize("page", ["group_page", "group_stats", "group_ratings"])
def test_the_group_statistics_and_ratings_pages_name_the_tables_in_korean(client, drawn_night, page):
    response = client.get(reverse(page, args=[drawn_night.group.edit_token]), HTTP_ACCEPT_LANGUAGE="ko")

    text = response.content.decode()
    assert response.status_code == 200
    assert "1라운드 1번 테이블" in text and "1라운드 2번 테이블" in text
    assert "round 1, table" not in text


def test_a_tables_board_names_it_in_korean(client, drawn_night):
    table = Session.objects.get(night_round__night=drawn_night, night_table=2)

    board = client.get(reverse("session_board", args=[drawn_night.group.edit_token, table.pk]),
                       HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert "<h1>2026-11-28 · 1라운드 2번 테이블</h1>" in board


def test_a_player_page_names_the_table_in_korean(client, drawn_night):
    player = Session.objects.get(night_round__night=drawn_night, night_table=1).seats[0]

    page = client.get(reverse("player_page", args=[drawn_night.group.edit_token, player]),
                      HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert "1라운드 1번 테이블" in page
