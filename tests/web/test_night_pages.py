"""A club night's pages (issue 38): started from the group page, the organizer's night page with
the draw, the swap and the players present, the big screen, where each phone's player sits, and
one settlement for the night.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction

import pytest
from django.urls import reverse

from mighty_ledger import services
from mighty_ledger.models import Night
from mighty_ledger.reads import nights
from mighty_ledger.services import nights as night_services
from tests.web.night_tables import finish_round, play, play_some

FIFTEEN = [f"P{index:02d}" for index in range(15)]


@pytest.fixture
def night(db) -> Night:
    group = services.group_create(name="Club", player_names=FIFTEEN[:12])
    return night_services.night_create(group=group, players=FIFTEEN, preset="pagat-standard", seed=38)


def page(night: Night, name: str = "night_page", *, view: bool = False) -> str:
    token = night.group.view_token if view else night.group.edit_token
    return reverse(name, args=[token, night.pk])


def drawn(night: Night) -> Night:
    night_services.night_round_draw(night=night)
    night.refresh_from_db()
    return night


# --- starting a night from the group page ----------------------------------------------------


def test_the_group_page_offers_a_club_night_and_lists_the_groups_nights(client, night):
    edit = client.get(reverse("group_page", args=[night.group.edit_token])).text
    view = client.get(reverse("group_page", args=[night.group.view_token])).text

    assert reverse("night_new", args=[night.group.edit_token]) in edit
    assert page(night) in edit
    assert "night_new" not in view and reverse("night_new", args=[night.group.view_token]) not in view
    assert page(night, view=True) in view


def start_form(**changes) -> dict:
    form = {"players": FIFTEEN[:10], "preset": "pagat-standard", "round_ends": "hands", "hands_per_round": "10",
            "standings": "points", "mixing": "mix", "played_on": "2026-11-27", "title": "Thursday club"}
    return {**form, **changes}


def started(night: Night) -> Night:
    """The night the form started: the group's other night, whatever the dates (the form's is
    written, the fixture's is today's, so "newest first" would change with the day)."""
    return nights.group_nights(night.group).exclude(pk=night.pk).get()


def test_starting_a_night_with_the_players_ticked_and_one_added_on_the_spot(client, night):
    group = night.group
    url = reverse("night_new", args=[group.edit_token])
    form = client.get(url)
    assert form.status_code == 200 and 'name="players"' in form.text

    response = client.post(url, start_form(new_player="Newcomer", standings="per_hand", seed="123"))

    made = started(night)
    assert response.status_code == 302 and response["Location"] == page(made)
    assert made.players == [*FIFTEEN[:10], "Newcomer"]
    assert (made.standings, made.seed, made.hands_per_round, made.title) == ("per_hand", 123, 10, "Thursday club")
    assert group.players.filter(name="Newcomer").exists()


def test_add_draws_the_form_again_with_the_new_player_ticked_and_makes_nothing(client, night):
    url = reverse("night_new", args=[night.group.edit_token])

    response = client.post(url, start_form(new_player="Late Larry", add_player="1"))

    assert response.status_code == 200
    assert re.search(r'<input[^>]*value="Late Larry"[^>]*checked', response.text)
    assert nights.group_nights(night.group).count() == 1


def test_a_timed_night_and_a_night_for_money(client, night):
    url = reverse("night_new", args=[night.group.edit_token])

    client.post(url, start_form(round_ends="minutes", minutes_per_round="40", stake_per_point="100",
                                currency="KRW"))

    made = started(night)
    assert (made.hands_per_round, made.minutes_per_round, made.stake_per_point) == (None, 40, 100)


def test_a_night_without_players_is_refused_beside_the_players(client, night):
    response = client.post(reverse("night_new", args=[night.group.edit_token]), start_form(players=[]))

    assert response.status_code == 400
    assert 'id="problems-players"' in response.text and "Tick the players present" in response.text


def test_a_night_of_fewer_players_than_a_table_is_refused_beside_the_players(client, night):
    response = client.post(reverse("night_new", args=[night.group.edit_token]), start_form(players=FIFTEEN[:1]))

    assert response.status_code == 400
    assert 'id="problems-players"' in response.text and "A table needs 5 players; 1 is present." in response.text
    assert nights.group_nights(night.group).count() == 1


def test_the_view_link_cannot_start_a_night(client, night):
    assert client.get(reverse("night_new", args=[night.group.view_token])).status_code == 403


# --- the night's page --------------------------------------------------------------------------


def test_before_the_first_draw_the_page_shows_the_seed_and_the_draw_button(client, night):
    text = client.get(page(night)).text

    assert "No round drawn yet" in text and str(night.seed) in text
    assert 'data-testid="draw"' in text and "Draw round 1" in text


def test_drawing_a_round_shows_its_tables_seats_and_who_sits_out(client, night):
    response = client.post(reverse("night_draw", args=[night.group.edit_token, night.pk]))
    assert response.status_code == 302

    text = client.get(page(night)).text
    latest = nights.night_rounds(night)[-1]
    assert text.count('data-testid="night-table"') == len(latest.tables) == 3
    for table in latest.tables:
        assert reverse("session_board", args=[night.group.edit_token, table.session.pk]) in text
        for name in table.seats:
            assert name in text
    assert "Round 1 is drawn" in text and "0 of 10 hands" in text


def test_a_refused_draw_says_why_beside_the_button(client, night):
    drawn(night)
    play_some(night, random.Random(1), 2)

    response = client.post(reverse("night_draw", args=[night.group.edit_token, night.pk]))

    assert response.status_code == 409
    assert 'data-testid="draw-problem"' in response.text
    assert "Round 1 is still being played" in response.text and "tables 1, 2, 3" in response.text
    assert len(nights.night_rounds(night)) == 1


def test_the_next_round_is_drawn_once_every_table_has_finished(client, night):
    drawn(night)
    finish_round(night, random.Random(2))

    text = client.get(page(night)).text
    assert "finished" in text
    client.post(reverse("night_draw", args=[night.group.edit_token, night.pk]))

    assert len(nights.night_rounds(night)) == 2
    assert "Earlier rounds" in client.get(page(night)).text


def test_two_players_swap_seats_before_the_round_starts(client, night):
    drawn(night)
    before = nights.night_rounds(night)[-1]
    first, second = before.tables[0].seats[0], before.tables[1].seats[0]

    response = client.post(reverse("night_swap", args=[night.group.edit_token, night.pk]),
                           {"first": first, "second": second})

    assert response.status_code == 302
    after = nights.night_rounds(night)[-1]
    assert after.tables[0].seats[0] == second and after.tables[1].seats[0] == first


def test_a_swap_at_a_table_that_has_begun_is_refused_on_the_page(client, night):
    drawn(night)
    latest = nights.night_rounds(night)[-1]
    play(latest.tables[0].session, random.Random(3), deal_misses=False)

    response = client.post(reverse("night_swap", args=[night.group.edit_token, night.pk]),
                           {"first": latest.tables[0].seats[0], "second": latest.tables[1].seats[0]})

    assert response.status_code == 409
    assert "has begun playing" in response.text


def test_players_come_and_go_between_rounds(client, night):
    add = client.post(reverse("night_player_add", args=[night.group.edit_token, night.pk]), {"name": "Zed"})
    remove = client.post(reverse("night_player_remove", args=[night.group.edit_token, night.pk]), {"name": "P00"})

    night.refresh_from_db()
    assert add.status_code == remove.status_code == 302
    assert "Zed" in night.players and "P00" not in night.players


def test_a_player_already_present_is_refused_beside_the_field(client, night):
    response = client.post(reverse("night_player_add", args=[night.group.edit_token, night.pk]), {"name": "P01"})

    assert response.status_code == 400 and "already playing tonight" in response.text


def test_the_standings_state_the_option_the_tie_rule_and_the_ratings(client, night):
    drawn(night)
    play_some(night, random.Random(4), 3)
    standings = nights.night_standings(night)

    text = client.get(page(night)).text

    assert "Ranked by points over every table played" in text and "share the rank" in text
    scores = re.findall(r'data-testid="standing-score">([^<]*)<', text)
    assert len(scores) == len(standings.rows) == 15
    assert 'data-testid="night-standings"' in text and ">Rating<" in text


def test_the_view_link_sees_the_night_without_its_forms(client, night):
    drawn(night)

    text = client.get(page(night, view=True)).text

    assert 'data-testid="draw"' not in text and 'action="' + reverse(
        "night_swap", args=[night.group.view_token, night.pk]) not in text
    assert client.post(reverse("night_draw", args=[night.group.view_token, night.pk])).status_code == 403


def test_another_groups_link_finds_no_night(client, night):
    other = services.group_create(name="Elsewhere")
    for name in ("night_page", "night_screen", "night_settle", "night_places"):
        assert client.get(reverse(name, args=[other.edit_token, night.pk])).status_code == 404


def test_a_phone_holding_the_night_page_gets_304_until_a_hand(client, night):
    drawn(night)
    etag = client.get(page(night))["ETag"]

    assert client.get(page(night), HTTP_IF_NONE_MATCH=etag).status_code == 304
    play(nights.night_rounds(night)[-1].tables[0].session, random.Random(5))
    assert client.get(page(night), HTTP_IF_NONE_MATCH=etag).status_code == 200


# --- the big screen ----------------------------------------------------------------------------


def test_the_big_screen_shows_the_draw_then_the_progress_and_the_standings(client, night):
    drawn(night)
    screen = client.get(page(night, "night_screen", view=True))
    assert screen.status_code == 200
    assert 'data-testid="screen-draw"' in screen.text and "where everyone sits" in screen.text
    assert "<form" not in screen.text and "<button" not in screen.text and "<a " not in screen.text

    play_some(night, random.Random(6), 1)
    body = client.get(page(night, "night_screen_live", view=True)).text

    assert 'data-testid="screen-draw"' not in body
    assert body.count('data-testid="screen-table"') == 3 and "1/10" in body
    assert body.count("<li data-player=") == 15


def test_the_big_screen_is_drawn_once_per_change_of_the_night(client, night, django_assert_num_queries):
    drawn(night)
    play_some(night, random.Random(7), 1)
    live = page(night, "night_screen_live", view=True)
    first = client.get(live).content

    with django_assert_num_queries(2):
        # 1. the group by its link; 2. the night with its tables' revisions (its stamp): the body
        # is read from the cache
        again = client.get(live).content
    assert again == first

    play(nights.night_rounds(night)[-1].tables[1].session, random.Random(8))
    assert client.get(live).content != first


# --- where each phone's player sits ------------------------------------------------------------


def test_a_tables_board_asks_where_its_players_sit_next(client, night):
    drawn(night)
    table = nights.night_rounds(night)[-1].tables[1]

    board = client.get(reverse("session_board", args=[night.group.edit_token, table.session.pk])).text

    assert page(night, "night_places") in board and f'data-night-board="{table.session.pk}"' in board
    assert reverse("group_events", args=[night.group.edit_token]) in board


def test_the_places_say_each_players_table_and_seat_in_the_latest_round(client, night):
    drawn(night)
    latest = nights.night_rounds(night)[-1]
    table = latest.tables[1]

    text = client.get(page(night, "night_places")).text

    assert f'data-place-of="{table.seats[3]}" data-place-session="{table.session.pk}"' in text
    assert "Round 1: table 2, seat 4" in text
    assert text.count("data-place-of=") == 15


def test_the_group_page_shows_tonights_places(client, night):
    drawn(night)

    text = client.get(reverse("group_page", args=[night.group.edit_token])).text

    assert text.count("data-place-of=") == 15 and "Round 1: table" in text


# --- the night's settlement --------------------------------------------------------------------


def test_the_nights_settlement_is_one_for_every_table_with_each_tables_a_tap_away(client, night):
    drawn(night)
    play_some(night, random.Random(10), 3)
    settled = nights.night_settlement(night)

    text = client.get(page(night, "night_settle")).text

    assert text.count('data-testid="table-settlement"') == 3
    assert text.count("<li data-from=") == len(settled.outstanding) > 0
    for table in settled.tables:
        assert reverse("session_settle", args=[night.group.edit_token, table.table.session.pk]) in text


def test_the_settlement_is_net_of_the_payments_marked_at_the_tables(client, night):
    drawn(night)
    play_some(night, random.Random(11), 3)
    first = nights.night_settlement(night).tables[0]
    transfer = first.outstanding.transfers[0]
    services.payment_record(session=first.table.session, payer=transfer.frm, payee=transfer.to,
                            amount=Decimal(transfer.amount))

    text = client.get(page(night, "night_settle")).text

    assert "after the payments marked so far" in text
    assert "1 payment marked" in text and "at round 1, table 1" in text


def test_the_pages_speak_korean(client, night):
    drawn(night)
    client.cookies["django_language"] = "ko"

    assert "1라운드" in client.get(page(night)).text
    assert "클럽 나이트" in client.get(page(night, "night_screen", view=True)).text


def test_a_timed_rounds_end_moves_the_stamp_on_both_databases(night):
    timed = night_services.night_create(group=night.group, players=FIFTEEN, preset="pagat-standard",
                                        minutes_per_round=30)
    night_services.night_round_draw(night=timed)
    ends_at = nights.night_rounds(timed)[-1].round.ends_at

    before = nights.night_stamp(night.group, timed.pk, now=ends_at - timedelta(seconds=1))
    after = nights.night_stamp(night.group, timed.pk, now=ends_at + timedelta(seconds=1))

    assert (before.time_up, after.time_up) == (False, True)
    assert before.whole != after.whole and before.seating == after.seating


@pytest.mark.parametrize(("score", "option", "shown"), [
    (12, "points", "+12"), (-3, "points", "−3"), (0, "points", "0"),
    (Fraction(5, 4), "per_hand", "+1.25"), (Fraction(-1, 3), "per_hand", "−0.33"), (0, "per_hand", "0.00"),
    (Fraction(15, 2), "placement", "7½"), (3, "placement", "3"), (0, "placement", "0"),
])
def test_the_standings_write_each_option_as_it_counts(score, option, shown):
    from mighty_ledger.pages.templatetags.nights import night_score

    assert night_score(score, option) == shown


def test_the_big_screen_follows_the_group_and_polls_besides(client, night):
    page_text = client.get(page(night, "night_screen", view=True)).text

    assert f'sse-connect="{reverse("group_events", args=[night.group.view_token])}"' in page_text
    assert 'hx-trigger="sse:change, sse:hello, every 30s"' in page_text and 'hx-swap="innerHTML"' in page_text


def test_a_player_who_sits_a_round_out_is_told_so(client, night):
    # Chicago's five-player tables seat no other size: of eleven, one sits each round out
    eleven = night_services.night_create(group=night.group, players=FIFTEEN[:11], preset="chicago-5p", seed=5)
    drawn(eleven)
    out = nights.night_rounds(eleven)[-1].sitting_out[0]

    places = client.get(page(eleven, "night_places")).text
    night_page_text = client.get(page(eleven)).text

    line = re.search(rf'data-place-of="{out}" data-place-session=""[^>]*>(.*?)</div>', places, re.S)[1]
    assert "Round 1: you sit out this round." in line and "Go to table" not in line
    assert "Sitting out this round:" in night_page_text and out in night_page_text


def test_a_transfer_is_marked_paid_for_the_whole_night_and_undone(client, night):
    drawn(night)
    play_some(night, random.Random(12), 3)
    transfer = nights.night_settlement(night).outstanding[0]
    mark = reverse("night_payment_mark", args=[night.group.edit_token, night.pk])
    settle = page(night, "night_settle")
    assert 'data-testid="night-mark-paid"' in client.get(settle).text

    marked = client.post(mark, {"payer": transfer.frm, "payee": transfer.to, "amount": str(transfer.amount),
                                "request_key": "a-night-payment-key-1"})

    assert marked.status_code == 302 and marked["Location"] == settle
    settled = nights.night_settlement(night)
    assert (transfer.frm, transfer.to) not in {(t.frm, t.to) for t in settled.outstanding}
    text = client.get(settle).text
    assert "for the whole night" in text
    payment = next(p for p in settled.payments if p.night_id == night.pk)
    # the same form sent again marks nothing more
    client.post(mark, {"payer": transfer.frm, "payee": transfer.to, "amount": str(transfer.amount),
                       "request_key": "a-night-payment-key-1"})
    assert len([p for p in nights.night_settlement(night).payments if p.night_id]) == 1

    undone = client.post(reverse("night_payment_undo", args=[night.group.edit_token, night.pk, payment.pk]))

    assert undone.status_code == 302
    assert (transfer.frm, transfer.to) in {(t.frm, t.to) for t in nights.night_settlement(night).outstanding}


def test_more_than_the_night_owes_is_asked_about_first(client, night):
    drawn(night)
    play_some(night, random.Random(13), 3)
    transfer = nights.night_settlement(night).outstanding[0]

    asked = client.post(reverse("night_payment_mark", args=[night.group.edit_token, night.pk]),
                        {"payer": transfer.frm, "payee": transfer.to, "amount": str(transfer.amount + 100)})

    assert asked.status_code == 409 and 'data-testid="payment-beyond-owed"' in asked.text
    assert 'name="overpay" value="1"' in asked.text
    assert not [p for p in nights.night_settlement(night).payments if p.night_id]


def test_the_view_link_marks_nothing(client, night):
    drawn(night)
    play_some(night, random.Random(14), 3)

    assert 'data-testid="night-mark-paid"' not in client.get(page(night, "night_settle", view=True)).text
    assert client.post(reverse("night_payment_mark", args=[night.group.view_token, night.pk]),
                       {"payer": "P00", "payee": "P01", "amount": "1"}).status_code == 403
