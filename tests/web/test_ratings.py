"""The skill rating, worked out hand by hand against openskill itself.

Each scored hand is one game: the declarer's side (declarer and partners, or
the declarer alone) against the defenders, the side that won ranked first
(ranks [0, 1] when the contract was made, [1, 0] when it was set). A deal miss,
an all-pass and a deleted hand change nothing; a player sitting out is in
neither team. Every player starts at the package's default rating.
"""

from __future__ import annotations

import datetime
from collections import Counter

import pytest
from django.core.cache import cache
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from mighty_ledger import services
from mighty_ledger.models import Hand
from mighty_ledger.reads import ratings, stats
from mighty_ledger.services.seasons import season_create
from tests.factories import MADE_15_DIAMONDS, SEATS, GroupFactory, HandFactory, SessionFactory

SIX = [*SEATS, "Fay"]

# the evening, in play order: (session, entry, kind, the game openskill is asked to rate or None)
MADE_WITH_PARTNER = dict(MADE_15_DIAMONDS)  # Ann and Cy make 15♦ with 16
SET_ONE = {"dealer": "Ann", "declarer": "Bo", "contract": {"points": 14, "trump": "S"},
           "partner_call": {"type": "card", "cards": ["AH"]}, "partners": ["Di"], "points": 12}
NO_FRIEND = {"dealer": "Bo", "declarer": "Cy", "contract": {"points": 13, "trump": "NT"},
             "partner_call": {"type": "none"}, "partners": [], "points": 20}
DEAL_MISS = {"dealer": "Di", "shown_by": "Ed", "fine": 2}
TO_BE_DELETED = {"dealer": "Cy", "declarer": "Ed", "contract": {"points": 16, "trump": "H"},
                 "partner_call": {"type": "card", "cards": ["AC"]}, "partners": ["Ann"], "points": 5}
# pagat: with six at the table the dealer deals and sits the hand out
WITH_A_SITTER = {**MADE_15_DIAMONDS, "dealer": "Fay", "sitting_out": ["Fay"]}


def openskill_direct(games) -> dict:
    """The ratings openskill gives for these games, asked directly: (declarers, defenders, made)."""
    model = PlackettLuce()
    current, hands = {}, Counter()
    for declarers, defenders, made in games:
        teams = [[current.get(name) or model.rating() for name in team] for team in (declarers, defenders)]
        rated = model.rate(teams, ranks=[0, 1] if made else [1, 0])
        for team, new in zip((declarers, defenders), rated, strict=True):
            for name, rating in zip(team, new, strict=True):
                current[name] = rating
                hands[name] += 1
    return {name: (rating.mu, rating.sigma, rating.ordinal(), hands[name]) for name, rating in current.items()}


def assert_same(rated: ratings.Ratings, expected: dict) -> None:
    assert {p.name for p in rated.players} == set(expected)
    for player in rated.players:
        mu, sigma, ordinal, hands = expected[player.name]
        assert player.mu == pytest.approx(mu, abs=1e-12), player.name
        assert player.sigma == pytest.approx(sigma, abs=1e-12), player.name
        assert player.ordinal == pytest.approx(ordinal, abs=1e-12), player.name
        assert player.hands == hands, player.name
        assert player.provisional is (hands < 20)
    assert [p.ordinal for p in rated.players] == sorted((p.ordinal for p in rated.players), reverse=True)


def rated_now(group) -> ratings.Ratings:
    filters = stats.Filters()
    return ratings.ratings_for(group, filters, filters.sessions(group))


@pytest.fixture
def evening(db):
    """Thursday (five seats) and Friday (six, the dealer sits out), every kind of hand."""
    group = GroupFactory()
    thursday = SessionFactory(group=group, played_on=datetime.date(2026, 11, 19))
    friday = SessionFactory(group=group, seats=SIX, preset="pagat-6p-rotation", played_on=datetime.date(2026, 11, 20))
    return group, thursday, friday


