"""Seed 001's Chicago tables: every cell zero-sum, about 2 : 1, and the one printed cell fixed."""

import pytest

from scoring import tables
from scoring.tables import (
    CORRECTIONS,
    ONE_DECK_LEVELS,
    TABLES,
    TWO_DECK_LEVELS,
    Correction,
    alone_amount,
    defender_amount,
    lowest_scoreable,
    nearest_two_to_one,
    scoreable_bids,
    scoreable_levels,
    team_amounts,
)


def _levels(players):
    return TWO_DECK_LEVELS if players >= 6 else ONE_DECK_LEVELS


# every (players, partners, level) of seed 001's tables
EVERY_CELL = [
    (players, partners, level)
    for players, partners in TABLES
    for level in scoreable_levels(players, partners)
]


def test_every_cell_is_zero_sum():
    def off(players, partners, level):
        declarer, partner = team_amounts(players, partners, level)
        return declarer + partners * partner != (players - 1 - partners) * defender_amount(level, players >= 6)

    assert [cell for cell in EVERY_CELL if off(*cell)] == []


def test_declarer_takes_about_twice_each_partner():
    # the printed data never strays more than 2 from an exact 2 : 1 (e.g. 6 players, two
    # partners, 30: 8 : 5), and no cell is further from 2 : 1 than whole numbers force
    def off(players, partners, level):
        declarer, partner = team_amounts(players, partners, level)
        best_declarer, best_partner = nearest_two_to_one(declarer + partners * partner, partners)
        return abs(declarer - 2 * partner) > 2 or abs(declarer - 2 * partner) != abs(best_declarer - 2 * best_partner)

    assert [cell for cell in EVERY_CELL if off(*cell)] == []


def test_every_share_is_positive():
    def off(players, partners, level):
        declarer, partner = team_amounts(players, partners, level)
        return not declarer > partner > 0

    assert [cell for cell in EVERY_CELL if off(*cell)] == []


def test_the_printed_tables_are_kept_verbatim():
    # seed 001 prints 2 : 1 at 25 for 8 players; the data keeps it, the lookup corrects it
    assert tables.PRINTED_TWO_PARTNERS[8][0][0] == 2
    assert tables.PRINTED_TWO_PARTNERS[8][1][0] == 1


def test_the_one_correction():
    assert (
        Correction(players=8, partners=2, level=25, printed=(2, 1), corrected=(3, 1)),
    ) == tables.CORRECTIONS
    assert str(CORRECTIONS[0]) == (
        "seed 001 prints 2 : 1 at level 25 for 8 players (2 partners), which is not "
        "zero-sum with 5 defenders; corrected to 3 : 1"
    )
    assert team_amounts(8, 2, 25) == (3, 1)


@pytest.mark.parametrize(
    ("players", "partners", "level", "amounts"),
    [
        pytest.param(4, 1, 14, (3, 1), id="seed-001-four-players-14"),
        pytest.param(4, 1, 20, (11, 5), id="seed-001-four-players-20"),
        pytest.param(5, 1, 13, (2, 1), id="seed-001-five-players-13"),
        pytest.param(5, 1, 20, (16, 8), id="seed-001-five-players-20"),
        pytest.param(6, 2, 27, (5, 2), id="seed-001-six-players-two-partners-27"),
        pytest.param(6, 2, 40, (24, 12), id="seed-001-six-players-two-partners-40"),
        pytest.param(7, 2, 33, (18, 9), id="seed-001-seven-players-two-partners-33"),
        pytest.param(8, 2, 26, (4, 3), id="seed-001-eight-players-two-partners-26"),
        pytest.param(6, 1, 25, (3, 1), id="seed-001-six-players-one-partner-25"),
        pytest.param(7, 1, 40, (53, 27), id="seed-001-seven-players-one-partner-40"),
        pytest.param(8, 1, 31, (28, 14), id="seed-001-eight-players-one-partner-31"),
    ],
)
def test_printed_cells(players, partners, level, amounts):
    assert team_amounts(players, partners, level) == amounts


