"""Dan Roth's Chicago scoring tables (seed 001), as printed, checked for zero sum at import.

Each defender wins or loses ``level − 12`` with one deck, ``level − 24`` with two.
The declarer's team shares the opposite total, the declarer taking about twice
what each partner takes. The tables below are the printed numbers verbatim
(``None`` is a printed X: that level cannot be scored). Every cell is checked
when this module is imported; a cell that does not balance the defenders is
replaced by the zero-sum split nearest to 2 : 1, and the replacement is listed
in ``CORRECTIONS``.
"""

from __future__ import annotations

from dataclasses import dataclass

ONE_DECK_LEVELS = tuple(range(13, 21))
TWO_DECK_LEVELS = tuple(range(25, 41))

Row = tuple[int | None, ...]

# seed 001, "Single Deck Scoring Table": Bidder / Partner rows for 4, then 5 players.
# With 4 players 13 is printed X: not scoreable (001: "13 in the four player game").
PRINTED_ONE_DECK: dict[int, tuple[Row, Row]] = {
    4: (
        (None, 3, 4, 5, 7, 8, 9, 11),
        (None, 1, 2, 3, 3, 4, 5, 5),
    ),
    5: (
        (2, 4, 6, 8, 10, 12, 14, 16),
        (1, 2, 3, 4, 5, 6, 7, 8),
    ),
}

# seed 001, "Double Deck Scoring Table (Two Partners)"; partner amounts are per partner.
# The printed text lost the row labels; the three Bidder/Partners pairs are 6, 7 and 8
# players (3, 4 and 5 defenders): in that order every cell but one balances.
# seed 001 prints 2 : 1 at level 25 for 8 players, which is not zero-sum with
# 5 defenders (2 + 2 × 1 ≠ 5 × 1); corrected to 3 : 1 (see CORRECTIONS).
# With 6 players 25 and 26 are printed X (001: "25 and 26 in the six player game").
PRINTED_TWO_PARTNERS: dict[int, tuple[Row, Row]] = {
    6: (
        (None, None, 5, 6, 7, 8, 11, 12, 13, 14, 17, 18, 19, 20, 23, 24),
        (None, None, 2, 3, 4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12),
    ),
    7: (
        (2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32),
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16),
    ),
    8: (
        (2, 4, 7, 10, 13, 14, 17, 20, 23, 24, 27, 30, 33, 34, 37, 40),
        (1, 3, 4, 5, 6, 8, 9, 10, 11, 13, 14, 15, 16, 18, 19, 20),
    ),
}

# seed 001, "Double Deck Scoring Table (Single Partnership)": 6, 7 and 8 players
# (4, 5 and 6 defenders), rows unlabelled in the text as above. Every cell balances.
PRINTED_SINGLE_PARTNERSHIP: dict[int, tuple[Row, Row]] = {
    6: (
        (3, 5, 8, 11, 13, 16, 19, 21, 24, 27, 29, 32, 35, 37, 40, 43),
        (1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 16, 17, 19, 20, 21),
    ),
    7: (
        (3, 7, 10, 13, 17, 20, 23, 27, 30, 33, 37, 40, 43, 47, 50, 53),
        (2, 3, 5, 7, 8, 10, 12, 13, 15, 17, 18, 20, 22, 23, 25, 27),
    ),
    8: (
        (4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64),
        (2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32),
    ),
}


# (players, partners) that seed 001 has a table for
TABLES = ((4, 1), (5, 1), (6, 2), (7, 2), (8, 2), (6, 1), (7, 1), (8, 1))


@dataclass(frozen=True)
class Correction:
    """A printed cell that is not zero-sum, and the split that replaces it."""

    players: int
    partners: int
    level: int
    printed: tuple[int, int]
    corrected: tuple[int, int]

    def __str__(self) -> str:
        defenders = self.players - 1 - self.partners
        return (
            f"seed 001 prints {self.printed[0]} : {self.printed[1]} at level {self.level} "
            f"for {self.players} players ({self.partners} partner"
            f"{'s' if self.partners > 1 else ''}), which is not zero-sum with {defenders} "
            f"defenders; corrected to {self.corrected[0]} : {self.corrected[1]}"
        )


def is_double_deck(players: int) -> bool:
    """Chicago plays one deck with 4 or 5 players and two decks with 6 to 8 (seed 001)."""
    return players >= 6