def test_an_evening_rates_each_side_as_openskill_does(evening):
    group, thursday, friday = evening
    games = []
    HandFactory(session=thursday, entry=MADE_WITH_PARTNER)
    games.append((["Ann", "Cy"], ["Bo", "Di", "Ed"], True))
    assert_same(rated_now(group), openskill_direct(games))  # kept from here on, hand by hand

    HandFactory(session=thursday, entry=DEAL_MISS, kind=Hand.DEAL_MISS)  # changes nothing
    assert_same(rated_now(group), openskill_direct(games))

    HandFactory(session=thursday, entry=SET_ONE)
    games.append((["Bo", "Di"], ["Ann", "Cy", "Ed"], False))
    HandFactory(session=thursday, entry=NO_FRIEND)
    games.append((["Cy"], ["Ann", "Bo", "Di", "Ed"], True))
    assert_same(rated_now(group), openskill_direct(games))

    deleted = HandFactory(session=thursday, entry=TO_BE_DELETED)
    services.hand_delete(hand=deleted)  # as if never entered
    HandFactory(session=friday, entry=WITH_A_SITTER)
    games.append((["Ann", "Cy"], ["Bo", "Di", "Ed"], True))  # Fay sat out: in neither team
    rated = rated_now(group)

    assert_same(rated, openskill_direct(games))
    assert rated.player("Fay") is None
    assert [step.session.pk for step in rated.steps] == [thursday.pk, friday.pk]
    assert rated.trend_of("Cy")[-1][1] == rated.player("Cy").ordinal


def test_every_player_starts_at_the_packages_default():
    start = PlackettLuce().rating()
    assert (ratings.MODEL.mu, ratings.MODEL.sigma) == (start.mu, start.sigma)
    assert ratings.ordinal(start.mu, start.sigma) == start.ordinal()


def test_a_void_hand_rates_nobody():
    assert ratings.game_of({"declarers": ["Ann"], "defenders": ["Bo"], "winners": []}) is None
    assert ratings.game_of({}) is None  # an event stores no sides


def test_a_filter_rates_only_its_hands_from_the_starting_rating(evening):
    group, thursday, friday = evening
    HandFactory(session=thursday, entry=SET_ONE)
    HandFactory(session=friday, entry=WITH_A_SITTER)
    only_friday = stats.Filters(session_id=friday.pk)

    rated = ratings.ratings_for(group, only_friday, only_friday.sessions(group))

    assert_same(rated, openskill_direct([(["Ann", "Cy"], ["Bo", "Di", "Ed"], True)]))


def test_a_session_played_earlier_but_entered_later_is_rated_in_play_order(evening):
    group, thursday, friday = evening
    HandFactory(session=friday, entry=WITH_A_SITTER)
    rated_now(group)
    HandFactory(session=thursday, entry=SET_ONE)  # Thursday's hand was played first

    assert_same(rated_now(group), openskill_direct([
        (["Bo", "Di"], ["Ann", "Cy", "Ed"], False), (["Ann", "Cy"], ["Bo", "Di", "Ed"], True),
    ]))


def test_after_a_hand_the_kept_ratings_read_that_hand_only(evening, django_assert_num_reads):
    group, thursday, _friday = evening
    for _ in range(3):
        HandFactory(session=thursday, entry=MADE_WITH_PARTNER)
    sessions = stats.Filters().sessions(group)
    ratings.ratings_for(group, stats.Filters(), sessions)
    HandFactory(session=thursday, entry=NO_FRIEND)
    sessions = stats.Filters().sessions(group)

    # one query: the scored hands of Thursday after the last one rated
    with django_assert_num_reads(1) as captured:
        ratings.ratings_for(group, stats.Filters(), sessions)
    assert '"number" > 3' in captured.captured_queries[0]["sql"]
    with django_assert_num_reads(0):  # nothing new: nothing read
        ratings.ratings_for(group, stats.Filters(), sessions)


