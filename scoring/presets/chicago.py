"""Dan Roth's Chicago (C.N.A.) rules (seed 001): integer payment tables for 4–8 players."""

from ..systems import Preset

SOURCE = "Dan Roth's Chicago rules (seed 001)"

_TABLE = {
    "base": "table",
    "set": "same_as_made",
    "doubles": {"run": "never", "back_run": "never", "no_trump": "never", "no_friend": "never"},
    # 001: the partner card must be neither held nor buried by the declarer
    "secret_solo": False,
    # 001: a player who passed may reenter the bidding later
    "auction": {"reenter_after_pass": True},
    "partner_instruction": {"allowed": True, "min_contract": 17, "per_hand": 1},
    # 001: the first partner of the previous hand starts the bidding
    "first_bidder": "partner",
    # 001 states the raise ("an increase of two", "an increase of one") with no exception:
    # pagat's 19 → 20 and 20 → 20 NT are pagat's own
    "trump_change": {"nineteen_to_twenty": False, "twenty_to_no_trump": False},
}

_DOUBLE_DECK = {
    **_TABLE,
    "min_bid": 25,
    "max_bid": 40,
    "called_cards": 2,
    # 001: +3 to change suit, +2 to change to no trump in the double-deck game
    "trump_change": {"suit": 3, "to_nt": 2, "nineteen_to_twenty": False, "twenty_to_no_trump": False},
    "partner_instruction": {"allowed": True, "min_contract": 34, "per_hand": 2},
}


def _double(players: int, deck: str, **extra) -> dict:
    return {**_DOUBLE_DECK, "players": players, "active_players": players, "deck": deck, **extra}


PRESETS = (
    Preset(
        "chicago-4p",
        "Chicago 4 players",
        "51 cards (♥2 ♣2 removed), 12 each. Each defender wins or loses bid − 12; declarer and "
        "partner share the rest by seed 001's table (about 2:1). 13 is not scoreable with four: "
        "a 13 contract must be switched up to 14. No doubles; no secret solo.",
        {**_TABLE, "players": 4, "active_players": 4, "deck": "chicago_four_player"},
        SOURCE,
    ),
    Preset(
        "chicago-5p",
        "Chicago 5 players",
        "53 cards, 10 each. Each defender wins or loses bid − 12; declarer and partner take 2:1 "
        "by seed 001's table. No doubles; no secret solo.",
        {**_TABLE, "players": 5, "active_players": 5},
        SOURCE,
    ),
    Preset(
        "chicago-6p",
        "Chicago 6 players (two decks)",
        "106 cards, 17 each, 4 in the kitty. Two partner cards; each defender wins or loses "
        "bid − 24, the team shares by the two-partner or single-partnership table. 25 and 26 "
        "are not scoreable with two partners, so the minimum is 27.",
        _double(6, "chicago_six_player", min_bid=27),
        SOURCE,
    ),
    Preset(
        "chicago-7p",
        "Chicago 7 players (two decks)",
        "102 cards (both ♣2 and ♥2 removed), 14 each. Two partner cards; each defender wins or "
        "loses bid − 24, the team shares by seed 001's tables.",
        _double(7, "chicago_seven_player"),
        SOURCE,
    ),
    Preset(
        "chicago-8p",
        "Chicago 8 players (two decks)",
        "100 cards (also one ♦2 and one ♠2 removed), 12 each. Two partner cards; each defender "
        "wins or loses bid − 24, the team shares by seed 001's tables.",
        _double(8, "chicago_eight_player"),
        SOURCE,
    ),
)
