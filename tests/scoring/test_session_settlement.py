"""A session's settlement: the money rules every face shows (stake, rounding unit, chips, the pot)."""

from decimal import Decimal

import pytest

from scoring.settle import (
    POT,
    Stakes,
    Transfer,
    hand_transfers,
    minor_unit,
    settle_session,
    with_pot,
)

# 15♦ made with 16 in pagat's standard game: the declarer +10, the partner +5, defenders −5 each
ONE_HAND = {"Ann": 10, "Bo": -5, "Cy": 5, "Di": -5, "Ed": -5}


@pytest.mark.parametrize(
    ("currency", "unit"),
    [
        pytest.param("EUR", Decimal("0.01"), id="euro-cents"),
        pytest.param("usd", Decimal("0.01"), id="code-in-lower-case"),
        pytest.param("$", Decimal("0.01"), id="dollar-sign"),
        pytest.param("KRW", Decimal(1), id="won-has-no-minor-unit"),
        pytest.param("원", Decimal(1), id="won-as-typed-in-korean"),
        pytest.param("₩", Decimal(1), id="won-sign"),
        pytest.param("JPY", Decimal(1), id="yen"),
        pytest.param("", Decimal("0.01"), id="no-currency-counts-hundredths"),
    ],
)
def test_the_default_rounding_unit_is_the_currencys_minor_unit(currency, unit):
    assert minor_unit(currency) == unit
    assert Stakes(Decimal("0.30"), currency).unit == unit


@pytest.mark.parametrize(
    ("stake", "currency", "unit", "money"),
    [
        pytest.param("0.30", "EUR", None, {"Ann": "3.00", "Bo": "-1.50", "Cy": "1.50", "Di": "-1.50", "Ed": "-1.50"},
                     id="stake-0.30-eur-in-cents"),
        pytest.param("0.25", "EUR", None, {"Ann": "2.50", "Bo": "-1.25", "Cy": "1.25", "Di": "-1.25", "Ed": "-1.25"},
                     id="stake-0.25-eur"),
        pytest.param("1", "EUR", None, {"Ann": "10", "Bo": "-5", "Cy": "5", "Di": "-5", "Ed": "-5"},
                     id="stake-1"),
        pytest.param("100", "KRW", None, {"Ann": "1000", "Bo": "-500", "Cy": "500", "Di": "-500", "Ed": "-500"},
                     id="stake-100-won"),
        pytest.param("0.30", "EUR", "1", {"Ann": "3", "Bo": "-1", "Cy": "2", "Di": "-2", "Ed": "-2"},
                     id="a-whole-unit-only-when-asked-for"),
    ],
)
def test_money_at_a_stake(stake, currency, unit, money):
    stakes = Stakes(Decimal(stake), currency, Decimal(unit) if unit else None)

    settlement = settle_session(ONE_HAND, stakes)

    assert {seat: Decimal(amount) for seat, amount in money.items()} == settlement.money
    assert sum(settlement.money.values()) == 0
    assert settlement.unit == "money"


def test_the_money_transfers_settle_the_money():
    settlement = settle_session(ONE_HAND, Stakes(Decimal("0.30"), "EUR"))

    assert settlement.money_transfers == [
        Transfer("Bo", "Ann", Decimal("1.50")),
        Transfer("Di", "Ann", Decimal("1.50")),
        Transfer("Ed", "Cy", Decimal("1.50")),
    ]


def test_chips_are_the_stack_plus_the_points_in_chips():
    settlement = settle_session(ONE_HAND, Stakes(chips_start=100, chips_per_point=2))

    assert settlement.chips == {"Ann": 120, "Bo": 90, "Cy": 110, "Di": 90, "Ed": 90}
    assert settlement.unit == "chips"
    assert sum(t.amount for t in settlement.chip_transfers) == 30  # three defenders, 5 points at 2 chips each


def test_one_chip_a_point_when_unsaid():
    assert settle_session(ONE_HAND, Stakes(chips_start=50)).chips["Ann"] == 60


def test_money_and_chips_together():
    settlement = settle_session(ONE_HAND, Stakes(Decimal(1), "EUR", chips_start=100))

    assert settlement.money["Ann"] == Decimal(10)
    assert settlement.chips["Ann"] == 110
    assert settlement.unit == "money"  # money is what changes hands at the end


def test_points_alone():
    settlement = settle_session(ONE_HAND, Stakes())

    assert settlement.money is None and settlement.chips is None
    assert settlement.unit == "points"
    assert settlement.settling_transfers == settlement.transfers


def test_a_zero_stake_is_played_for_nothing():
    assert settle_session(ONE_HAND, Stakes(Decimal(0), "EUR")).money is None


# RULES.md §8: a deal-miss fine is paid into a pot that the next hand's winners take
AFTER_A_FINE = {"Ann": -5, "Bo": 0, "Cy": 0, "Di": 0, "Ed": 0}


def test_fines_waiting_in_the_pot_are_owed_to_the_pot():
    settlement = settle_session(AFTER_A_FINE, Stakes(Decimal("0.50"), "EUR"))

    assert settlement.pot == 5
    assert settlement.totals[POT] == 5
    assert settlement.money[POT] == Decimal("2.50")
    assert settlement.transfers == [Transfer("Ann", POT, 5)]


def test_no_pot_party_when_the_pot_is_empty():
    assert POT not in with_pot(ONE_HAND)


def test_a_deal_miss_hand_settles_with_the_pot():
    assert hand_transfers({"Ann": -5, "Bo": 0}) == [Transfer("Ann", POT, 5)]