def test_an_edit_rates_its_session_again_from_the_ratings_before_it_not_from_the_first_hand(
        evening, django_assert_num_reads):
    group, thursday, friday = evening
    HandFactory(session=thursday, entry=SET_ONE)
    hand = HandFactory(session=friday, entry=WITH_A_SITTER)
    rated_now(group)
    services.hand_amend(hand=hand, entry={**WITH_A_SITTER, "points": 10}, version=hand.version)  # now set
    sessions = stats.Filters().sessions(group)

    with django_assert_num_reads(1) as captured:  # Friday's hands only: Thursday's ratings are kept
        rated = ratings.ratings_for(group, stats.Filters(), sessions)
    assert f'"session_id" IN ({friday.pk})' in captured.captured_queries[0]["sql"]
    assert_same(rated, openskill_direct([
        (["Bo", "Di"], ["Ann", "Cy", "Ed"], False), (["Ann", "Cy"], ["Bo", "Di", "Ed"], False),
    ]))


# --- invariants ------------------------------------------------------------------------------

# a hand: declarer, partner (None: no friend), made
hands_strategy = st.lists(
    st.tuples(st.sampled_from(SEATS), st.one_of(st.none(), st.sampled_from(SEATS)), st.booleans()),
    min_size=1, max_size=6,
)


def entry_of(declarer: str, partner: str | None, made: bool) -> dict:
    partner = None if partner == declarer else partner
    return {
        "dealer": "Ed", "declarer": declarer, "contract": {"points": 15, "trump": "D"},
        "partner_call": {"type": "card", "cards": ["AS"]} if partner else {"type": "none"},
        "partners": [partner] if partner else [], "points": 16 if made else 10,
    }


def figures(rated: ratings.Ratings) -> list[tuple]:
    return [(p.name, p.mu, p.sigma, p.ordinal, p.hands) for p in rated.players]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hands=hands_strategy)
def test_the_same_hands_in_the_same_order_give_the_same_ratings(db, hands):
    cache.clear()
    looked_on, played_through = SessionFactory(), SessionFactory()
    for hand in hands:
        HandFactory(session=looked_on, entry=entry_of(*hand))
        rated_now(looked_on.group)  # kept and brought up to date after every hand
    for hand in hands:
        HandFactory(session=played_through, entry=entry_of(*hand))

    assert figures(rated_now(looked_on.group)) == figures(rated_now(played_through.group))
    assert figures(rated_now(looked_on.group)) == figures(ratings.ratings_from_scratch(
        stats.Filters().sessions(looked_on.group)))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hands=hands_strategy, data=st.data())
def test_a_deleted_hand_changes_the_ratings_as_if_never_entered(db, hands, data):
    cache.clear()
    gone = data.draw(st.integers(0, len(hands) - 1))
    with_it, never = SessionFactory(), SessionFactory()
    recorded = []
    for index, hand in enumerate(hands):
        recorded.append(HandFactory(session=with_it, entry=entry_of(*hand)))
        if index != gone:
            HandFactory(session=never, entry=entry_of(*hand))
    rated_now(with_it.group)  # kept before the deletion

    services.hand_delete(hand=recorded[gone])

    assert figures(rated_now(with_it.group)) == figures(rated_now(never.group))


# --- the pages ---------------------------------------------------------------------------------


def test_the_ratings_page_lists_every_player_highest_first(client, evening):
    group, thursday, _friday = evening
    HandFactory(session=thursday, entry=NO_FRIEND)
    page = client.get(reverse("group_ratings", args=[group.view_token]))

    assert page.status_code == 200
    text = page.content.decode()
    assert text.index('data-player="Cy"') < text.index('data-player="Ann"')
    assert text.count('data-testid="provisional"') == 5  # one hand each, fewer than 20


