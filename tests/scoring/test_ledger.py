"""Running totals and the deal-miss pot (RULES.md §8: the fine goes to the next hand's winners)."""

from scoring.ledger import LedgerEntry, replay

SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]


def test_running_totals_add_up_hand_by_hand():
    first = LedgerEntry("scored", {"Ann": 10, "Bo": -5, "Cy": 5, "Di": -5, "Ed": -5}, ("Ann", "Cy"))
    second = LedgerEntry("scored", {"Ann": -4, "Bo": 2, "Cy": -2, "Di": 2, "Ed": 2}, ("Bo", "Di", "Ed"))
    steps = replay(SEATS, [first, second])
    assert steps[1].totals == {"Ann": 6, "Bo": -3, "Cy": 3, "Di": -3, "Ed": -3}


def test_deal_miss_fine_goes_to_the_winners_of_the_next_scored_hand():
    fine = LedgerEntry("deal_miss", {}, fine=4, dealer="Ed")
    won = LedgerEntry("scored", {"Ann": 10, "Bo": -5, "Cy": 5, "Di": -5, "Ed": -5}, ("Ann", "Cy"))
    steps = replay(SEATS, [fine, won])
    assert steps[0].totals["Ed"] == -4 and steps[0].pot == 4
    assert steps[1].payments["Ann"] == 12 and steps[1].payments["Cy"] == 7
    assert steps[1].pot == 0
    assert sum(steps[1].totals.values()) == 0


def test_an_uneven_pot_keeps_the_remainder():
    fine = LedgerEntry("deal_miss", {}, fine=4, dealer="Ann")
    set_ = LedgerEntry("scored", {"Ann": -4, "Bo": 2, "Cy": -2, "Di": 2, "Ed": 2}, ("Bo", "Di", "Ed"))
    steps = replay(SEATS, [fine, set_])
    assert steps[1].pot == 1
    assert sum(steps[1].totals.values()) + steps[1].pot == 0
