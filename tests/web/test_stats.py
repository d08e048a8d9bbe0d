"""A group's statistics, worked out by hand from a scripted evening, and the pages that show them.

The evening is pagat's standard five-player game (RULES.md §9.1): base when made
2×(C−13)+(P−C), when set C−P; each double (run, no trump, no friend, back run) ×2;
each defender pays the score, a partner gets it, the declarer the rest. A deal
miss's fine goes to the pot, which the winners of the next scored hand share
(whole points only, the rest waits).
"""

from __future__ import annotations

import datetime
from collections import Counter

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mighty_ledger import services
from mighty_ledger.models import Hand, Session
from mighty_ledger.reads import stats
from scoring.problems import InvalidInput
from tests.factories import (
    MADE_15_DIAMONDS,
    SEATS,
    GroupFactory,
    HandFactory,
    SessionFactory,
    bulk_hands,
)
from tests.scoring.strategies import legal_hands

# (entry, kind); each comment works the hand out by the rules above
EVENING = [
    # 15♦ made with 16: base 2×2+1 = 5; Ann +10, Cy (partner) +5, defenders −5
    (dict(MADE_15_DIAMONDS), Hand.SCORED),
    # Di dealt and Ed showed a deal-miss hand: Di pays a fine of 2 into the pot
    ({"dealer": "Di", "shown_by": "Ed", "fine": 2}, Hand.DEAL_MISS),
    # 14♠ set with 12: base 14−12 = 2; Bo −4, Di (partner) −2, defenders +2; the pot's 2
    # does not divide among three winners, so it waits
    ({"dealer": "Ann", "declarer": "Bo", "contract": {"points": 14, "trump": "S"},
      "partner_call": {"type": "card", "cards": ["AH"]}, "partners": ["Di"], "points": 12}, Hand.SCORED),
    # 13 NT alone, announced no friend, every point card: base 7, ×2 run ×2 no trump ×2 no friend
    # = 56; Cy +4×56 = +224 and the pot's 2, each defender −56
    ({"dealer": "Bo", "declarer": "Cy", "contract": {"points": 13, "trump": "NT"},
      "partner_call": {"type": "none"}, "partners": [], "points": 20}, Hand.SCORED),
    # 16♥ set with 5: the defenders took 15 ≥ 11, a back run: base 11 ×2 = 22; Ed −44, Ann −22
    ({"dealer": "Cy", "declarer": "Ed", "contract": {"points": 16, "trump": "H"},
      "partner_call": {"type": "card", "cards": ["AC"]}, "partners": ["Ann"], "points": 5}, Hand.SCORED),
]

# name: hands, sat out, declarer (hands, made, contract sum, NT, no friend, no friend made, runs),
#       partner (hands, made), defender (hands, won, back runs), points, biggest win, biggest loss
EXPECTED = {
    "Ann": (4, 0, (1, 1, 15, 0, 0, 0, 0), (1, 0), (2, 1, 0), 10 + 2 - 56 - 22, 10, -56),
    "Bo": (4, 0, (1, 0, 14, 0, 0, 0, 0), (0, 0), (3, 1, 1), -5 - 4 - 56 + 22, 22, -56),
    "Cy": (4, 0, (1, 1, 13, 1, 1, 1, 1), (1, 1), (2, 2, 1), 5 + 2 + 224 + 2 + 22, 226, 0),  # never down
    "Di": (4, 0, (0, 0, 0, 0, 0, 0, 0), (1, 0), (3, 1, 1), -5 - 2 - 2 - 56 + 22, 22, -56),
    "Ed": (4, 0, (1, 0, 16, 0, 0, 0, 0), (0, 0), (3, 1, 0), -5 + 2 - 56 - 44, 2, -56),
}


def play(session: Session, evening=EVENING) -> Session:
    for entry, kind in evening:
        HandFactory(session=session, entry=entry, kind=kind)
    session.refresh_from_db()
    return session


@pytest.fixture
def evening(db) -> Session:
    return play(SessionFactory(played_on=datetime.date(2026, 11, 20)))


