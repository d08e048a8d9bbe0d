"""The table app's pages: links and rights, hand entry, scoreboard, edits and settlement."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from mighty_ledger import services
from mighty_ledger.models import Group, Hand, Revision
from mighty_ledger.pages.forms import HandForm
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory, bulk_hands

# --- helpers -----------------------------------------------------------------------------------


def form_data(entry: dict, version: int | None = None) -> dict:
    """What a player's taps post for ``entry``: the form's own initial values, as POST data."""
    data = {}
    for name, value in HandForm.initial_from(entry, version).items():
        if value is None or value == [] or value is False:
            continue
        data[name] = "on" if value is True else value
    return data


def url(name: str, session=None, *args, token: str | None = None) -> str:
    token = token or session.group.edit_token
    return reverse(name, args=[token, *((session.pk,) if session else ()), *args])


def pagat(declarer_points_trump, points, *, partner=True, dealer="Ed"):
    contract_points, trump = declarer_points_trump
    return {
        "dealer": dealer,
        "declarer": "Ann",
        "contract": {"points": contract_points, "trump": trump},
        "partner_call": {"type": "card", "cards": ["AS"]} if partner else {"type": "none"},
        "partners": ["Cy"] if partner else [],
        "points": points,
    }


# RULES.md §9.1: pagat-standard, 5 players, Ann declares, Cy is the partner when called
PAGAT_EXAMPLES = [
    pytest.param(pagat((15, "D"), 16), {"Ann": 10, "Cy": 5, "Bo": -5}, id="pagat-example-1"),
    pytest.param(pagat((15, "D"), 13), {"Ann": -4, "Cy": -2, "Bo": 2}, id="pagat-example-2"),
    pytest.param(pagat((16, "NT"), 18), {"Ann": 32, "Cy": 16, "Bo": -16}, id="pagat-example-3"),
    pytest.param(pagat((16, "NT"), 13), {"Ann": -12, "Cy": -6, "Bo": 6}, id="pagat-example-4"),
    pytest.param(pagat((17, "H"), 20), {"Ann": 44, "Cy": 22, "Bo": -22}, id="pagat-example-5"),
    pytest.param(pagat((16, "NT"), 17, partner=False), {"Ann": 112, "Cy": -28, "Bo": -28}, id="pagat-example-6"),
    pytest.param(pagat((16, "NT"), 15, partner=False), {"Ann": -16, "Cy": 4, "Bo": 4}, id="pagat-example-7"),
]


# --- links and rights ------------------------------------------------------------------------------

# every URL that changes something, with the arguments after the token
MUTATING_URLS = [
    ("group_rotate", ("edit",), False),
    ("group_rotate", ("view",), False),
    ("player_add", (), False),
    ("session_new", (), False),
    ("session_delete", (), True),
    ("session_restore", (), True),
    ("hand_new", (), True),
    ("hand_preview", (), True),
    ("event_new", (), True),
    ("hand_edit", (1,), True),
    ("hand_delete", (1,), True),
    ("hand_restore", (1,), True),
]


@pytest.mark.parametrize(("name", "args", "in_session"), MUTATING_URLS)
def test_a_view_link_can_change_nothing(client, session, name, args, in_session):
    HandFactory(session=session)
    token = session.group.view_token
    path = reverse(name, args=[token, *((session.pk,) if in_session else ()), *args])

    assert client.post(path, {"name": "Zed"}).status_code == 403
    if name not in ("group_rotate", "player_add", "session_delete", "session_restore",
                    "hand_delete", "hand_restore", "hand_preview"):
        assert client.get(path).status_code == 403
    assert Revision.objects.filter(by__startswith="view").count() == 0


@pytest.mark.parametrize(("name", "args", "in_session"), MUTATING_URLS)
def test_an_unknown_link_finds_nothing(client, session, name, args, in_session):
    HandFactory(session=session)
    path = reverse(name, args=["no-such-link", *((session.pk,) if in_session else ()), *args])

    assert client.post(path, {"name": "Zed"}).status_code == 404


def test_a_link_reaches_only_its_own_groups_sessions(client, session):
    other = SessionFactory()

    response = client.get(reverse("session_board", args=[session.group.edit_token, other.pk]))

    assert response.status_code == 404


def test_a_view_link_sees_the_scoreboard_without_edit_buttons(client, session):
    HandFactory(session=session)

    response = client.get(url("session_board", session, token=session.group.view_token))

    assert response.status_code == 200
    assert 'data-testid="enter-hand"' not in response.text


def test_creating_a_group_shows_both_links(client, db):
    response = client.post(reverse("group_create"), {"name": "Thursday", "player_names": "Ann\nBo\nCy"},
                           follow=True)

    group = Group.objects.get()
    assert [p.name for p in group.players.all()] == ["Ann", "Bo", "Cy"]
    assert group.edit_token in response.text and group.view_token in response.text


def test_a_group_needs_a_name(client, db):
    response = client.post(reverse("group_create"), {"name": "", "player_names": "Ann"})

    assert response.status_code == 200
    assert not Group.objects.exists()


def test_rotating_the_edit_link_revokes_the_old_one(client, session):
    old = session.group.edit_token

    response = client.post(reverse("group_rotate", args=[old, "edit"]))

    session.group.refresh_from_db()
    assert response.url == reverse("group_page", args=[session.group.edit_token])
    assert client.get(reverse("group_page", args=[old])).status_code == 404


def test_adding_a_player(client, session):
    client.post(url("player_add", None, token=session.group.edit_token), {"name": "Fay"})

    assert session.group.players.filter(name="Fay").exists()


def test_group_page_sums_totals_across_sessions(client, session):
    HandFactory(session=session)
    second = SessionFactory(group=session.group)
    HandFactory(session=second)

    response = client.get(reverse("group_page", args=[session.group.view_token]))

    assert dict(response.context["history"])["Ann"] == 20


# --- sessions ------------------------------------------------------------------------------------------


def test_starting_a_session_seats_players_clockwise(client, session):
    group = session.group
    response = client.post(reverse("session_new", args=[group.edit_token]), {
        "played_on": "2025-03-01", "preset": "pagat-standard",
        "seat_1": "Cy", "seat_2": "Ann", "seat_3": "Ed", "seat_4": "Bo", "seat_5": "Di",
        "first_dealer": "Ed", "stake_per_point": "100", "currency": "KRW", "rounding_unit": "100",
    })

    new = group.sessions.exclude(pk=session.pk).get()
    assert response.status_code == 302
    assert new.seats == ["Cy", "Ann", "Ed", "Bo", "Di"]
    assert new.first_dealer == "Ed" and new.currency == "KRW"


def test_a_session_with_the_wrong_number_of_seats_is_refused_beside_the_seats(client, session):
    response = client.post(reverse("session_new", args=[session.group.edit_token]), {
        "played_on": "2025-03-01", "preset": "pagat-standard", "seat_1": "Ann", "seat_2": "Bo",
    })

    assert response.status_code == 200
    assert "5 players" in str(response.context["form"].errors["seat_1"])


def test_overrides_are_checked_by_the_engine(client, session):
    response = client.post(reverse("session_new", args=[session.group.edit_token]), {
        "played_on": "2025-03-01", "preset": "pagat-standard", "overrides": '{"min_bid": "lots"}',
        **{f"seat_{i + 1}": name for i, name in enumerate(session.seats)},
    })

    assert response.status_code == 200
    # beside the minimum bid's own control
    assert response.context["form"].errors["option__min_bid"]


# --- entering hands ---------------------------------------------------------------------------------------


def test_the_new_hand_form_pre_fills_the_dealer_from_the_table_flow(client, session):
    HandFactory(session=session)  # Ann declared with Cy: pagat, the partner deals next

    response = client.get(url("hand_new", session))

    assert response.context["form"].initial["dealer"] == "Cy"


def test_the_card_picker_shows_the_cards_of_this_deck(client, db):
    session = SessionFactory(seats=["Ann", "Bo", "Cy", "Di"], preset="pagat-4p-jun")

    form = client.get(url("hand_new", session)).context["form"]

    codes = {code for code, _ in form.fields["call_cards"].choices}
    assert "2S" not in codes and "3H" not in codes and "AS" in codes and "JOKER" in codes


def test_the_seven_pagat_examples_entered_through_the_form(client, session):
    for example in PAGAT_EXAMPLES:
        entry = dict(example.values[0])
        entry["dealer"] = client.get(url("hand_new", session)).context["form"].initial["dealer"]
        response = client.post(url("hand_new", session), form_data(entry))
        assert response.status_code == 302, response.context["form"].errors

    board = client.get(url("session_board", session))
    session.refresh_from_db()
    assert session.totals == {"Ann": 166, "Bo": -59, "Cy": 11, "Di": -59, "Ed": -59}
    assert [hand.running_totals for hand in board.context["board"].rows][-1] == session.totals
    settlement = client.get(url("session_settle", session)).context["settlement"]
    # nobody's balance cancels anyone else's: five players need four transfers
    assert len(settlement.transfers) == 4
    balance = dict.fromkeys(session.seats, 0)
    for transfer in settlement.transfers:
        balance[transfer.frm] -= transfer.amount
        balance[transfer.to] += transfer.amount
    assert balance == session.totals


@pytest.mark.parametrize(("entry", "expected"), PAGAT_EXAMPLES)
def test_each_pagat_example_scores_as_the_rules_say(client, session, entry, expected):
    client.post(url("hand_new", session), form_data(entry))

    hand = session.hands.get()
    assert {seat: hand.payments[seat] for seat in expected} == expected


def test_defenders_points_are_turned_into_the_declarers(client, session):
    entry = {k: v for k, v in MADE_15_DIAMONDS.items() if k != "points"} | {"defender_points": 4}

    client.post(url("hand_new", session), form_data(entry))

    assert session.hands.get().payments["Ann"] == 10  # 20 − 4 = 16 points taken


def test_an_illegal_hand_shows_the_problem_beside_its_field_and_saves_nothing(client, session):
    entry = dict(MADE_15_DIAMONDS, contract={"points": 12, "trump": "D"})

    response = client.post(url("hand_new", session), form_data(entry))

    assert response.status_code == 200
    assert response.context["form"].errors["contract_points"]
    assert 'id="problems-contract_points"' in response.text
    assert not session.hands.exists()


def test_wrong_discards_are_flagged_on_the_discards(client, session):
    entry = dict(MADE_15_DIAMONDS, discards=["2C", "3C"])

    response = client.post(url("hand_new", session), form_data(entry))

    assert response.context["form"].errors["discards"]
    assert not session.hands.exists()


def test_the_live_preview_shows_every_payment(client, session):
    response = client.post(url("hand_preview", session), form_data(MADE_15_DIAMONDS), HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert response.context["preview"]["payments"]["Ann"] == 10
    assert 'hx-swap-oob="true"' in response.text
    assert "<html" not in response.text
    assert not session.hands.exists()


def test_the_live_preview_puts_problems_beside_fields_out_of_band(client, session):
    entry = dict(MADE_15_DIAMONDS, contract={"points": 25, "trump": "D"})

    response = client.post(url("hand_preview", session), form_data(entry), HTTP_HX_REQUEST="true")

    assert response.context["preview"] is None
    assert response.context["form"].errors["contract_points"]


def test_the_live_preview_lists_what_is_missing_instead_of_flagging_it(client, session):
    response = client.post(url("hand_preview", session), {"dealer": "Ed"}, HTTP_HX_REQUEST="true")

    assert "Declarer" in response.context["missing"]
    assert "declarer" not in response.context["form"].errors


def test_preview_without_javascript_renders_the_whole_form(client, session):
    response = client.post(url("hand_preview", session), form_data(MADE_15_DIAMONDS))

    assert "<html" in response.text and response.context["preview"]["payments"]["Cy"] == 5


def test_a_deal_miss_changes_who_deals_next(client, session):
    response = client.post(url("event_new", session), {"kind": "deal_miss", "dealer": "Ann", "shown_by": "Di"})

    assert response.status_code == 302
    assert session.hands.get().kind == Hand.DEAL_MISS
    # pagat: the player who asked for the redeal deals it
    assert client.get(url("session_board", session)).context["board"].next.dealer == "Di"


def test_an_all_pass_is_recorded(client, session):
    client.post(url("event_new", session), {"kind": "all_pass", "dealer": "Bo"})

    assert session.hands.get().kind == Hand.ALL_PASS


# --- editing -------------------------------------------------------------------------------------------------


def test_editing_a_hand_changes_the_totals(client, session):
    hand = HandFactory(session=session)
    HandFactory(session=session)
    entry = dict(MADE_15_DIAMONDS, points=13)

    response = client.post(url("hand_edit", session, 1), form_data(entry, hand.version))

    assert response.status_code == 302
    session.refresh_from_db()
    assert session.totals["Ann"] == -4 + 10


def test_the_edit_form_is_pre_filled(client, session):
    HandFactory(session=session, entry=dict(MADE_15_DIAMONDS, discards=["2C", "3C", "4C"]))

    form = client.get(url("hand_edit", session, 1)).context["form"]

    assert form.initial["discards"] == ["2C", "3C", "4C"] and form.initial["partners"] == ["Cy"]


def test_a_stale_edit_says_so_and_overwrites_nothing(client, session):
    hand = HandFactory(session=session)
    services.hand_amend(hand=hand, entry=dict(MADE_15_DIAMONDS, points=18), version=1)

    response = client.post(url("hand_edit", session, 1), form_data(dict(MADE_15_DIAMONDS, points=13), 1))

    assert response.status_code == 409
    assert 'data-testid="edit-conflict"' in response.text  # both side by side (tests/web/test_edit_conflicts.py)
    hand.refresh_from_db()
    assert hand.entry["points"] == 18 and hand.version == 2
    assert response.context["theirs"].version == 2


def test_deleting_and_restoring_a_hand(client, session):
    HandFactory(session=session)
    HandFactory(session=session)

    client.post(url("hand_delete", session, 1))
    session.refresh_from_db()
    assert session.totals["Ann"] == 10
    assert client.get(url("session_history", session)).context["deleted"][0].number == 1

    client.post(url("hand_restore", session, 1))
    session.refresh_from_db()
    assert session.totals["Ann"] == 20


def test_the_history_shows_who_changed_what(client, session):
    hand = HandFactory(session=session)
    client.post(url("hand_edit", session, 1), form_data(dict(MADE_15_DIAMONDS, points=13), hand.version))

    response = client.get(url("session_history", session))

    amended = [r for r in response.context["revisions"] if r.action == Revision.AMENDED][0]
    assert amended.by.startswith("edit link")
    assert "took 16" in response.text and "took 13" in response.text


def test_hand_detail_shows_the_explanation_and_transfers(client, session):
    HandFactory(session=session)

    response = client.get(url("hand_detail", session, 1, token=session.group.view_token))

    assert escape(response.context["hand"].result["explanation"][0]) in response.text
    assert sum(t.amount for t in response.context["transfers"]) == 15


def test_a_hand_played_for_money_says_what_each_transfer_comes_to(client, db):
    from decimal import Decimal

    # pagat example 1 at ₩100 a point: Ann (declarer) +10, Cy (partner) +5, the defenders −5 each
    staked = SessionFactory(stake_per_point=Decimal("100"), currency="KRW")
    HandFactory(session=staked)

    page = client.get(url("hand_detail", staked, 1), HTTP_ACCEPT_LANGUAGE="en").text

    assert "Bo pays Ann 5 points" in page and "(₩500)" in page
    assert "Total after it" in page and "−5" in page


def test_a_hands_money_is_rounded_as_the_settlement_rounds_it(client, db):
    from decimal import Decimal

    # ₩150 a point, settled to the nearest ₩1,000: 5 points are ₩750, which the settlement pays as ₩1,000
    staked = SessionFactory(stake_per_point=Decimal("150"), currency="KRW", rounding_unit=Decimal("1000"))
    HandFactory(session=staked)

    page = client.get(url("hand_detail", staked, 1), HTTP_ACCEPT_LANGUAGE="en").text

    assert "Bo pays Ann 5 points" in page and "(₩1,000)" in page and "₩750" not in page


def test_deleting_and_restoring_a_session(client, session):
    client.post(url("session_delete", session))
    assert client.get(url("session_board", session)).status_code == 404

    client.post(url("session_restore", session))
    assert client.get(url("session_board", session)).status_code == 200


# --- scoreboard and settlement ------------------------------------------------------------------------------------


def test_the_scoreboard_sends_the_latest_fifty_hands_and_links_the_rest(client, session):
    bulk_hands(session, 120)

    response = client.get(url("session_board", session))
    assert [h.number for h in response.context["board"].rows] == list(range(71, 121))
    assert response.context["board"].earlier

    earlier = client.get(url("session_board", session) + "?before=71", HTTP_HX_REQUEST="true")
    assert [h.number for h in earlier.context["rows"]] == list(range(21, 71))
    assert "<html" not in earlier.text


def test_money_is_shown_beside_points_when_there_is_a_stake(client, db):
    from decimal import Decimal

    session = SessionFactory(stake_per_point=Decimal("100"), currency="KRW", rounding_unit=Decimal("100"))
    HandFactory(session=session)

    settlement = client.get(url("session_settle", session)).context["settlement"]

    assert settlement.money["Ann"] == Decimal("1000")
    assert settlement.unit == "money"


def test_the_board_shows_money_and_chips_beside_the_totals(client, db):
    from decimal import Decimal

    staked = SessionFactory(stake_per_point=Decimal("100"), currency="KRW", rounding_unit=Decimal("100"))
    HandFactory(session=staked)
    board = client.get(url("session_board", staked)).text
    assert 'data-money-of="Ann"' in board and "Money at ₩100 a point." in board

    chips = SessionFactory(chips_start=100, chips_per_point=2)
    HandFactory(session=chips)
    board = client.get(url("session_board", chips)).text
    assert 'class="chips"' in board and "Chips in front of each player, from 100 each." in board


def test_chips_are_counted_from_the_starting_stack(client, db):
    session = SessionFactory(chips_start=100, chips_per_point=2)
    HandFactory(session=session)

    settlement = client.get(url("session_settle", session)).context["settlement"]

    assert settlement.chips["Ann"] == 120


@pytest.mark.parametrize("hands", [5, 300])
def test_the_scoreboard_runs_the_same_queries_whatever_the_hands(client, session, django_assert_num_queries, hands):
    bulk_hands(session, hands)
    path = url("session_board", session)

    with django_assert_num_queries(3):
        # 1. the session with its group, by the link (its right and the session's revision)
        # 2. the latest 51 live hands with what a row shows, which also say who deals next (one
        #    more than shown, to know if earlier ones exist)
        # 3. the hand in progress, if one is being played
        response = client.get(path)
    assert response.status_code == 200


def test_a_phone_holding_the_board_gets_304_until_a_hand_changes_it(client, session, django_assert_num_queries):
    bulk_hands(session, 5)
    path = url("session_board", session)
    etag = client.get(path)["ETag"]

    with django_assert_num_queries(1):
        # 1. the session with its group, by the link: the revision is the one the phone holds
        reload = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert reload.status_code == 304

    HandFactory(session=session)
    changed = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and 'id="hand-6"' in changed.text


@pytest.mark.parametrize(
    ("what", "request_kwargs"),
    [
        pytest.param("language", {"HTTP_ACCEPT_LANGUAGE": "ko"}, id="another-language"),
        pytest.param("query", {"data": {"before": "3"}}, id="earlier-hands"),
    ],
)
def test_the_board_etag_changes_with_what_the_page_shows(client, session, what, request_kwargs):
    bulk_hands(session, 5)
    path = url("session_board", session)
    etag = client.get(path)["ETag"]

    assert client.get(path, HTTP_IF_NONE_MATCH=etag, **request_kwargs).status_code == 200


def test_view_and_edit_links_get_different_boards(client, session):
    edit = client.get(url("session_board", session))["ETag"]
    view = client.get(url("session_board", session, token=session.group.view_token), HTTP_IF_NONE_MATCH=edit)

    assert view.status_code == 200 and view["ETag"] != edit


@pytest.mark.parametrize("hands", [5, 300])
def test_the_settlement_runs_the_same_queries_whatever_the_hands(client, session, django_assert_num_queries, hands):
    bulk_hands(session, hands)
    path = url("session_settle", session)

    with django_assert_num_queries(4):
        # 1. the session with its group, by the link
        # 2. the players' pay handles, which the edit link's page names in its ETag (issue 39)
        # 3. every live hand's number, kind and payments (for the hand-by-hand transfers)
        # 4. the payments standing: the page lists what is still owed after them (issue 35)
        response = client.get(path)
    assert response.status_code == 200


def test_the_operator_admin_lists_every_model(admin_client, session):
    HandFactory(session=session)

    for model in ("group", "player", "session", "hand", "revision"):
        assert admin_client.get(reverse(f"admin:mighty_ledger_{model}_changelist")).status_code == 200


def test_a_double_deck_form_takes_two_called_cards_and_several_partners(db):
    session = SessionFactory(seats=["Ann", "Bo", "Cy", "Di", "Ed", "Fay"], preset="chicago-6p")
    from mighty_ledger.reads import system_of

    form = HandForm(form_data({
        "dealer": "Fay", "declarer": "Ann", "contract": {"points": 28, "trump": "S"},
        "partner_call": {"type": "card", "cards": ["AH", "KH"]}, "partners": ["Cy", "Ed"], "points": 30,
    }), seats=session.seats, system=system_of(session))

    assert form.is_valid(), form.errors
    assert form.entry()["partners"] == ["Cy", "Ed"]
    assert form.entry()["partner_call"]["cards"] == ["AH", "KH"]
    assert form.discard_count == 4


def test_a_called_player_is_offered_only_where_the_system_allows_it(db):
    from mighty_ledger.reads import system_of

    pagat_session = SessionFactory(preset="pagat-standard")
    korean_session = SessionFactory(preset="korean-standard")

    assert "call_seat" not in HandForm(seats=pagat_session.seats, system=system_of(pagat_session)).fields
    assert "call_seat" in HandForm(seats=korean_session.seats, system=system_of(korean_session)).fields


def test_the_session_rules_page_describes_the_frozen_system_and_its_changes(client, db):
    session = SessionFactory(overrides={"doubles": {"no_trump": "made"}, "min_bid": 14})
    page = client.get(url("session_rules", session)).text
    assert 'data-testid="session-overrides"' in page
    # the session's own minimum, not the preset's 13
    assert "2 × (B − 14)" in page


def test_a_session_without_overrides_lists_no_changes(client, session):
    page = client.get(url("session_rules", session)).text
    assert 'data-testid="session-overrides"' not in page
    assert "2 × (B − 13)" in page


def test_the_scoreboard_names_the_system_and_links_to_its_rules(client, session):
    page = client.get(url("session_board", session)).text
    assert "Pagat standard (5 players)" in page
    assert url("session_rules", session) in page


def test_a_cached_board_still_refuses_a_rotated_link(client, session):
    path = url("session_board", session)
    client.get(path)
    services.group_rotate_link(group=session.group, which="edit")
    assert client.get(path).status_code == 404


def test_a_cached_board_carries_each_visitors_own_csrf_token(session):
    from django.test import Client

    path = url("session_board", session)
    first, second = Client(), Client()
    first.get(path)
    page = second.get(path)
    assert "csrf-token-slot" not in page.text
    assert page.cookies["csrftoken"].value


def test_the_board_is_rendered_once_per_revision_and_shows_each_new_hand(client, session, django_assert_num_queries):
    bulk_hands(session, 3)
    board = url("session_board", session)
    client.get(board)  # renders the board's fragment for this revision

    # another phone (no ETag yet): the link and session; the page, drawn once for this revision, from the cache
    with django_assert_num_queries(1):
        again = client.get(board)
    assert 'id="hand-3"' in again.text

    services.hand_record(session=session, entry=dict(MADE_15_DIAMONDS))
    assert 'id="hand-4"' in client.get(board).text


@pytest.mark.parametrize("query", ["?before=abc", "?before=99999", "?utm=1&x=2", "?before="])
def test_a_query_string_does_not_make_a_new_cached_board(client, session, django_assert_num_queries, query):
    """A view link with made-up queries cannot fill the cache: it gets the one fragment of the revision."""
    bulk_hands(session, 3)
    board = url("session_board", session)
    client.get(board)

    with django_assert_num_queries(1):  # the link and session: the page drawn once, no rows read
        response = client.get(board + query)
    assert 'id="hand-3"' in response.text
