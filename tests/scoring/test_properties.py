"""Invariants of every scoring system over random legal hands (RULES.md §7)."""

from hypothesis import given, settings

from scoring.interface import score_request

from .strategies import legal_hands

PROPERTY = settings(max_examples=300, deadline=None)


def with_points(request, points):
    return {**request, "points": points}


@PROPERTY
@given(legal_hands())
def test_payments_sum_to_zero(case):
    request, _ = case
    assert sum(score_request(request)["payments"].values()) == 0


@PROPERTY
@given(legal_hands())
def test_every_seat_is_paid_and_sitting_out_seats_get_nothing(case):
    request, _ = case
    payments = score_request(request)["payments"]
    assert list(payments) == request["seats"]
    assert all(payments[seat] == 0 for seat in request["sitting_out"])


@PROPERTY
@given(legal_hands())
def test_more_points_never_lowers_the_declarers_payment(case):
    request, system = case
    declarer = request["declarer"]
    paid = [score_request(with_points(request, p))["payments"][declarer]
            for p in range(system.total_points + 1)]
    assert paid == sorted(paid)


@PROPERTY
@given(legal_hands())
def test_a_made_hand_never_pays_the_team_less_than_a_set_one(case):
    request, system = case
    contract = request["contract"]["points"]
    if contract > system.total_points:
        return
    team = [request["declarer"], *request["partners"]]
    made = score_request(with_points(request, contract))["payments"]
    set_ = score_request(with_points(request, contract - 1))["payments"]
    assert sum(made[s] for s in team) >= sum(set_[s] for s in team)
    assert made[request["declarer"]] >= 0 >= set_[request["declarer"]]


@PROPERTY
@given(legal_hands())
def test_a_solo_declarer_wins_or_pays_exactly_the_defenders_total(case):
    request, _ = case
    if request["partners"]:
        return
    payments = score_request(request)["payments"]
    defenders = [s for s in request["seats"] if s != request["declarer"] and s not in request["sitting_out"]]
    assert payments[request["declarer"]] == -sum(payments[s] for s in defenders)


@PROPERTY
@given(legal_hands())
def test_transfers_settle_the_hand(case):
    request, _ = case
    result = score_request(request)
    balance = dict.fromkeys(result["payments"], 0)
    for transfer in result["transfers"]:
        balance[transfer["from"]] -= transfer["amount"]
        balance[transfer["to"]] += transfer["amount"]
    assert balance == result["payments"]
