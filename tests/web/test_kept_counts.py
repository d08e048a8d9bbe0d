"""Statistics kept hand by hand: after a hand at the table only that hand is read; after an edit, a
delete or a restore the session is counted again; and in any order of changes the kept figures
are the figures counted from scratch."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mighty_ledger import services
from mighty_ledger.api.stats import stats_json
from mighty_ledger.models import Hand, Session
from mighty_ledger.reads import kept_counts, stats
from tests.api.conftest import Api
from tests.factories import GroupFactory, HandFactory, SessionFactory
from tests.web.test_stats import EVENING


@pytest.fixture(autouse=True)
def cold_cache():
    cache.clear()


def figures(record: stats.Stats) -> tuple:
    return record.players, record.pairs, record.contracts, record.hands, record.events


def counted_from_scratch(group) -> tuple:
    return figures(stats.group_stats(group))


@pytest.fixture
def counting(monkeypatch):
    """What each call counted: the sessions, and the hand each one was counted after."""
    calls = []
    count_sessions = stats.count_sessions

    def recording(sessions, **how):
        calls.append(({session.pk for session in sessions}, dict(how.get("after") or {})))
        return count_sessions(sessions, **how)

    monkeypatch.setattr(stats, "count_sessions", recording)
    return calls


def play_evening(session: Session) -> Session:
    for entry, kind in EVENING:
        HandFactory(session=session, entry=dict(entry), kind=kind)
    session.refresh_from_db()
    return session


def test_after_a_hand_the_page_reads_that_hand_and_no_other(client, db, counting, django_assert_num_reads):
    evening = play_evening(SessionFactory())
    older = play_evening(SessionFactory(group=evening.group))
    path = reverse("group_stats", args=[evening.group.view_token])
    client.get(path)
    assert counting == [({evening.pk, older.pk}, {})]  # the first look counts everything

    HandFactory(session=evening, entry=dict(EVENING[0][0]))
    counting.clear()
    with django_assert_num_reads(6):
        # 1. the group by its link; 2. its sessions to choose from; 3. its seasons; 4. the sessions
        # chosen, whole (read only to draw); 5. the one hand recorded since the last look, counted;
        # 6. the same hand's sides, rated
        page = client.get(path)

    assert counting == [({evening.pk}, {evening.pk: len(EVENING)})]
    assert figures(page.context["stats"]) == counted_from_scratch(evening.group)
    assert page.context["stats"].hands == 2 * 4 + 1


def test_a_look_with_nothing_new_counts_nothing(client, db, counting):
    evening = play_evening(SessionFactory())
    path = reverse("group_stats", args=[evening.group.view_token])
    client.get(path)
    counting.clear()
    client.get(path + "?period=30d")  # another page of the same season: from the kept counts
    assert counting == []


@pytest.mark.parametrize("change", ["amend", "delete", "restore"])
def test_a_rewritten_session_is_counted_again_from_its_first_hand(db, counting, change):
    evening = play_evening(SessionFactory())
    first = evening.hands.get(number=1)
    if change == "restore":
        first = services.hand_delete(hand=first)
    kept_counts.stats_for([Session.objects.get(pk=evening.pk)])
    counting.clear()

    if change == "amend":
        # the first hand made with 18 instead of 16: every later payment may move (the pot's share)
        services.hand_amend(hand=first, entry={**EVENING[0][0], "points": 18}, version=first.version)
    elif change == "delete":
        services.hand_delete(hand=first)
    else:
        services.hand_restore(hand=first)
    record = kept_counts.stats_for([Session.objects.get(pk=evening.pk)])

    assert counting == [({evening.pk}, {})]
    assert figures(record) == counted_from_scratch(evening.group)


CHANGES = st.lists(
    st.tuples(st.sampled_from(["record", "amend", "delete", "restore", "look"]),
              st.integers(0, len(EVENING) - 1), st.integers(1, 12)),
    max_size=14,
)


def assert_kept_figures_are_counted_figures(group) -> None:
    sessions = list(stats.Filters().sessions(group))
    # the season and each session alone: the season's sum and the sessions' counts are kept apart
    for selection in (sessions, sessions[:1], sessions[1:]):
        assert figures(kept_counts.stats_for(selection)) == figures(stats.stats_of(selection))


@pytest.mark.django_db
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=CHANGES)
def test_kept_figures_are_the_figures_counted_from_scratch(changes):
    group = GroupFactory()
    tables = [SessionFactory(group=group), SessionFactory(group=group)]
    for step, (change, which, number) in enumerate(changes):
        session = tables[step % 2]
        entry, kind = EVENING[which]
        hand = session.hands.filter(number=number).first()
        if change == "record":
            HandFactory(session=session, entry=dict(entry), kind=kind)
        elif change == "amend" and hand is not None and hand.kind == kind == Hand.SCORED:
            services.hand_amend(hand=hand, entry=dict(entry), version=hand.version)
        elif change == "delete" and hand is not None:
            services.hand_delete(hand=hand)
        elif change == "restore" and hand is not None:
            services.hand_restore(hand=hand)
        else:
            assert_kept_figures_are_counted_figures(group)
    assert_kept_figures_are_counted_figures(group)


def test_the_api_answers_what_counting_from_scratch_answers(db):
    evening = play_evening(SessionFactory())
    older = play_evening(SessionFactory(group=evening.group))
    api = Api(evening.group.view_token)
    api.get("/api/v1/stats")
    HandFactory(session=older, entry=dict(EVENING[2][0]))
    services.hand_delete(hand=evening.hands.get(number=2))

    body = api.get("/api/v1/stats").json()
    assert body == stats_json(stats.group_stats(evening.group))
    assert [(point["session"], point["hand"]) for point in body["series"]] == [
        (evening.pk, 1), (evening.pk, 3), (evening.pk, 4), (evening.pk, 5),
        *((older.pk, number) for number in range(1, 7)),
    ]
