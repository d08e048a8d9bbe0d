"""What is still owed after payments made at the table, across several evenings (scoring.settle).

A payment marked at the table clears the payer's debt and the payee's credit by
its amount; what was not paid carries from one evening to the next.
"""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from scoring.settle import (
    Stakes,
    Transfer,
    balances_of,
    left_to_pay,
    money_by_currency,
    settle_session,
    still_owed,
)

WON = Stakes(stake_per_point=Decimal(100), currency="KRW")
# the evening of tests/web/test_stats.py: Cy +255, Bo −43, Di −43, Ann −66, Ed −103
EVENING = {"Ann": -66, "Bo": -43, "Cy": 255, "Di": -43, "Ed": -103}


def test_two_unpaid_evenings_add_up_and_one_payment_clears_its_amount():
    evening = settle_session(EVENING, WON)

    owed, transfers = still_owed([evening, evening], [Transfer("Ed", "Cy", Decimal(10300))])

    assert owed == {"Ann": -13200, "Bo": -8600, "Cy": 40700, "Di": -8600, "Ed": -10300}
    assert {(t.frm, t.to, t.amount) for t in transfers} == {
        ("Ann", "Cy", 13200), ("Bo", "Cy", 8600), ("Di", "Cy", 8600), ("Ed", "Cy", 10300),
    }


def test_an_evening_paid_in_full_leaves_nothing_owed():
    evening = settle_session(EVENING, WON)

    assert still_owed([evening], evening.money_transfers) == ({}, [])


def test_what_is_left_of_each_transfer_after_part_of_it_was_paid():
    transfers = [Transfer("Ann", "Cy", Decimal(6600)), Transfer("Ed", "Cy", Decimal(10300))]

    rows = left_to_pay(transfers, [Transfer("Ed", "Cy", Decimal(300)), Transfer("Ed", "Cy", Decimal(10000))])

    assert [(t.frm, paid, left) for t, paid, left in rows] == [("Ann", 0, Decimal(6600)), ("Ed", Decimal(10300), 0)]


def test_money_adds_up_per_currency_never_across_them():
    assert money_by_currency([("KRW", Decimal(1000)), ("원", Decimal(500)), ("EUR", Decimal("2.50"))]) == {
        "KRW": Decimal(1500), "EUR": Decimal("2.50"),
    }


@given(st.lists(st.dictionaries(st.sampled_from(["Ann", "Bo", "Cy", "Di", "Ed"]), st.integers(-300, 300),
                                min_size=1), min_size=1, max_size=4))
def test_paying_every_transfer_squares_any_evenings(evenings):
    # make each evening's totals sum to zero, as every session's do
    settlements = []
    for totals in evenings:
        balanced = {**totals, "Fay": -sum(totals.values())}
        settlements.append(settle_session(balanced, Stakes()))

    owed, transfers = still_owed(settlements, [])
    assert sum(owed.values()) == 0
    assert balances_of(transfers) == owed  # the transfers move exactly what is owed
    assert still_owed(settlements, transfers) == ({}, [])
