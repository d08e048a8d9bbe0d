"""A club night's standings, progress and settlement, read from its tables' hands (issue 38).

The standings must equal what the tables' hands say, whichever option ranks them, on SQLite and
on PostgreSQL alike: each player's points are the sum of their payments in every live hand of
the night, their hands the scored hands they played in (not those they sat out).
"""

from __future__ import annotations

import random
from datetime import timedelta
from fractions import Fraction

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from mighty_ledger import reads, services
from mighty_ledger.models import Hand, Night, Payment, Session
from mighty_ledger.reads import nights
from mighty_ledger.services import nights as night_services
from scoring.problems import InvalidInput
from scoring.settle import Stakes, fewest_transfers
from tests.web.night_tables import (
    finish_round,
    pay_at_the_first_table,
    play,
    play_some,
    second_round_under_way,
)

NAMES = [f"P{index:02d}" for index in range(11)]  # 11 at pagat: a table of 5 and one of 6


def night_of(players=NAMES, **options) -> Night:
    group = services.group_create(name="Club")
    return night_services.night_create(group=group, players=list(players), preset="pagat-standard",
                                       **{"seed": 38, **options})


def expected_from_hands(night: Night) -> tuple[dict, dict, dict]:
    """Points, hands played and placement points straight from the hands, as a person would add them."""
    points, hands, placed = {}, {}, {}
    for session in Session.objects.filter(night_round__night=night).live():
        table = dict.fromkeys(session.seats, 0)
        played_here = False
        for hand in session.hands.live():
            for name, amount in hand.payments.items():
                table[name] += amount
            if hand.kind == Hand.SCORED:
                played_here = True
                for name in (*hand.sides["declarers"], *hand.sides["defenders"]):
                    hands[name] = hands.get(name, 0) + 1
        for name, total in table.items():
            points[name] = points.get(name, 0) + total
            if played_here:
                above = sum(1 for other in table.values() if other < total)
                level = sum(1 for other in table.values() if other == total) - 1
                placed[name] = placed.get(name, 0) + above + Fraction(level, 2)
    return points, hands, placed


@pytest.mark.django_db
@pytest.mark.parametrize("option", [Night.POINTS, Night.PER_HAND, Night.PLACEMENT])
def test_the_standings_are_the_sum_of_the_tables_hands(option):
    night = night_of(standings=option)
    second_round_under_way(night, random.Random(option), 4)
    # a hand deleted at a table counts no more
    services.hand_delete(hand=Session.objects.filter(night_round__night=night).live().first().hands.live().last())

    standings = nights.night_standings(night)
    points, hands, placed = expected_from_hands(night)

    rows = {row.name: row for row in standings.rows}
    assert set(rows) == set(NAMES)
    assert {name: row.points for name, row in rows.items()} == {name: points.get(name, 0) for name in NAMES}
    assert {name: row.hands for name, row in rows.items()} == {name: hands.get(name, 0) for name in NAMES}
    figure = {Night.POINTS: lambda name: points.get(name, 0),
              Night.PER_HAND: lambda name: Fraction(points.get(name, 0), hands[name]) if hands.get(name) else 0,
              Night.PLACEMENT: lambda name: placed.get(name, 0)}[option]
    assert {name: row.score for name, row in rows.items()} == {name: figure(name) for name in NAMES}
    # ranked: the figure never rises down the list, and the first is 1
    scores = [row.score for row in standings.rows]
    assert scores == sorted(scores, reverse=True)
    assert standings.rows[0].rank == 1
    assert all(a.rank <= b.rank for a, b in zip(standings.rows, standings.rows[1:], strict=False))


@pytest.mark.django_db
def test_players_level_on_score_and_tie_break_share_a_rank_and_are_listed_by_name():
    night = night_of(players=["Zed", "Amy", "Kim", "Bo", "Lu"])
    night_services.night_round_draw(night=night)

    rows = nights.night_standings(night).rows

    assert [row.name for row in rows] == ["Amy", "Bo", "Kim", "Lu", "Zed"]
    assert {row.rank for row in rows} == {1}


@given(st.lists(st.integers(-50, 50), min_size=2, max_size=8))
def test_a_tables_placement_points_give_out_every_place_once(totals):
    named = {f"p{i}": total for i, total in enumerate(totals)}

    placed = nights.placement_points(named)

    n = len(named)
    assert sum(placed.values()) == Fraction(n * (n - 1), 2)
    for a in named:
        for b in named:
            if named[a] > named[b]:
                assert placed[a] > placed[b]


# --- the round's progress -----------------------------------------------------------------


@pytest.mark.django_db
def test_the_next_round_waits_for_every_table_to_finish_its_hands():
    night = night_of(hands_per_round=5)
    night_services.night_round_draw(night=night)
    progress = nights.current_progress(night)
    # 5 hands at the table of five; at the six with the dealer out, 6, so each plays 5
    assert sorted(table.target for table in progress.tables) == [5, 6]

    play_some(night, random.Random(1), 2)
    with pytest.raises(night_services.RoundInProgress) as refused:
        night_services.night_round_draw(night=night)
    assert refused.value.progress.unfinished == (1, 2)
    assert "Round 1" in refused.value.message

    finish_round(night, random.Random(2))
    assert nights.current_progress(night).finished
    assert night_services.night_round_draw(night=night).number == 2