@pytest.mark.parametrize("name", list(EXPECTED), ids=[f"pagat-evening-{name}" for name in EXPECTED])
def test_every_figure_of_each_player_is_what_the_rules_give(evening, name):
    hands, sat_out, declarer, partner, defender, points, win, loss = EXPECTED[name]
    player = stats.group_stats(evening.group).player(name)

    assert (player.hands, player.sat_out) == (hands, sat_out)
    d = player.declarer
    assert (d.hands, d.made, d.contract_points, d.no_trump, d.no_friend, d.no_friend_made, d.runs) == declarer
    assert (player.partner.hands, player.partner.made) == partner
    assert (player.defender.hands, player.defender.won, player.defender.back_runs) == defender
    assert (player.points, player.biggest_win, player.biggest_loss) == (points, win, loss)
    assert (player.runs, player.back_runs) == (declarer[6], defender[2])
    assert player.points == evening.totals[name]
    assert [line.points for line in player.sessions] == [points]


def test_the_pairs_contracts_and_counts_of_the_evening(evening):
    record = stats.group_stats(evening.group)

    assert {(p.players, p.hands, p.made) for p in record.pairs} == {
        (("Ann", "Cy"), 1, 1), (("Bo", "Di"), 1, 0), (("Ann", "Ed"), 1, 0),
    }
    assert [(c.points, c.trump, c.bid, c.made) for c in record.contracts] == [
        (13, "NT", 1, 1), (14, "S", 1, 0), (15, "D", 1, 1), (16, "H", 1, 0),
    ]
    assert (record.hands, record.events, record.systems) == (4, 1, ("pagat-standard",))
    assert [(point.hand, point.totals["Cy"]) for point in record.series] == [
        (1, 5), (2, 5), (3, 7), (4, 233), (5, 255),
    ]
    assert [p.name for p in record.players] == ["Cy", "Bo", "Di", "Ann", "Ed"]  # most points first


def test_percentages_and_averages_are_worked_out_from_the_counts(evening):
    cy = stats.group_stats(evening.group).player("Cy")

    assert (cy.declarer.made_pct, cy.declarer.average_contract, cy.declarer.no_trump_pct) == (100, 13.0, 100)
    assert (cy.declarer.no_friend_made_pct, cy.partner.made_pct, cy.defender.won_pct) == (100, 100, 100)
    assert stats.group_stats(evening.group).player("Di").declarer.made_pct is None  # never declared


def test_best_and_worst_friend_rank_partners_by_contracts_made(evening):
    record = stats.group_stats(evening.group)
    best, worst = stats.best_and_worst_friend(record, "Ann")

    assert best.players == ("Ann", "Cy") and worst.players == ("Ann", "Ed")


def test_with_several_partners_who_all_made_every_contract_best_and_worst_are_two_of_them(db):
    from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

    session = SessionFactory()
    # Ann makes every contract: twice with Cy, once with Bo
    for partner in ("Cy", "Cy", "Bo"):
        HandFactory(session=session, entry={**MADE_15_DIAMONDS, "partners": [partner]})

    best, worst = stats.best_and_worst_friend(stats.group_stats(session.group), "Ann")

    assert (best.players, worst.players) == (("Ann", "Cy"), ("Ann", "Bo"))


def test_a_player_who_sits_out_counts_a_hand_sat_out_not_played(db):
    seats = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"]
    session = SessionFactory(seats=seats, preset="pagat-6p-rotation")
    # pagat: with six at the table the dealer deals and sits the hand out
    entry = {**MADE_15_DIAMONDS, "dealer": "Fay", "sitting_out": ["Fay"]}
    play(session, [(entry, Hand.SCORED)])

    fay = stats.group_stats(session.group).player("Fay")

    assert (fay.hands, fay.sat_out, fay.points, fay.defender.hands) == (0, 1, 0, 0)


def test_filters_pick_a_session_a_period_or_a_system(evening):
    group = evening.group
    older = play(SessionFactory(group=group, played_on=datetime.date(2026, 9, 1), preset="korean-standard"),
                 [(dict(MADE_15_DIAMONDS), Hand.SCORED)])

    everything = stats.group_stats(group)
    assert everything.hands == 5 and everything.mixed_systems
    assert stats.group_stats(group, stats.Filters(session_id=older.pk)).hands == 1
    assert stats.group_stats(group, stats.Filters(since=datetime.date(2026, 11, 1))).hands == 4
    assert stats.group_stats(group, stats.Filters(system="korean-standard")).systems == ("korean-standard",)


def test_deleted_hands_and_sessions_do_not_count(evening):
    services.hand_delete(hand=evening.hands.get(number=4))
    record = stats.group_stats(evening.group)
    assert record.player("Cy").declarer.hands == 0
    assert record.player("Cy").points == Session.objects.get(pk=evening.pk).totals["Cy"]

    services.session_delete(session=evening)
    assert stats.group_stats(evening.group).players == ()