@pytest.mark.parametrize(
    ("players", "partners", "level"),
    [
        pytest.param(4, 1, 13, id="seed-001-four-players-13-unscoreable"),
        pytest.param(6, 2, 25, id="seed-001-six-players-two-partners-25-unscoreable"),
        pytest.param(6, 2, 26, id="seed-001-six-players-two-partners-26-unscoreable"),
    ],
)
def test_unscoreable_levels(players, partners, level):
    assert team_amounts(players, partners, level) is None
    assert level not in scoreable_levels(players, partners)
    assert level not in scoreable_bids(players)


@pytest.mark.parametrize(
    ("players", "partners", "level", "switch_to"),
    [
        pytest.param(4, 1, 13, 14, id="seed-001-four-players-13-switches-to-14"),
        pytest.param(6, 2, 25, 27, id="seed-001-six-players-25-switches-to-27"),
        pytest.param(6, 2, 26, 27, id="seed-001-six-players-26-switches-to-27"),
        pytest.param(6, 1, 25, 25, id="seed-001-six-players-one-partner-prints-25"),
        pytest.param(5, 1, 13, 13, id="seed-001-five-players-13-scoreable"),
        pytest.param(8, 2, 40, 40, id="seed-001-eight-players-40"),
    ],
)
def test_lowest_scoreable(players, partners, level, switch_to):
    assert lowest_scoreable(players, partners, level) == switch_to


def test_every_printed_x_is_unscoreable_and_nothing_else():
    unscoreable = {
        (players, partners, level)
        for players, partners in TABLES
        for level in _levels(players)
        if team_amounts(players, partners, level) is None
    }
    assert unscoreable == {(4, 1, 13), (6, 2, 25), (6, 2, 26)}


@pytest.mark.parametrize(
    ("players", "bids"),
    [
        pytest.param(4, tuple(range(14, 21)), id="seed-001-four-players-bid-14-to-20"),
        pytest.param(5, tuple(range(13, 21)), id="seed-001-five-players-bid-13-to-20"),
        pytest.param(6, tuple(range(27, 41)), id="seed-001-six-players-bid-27-to-40"),
        pytest.param(7, tuple(range(25, 41)), id="seed-001-seven-players-bid-25-to-40"),
        pytest.param(8, tuple(range(25, 41)), id="seed-001-eight-players-bid-25-to-40"),
    ],
)
def test_scoreable_bids(players, bids):
    assert scoreable_bids(players) == bids


@pytest.mark.parametrize(
    ("level", "double_deck", "amount"),
    [
        pytest.param(13, False, 1, id="seed-001-one-deck-13"),
        pytest.param(20, False, 8, id="seed-001-one-deck-20"),
        pytest.param(25, True, 1, id="seed-001-two-decks-25"),
        pytest.param(40, True, 16, id="seed-001-two-decks-40"),
    ],
)
def test_defender_amount(level, double_deck, amount):
    assert defender_amount(level, double_deck) == amount


def test_a_declarer_alone_takes_the_defenders_whole_total():
    assert alone_amount(4, 17, double_deck=False) == 20
    assert alone_amount(7, 30, double_deck=True) == 42


@pytest.mark.parametrize(
    ("total", "partners", "split"),
    [
        pytest.param(5, 2, (3, 1), id="two-partners-5"),
        pytest.param(18, 2, (10, 4), id="two-partners-tie-favours-declarer"),
        pytest.param(10, 1, (7, 3), id="one-partner-10"),
        pytest.param(9, 1, (6, 3), id="one-partner-exact"),
    ],
)
def test_nearest_two_to_one(total, partners, split):
    assert nearest_two_to_one(total, partners) == split


@pytest.mark.parametrize(
    ("call", "args"),
    [
        pytest.param(team_amounts, (5, 0, 15), id="alone-has-no-table"),
        pytest.param(team_amounts, (5, 2, 15), id="one-deck-has-no-two-partner-table"),
        pytest.param(team_amounts, (5, 1, 25), id="level-outside-one-deck"),
        pytest.param(team_amounts, (6, 1, 20), id="level-outside-two-decks"),
        pytest.param(scoreable_levels, (3, 1), id="three-players-not-chicago"),
    ],
)
def test_calls_outside_the_tables_are_bugs(call, args):
    with pytest.raises(ValueError):
        call(*args)
