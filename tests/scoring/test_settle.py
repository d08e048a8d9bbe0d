"""Settling up: fewest transfers, money at a stake, chips."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.settle import (
    Transfer,
    chip_counts,
    fewest_transfers,
    settle_money,
    to_money,
)


def _apply(balances, transfers):
    left = dict(balances)
    for transfer in transfers:
        left[transfer.frm] += transfer.amount
        left[transfer.to] -= transfer.amount
    return left


def _partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1 :]]


def _brute_force_minimum(balances):
    # every settlement's transfers link players into zero-sum groups, and a group of k
    # needs k − 1 of them: try every way of splitting the players into groups
    owing = [seat for seat, amount in balances.items() if amount]
    return min(
        len(owing) - len(partition)
        for partition in _partitions(owing)
        if all(sum(balances[seat] for seat in group) == 0 for group in partition)
    )


@pytest.mark.parametrize(
    ("balances", "expected"),
    [
        pytest.param(
            {"A": 10, "B": 5, "C": -5, "D": -5, "E": -5},
            [("C", "A", 5), ("D", "A", 5), ("E", "B", 5)],
            id="seed-002-two-defenders-pay-the-declarer-the-third-pays-the-partner",
        ),
        pytest.param(
            {"A": -5, "B": 10, "C": -5, "D": 5, "E": -5},
            [("A", "B", 5), ("C", "B", 5), ("E", "D", 5)],
            id="seed-002-declarer-in-second-seat",
        ),
        pytest.param(
            {"A": -28, "B": -28, "C": 112, "D": -28, "E": -28},
            [("A", "C", 28), ("B", "C", 28), ("D", "C", 28), ("E", "C", 28)],
            id="rules-9-1-no-friend-made-four-defenders-pay",
        ),
        pytest.param(
            {"A": 3, "B": -3, "C": 7, "D": -7},
            [("B", "A", 3), ("D", "C", 7)],
            id="two-pairs-settle-apart",
        ),
        pytest.param(
            {"A": 6, "B": 0, "C": -6},
            [("C", "A", 6)],
            id="a-player-at-zero-takes-no-part",
        ),
        pytest.param({"A": 0, "B": 0}, [], id="nothing-to-settle"),
        pytest.param(
            {"A": 4, "B": 3, "C": -5, "D": -2},
            [("C", "A", 4), ("C", "B", 1), ("D", "B", 2)],
            id="no-zero-sum-part-needs-three",
        ),
        pytest.param(
            {"A": 5, "B": 4, "C": -3, "D": -2, "E": -4},
            [("C", "A", 3), ("D", "A", 2), ("E", "B", 4)],
            id="greedy-would-need-four-the-minimum-is-three",
        ),
    ],
)
def test_fewest_transfers(balances, expected):
    assert [(t.frm, t.to, t.amount) for t in fewest_transfers(balances)] == expected


def test_seat_order_decides_the_order_of_transfers():
    balances = {"E": -5, "D": 5, "C": -5, "B": 10, "A": -5}
    assert [(t.frm, t.to) for t in fewest_transfers(balances)] == [
        ("E", "B"),
        ("C", "B"),
        ("A", "D"),
    ]


def test_balances_that_do_not_sum_to_zero_are_a_bug():
    with pytest.raises(ValueError, match="sum to zero"):
        fewest_transfers({"A": 5, "B": -4})


def test_exact_amounts_keep_their_type():
    halves = fewest_transfers({"A": Fraction(5, 2), "B": Fraction(-5, 2)})
    assert halves == [Transfer("B", "A", Fraction(5, 2))]
    money = fewest_transfers({"A": Decimal("-1.50"), "B": Decimal("1.50")})
    assert money == [Transfer("A", "B", Decimal("1.50"))]


@pytest.mark.parametrize(
    ("amount", "json"),
    [
        pytest.param(5, 5, id="int"),
        pytest.param(Fraction(4, 2), 2, id="whole-fraction"),
        pytest.param(Fraction(5, 2), "5/2", id="fraction"),
        pytest.param(Decimal("2.50"), "2.50", id="decimal"),
    ],
)
def test_transfer_as_json(amount, json):
    assert Transfer("A", "B", amount).as_json() == {"from": "A", "to": "B", "amount": json}


def test_more_than_ten_players_settle_greedily():
    balances = {f"P{i}": amount for i, amount in enumerate([7, -3, 2, -6] * 3)}
    transfers = fewest_transfers(balances)
    assert all(amount == 0 for amount in _apply(balances, transfers).values())
    assert len(transfers) <= 11


@st.composite
def balances(draw, max_players=10):
    amounts = draw(st.lists(st.integers(-12, 12), min_size=1, max_size=max_players - 1))
    amounts.append(-sum(amounts))
    return {f"P{i}": amount for i, amount in enumerate(amounts)}


@given(balances())
def test_the_transfers_settle_every_balance_exactly(balances):
    transfers = fewest_transfers(balances)
    assert all(amount == 0 for amount in _apply(balances, transfers).values())
    assert all(transfer.amount > 0 for transfer in transfers)


@given(balances())
def test_never_more_than_one_fewer_than_the_players_with_a_balance(balances):
    owing = sum(1 for amount in balances.values() if amount)
    assert len(fewest_transfers(balances)) <= max(owing - 1, 0)


@given(balances(max_players=6))
def test_the_count_is_the_brute_force_minimum(balances):
    assert len(fewest_transfers(balances)) == _brute_force_minimum(balances)


@given(balances(max_players=7))
def test_the_same_balances_give_the_same_transfers(balances):
    assert fewest_transfers(balances) == fewest_transfers(dict(balances))


@pytest.mark.parametrize(
    ("points", "stake", "unit", "money"),
    [
        pytest.param(5, "0.25", "1", "1", id="1.25-rounds-down"),
        pytest.param(6, "0.25", "1", "2", id="1.50-rounds-up"),
        pytest.param(-6, "0.25", "1", "-2", id="minus-1.50-rounds-away-from-zero"),
        pytest.param(-5, "0.25", "1", "-1", id="minus-1.25-rounds-toward-zero"),
        pytest.param(3, "0.35", "0.10", "1.10", id="1.05-to-the-ten-cents"),
        pytest.param(8, "100", "500", "1000", id="800-won-to-the-500"),
        pytest.param(Fraction(1, 2), "3", "1", "2", id="half-a-point"),
    ],
)
def test_to_money(points, stake, unit, money):
    assert to_money(points, Decimal(stake), Decimal(unit)) == Decimal(money)


def test_a_rounding_unit_must_be_positive():
    with pytest.raises(ValueError):
        to_money(3, Decimal("1"), Decimal("0"))


@pytest.mark.parametrize(
    ("totals", "stake", "unit", "money"),
    [
        pytest.param(
            {"A": 10, "B": 5, "C": -5, "D": -5, "E": -5},
            "0.20",
            "1",
            {"A": "2", "B": "1", "C": "-1", "D": "-1", "E": "-1"},
            id="already-balanced",
        ),
        pytest.param(
            {"A": 1, "B": 1, "C": -2},
            "0.5",
            "1",
            {"A": "0", "B": "1", "C": "-1"},
            id="two-halves-round-up-the-first-seat-gives-one-back",
        ),
        pytest.param(
            {"A": 3, "B": 2, "C": -5},
            "0.25",
            "1",
            {"A": "1", "B": "0", "C": "-1"},
            id="the-half-rounded-up-gives-back-before-the-quarter",
        ),
        pytest.param(
            {"A": -3, "B": -3, "C": 6},
            "0.5",
            "1",
            {"A": "-1", "B": "-2", "C": "3"},
            id="rounded-too-far-down",
        ),
    ],
)
def test_settle_money(totals, stake, unit, money):
    settled = settle_money(totals, Decimal(stake), Decimal(unit))
    assert settled == {seat: Decimal(amount) for seat, amount in money.items()}


@given(
    balances(),
    st.sampled_from(["0.01", "0.1", "0.25", "1", "3", "100"]),
    st.sampled_from(["0.05", "0.1", "1", "5", "500"]),
)
def test_settled_money_sums_to_zero_within_a_unit_of_exact(totals, stake, unit):
    stake, unit = Decimal(stake), Decimal(unit)
    settled = settle_money(totals, stake, unit)
    assert sum(settled.values()) == 0
    for seat, points in totals.items():
        assert abs(settled[seat] - points * stake) < unit
        assert settled[seat] % unit == 0


def test_chip_counts():
    assert chip_counts({"A": 12, "B": -4, "C": -8}, 100, 5) == {"A": 160, "B": 80, "C": 60}


def test_chips_must_be_whole():
    with pytest.raises(ValueError):
        chip_counts({"A": Fraction(1, 2), "B": Fraction(-1, 2)}, 100, 1)