def test_payments_never_enter_the_statistics(evening):
    before = stats.group_stats(evening.group)
    services.payment_record(session=evening, payer="Ed", payee="Cy", amount=stats.Decimal(50))

    assert stats.group_stats(evening.group).players == before.players


# --- hypothesis: the statistics agree with the stored totals, whatever was played ---------------------

SIX = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"]


@st.composite
def evenings(draw):
    """A sequence of legal hands of one preset, with deal misses among them."""
    slug = draw(st.sampled_from(["pagat-standard", "pagat-6p-rotation", "korean-standard", "chicago-5p"]))
    records = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.integers(0, 5)) == 0:
            seats = draw(legal_hands(slugs=[slug]))[0]["seats"]
            records.append(({"dealer": seats[0], "shown_by": seats[-1], "fine": draw(st.integers(0, 3))},
                            Hand.DEAL_MISS))
        else:
            request, _system = draw(legal_hands(slugs=[slug]))
            entry = {k: v for k, v in request.items() if k not in ("system", "seats")}
            records.append((entry, Hand.SCORED))
    return slug, records


@pytest.mark.django_db
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(evening=evenings())
def test_points_equal_the_session_totals_and_roles_add_up_to_hands_played(evening):
    slug, records = evening
    group = GroupFactory()
    seats = SIX if slug == "pagat-6p-rotation" else SEATS
    session = SessionFactory(group=group, seats=seats, preset=slug)
    recorded = 0
    for entry, kind in records:
        try:
            HandFactory(session=session, entry=entry, kind=kind)
            recorded += kind == Hand.SCORED
        except InvalidInput:
            pass  # a hand the strategy drew that this table's legality refuses is simply not recorded
    session.refresh_from_db()

    record = stats.group_stats(group)

    assert record.hands == recorded
    for player in record.players:
        assert player.points == session.totals[player.name]
        assert player.declarer.hands + player.partner.hands + player.defender.hands == player.hands
        assert player.hands + player.sat_out == recorded
    assert sum(Counter({p.name: p.declarer.hands for p in record.players}).values()) == recorded


# --- the pages -----------------------------------------------------------------------------------------


def test_the_statistics_page_shows_every_players_figures(client, evening):
    page = client.get(reverse("group_stats", args=[evening.group.view_token]))

    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-player="Cy"' in text and "+255" in text and "−103" in text
    assert text.count('class="series-line"') == 5  # one line per player on the season's chart


def test_the_statistics_of_one_session_draw_its_hands(client, evening):
    page = client.get(reverse("group_stats", args=[evening.group.view_token]), {"period": f"s{evening.pk}"})

    assert page.status_code == 200
    assert "Cy after hand 5: +255" in page.content.decode()


def test_two_untitled_evenings_on_one_day_are_told_apart_in_the_period_list(client, db):
    import datetime

    from tests.factories import GroupFactory, SessionFactory

    group = GroupFactory()
    day = datetime.date(2026, 11, 25)
    first, second = (SessionFactory(group=group, played_on=day) for _ in range(2))
    SessionFactory(group=group, played_on=day, title="late game")

    choices = dict(client.get(reverse("group_stats", args=[group.view_token])).context["period_choices"])

    assert (choices[f"s{first.pk}"], choices[f"s{second.pk}"]) == ("2026-11-25 (1)", "2026-11-25 (2)")
    assert "2026-11-25 · late game" in choices.values()


def test_a_session_chosen_beside_a_season_it_was_not_played_in_shows_that_session(client, evening):
    import datetime

    from mighty_ledger.services.seasons import season_create

    # the form sends the season shown (the current one, started after this evening) with the session
    season = season_create(group=evening.group, name="Winter", starts=evening.played_on + datetime.timedelta(days=30))

    page = client.get(reverse("group_stats", args=[evening.group.view_token]),
                      {"period": f"s{evening.pk}", "season": str(season.pk)})

    assert "No hands yet." not in page.content.decode()
    assert "Cy after hand 5: +255" in page.content.decode()


def test_unknown_filters_mean_everything(client, evening):
    page = client.get(reverse("group_stats", args=[evening.group.view_token]),
                      {"period": "s999999999999999999999", "system": "<nope>"})

    assert page.status_code == 200
    assert page.context["period"] == "all" and page.context["system"] == ""


