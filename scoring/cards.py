"""Card codes, decks for every player count, and the cards whose role depends on trump.

Codes are rank then suit (``AS``, ``10H``) or ``JOKER``. On input ``T`` is
accepted for 10, suit symbols for letters, and case does not matter.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from .words import N_, Words

SUITS = ("S", "H", "D", "C")
TRUMPS = SUITS + ("NT",)
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
POINT_RANKS = ("A", "K", "Q", "J", "10")
JOKER = "JOKER"

# suit signs read on input, outline and Korean-page forms included (seed 003 writes ◆A)
SUIT_SYMBOLS = {
    "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C", "◆": "D", "◇": "D",
}
# a phone's emoji keyboard follows a suit sign with the emoji presentation selector (♥️ is ♥ and
# U+FE0F), and some text with U+FE0E: neither is part of the card
VARIATION_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")
# the one way a suit is shown: pages, forms, reasons and the API all write a card sign first,
# ♠A and ♥10, as RULES.md and the Korean page (빨마 ◆A) do
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# other ways a trump is written: symbols, English words, 노기루다
TRUMP_WORDS = {
    **SUIT_SYMBOLS,
    "SPADES": "S", "HEARTS": "H", "DIAMONDS": "D", "CLUBS": "C",
    "SPADE": "S", "HEART": "H", "DIAMOND": "D", "CLUB": "C",
    "N": "NT", "NO TRUMP": "NT", "NO TRUMPS": "NT", "NOTRUMP": "NT", "NONE": "NT", "노기루다": "NT",
}  # fmt: skip
SUIT_NAMES = {
    "S": Words(N_("spades")),
    "H": Words(N_("hearts")),
    "D": Words(N_("diamonds")),
    "C": Words(N_("clubs")),
    "NT": Words(N_("no trump")),
}


class CardCodeError(ValueError):
    """A card code that names no card."""

    @property
    def message(self) -> Words:
        return self.args[0]


def parse_card(text: object) -> str:
    """The canonical code of ``text``, or CardCodeError with a message a player understands."""
    if not isinstance(text, str):
        raise CardCodeError(
            Words(N_("A card must be written as text such as 'AS' or '10H', not {text}."), text=repr(text))
        )
    cleaned = text.translate(VARIATION_SELECTORS).strip().upper()
    for symbol, letter in SUIT_SYMBOLS.items():
        cleaned = cleaned.replace(symbol, letter)
    if cleaned in ("JOKER", "JK", "JO"):
        return JOKER
    rank, suit = cleaned[:-1], cleaned[-1:]
    if suit not in SUITS and cleaned[:1] in SUITS:
        # players often write the suit first ("♠A", "H10"); suits and ranks share no letter
        suit, rank = cleaned[:1], cleaned[1:]
    if rank == "T":
        rank = "10"
    if suit not in SUITS or rank not in RANKS:
        raise CardCodeError(
            Words(
                N_("'{text}' is not a card: write the rank then the suit, such as 'AS', '10H' or 'JOKER'."),
                text=text,
            )
        )
    return rank + suit


def parse_trump(text: object) -> str | None:
    """``S H D C NT`` from any way a trump is written (``♠``, ``spades``, ``no_trump``, 노기루다);
    None when ``text`` names no trump."""
    if not isinstance(text, str):
        return None
    cleaned = text.translate(VARIATION_SELECTORS).strip().upper().replace("-", " ").replace("_", " ")
    trump = TRUMP_WORDS.get(cleaned, cleaned)
    return trump if trump in TRUMPS else None


def parse_suit(text: object) -> str | None:
    """``S H D C`` from a suit however written; None for no trump or anything else."""
    trump = parse_trump(text)
    return trump if trump in SUITS else None


def card_text(card: str) -> str:
    """A card as players read it: ♠A, ♥10, and the Joker as words the web layer translates."""
    if card == JOKER:
        return Words(N_("Joker"))
    return SUIT_SIGNS[card[-1]] + card[:-1]


def trump_text(trump: str) -> str:
    """A trump as the table shows it: ♠ ♥ ♦ ♣, or NT."""
    return SUIT_SIGNS.get(trump, trump)


def rank_of(card: str) -> str | None:
    return None if card == JOKER else card[:-1]


def suit_of(card: str) -> str | None:
    return None if card == JOKER else card[-1]


def is_point_card(card: str) -> bool:
    """A, K, Q, J and 10 score one point each; the Joker scores nothing."""
    return rank_of(card) in POINT_RANKS


def point_count(cards) -> int:
    return sum(1 for card in cards if is_point_card(card))


def mighty(trump: str | None, *, spade_trump_keeps_mighty: bool = False) -> str:
    """♠A, or ♦A when spades are trump (빨마). 관악 5마 keeps ♠A even then."""
    if trump == "S" and not spade_trump_keeps_mighty:
        return "AD"
    return "AS"


def ripper(trump: str | None, deck: "Deck | None" = None) -> str:
    """♣3, or ♠3 when clubs are trump; the 3-player deck has no 3s, so it uses the 7s."""
    rank = "7" if deck is not None and deck.ripper_rank == "7" else "3"
    return rank + ("S" if trump == "C" else "C")


def card_sort_key(card: str) -> tuple[int, int]:
    if card == JOKER:
        return (-1, 0)
    return (SUITS.index(suit_of(card)), RANKS.index(rank_of(card)))


@dataclass(frozen=True)
class Deck:
    """One deck (or pair of decks) with how it is dealt.

    ``cards`` maps each code to how many copies the deck holds (1, or 2 in a
    double deck). ``dealt`` is the number of cards each player first receives,
    ``kitty`` the cards left face down, ``discards`` what the declarer buries.
    """

    name: str
    description: str
    cards: tuple[tuple[str, int], ...]
    dealt: int
    kitty: int
    discards: int
    ripper_rank: str = "3"
    # cards no one plays: 변형 2마 draws pairs from the pile, keeps one of each and throws the other away
    unused: int = 0

    @cached_property
    def copies(self) -> dict[str, int]:
        return dict(self.cards)

    @cached_property
    def size(self) -> int:
        return sum(count for _, count in self.cards)

    @cached_property
    def double(self) -> bool:
        return any(count > 1 for _, count in self.cards)

    @cached_property
    def total_points(self) -> int:
        return sum(count for card, count in self.cards if is_point_card(card))

    # decks are immutable, so what is derived from their cards is computed once

    def holds(self, card: str) -> bool:
        return card in self.copies

    def count(self, card: str) -> int:
        return self.copies.get(card, 0)


def _full_suits(removed: Counter | None = None, *, copies: int = 1, ranks=RANKS, jokers: int = 1):
    removed = removed or Counter()
    cards = []
    for suit in SUITS:
        for rank in ranks:
            code = rank + suit
            left = copies - removed[code]
            if left > 0:
                cards.append((code, left))
    cards.append((JOKER, jokers))
    return tuple(cards)


def _without(*codes: str) -> Counter:
    return Counter(codes)


# Every deck of RULES.md §2, by name. The name is a system option (``deck``).
DECKS: dict[str, Deck] = {
    deck.name: deck
    for deck in (
        Deck("standard", "53 cards: 52 and the Joker", _full_suits(), 10, 3, 3),
        Deck(
            "three_player",
            "33 cards: 2 to 6 removed, Joker added; the ripper is ♣7 (♠7 when clubs are trump)",
            _full_suits(ranks=RANKS[:8]),
            10, 3, 3, ripper_rank="7",
        ),
        Deck(
            "jun_four_player",
            "43 cards: all 2s and 4s and the red 3s removed, Joker added",
            _full_suits(_without("2S", "2H", "2D", "2C", "4S", "4H", "4D", "4C", "3H", "3D")),
            10, 3, 3,
        ),
        Deck(
            "chicago_four_player",
            "51 cards: ♥2 and ♣2 removed, Joker added",
            _full_suits(_without("2H", "2C")),
            12, 3, 3,
        ),
        Deck(
            "six_player_knockout",
            "53 cards, 8 each and 5 in the kitty; the declarer knocks one player out",
            _full_suits(), 8, 5, 3,
        ),
        Deck(
            "seven_player_knockout",
            "53 cards, 7 each and 4 in the kitty; the declarer knocks two players out",
            _full_suits(), 7, 4, 3,
        ),
        Deck(
            "chicago_six_player",
            "106 cards: two decks and two Jokers, 17 each",
            _full_suits(copies=2, jokers=2), 17, 4, 4,
        ),
        Deck(
            "chicago_seven_player",
            "102 cards: two decks and two Jokers without the four ♣2 and ♥2",
            _full_suits(_without("2C", "2C", "2H", "2H"), copies=2, jokers=2), 14, 4, 4,
        ),
        Deck(
            "chicago_eight_player",
            "100 cards: two decks and two Jokers without both ♣2 and ♥2, one ♦2 and one ♠2",
            _full_suits(_without("2C", "2C", "2H", "2H", "2D", "2S"), copies=2, jokers=2), 12, 4, 4,
        ),
        Deck(
            "gwanak_four_player",
            "44 cards: the 43-card 4마 deck with ♦4 put back (♣3 is in it already), 10 each and 4 in the kitty",
            _full_suits(_without("2S", "2H", "2D", "2C", "4S", "4H", "4C", "3H", "3D")),
            10, 4, 4,
        ),
        Deck(
            "variant_two_player",
            "43 cards as in 4마: each player draws pairs and keeps one of each, 10 each and 3 in the kitty",
            _full_suits(_without("2S", "2H", "2D", "2C", "4S", "4H", "4D", "4C", "3H", "3D")),
            10, 3, 3, unused=20,
        ),
        Deck(
            "network_four_player",
            "53 cards, 13 each and 1 in the kitty (마이티 네트워크 4.0)",
            _full_suits(), 13, 1, 1,
        ),
        Deck(
            "two_player",
            "23 cards: the 20 point cards, the Joker, ♠3 and ♣3 (Korean 2마); "
            "dealt 10 each with 3 in the kitty",
            tuple((rank + suit, 1) for suit in SUITS for rank in POINT_RANKS)
            + (("3S", 1), ("3C", 1), (JOKER, 1)),
            10, 3, 3,
        ),
    )
}
