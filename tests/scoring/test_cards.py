"""Card codes as people type them, and the decks of RULES.md §2."""

import pytest

from scoring.cards import (
    DECKS,
    CardCodeError,
    card_text,
    mighty,
    parse_card,
    parse_suit,
    parse_trump,
    ripper,
)


@pytest.mark.parametrize(
    ("typed", "code"),
    [("AS", "AS"), ("as", "AS"), ("10h", "10H"), ("TH", "10H"), ("A♠", "AS"), ("♠A", "AS"),
     ("H10", "10H"), ("joker", "JOKER"), (" qd ", "QD"), ("♣3", "3C")],
)
def test_card_codes_are_read_the_way_players_write_them(typed, code):
    assert parse_card(typed) == code


# RULES.md §2 "accept ♠ ♥ ♦ ♣ on input": a phone's emoji keyboard sends each suit with the emoji
# presentation selector (U+FE0F), ♥️ rather than ♥, and a text one sometimes U+FE0E
@pytest.mark.parametrize(
    ("typed", "code"),
    [("A♠\ufe0f", "AS"), ("10♥\ufe0f", "10H"), ("♦\ufe0fA", "AD"), ("t♣\ufe0f", "10C"),
     ("K♥\ufe0e", "KH"), ("joker\ufe0f", "JOKER")],
)
def test_suit_signs_from_an_emoji_keyboard_are_read_too(typed, code):
    assert parse_card(typed) == code


@pytest.mark.parametrize(("typed", "trump"), [("♠\ufe0f", "S"), ("♥\ufe0f", "H"), ("♦\ufe0e", "D"), ("♣\ufe0f", "C")])
def test_a_trump_from_an_emoji_keyboard_is_read_too(typed, trump):
    assert parse_trump(typed) == trump
    assert parse_suit(typed) == trump


@pytest.mark.parametrize("typed", ["", "1S", "AX", "11H", "S", 12, None])
def test_a_code_that_names_no_card_gets_a_friendly_error(typed):
    with pytest.raises(CardCodeError, match="card"):
        parse_card(typed)


@pytest.mark.parametrize(
    ("deck", "size", "points", "dealt", "players_dealt_to"),
    [
        ("standard", 53, 20, 10, 5),
        ("three_player", 33, 20, 10, 3),
        ("jun_four_player", 43, 20, 10, 4),
        ("chicago_four_player", 51, 20, 12, 4),
        ("six_player_knockout", 53, 20, 8, 6),
        ("seven_player_knockout", 53, 20, 7, 7),
        ("chicago_six_player", 106, 40, 17, 6),
        ("chicago_seven_player", 102, 40, 14, 7),
        ("chicago_eight_player", 100, 40, 12, 8),
        ("two_player", 23, 20, 10, 2),
    ],
)
def test_every_deck_deals_out_exactly(deck, size, points, dealt, players_dealt_to):
    deck = DECKS[deck]
    assert (deck.size, deck.total_points, deck.dealt) == (size, points, dealt)
    assert players_dealt_to * deck.dealt + deck.kitty == deck.size


def test_the_mighty_turns_red_when_spades_are_trump():
    assert (mighty("H"), mighty("NT"), mighty("S")) == ("AS", "AS", "AD")
    assert mighty("S", spade_trump_keeps_mighty=True) == "AS"


def test_the_ripper_is_the_club_three_or_the_black_seven_with_three_players():
    assert (ripper("S"), ripper("C")) == ("3C", "3S")
    assert ripper("H", DECKS["three_player"]) == "7C"


@pytest.mark.parametrize(
    ("typed", "trump"),
    [("S", "S"), ("♠", "S"), ("spades", "S"), ("Heart", "H"), ("◆", "D"), ("nt", "NT"), ("no_trump", "NT"),
     ("No-Trump", "NT"), ("N", "NT"), ("노기루다", "NT"), ("Q", None), (15, None), (None, None)],
)
def test_a_trump_is_read_one_way_for_bids_contracts_and_auctions(typed, trump):
    assert parse_trump(typed) == trump


def test_a_suit_is_a_trump_that_is_not_no_trump():
    assert [parse_suit(s) for s in ("♥", "NT", "c")] == ["H", None, "C"]


@pytest.mark.parametrize(
    ("code", "shown"),
    # RULES.md §1 and seed 003 write the sign first: ♠A, 빨마 ◆A
    [("AS", "♠A"), ("10H", "♥10"), ("AD", "♦A"), ("3C", "♣3"), ("JOKER", "Joker")],
)
def test_every_card_is_shown_sign_first(code, shown):
    assert card_text(code) == shown


def test_the_shown_card_reads_back_as_the_same_card():
    for deck in DECKS.values():
        for code, _copies in deck.cards:
            assert parse_card(card_text(code)) == code