def test_a_player_page_names_best_and_worst_friend(client, evening):
    page = client.get(reverse("player_page", args=[evening.group.view_token, "Ann"]))

    assert page.status_code == 200
    assert page.context["best_friend"].players == ("Ann", "Cy")
    assert reverse("player_page", args=[evening.group.view_token, "Nobody"]) and client.get(
        reverse("player_page", args=[evening.group.view_token, "Nobody"])).status_code == 404


def test_another_groups_link_reaches_no_statistics(client, evening):
    other = GroupFactory()
    assert client.get(reverse("group_stats", args=["x" * 43])).status_code == 404
    page = client.get(reverse("group_stats", args=[other.view_token]))
    # the other group's links are random text, which may spell a name: look for the player rows
    assert page.status_code == 200 and 'data-player="Cy"' not in page.content.decode()
    assert page.context["stats"].players == ()


def test_the_scoreboard_chart_has_one_line_per_seat(client, evening):
    path = reverse("session_chart", args=[evening.group.view_token, evening.pk])

    chart = client.get(path, headers={"HX-Request": "true"})
    assert chart.status_code == 200
    assert chart.content.decode().count('class="series-line"') == 5
    # without JavaScript the link leads to the same figures on the statistics page
    assert client.get(path).status_code == 302


def test_the_hands_download_as_csv_with_payments_and_totals(client, evening):
    response = client.get(reverse("session_hands_csv", args=[evening.group.view_token, evening.pk]))

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = response.content.decode("utf-8-sig").splitlines()
    assert rows[0].startswith("date,title,number,kind,dealer,declarer,contract,partner_call,partners")
    assert len(rows) == 1 + 5
    assert rows[4].startswith("2026-11-20,,4,scored,Bo,Cy,13 NT,")
    assert ",20,yes,run," in rows[4]
    assert rows[-1].endswith(",".join(str(evening.totals[s]) for s in SEATS))


@pytest.mark.parametrize("hands", [5, 300])
def test_the_statistics_page_runs_the_same_queries_whatever_the_hands(client, db, django_assert_num_reads,
                                                                       hands):
    session = SessionFactory()
    bulk_hands(session, hands)
    path = reverse("group_stats", args=[session.group.view_token])

    with django_assert_num_reads(6):
        # 1. the group by its link
        # 2. every live session of the group (the filters' choices and the statistics' cache key)
        # 3. the group's seasons (the choices, the current season)
        # 4. the sessions chosen, whole (read only to draw the page)
        # 5. the live hands of the sessions counted: roles, result and payments (not cached yet)
        # 6. the scored hands' sides, rated (the rating table; not kept yet)
        response = client.get(path)
    assert response.status_code == 200
    assert response.context["stats"].hands == hands

    with django_assert_num_reads(3):
        # 1. the group by its link; 2. its sessions; 3. its seasons: the statistics come from the cache
        client.get(path)


def test_a_group_of_twenty_sessions_runs_the_same_queries(client, db, django_assert_num_reads):
    group = GroupFactory()
    for _ in range(20):
        bulk_hands(SessionFactory(group=group), 25)

    path = reverse("group_stats", args=[group.view_token])

    with django_assert_num_reads(6):
        # 1. the group by its link
        # 2. every live session of the group
        # 3. the group's seasons
        # 4. the sessions chosen, whole
        # 5. the live hands of all twenty sessions, in one query
        # 6. the sides of their scored hands, rated in one pass
        response = client.get(path)
    assert response.status_code == 200
    assert response.context["stats"].hands == 500


def test_after_a_hand_only_its_session_is_counted_again(client, evening, monkeypatch):
    older = play(SessionFactory(group=evening.group, played_on=datetime.date(2026, 11, 13)))
    path = reverse("group_stats", args=[evening.group.view_token])
    client.get(path)  # both sessions counted and kept
    counted = []
    count_sessions = stats.count_sessions
    monkeypatch.setattr(stats, "count_sessions",
                        lambda sessions, **how: counted.append(sessions) or count_sessions(sessions, **how))

    HandFactory(session=evening, entry=dict(MADE_15_DIAMONDS))
    page = client.get(path)

    assert [[session.pk for session in sessions] for sessions in counted] == [[evening.pk]]
    # the season from the kept counts and the fresh ones is the season counted from scratch
    assert page.context["stats"].players == stats.group_stats(evening.group).players
    assert page.context["stats"].hands == 2 * 4 + 1 and older.hand_count == 5