def defender_amount(level: int, double_deck: bool) -> int:
    """What each defender wins or loses (seed 001: level − 12, or level − 24 with two decks)."""
    levels = TWO_DECK_LEVELS if double_deck else ONE_DECK_LEVELS
    if level not in levels:
        raise ValueError(f"{level} is not a contract level of the {_deck_words(double_deck)} game.")
    return level - (24 if double_deck else 12)


def alone_amount(defenders: int, level: int, double_deck: bool) -> int:
    """A declarer alone wins or loses the whole of what the defenders lose or win."""
    return defenders * defender_amount(level, double_deck)


def nearest_two_to_one(total: int, partners: int) -> tuple[int, int]:
    """(declarer, each partner) summing to ``total``, declarer as close to 2 × partner as
    whole numbers allow; on a tie the declarer gets the larger share."""
    # declarer = total − partners × p, and |declarer − 2p| = |total − (partners + 2) p|,
    # so p is the whole number nearest total / (partners + 2), rounding halves down.
    share, remainder = divmod(total, partners + 2)
    if 2 * remainder > partners + 2:
        share += 1
    return total - partners * share, share


def _printed_rows(players: int, partners: int) -> tuple[Row, Row] | None:
    if players in PRINTED_ONE_DECK and partners == 1:
        return PRINTED_ONE_DECK[players]
    if partners == 2:
        return PRINTED_TWO_PARTNERS.get(players)
    if partners == 1:
        return PRINTED_SINGLE_PARTNERSHIP.get(players)
    return None


def _checked_tables() -> tuple[dict[tuple[int, int, int], tuple[int, int]], tuple[Correction, ...]]:
    """Every scoreable cell keyed by (players, partners, level), and the corrections made."""
    cells: dict[tuple[int, int, int], tuple[int, int]] = {}
    corrections = []
    for players, partners in TABLES:
        bidder_row, partner_row = _printed_rows(players, partners)
        double_deck = is_double_deck(players)
        levels = TWO_DECK_LEVELS if double_deck else ONE_DECK_LEVELS
        if not len(bidder_row) == len(partner_row) == len(levels):
            raise AssertionError(f"the {players}-player table must have one cell per level")
        defenders = players - 1 - partners
        for level, declarer, partner in zip(levels, bidder_row, partner_row, strict=True):
            if (declarer is None) != (partner is None):
                raise AssertionError(f"half a cell is printed X at {level} for {players} players")
            if declarer is None:
                continue
            total = alone_amount(defenders, level, double_deck)
            if declarer + partners * partner != total:
                fixed = nearest_two_to_one(total, partners)
                corrections.append(Correction(players, partners, level, (declarer, partner), fixed))
                declarer, partner = fixed
            cells[players, partners, level] = (declarer, partner)
    return cells, tuple(corrections)


_CELLS, CORRECTIONS = _checked_tables()


def _check_combination(players: int, partners: int) -> None:
    if (players, partners) not in TABLES:
        if partners == 0:
            raise ValueError("A declarer alone is not in the tables: use alone_amount().")
        raise ValueError(f"Seed 001 has no table for {players} players with {partners} partners.")


def team_amounts(players: int, partners: int, level: int) -> tuple[int, int] | None:
    """(declarer, each partner) for a made contract at ``level``; None when the level is
    printed X for this many players and partners. A set contract pays the same amounts."""
    _check_combination(players, partners)
    defender_amount(level, is_double_deck(players))  # raises for a level outside this deck
    return _CELLS.get((players, partners, level))


def scoreable_levels(players: int, partners: int) -> tuple[int, ...]:
    """The levels the table for this many players and partners can score."""
    _check_combination(players, partners)
    levels = TWO_DECK_LEVELS if is_double_deck(players) else ONE_DECK_LEVELS
    return tuple(level for level in levels if (players, partners, level) in _CELLS)


def lowest_scoreable(players: int, partners: int, level: int) -> int | None:
    """The level a contract must switch up to (seed 001: "the declarer must switch up to the
    lowest valid level"): ``level`` itself when scoreable, None when nothing at or above is."""
    return next((each for each in scoreable_levels(players, partners) if each >= level), None)


def scoreable_bids(players: int) -> tuple[int, ...]:
    """The levels that can be bid at all. With two decks the partnership is not known at the
    bid, so a level must be scoreable with one partner and with two: 001 lists 25 and 26 as
    invalid bids with six players although the single-partnership table prints them."""
    if not is_double_deck(players):
        return scoreable_levels(players, 1)
    with_two = set(scoreable_levels(players, 2))
    return tuple(level for level in scoreable_levels(players, 1) if level in with_two)


def _deck_words(double_deck: bool) -> str:
    return "two-deck" if double_deck else "one-deck"