@pytest.mark.django_db
def test_a_timed_round_ends_when_the_time_is_up_and_the_hand_being_played_is_finished():
    night = night_of(minutes_per_round=30)
    drawn = night_services.night_round_draw(night=night)
    session = Session.objects.filter(night_round=drawn).first()
    later = drawn.ends_at + timedelta(seconds=1)

    assert not nights.round_progress(night, nights.night_rounds(night)[0], now=drawn.ends_at - timedelta(minutes=1)).finished
    coming = reads.next_state(session)
    contract, _ = services.contract_open(session=session, entry={
        "dealer": coming.dealer, "sitting_out": list(coming.sitting_out), "declarer": coming.active[1],
        "contract": {"points": 14, "trump": "S"}, "partner_call": {"type": "card", "cards": ["AS"]}})
    progress = nights.round_progress(night, nights.night_rounds(night)[0], now=later)
    assert [table.finished for table in progress.tables if table.table.session.pk == session.pk] == [False]

    services.contract_abandon(contract=contract, version=contract.version)
    assert nights.round_progress(night, nights.night_rounds(night)[0], now=later).finished
    drawn.ends_at = timezone.now() - timedelta(seconds=1)
    drawn.save()
    assert night_services.night_round_draw(night=night).number == 2


# --- players come and go, and the organizer's swap ------------------------------------------


@pytest.mark.django_db
def test_a_player_who_arrives_is_drawn_next_round_and_one_who_leaves_keeps_their_standing():
    night = night_of(players=NAMES[:10], hands_per_round=5)
    night_services.night_round_draw(night=night)
    finish_round(night, random.Random(3))
    leaver = NAMES[0]

    night_services.night_player_add(night=night, name="Newcomer")
    night = night_services.night_player_remove(night=night, name=leaver)
    night_services.night_round_draw(night=night)

    rounds = nights.night_rounds(night)
    assert "Newcomer" in rounds[1].drawn(night.seed).players
    assert leaver not in rounds[1].drawn(night.seed).players
    assert night.group.players.filter(name="Newcomer").exists()
    standing = nights.night_standings(night).of(leaver)
    assert standing.hands == 5 and not standing.present


@pytest.mark.django_db
def test_a_player_cannot_come_twice_nor_leave_when_not_there():
    night = night_of()

    with pytest.raises(InvalidInput) as twice:
        night_services.night_player_add(night=night, name=NAMES[1])
    with pytest.raises(InvalidInput) as absent:
        night_services.night_player_remove(night=night, name="Nobody")

    assert twice.value.problems[0].code == "already_present"
    assert absent.value.problems[0].code == "not_present"


@pytest.mark.django_db
def test_a_swap_before_the_first_hand_changes_both_tables_seats_and_none_after():
    night = night_of()
    night_services.night_round_draw(night=night)
    first, second = nights.night_rounds(night)[0].tables
    a, b = first.seats[1], second.seats[3]

    night_services.night_swap_players(night=night, first=a, second=b)

    first_after, second_after = nights.night_rounds(night)[0].tables
    assert first_after.seats[1] == b and second_after.seats[3] == a
    assert set(first_after.session.totals) == set(first_after.seats)
    play(first_after.session, random.Random(4))
    with pytest.raises(night_services.RoundStarted):
        night_services.night_swap_players(night=night, first=b, second=second_after.seats[0])


# --- one settlement for the night ------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("stakes", [Stakes(), Stakes(stake_per_point=100, currency="KRW"), Stakes(chips_start=100)],
                         ids=["points", "money", "chips"])
def test_the_settlement_is_the_fewest_transfers_over_every_tables_result_net_of_payments(stakes):
    night = night_of(hands_per_round=5, stakes=stakes)
    second_round_under_way(night, random.Random(5), 3)
    pay_at_the_first_table(night)

    settled = nights.night_settlement(night)

    # each player's result is the sum of their tables' results in the night's unit
    expected = {}
    for each in settled.tables:
        for name, amount in each.amounts.items():
            expected[name] = expected.get(name, 0) + amount
    assert {name: amount for name, amount in settled.totals.items() if amount} == \
        {name: amount for name, amount in expected.items() if amount}
    # what is owed after the payment, settled in the fewest transfers
    owed = {**settled.totals}
    if settled.pot:
        owed["pot"] = settled.pot
    for payment in Payment.objects.filter(session__night_round__night=night):
        owed[payment.payer] += payment.amount
        owed[payment.payee] -= payment.amount
    owed = {name: amount for name, amount in owed.items() if amount}
    assert len(settled.outstanding) == len(fewest_transfers(owed))
    for transfer in settled.outstanding:
        owed[transfer.frm] += transfer.amount
        owed[transfer.to] -= transfer.amount
    assert not any(owed.values())
    assert [payment.pk for payment in settled.payments] == [p.pk for p in Payment.objects.all()]


@pytest.mark.django_db
def test_the_standings_read_the_rounds_the_hands_counted_and_the_sides_where_one_sits_out(
        django_assert_num_queries):
    night = night_of(hands_per_round=5)
    night_services.night_round_draw(night=night)
    play_some(night, random.Random(6), 3)
    night = Night.objects.get(pk=night.pk)

    # the rounds; their tables' sessions; the scored hands counted per table; the sides at the six
    with django_assert_num_queries(4):
        nights.night_standings(night)


@pytest.mark.django_db
def test_a_night_drawn_by_standings_seats_the_top_of_the_standings_at_table_one():
    night = night_of(players=NAMES[:10], hands_per_round=5, mixing=Night.BY_STANDINGS, standings=Night.PLACEMENT)
    night_services.night_round_draw(night=night)
    finish_round(night, random.Random(10))
    ranked = [row.name for row in nights.night_standings(night).rows]
    scores = {row.name: row.score for row in nights.night_standings(night).rows}

    night_services.night_round_draw(night=night)

    top = nights.night_rounds(night)[1].tables[0].seats
    assert min(scores[name] for name in top) >= max(scores[name] for name in ranked if name not in top)
