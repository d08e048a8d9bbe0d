"""Deal miss (딜 미스): each criterion against the rulebooks, and the exact odds against brute force."""

import itertools
import math
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.cards import DECKS, Deck
from scoring.docs import deal_miss_table_markdown
from scoring.problems import InvalidInput
from scoring.redeal import (
    CRITERIA,
    JUDGES,
    check_deal_miss,
    criterion_probabilities,
    criterion_words,
    deal_miss_odds,
    deal_miss_probability,
    deal_miss_summary,
    holding_of,
    redeal_response,
)
from scoring.systems import DealMiss, build_system

PLAIN = ("2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "2H", "3H", "4H", "5H")
POINT_CARDS = tuple(rank + suit for suit in "SHDC" for rank in ("A", "K", "Q", "J", "10"))


def dealt(cards: str, size: int = 10) -> tuple[str, ...]:
    """The named cards, filled up to a full hand with 2–9s."""
    named = tuple(cards.split())
    return named + tuple(card for card in PLAIN if card not in named)[: size - len(named)]


def rules(*criteria: str, threshold: str = "1/2", one_eyed: bool = False) -> DealMiss:
    return DealMiss(criteria=criteria, threshold=threshold, one_eyed_jacks_only=one_eyed)


def system(*criteria: str, threshold: str = "1/2", one_eyed: bool = False, **options):
    deal_miss = {
        "criteria": list(criteria),
        "threshold": threshold,
        "one_eyed_jacks_only": one_eyed,
    }
    return build_system({"deal_miss": deal_miss, **options})


# --- every criterion on hands picked from the rulebooks ---------------------------------

# (id, criterion, threshold, one-eyed jacks only, named cards, qualifies, value)
CASES = [
    ("pagat-scale-half", "pagat_scale", "1/2", False, "AS JOKER KH 10C", True, "1/2"),
    ("pagat-scale-no-cards-counted", "pagat_scale", "1/2", False, "", True, "0"),
    ("pagat-scale-lone-ten", "pagat_scale", "1/2", False, "10D", True, "1/2"),
    ("pagat-scale-king-and-ten", "pagat_scale", "1/2", False, "KH 10C", False, "3/2"),
    ("pagat-scale-two-tens", "pagat_scale", "1/2", False, "10S 10H", False, "1"),
    ("pagat-scale-diamond-ace-is-plus-one", "pagat_scale", "1/2", False, "AD", False, "1"),
    ("pagat-scale-joker-below-zero", "pagat_scale", "1/2", False, "JOKER", True, "-1"),
    ("pagat-scale-mighty-free", "pagat_scale", "0", False, "AS", True, "0"),
    ("pagat-scale-half-over-zero", "pagat_scale", "0", False, "10D", False, "1/2"),
    ("003-7.1-threshold-one", "pagat_scale", "1", False, "JOKER KH QD", True, "1"),
    ("pagat-mighty-minus-half", "pagat_scale_mighty_minus", "1/2", False, "AS KH 10C", True, "1/2"),
    ("pagat-mighty-minus-two-kings", "pagat_scale_mighty_minus", "1/2", False, "AS KH KD", False, "1"),
    ("003-standard-joker-cancels", "korean_scale", "0", False, "JOKER KH", True, "0"),
    ("003-standard-mighty-is-zero", "korean_scale", "0", False, "AS", True, "0"),
    ("003-standard-mighty-and-king", "korean_scale", "0", False, "AS KH", False, "1"),
    ("003-standard-ten-is-one", "korean_scale", "0", False, "10C JOKER KH", False, "1"),
    ("003-standard-lone-ten", "korean_scale", "0", False, "10C", True, "1"),
    ("003-standard-lone-ten-with-joker", "korean_scale", "0", False, "10C JOKER", True, "0"),
    ("003-standard-lone-jack-is-not-a-ten", "korean_scale", "0", False, "JD", False, "1"),
    ("003-standard-two-tens", "korean_scale", "0", False, "10C 10D", False, "2"),
    ("003-7.1-red-mighty-minus", "red_mighty_minus", "0", False, "AD KH", True, "0"),
    ("003-7.1-mighty-minus", "red_mighty_minus", "0", False, "AS KH", True, "0"),
    ("003-7.1-both-mighties-together-zero", "red_mighty_minus", "0", False, "AS AD", True, "0"),
    ("003-7.1-both-mighties-and-king", "red_mighty_minus", "0", False, "AS AD KH", False, "1"),
    ("003-7.1-mighty-joker-two-kings", "red_mighty_minus", "0", False, "AS JOKER KH KD", True, "0"),
    ("000-no-points", "no_points", "1/2", False, "", True, "0"),
    ("000-no-points-joker-is-not-a-point-card", "no_points", "1/2", False, "JOKER", True, "0"),
    ("003-no-points-mighty-is-a-point-card", "no_points", "1/2", False, "AS", False, "1"),
    ("000-lone-jack", "lone_jack", "1/2", False, "JD", True, "1"),
    ("000-lone-jack-with-joker", "lone_jack", "1/2", False, "JOKER JC", True, "1"),
    ("000-jack-and-ten", "lone_jack", "1/2", False, "JD 10H", False, "2"),
    ("000-lone-queen-is-not-a-jack", "lone_jack", "1/2", False, "QD", False, "1"),
    ("000-no-jack-at-all", "lone_jack", "1/2", False, "", False, "0"),
    ("003-sinchon-one-eyed-spade-jack", "lone_jack", "1/2", True, "JS", True, "1"),
    ("003-sinchon-one-eyed-heart-jack", "lone_jack", "1/2", True, "JH", True, "1"),
    ("003-sinchon-two-eyed-jack-refused", "lone_jack", "1/2", True, "JD", False, "1"),
    ("003-sinchon-lone-mighty", "lone_mighty", "1/2", False, "AS", True, "1"),
    ("003-sinchon-lone-mighty-with-joker", "lone_mighty", "1/2", False, "AS JOKER", True, "1"),
    ("003-sinchon-diamond-ace-is-not-mighty", "lone_mighty", "1/2", False, "AD", False, "1"),
    ("003-sinchon-mighty-and-king", "lone_mighty", "1/2", False, "AS KH", False, "2"),
    ("003-minsa-one-point-card", "one_point_card", "0", False, "KH", True, "1"),
    ("003-minsa-mighty-alone", "one_point_card", "0", False, "AS", True, "1"),
    ("003-minsa-joker-plus-one", "one_point_card", "0", False, "JOKER KH", True, "1"),
    ("003-minsa-joker-plus-two", "one_point_card", "0", False, "JOKER KH 10C", True, "2"),
    ("003-minsa-joker-plus-three", "one_point_card", "0", False, "JOKER KH 10C QD", False, "3"),
    ("003-minsa-two-without-joker", "one_point_card", "0", False, "KH 10C", False, "2"),
    ("003-minsa-none-is-not-one", "one_point_card", "0", False, "JOKER", False, "0"),
    ("000-all-points", "all_points", "1/2", False, " ".join(POINT_CARDS[:10]), True, "10"),
    ("003-sinchon-joker-is-not-a-point-card", "all_points", "1/2", False, " ".join(POINT_CARDS[:9]) + " JOKER", False, "9"),
    ("000-all-points-but-one", "all_points", "1/2", False, " ".join(POINT_CARDS[:9]), False, "9"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("criterion", "threshold", "one_eyed", "cards", "qualifies", "value"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_criterion(criterion, threshold, one_eyed, cards, qualifies, value):
    hand = dealt(cards)
    verdict = CRITERIA[criterion](hand, rules(criterion, threshold=threshold, one_eyed=one_eyed))
    assert (verdict.id, verdict.qualifies, verdict.value) == (criterion, qualifies, value)


def test_pagat_reason_names_the_count_and_the_threshold():
    verdict = CRITERIA["pagat_scale"](dealt("AS JOKER KH 10C"), rules("pagat_scale"))
    assert verdict.reason == (
        "Counting ♠A (the Mighty) as 0, the Joker as −1, other A K Q J as +1 and each 10 as +½: "
        "Joker −1, ♠A 0, ♥K +1, ♣10 +½ gives ½, which is ½ or less."
    )
    assert verdict.cards == ("JOKER", "AS", "KH", "10C")


def test_korean_lone_ten_reason_says_why_it_still_qualifies():
    verdict = CRITERIA["korean_scale"](dealt("10C"), rules("korean_scale", threshold="0"))
    assert "which is more than 0" in verdict.reason
    assert "a single 10 as the only point card also qualifies" in verdict.reason


def test_minsa_reason_explains_the_joker():
    verdict = CRITERIA["one_point_card"](dealt("JOKER KH 10C"), rules("one_point_card"))
    assert "the Joker, which lets one be ignored: that leaves exactly one" in verdict.reason
    assert verdict.cards == ("JOKER", "KH", "10C")


def test_red_mighty_pair_shows_as_one_zero():
    verdict = CRITERIA["red_mighty_minus"](
        dealt("AS AD KH"), rules("red_mighty_minus", threshold="0")
    )
    assert "♠A ♦A together 0, ♥K +1 gives 1" in verdict.reason


def test_criteria_accept_the_whole_system():
    sinchon = system("lone_jack", one_eyed=True)
    assert not CRITERIA["lone_jack"](dealt("JD"), sinchon).qualifies


def test_check_lists_the_systems_criteria_in_order():
    minsa = system("no_points", "one_point_card", threshold="0")
    verdict = check_deal_miss(minsa, dealt("JOKER KH 10C"))
    assert [c.id for c in verdict.criteria] == ["no_points", "one_point_card"]
    assert [c.qualifies for c in verdict.criteria] == [False, True]
    assert verdict.qualifies


def test_check_without_criteria_never_qualifies():
    assert not check_deal_miss(system(), dealt("")).qualifies


# --- double deck: a code may be held twice --------------------------------------------

DOUBLE = {"players": 6, "active_players": 6, "deck": "chicago_six_player"}


@pytest.mark.parametrize(
    ("criterion", "cards", "qualifies", "value"),
    [
        pytest.param("one_point_card", "JOKER JOKER KH KH 10C", True, "3", id="001-two-jokers-ignore-two"),
        pytest.param("one_point_card", "JOKER KH KH 10C", False, "3", id="001-one-joker-ignores-one"),
        pytest.param("lone_mighty", "AS AS", False, "2", id="001-two-mighties-are-two-cards"),
        pytest.param("red_mighty_minus", "AS AS AD", True, "-1", id="003-7.1-one-pair-cancels"),
        pytest.param("pagat_scale", "JOKER JOKER KH KD 10S", True, "1/2", id="001-two-jokers"),
    ],
)  # fmt: skip
def test_double_deck_criterion(criterion, cards, qualifies, value):
    hand = dealt(cards, size=17)
    verdict = CRITERIA[criterion](hand, system(criterion, **DOUBLE))
    assert (verdict.qualifies, verdict.value) == (qualifies, value)


def test_double_deck_all_points_holds_seventeen_point_cards():
    hand = (POINT_CARDS[:9] * 2)[:17]
    assert CRITERIA["all_points"](hand, rules("all_points")).qualifies


# --- exact odds against brute force ---------------------------------------------------------

# 12 cards, 4 each: 495 hands, with one card of every kind the criteria tell apart
TINY = Deck(
    "tiny",
    "12 cards for checking the odds by hand",
    tuple((card, 1) for card in ("AS", "AD", "JOKER", "JS", "JD", "10H", "KC", "QH", "2S", "3H", "5D", "7C")),
    dealt=4,
    kitty=0,
    discards=0,
)  # fmt: skip
# 15 cards with duplicates, 5 each: 3003 hands
TINY_DOUBLE = Deck(
    "tiny_double",
    "15 cards, some twice, for checking the double-deck odds by hand",
    (("AS", 2), ("AD", 1), ("JOKER", 2), ("JH", 2), ("JC", 1), ("10S", 2), ("KD", 1), ("2C", 2), ("3D", 2)),
    dealt=5,
    kitty=0,
    discards=0,
)  # fmt: skip


def multiset_hands(deck: Deck):
    """Every distinct hand of the deck with how many ways it is dealt (copies are different cards)."""
    codes = [card for card, _ in deck.cards]
    for held in itertools.product(*(range(copies + 1) for _, copies in deck.cards)):
        if sum(held) == deck.dealt:
            hand = tuple(
                itertools.chain.from_iterable([c] * k for c, k in zip(codes, held, strict=True))
            )
            ways = math.prod(
                math.comb(copies, k) for (_, copies), k in zip(deck.cards, held, strict=True)
            )
            yield hand, ways


def brute_force(deck: Deck, deal_miss: DealMiss) -> Fraction:
    met = sum(
        ways
        for hand, ways in multiset_hands(deck)
        if any(CRITERIA[c](hand, deal_miss).qualifies for c in deal_miss.criteria)
    )
    return Fraction(met, math.comb(deck.size, deck.dealt))


# the threshold only moves the counting criteria
COUNTING = ("pagat_scale", "pagat_scale_mighty_minus", "korean_scale", "red_mighty_minus")
RULE_VARIANTS = [
    pytest.param((c,), t, j, id=f"{c}-{t}{'-one-eyed' if j else ''}")
    for c in CRITERIA
    for t in (("0", "1/2", "1") if c in COUNTING else ("1/2",))
    for j in ((False, True) if c == "lone_jack" else (False,))
] + [
    pytest.param(tuple(CRITERIA), "1/2", False, id="every-criterion"),
    pytest.param(("no_points", "one_point_card"), "0", False, id="003-minsa"),
    pytest.param(("no_points", "lone_jack", "lone_mighty", "all_points"), "0", True, id="003-sinchon"),
]  # fmt: skip


@pytest.mark.parametrize(("criteria", "threshold", "one_eyed"), RULE_VARIANTS)
def test_single_deck_odds_match_every_hand(criteria, threshold, one_eyed):
    deal_miss = rules(*criteria, threshold=threshold, one_eyed=one_eyed)
    every_hand = list(itertools.combinations([card for card, _ in TINY.cards], TINY.dealt))
    assert len(every_hand) == 495
    met = [
        hand for hand in every_hand if any(CRITERIA[c](hand, deal_miss).qualifies for c in criteria)
    ]
    by_combinations = Fraction(len(met), len(every_hand))
    assert deal_miss_odds(TINY, deal_miss).qualifies == by_combinations


@pytest.mark.parametrize(("criteria", "threshold", "one_eyed"), RULE_VARIANTS)
def test_double_deck_odds_match_every_hand(criteria, threshold, one_eyed):
    deal_miss = rules(*criteria, threshold=threshold, one_eyed=one_eyed)
    assert sum(ways for _, ways in multiset_hands(TINY_DOUBLE)) == math.comb(15, 5)
    assert deal_miss_odds(TINY_DOUBLE, deal_miss).qualifies == brute_force(TINY_DOUBLE, deal_miss)


def test_some_tiny_hands_qualify_and_some_do_not():
    """The brute-force comparison above would be empty if nothing ever qualified."""
    odds = deal_miss_odds(TINY, rules(*CRITERIA))
    assert 0 < odds.qualifies < 1
    assert all(0 < chance < 1 for _, chance in odds.by_criterion)


# Closed forms on the 53-card deck, 10 each: 20 point cards, the Joker, 32 others.
HANDS = math.comb(53, 10)


@pytest.mark.parametrize(
    ("criterion", "one_eyed", "expected"),
    [
        pytest.param("no_points", False, Fraction(math.comb(33, 10), HANDS), id="closed-form-no-points"),
        pytest.param("lone_mighty", False, Fraction(math.comb(33, 9), HANDS), id="closed-form-lone-mighty"),
        pytest.param("lone_jack", False, Fraction(4 * math.comb(33, 9), HANDS), id="closed-form-lone-jack"),
        pytest.param("lone_jack", True, Fraction(2 * math.comb(33, 9), HANDS), id="closed-form-one-eyed-jack"),
        pytest.param("all_points", False, Fraction(math.comb(20, 10), HANDS), id="closed-form-all-points"),
        pytest.param(
            "one_point_card",
            False,
            # one point card with anything else, or two with the Joker and seven others
            Fraction(20 * math.comb(33, 9) + math.comb(20, 2) * math.comb(32, 7), HANDS),
            id="closed-form-minsa",
        ),
    ],
)  # fmt: skip
def test_standard_deck_closed_forms(criterion, one_eyed, expected):
    assert (
        deal_miss_odds(DECKS["standard"], rules(criterion, one_eyed=one_eyed)).qualifies == expected
    )


def test_korean_standard_odds_are_those_of_the_hand_json_example():
    # HAND_JSON.md: "probability": 0.026 for korean-standard
    chance = deal_miss_probability(system("korean_scale", threshold="0"))
    assert round(float(chance), 3) == 0.026


def test_criterion_probabilities_follow_the_systems_order():
    sinchon = system("no_points", "lone_jack", "lone_mighty", "all_points", threshold="0")
    chances = criterion_probabilities(sinchon)
    assert list(chances) == ["no_points", "lone_jack", "lone_mighty", "all_points"]
    assert chances["lone_mighty"] == Fraction(math.comb(33, 9), HANDS)
    # no two of these can hold at once, so the union is the sum
    assert deal_miss_probability(sinchon) == sum(chances.values())


# --- invariants ---------------------------------------------------------------------------

DECK_CHOICES = [TINY, TINY_DOUBLE, *(DECKS[name] for name in ("standard", "three_player", "jun_four_player", "six_player_knockout", "two_player"))]  # fmt: skip
any_rules = st.builds(
    DealMiss,
    criteria=st.lists(st.sampled_from(list(CRITERIA)), unique=True).map(tuple),
    threshold=st.sampled_from(["0", "1/2", "1"]),
    one_eyed_jacks_only=st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(deck=st.sampled_from(DECK_CHOICES), deal_miss=any_rules)
def test_every_chance_is_a_probability_and_the_complement_adds_to_one(deck, deal_miss):
    odds = deal_miss_odds(deck, deal_miss)
    chances = [odds.qualifies, odds.does_not_qualify, *(p for _, p in odds.by_criterion)]
    assert all(0 <= p <= 1 for p in chances)
    assert odds.qualifies + odds.does_not_qualify == 1
    singles = [p for _, p in odds.by_criterion]
    assert max(singles, default=0) <= odds.qualifies <= sum(singles)


@settings(max_examples=25, deadline=None)
@given(deck=st.sampled_from(DECK_CHOICES), deal_miss=any_rules)
def test_a_higher_threshold_never_makes_a_deal_miss_rarer(deck, deal_miss):
    chances = [
        deal_miss_odds(deck, rules(*deal_miss.criteria, threshold=t, one_eyed=deal_miss.one_eyed_jacks_only)).qualifies
        for t in ("0", "1/2", "1")
    ]  # fmt: skip
    assert chances == sorted(chances)


STANDARD_CARDS = [card for card, _ in DECKS["standard"].cards]


@settings(max_examples=100, deadline=None)
@given(
    hand=st.lists(st.sampled_from(STANDARD_CARDS), min_size=10, max_size=10, unique=True),
    deal_miss=any_rules,
)
def test_a_hand_qualifies_exactly_when_some_criterion_does(hand, deal_miss):
    options = {
        "criteria": list(deal_miss.criteria),
        "threshold": deal_miss.threshold,
        "one_eyed_jacks_only": deal_miss.one_eyed_jacks_only,
    }
    verdict = check_deal_miss(build_system({"deal_miss": options}), hand)
    alone = [
        check_deal_miss(build_system({"deal_miss": {**options, "criteria": [c]}}), hand).qualifies
        for c in deal_miss.criteria
    ]
    assert verdict.qualifies == any(alone)
    for criterion in verdict.criteria:
        assert criterion.qualifies == JUDGES[criterion.id](holding_of(hand), deal_miss)


# --- the JSON boundary (HAND_JSON "Deal-miss (redeal) check") -----------------------------

KOREAN_HAND = ["AS", "JOKER", "7H", "2S", "3S", "4S", "5D", "6D", "8C", "9C"]


def test_hand_json_example():
    answer = redeal_response({"system": "korean-standard", "players": 5, "hand": KOREAN_HAND})
    assert answer["qualifies"] is True
    assert answer["criteria"] == [
        {
            "id": "korean_scale",
            "qualifies": True,
            "value": "-1",
            "reason": answer["criteria"][0]["reason"],
            "cards": ["JOKER", "AS"],
        }
    ]
    assert round(answer["probability"], 3) == 0.026
    exact = Fraction(answer["probability_exact"])
    assert float(exact) == answer["probability"]
    assert (answer["system"], answer["players"], answer["hand_size"]) == ("korean-standard", 5, 10)


def test_cards_are_read_leniently_and_options_apply():
    hand = ["A♠", "jOkEr", "TH", "kd", *PLAIN[:6]]
    answer = redeal_response(
        {"system": "pagat-standard", "options": {"deal_miss": {"threshold": "0"}}, "hand": hand}
    )
    assert answer["hand"][:4] == ["AS", "JOKER", "10H", "KD"]
    # ♠A 0, Joker −1, ♥10 +½, ♦K +1 = ½: not 0 or less
    assert (answer["qualifies"], answer["criteria"][0]["value"]) == (False, "1/2")


def test_double_deck_hand_may_hold_a_card_twice():
    hand = ["AS", "AS", "JOKER", "JOKER", *[s + t for s in "23456789" for t in "HD"][:13]]
    answer = redeal_response({"system": "chicago-6p", "players": 6, "hand": hand})
    assert answer["hand_size"] == 17
    assert answer["qualifies"] is True


def test_numbers_written_as_whole_floats_are_read_as_a_hand_reads_them():
    # a client that counts in floats sends 5.0 players and a highest bid of 20.0, as its hands send a
    # contract of 16.0, which the hand parser reads as 16; 민사 "주공이 20을 공약하면 딜 미스 없이"
    hand = ["AS", "JOKER", "7H", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]
    answer = redeal_response({"system": "korean-minsa", "players": 5.0, "hand": hand, "highest_bid": 20.0})
    assert (answer["qualifies"], answer["redeal"], answer["decided_by"]["rule"]) == (True, False, "bid_20_cancels")
    assert problems_of({"system": "korean-minsa", "players": 5.5, "hand": hand}) == [("players", "bad_type")]


def problems_of(request) -> list[tuple[str, str]]:
    with pytest.raises(InvalidInput) as caught:
        redeal_response(request)
    return [(p.field, p.code) for p in caught.value.problems]


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        pytest.param(["AS"], [("", "bad_type")], id="not-an-object"),
        pytest.param({"system": "no-such-game", "hand": KOREAN_HAND}, [("system", "unknown_system")], id="unknown-system"),
        pytest.param({"system": 5, "hand": KOREAN_HAND}, [("system", "bad_type")], id="system-not-a-name"),
        pytest.param({"system": "pagat-standard"}, [("hand", "missing")], id="no-hand"),
        pytest.param({"system": "pagat-standard", "hand": "AS KS"}, [("hand", "bad_type")], id="hand-not-a-list"),
        pytest.param({"system": "pagat-standard", "hand": [*KOREAN_HAND[:3], "1S", *KOREAN_HAND[4:]]}, [("hand[3]", "unknown_card")], id="unknown-card"),
        pytest.param({"system": "pagat-standard", "hand": [*KOREAN_HAND[:9], "AS"]}, [("hand[9]", "duplicate_card")], id="duplicate-card"),
        pytest.param({"system": "pagat-standard", "hand": KOREAN_HAND[:9]}, [("hand", "wrong_hand_size")], id="nine-cards"),
        pytest.param({"system": "pagat-6p-knockout", "hand": KOREAN_HAND}, [("hand", "wrong_hand_size")], id="000-six-players-get-eight"),
        pytest.param({"system": "pagat-3p", "players": 3, "hand": KOREAN_HAND}, [("hand[3]", "card_not_in_deck"), ("hand[4]", "card_not_in_deck"), ("hand[5]", "card_not_in_deck"), ("hand[6]", "card_not_in_deck"), ("hand[7]", "card_not_in_deck")], id="000-three-player-deck-has-no-low-cards"),
        pytest.param({"system": "pagat-standard", "players": 6, "hand": KOREAN_HAND}, [("players", "players_mismatch")], id="players-mismatch"),
        pytest.param({"system": "pagat-standard", "players": "5", "hand": KOREAN_HAND}, [("players", "bad_type")], id="players-not-a-number"),
        pytest.param({"system": "pagat-standard", "options": {"deal_miss": {"threshold": "2"}}, "hand": KOREAN_HAND}, [("options.deal_miss.threshold", "bad_option")], id="bad-option"),
    ],
)  # fmt: skip
def test_bad_requests_name_every_problem(request_, expected):
    assert problems_of(request_) == expected


def test_a_third_copy_in_a_double_deck_is_a_duplicate():
    hand = ["AS", "AS", "AS", "JOKER", *[s + t for s in "23456789" for t in "HD"][:13]]
    assert problems_of({"system": "chicago-6p", "hand": hand}) == [("hand[2]", "duplicate_card")]


def test_problem_messages_name_the_card():
    with pytest.raises(InvalidInput) as caught:
        redeal_response({"system": "pagat-standard", "hand": [*KOREAN_HAND[:9], "AS"]})
    assert "♠A" in caught.value.problems[0].message


# --- the generated page ---------------------------------------------------------------------


def test_the_deal_miss_page_is_up_to_date():
    page = Path(__file__).resolve().parents[2] / "docs" / "deal_miss.md"
    assert page.read_text(encoding="utf-8") == deal_miss_table_markdown(), (
        "docs/deal_miss.md is stale: run python -m scoring.docs deal-miss > docs/deal_miss.md"
    )


def test_the_summary_every_face_shows_agrees_with_the_odds_and_the_words():
    sinchon = system("no_points", "lone_jack", "lone_mighty", "all_points", threshold="0")
    summary = deal_miss_summary(sinchon)
    assert [c.id for c in summary.criteria] == list(sinchon.deal_miss.criteria)
    assert summary.chance == deal_miss_probability(sinchon)
    assert {c.id: c.chance for c in summary.criteria} == criterion_probabilities(sinchon)
    shown = summary.as_json()
    assert shown["criteria"][2] == {
        "id": "lone_mighty",
        "rule": "the only point card is the Mighty",
        "probability": float(Fraction(math.comb(33, 9), HANDS)),
        "probability_exact": str(Fraction(math.comb(33, 9), HANDS)),
    }
    assert (shown["threshold"], shown["fine"]) == ("0", 0)


def test_the_criterion_words_carry_the_systems_threshold_and_jacks():
    korean = system("korean_scale", "lone_jack", threshold="0")
    assert "counts 0 or less" in criterion_words("korean_scale", korean)
    assert criterion_words("lone_jack", korean) == "the only point card is a jack"
    one_eyed = build_system({"deal_miss": {"criteria": ["lone_jack"], "one_eyed_jacks_only": True}})
    assert "one-eyed jack" in criterion_words("lone_jack", one_eyed)


def test_a_system_without_criteria_has_no_chance_at_all():
    assert deal_miss_summary(system()).as_json()["probability"] is None


# --- whether the cards are redealt, at this moment of the bidding (RULES.md §8 options) --------

WEAK = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "2H", "3H"]  # no point card: every criterion
STRONG = ["AH", "KH", "QH", "JH", "10H", "AD", "KD", "2S", "3S", "4S"]
BID_20_FORBIDS = {"deal_miss": {"bid_20_cancels": True}}
BID_20_STOPS = {"deal_miss": {"bid_20_after_demand": True}}
BEFORE_BIDDING = {"deal_miss": {"before_bidding_only": True}}
MUST_SHOW = {"deal_miss": {"optional": False}}


@pytest.mark.parametrize(
    ("slug", "options", "hand", "moment", "redeal", "rule"),
    [
        pytest.param("pagat-standard", {}, WEAK, {}, True, "criteria", id="seed-000-weak-hand-is-redealt"),
        pytest.param("pagat-standard", {}, STRONG, {}, False, "criteria", id="seed-000-strong-hand-is-not"),
        # pagat: "if there is a bid of 20, no one can demand a redeal"
        pytest.param("pagat-standard", BID_20_FORBIDS, WEAK, {"highest_bid": 20}, False, "bid_20_cancels",
                     id="seed-000-bid-of-20-forbids-a-redeal"),
        pytest.param("pagat-standard", BID_20_FORBIDS, WEAK, {"highest_bid": 19}, True, "criteria",
                     id="seed-000-bid-of-19-does-not"),
        pytest.param("pagat-standard", {}, WEAK, {"highest_bid": 20}, True, "criteria",
                     id="seed-000-bid-of-20-changes-nothing-by-default"),
        # 003 민사: "주공이 20을 공약하면 딜 미스 없이 바로 진행해야 한다"
        pytest.param("korean-minsa", {}, WEAK, {"highest_bid": 20}, False, "bid_20_cancels",
                     id="seed-003-minsa-bid-of-20-forbids-a-deal-miss"),
        pytest.param("korean-minsa", {}, WEAK, {"highest_bid": 18}, True, "criteria",
                     id="seed-003-minsa-deal-miss-during-the-bidding"),
        # pagat: "another player can prevent the redeal by bidding 20"
        pytest.param("pagat-standard", BID_20_STOPS, WEAK, {"bid_after_demand": 20}, False, "bid_20_after_demand",
                     id="seed-000-bid-of-20-after-the-demand-stops-it"),
        pytest.param("pagat-standard", {}, WEAK, {"bid_after_demand": 20}, True, "criteria",
                     id="seed-000-bid-after-the-demand-changes-nothing-by-default"),
        # pagat: "a redeal can only be demanded before the bidding begins"
        pytest.param("pagat-standard", BEFORE_BIDDING, WEAK, {"bidding_started": True}, False, "before_bidding_only",
                     id="seed-000-only-before-the-bidding"),
        pytest.param("pagat-standard", BEFORE_BIDDING, WEAK, {"highest_bid": 13}, False, "before_bidding_only",
                     id="seed-000-a-bid-means-the-bidding-began"),
        pytest.param("pagat-standard", BEFORE_BIDDING, WEAK, {"bidding_started": False}, True, "criteria",
                     id="seed-000-before-the-bidding-is-in-time"),
        # pagat main rule: at "their first turn to bid", so the bidding may have begun
        pytest.param("pagat-standard", {}, WEAK, {"bidding_started": True}, True, "criteria",
                     id="seed-000-at-the-first-turn-to-bid"),
        # pagat "is allowed to"; 003 §7.1 "딜 미스 선언은 선택사항이다"
        pytest.param("pagat-standard", {}, WEAK, {"demands": False}, False, "optional",
                     id="seed-003-optional-player-keeps-the-hand"),
        pytest.param("pagat-standard", MUST_SHOW, WEAK, {"demands": False}, True, "optional",
                     id="seed-003-not-optional-hand-is-redealt-anyway"),
    ],
)
def test_the_moment_decides_whether_cards_are_redealt(slug, options, hand, moment, redeal, rule):
    answer = redeal_response({"system": slug, "options": options, "hand": hand, **moment})
    assert (answer["redeal"], answer["decided_by"]["rule"]) == (redeal, rule)
    assert answer["decided_by"]["reason"]


@pytest.mark.parametrize(
    ("moment", "field"),
    [
        pytest.param({"highest_bid": "20"}, "highest_bid", id="bid-as-text"),
        pytest.param({"highest_bid": 21}, "highest_bid", id="bid-above-the-deck"),
        pytest.param({"bid_after_demand": True}, "bid_after_demand", id="bid-as-a-boolean"),
        pytest.param({"bidding_started": "yes"}, "bidding_started", id="started-as-text"),
        pytest.param({"demands": 1}, "demands", id="demands-as-a-number"),
    ],
)
def test_a_moment_of_the_wrong_kind_is_refused(moment, field):
    assert problems_of({"system": "pagat-standard", "hand": WEAK, **moment}) == [(field, "bad_type")]


@pytest.mark.parametrize("slug", ["korean-sinchon", "korean-daegu"])
def test_where_bids_go_above_the_maximum_a_demand_after_a_bid_of_21_is_still_answered(slug):
    # 003 §6.3: "목표 점수를 20보다 높게 부를 수 있다"
    answer = redeal_response({"system": slug, "hand": WEAK, "highest_bid": 21})

    assert answer["decided_by"]["rule"] in {"criteria", "optional", "before_bidding_only"}
    assert problems_of({"system": slug, "hand": WEAK, "highest_bid": 0}) == [("highest_bid", "bad_type")]