def test_the_statistics_page_shows_the_rating_table(client, evening):
    group, thursday, _friday = evening
    HandFactory(session=thursday, entry=NO_FRIEND)
    page = client.get(reverse("group_stats", args=[group.view_token]))

    assert 'data-testid="rating-table"' in page.content.decode()


def test_the_player_page_shows_rating_mu_sigma_and_the_trend(client, evening):
    group, thursday, friday = evening
    HandFactory(session=thursday, entry=NO_FRIEND)
    HandFactory(session=friday, entry=WITH_A_SITTER)
    cy = rated_now(group).player("Cy")
    page = client.get(reverse("player_page", args=[group.view_token, "Cy"]))
    text = page.content.decode()

    assert f"{cy.mu:.1f}" in text and f"{cy.sigma:.1f}" in text
    assert 'data-testid="rating-trend"' in text


def test_the_rating_page_after_a_hand_reads_the_link_the_sessions_the_seasons_and_that_hand(
        client, evening, django_assert_num_reads):
    group, thursday, _friday = evening
    for _ in range(3):
        HandFactory(session=thursday, entry=MADE_WITH_PARTNER)
    path = reverse("group_ratings", args=[group.view_token])
    client.get(path)
    HandFactory(session=thursday, entry=NO_FRIEND)

    # 1. the link; 2. the group's live sessions to choose from; 3. its seasons; 4. the sessions
    # chosen, whole; 5. the new hand's sides, rated
    with django_assert_num_reads(5):
        assert client.get(path).status_code == 200


def test_the_current_season_is_the_default_view_and_every_season_can_be_chosen(client, evening):
    group, thursday, friday = evening
    HandFactory(session=thursday, entry=SET_ONE)
    HandFactory(session=friday, entry=WITH_A_SITTER)
    season_create(group=group, name="Autumn", starts=datetime.date(2026, 9, 1))
    season_create(group=group, name="Winter", starts=friday.played_on)  # ends Autumn on Thursday
    path = reverse("group_ratings", args=[group.view_token])

    current = client.get(path)
    every = client.get(path, {"season": "all"})

    # Winter holds Friday's hand only: one rated hand each; every season, two
    assert {p.hands for p in current.context["ratings"].players} == {1}
    assert {p.hands for p in every.context["ratings"].players} == {2}
    assert current.context["season"] == str(group.seasons.get(name="Winter").pk)
    assert 'name="season"' in current.content.decode()


def test_a_page_asked_for_one_session_shows_it_whatever_the_season(client, evening):
    group, thursday, friday = evening
    HandFactory(session=thursday, entry=SET_ONE)
    season_create(group=group, name="Winter", starts=friday.played_on)

    page = client.get(reverse("group_stats", args=[group.view_token]), {"period": f"s{thursday.pk}"})

    assert page.context["stats"].hands == 1


def test_seasons_are_named_on_their_page_and_refused_with_a_reason(client, evening):
    group, _thursday, _friday = evening
    path = reverse("group_seasons", args=[group.edit_token])

    assert client.post(path, {"name": "Autumn", "starts": "2026-09-01"}).status_code == 302
    again = client.post(path, {"name": "Fall", "starts": "2026-09-01"})
    nameless = client.post(path, {"name": " ", "starts": "2026-10-01"})
    undated = client.post(path, {"name": "Spring", "starts": "soon"})
    onlooker = client.post(reverse("group_seasons", args=[group.view_token]),
                           {"name": "Spring", "starts": "2027-03-01"})

    assert (again.status_code, nameless.status_code, undated.status_code) == (400, 400, 400)
    assert "Another season already starts on 2026-09-01." in again.content.decode()
    assert onlooker.status_code == 403
    assert list(group.seasons.values_list("name", flat=True)) == ["Autumn"]
    listed = client.get(reverse("group_seasons", args=[group.view_token])).content.decode()
    assert "Autumn" in listed and 'data-testid="season-form"' not in listed
