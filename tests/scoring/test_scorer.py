"""The scorer against the rulebooks' own numbers: RULES.md §9.1 and every worked example in the seeds."""

import pytest

from scoring.interface import score_request
from scoring.problems import InvalidInput

from .hands import FIVE, hand

SOLO = {"type": "none"}


def payments(result, declarer="Ann", partner="Cy", defender="Bo"):
    p = result["payments"]
    return p[declarer], (p[partner] if partner else None), p[defender]


# (id, request, S, declarer, partner, each defender)
PAGAT_STANDARD = [
    ("pagat-example-1", hand("15 D", 16), 5, 10, 5, -5),
    ("pagat-example-2", hand("15 D", 13), 2, -4, -2, 2),
    ("pagat-example-3", hand("16 NT", 18), 16, 32, 16, -16),
    ("pagat-example-4", hand("16 NT", 13), 6, -12, -6, 6),
    ("pagat-example-5-run", hand("17 H", 20), 22, 44, 22, -22),
    ("pagat-example-6-no-friend", hand("16 NT", 17, partners=(), call=SOLO), 28, 112, None, -28),
    ("pagat-example-7-no-friend-set", hand("16 NT", 15, partners=(), call=SOLO), 4, -16, None, 4),
]


@pytest.mark.parametrize(("request_", "score", "declarer", "partner", "defender"),
                         [case[1:] for case in PAGAT_STANDARD], ids=[c[0] for c in PAGAT_STANDARD])
def test_pagat_standard_vectors(request_, score, declarer, partner, defender):
    result = score_request(request_)
    assert result["score"] == score
    assert payments(result, partner="Cy" if partner is not None else None) == (declarer, partner, defender)
    assert sum(result["payments"].values()) == 0


HARD = [
    ("seed-002-bid-15-took-17", hand("15 S", 17, system="hard-score"), 6, 3, -3),
    ("rules-hard-made-17", hand("17 S", 17, system="hard-score"), 10, 5, -5),
    ("seed-004-made-seventeen", hand("17 H", 18, system="hard-score"), 10, 5, -5),
    ("seed-004-broken-fourteen", hand("14 C", 12, system="hard-score"), -4, -2, 2),
    ("seed-002-run-doubles", hand("15 S", 20, system="hard-score"), 12, 6, -6),
    ("seed-002-back-run-nine-or-fewer", hand("15 S", 9, system="hard-score"), -12, -6, 6),
]


@pytest.mark.parametrize(("request_", "declarer", "partner", "defender"),
                         [c[1:] for c in HARD], ids=[c[0] for c in HARD])
def test_hard_score(request_, declarer, partner, defender):
    assert payments(score_request(request_)) == (declarer, partner, defender)


def test_seed_004_alone_scores_four_per_point_above_twelve():
    result = score_request(hand("16 S", 16, system="hard-score", partners=(), call=SOLO))
    assert payments(result, partner=None) == (16, None, -4)


def test_seed_002_two_defenders_pay_the_declarer_the_third_pays_the_partner():
    transfers = score_request(hand("15 S", 17, system="hard-score"))["transfers"]
    assert len(transfers) == 3
    assert sorted(t["to"] for t in transfers) == ["Ann", "Ann", "Cy"]


def test_pagat_run_doubles_seventeen_hearts():
    result = score_request(hand("17 H", 20))
    assert result["base"] == 11 and result["multiplier"] == 2 and result["doubles"] == ["run"]


def test_back_run_doubles_a_set_contract_only():
    # defenders took 11: pagat doubles the payments to the defenders
    result = score_request(hand("14 S", 9))
    assert result["base"] == 5 and result["doubles"] == ["back_run"] and result["score"] == 10


def test_back_run_option_ten_for_minsa():
    result = score_request(hand("14 S", 10, system="korean-minsa"))
    assert result["doubles"] == ["back_run"]
    assert score_request(hand("14 S", 10))["doubles"] == []


def test_back_run_rule_short_by():
    request = hand("20 S", 10, options={"back_run": {"rule": "short_by", "n": 10}})
    assert score_request(request)["doubles"] == ["back_run"]
    request = hand("19 S", 10, options={"back_run": {"rule": "short_by", "n": 10}})
    assert score_request(request)["doubles"] == []


def test_secret_solo_is_not_an_announced_no_friend():
    # pagat: the no-friend double is for an open announcement, not a called card in the declarer's hand
    result = score_request(hand("15 S", 16, partners=(), call={"type": "card", "cards": ["AH"]}))
    assert result["doubles"] == []
    assert payments(result, partner=None) == (20, None, -5)


def test_first_trick_won_by_declarer_plays_alone_without_the_double():
    result = score_request(hand("15 S", 16, partners=(), call={"type": "first_trick"}))
    assert result["doubles"] == [] and result["payments"]["Ann"] == 20


@pytest.mark.parametrize(
    ("system", "points", "score"),
    [
        ("pagat-over-ten", 16, 6),
        ("pagat-over-min", 16, 3),
        ("pagat-over-min-plus-one", 16, 4),
        ("pagat-classic", 16, 3),
        ("pagat-classic", 13, 3),
    ],
    ids=["pagat-over-ten", "pagat-over-min", "pagat-over-min-plus-one", "pagat-classic-made",
         "pagat-classic-set-pays-the-same"],
)
def test_pagat_scoring_variants_bid_15(system, points, score):
    assert score_request(hand("15 S", points, system=system))["score"] == score


def test_exact_minimum_scores_zero_or_one_by_option():
    assert score_request(hand("13 S", 13))["score"] == 0
    assert score_request(hand("13 S", 13, options={"minimum_score": 1}))["score"] == 1


def test_pays_back_set_rule():
    # (B − 10) + (B − P) as some Korean groups play
    result = score_request(hand("15 S", 13, options={"set": "pays_back"}))
    assert result["base"] == 7


def test_buried_mighty_and_joker_doubles_by_option():
    discards = ["AS", "JOKER", "2C"]
    # the Joker is buried, so the partner card is another (a buried called card makes no partner)
    request = hand("15 H", 16, discards=discards, call={"type": "card", "cards": ["KH"]},
                   options={"doubles": {"buried_mighty": "both", "buried_joker": "both"}})
    assert score_request(request)["doubles"] == ["buried_mighty", "buried_joker"]


def test_mighty_is_the_diamond_ace_when_spades_are_trump():
    request = hand("15 S", 16, discards=["AS", "2C", "3C"], options={"doubles": {"buried_mighty": "both"}})
    assert score_request(request)["doubles"] == []
    request["discards"] = ["AD", "2C", "3C"]
    assert score_request(request)["doubles"] == ["buried_mighty"]


def test_grand_slam_bid_double():
    request = hand("20 S", 20, options={"doubles": {"grand_slam_bid": "made", "run": "never"}})
    assert score_request(request)["doubles"] == ["grand_slam_bid"]


def test_four_players_jun_two_against_two():
    seats = ["Ann", "Bo", "Cy", "Di"]
    result = score_request(hand("15 S", 16, system="pagat-4p-jun", seats=seats))
    # S = 2×(15−14)+1 = 3; declarer and partner each +3
    assert result["payments"] == {"Ann": 3, "Bo": -3, "Cy": 3, "Di": -3}


def test_four_players_jun_partner_pays_nothing_when_set_by_option():
    seats = ["Ann", "Bo", "Cy", "Di"]
    request = hand("15 S", 13, system="pagat-4p-jun", seats=seats,
                   options={"four_player_set_split": "declarer_alone"})
    assert score_request(request)["payments"] == {"Ann": -4, "Bo": 2, "Cy": 0, "Di": 2}


def test_three_players_the_declarer_is_always_alone():
    seats = ["Ann", "Bo", "Cy"]
    result = score_request(hand("13 S", 14, system="pagat-3p", seats=seats, partners=(), call=SOLO))
    # M = 11: S = 2×2+1 = 5, no no-friend double
    assert result["payments"] == {"Ann": 10, "Bo": -5, "Cy": -5}


def test_six_players_rotation_the_dealer_sits_out_with_zero():
    seats = FIVE + ["Fay"]
    result = score_request(hand("15 D", 16, system="pagat-6p-rotation", seats=seats,
                                sitting_out=["Fay"], dealer="Fay"))
    assert result["payments"]["Fay"] == 0
    assert result["payments"]["Ann"] == 10


def test_sinchon_discards_count_for_the_defenders():
    # 신촌: points exclude the discards; the defenders must hold at least the buried points
    request = hand("15 S", 16, system="korean-sinchon", discards=["AH", "KH", "2C"])
    assert score_request(request)["made"] is True
    request["points"] = 19
    with pytest.raises(InvalidInput) as error:
        score_request(request)
    assert "defender_points_below_discards" in {p.code for p in error.value.problems}


def test_gwanak_5_footnote_24_bid_three_with_trump():
    # 003 §6.6 [24]: bid 3 with trump and won: declarer 4, friend 2, defenders −2 each
    result = score_request(hand("15 H", 15, system="korean-gwanak-5"))
    assert payments(result) == (4, 2, -2)


# 003 §6.6 read the other way: "야당은 8-(주공이 부른 숫자) 만큼의 점수패를 가져가야 한다" as what the
# defenders need to set the contract, so the declarer's team needs 13 + n, entered as the contract
DEFENDERS_TARGET = {"min_bid": 15, "max_bid": 20, "min_suit_contract": 16, "hard_offset": 1}


def test_gwanak_5_read_by_the_defenders_target_footnote_22_six_cards_set_a_bid_of_two():
    # [22] "2점이라면 야당은 6장의 카드를 가져가야 한다": bid 2 (contract 15), the defenders take 6
    result = score_request(hand("15 NT", 14, system="korean-gwanak-5", options=DEFENDERS_TARGET))
    assert (result["made"], result["base"]) == (False, 2)
    # RULES.md §9 (contract 12 + n): the same six cards leave the declarer's 14 of a contract of 14
    assert score_request(hand("14 NT", 14, system="korean-gwanak-5"))["made"] is True


def test_gwanak_5_read_by_the_defenders_target_footnote_24_still_holds():
    result = score_request(hand("16 H", 16, system="korean-gwanak-5", options=DEFENDERS_TARGET))
    assert payments(result) == (4, 2, -2)


def test_korean_standard_minimum_fourteen():
    result = score_request(hand("15 S", 16, system="korean-standard"))
    assert result["score"] == 3


def test_chicago_five_players_table():
    result = score_request(hand("17 S", 18, system="chicago-5p"))
    assert payments(result) == (10, 5, -5)


def test_chicago_four_players_table():
    seats = ["Ann", "Bo", "Cy", "Di"]
    result = score_request(hand("14 S", 13, system="chicago-4p", seats=seats))
    assert result["payments"] == {"Ann": -3, "Bo": 2, "Cy": -1, "Di": 2}


def test_chicago_six_players_two_partners():
    seats = FIVE + ["Fay"]
    request = hand("27 S", 30, system="chicago-6p", seats=seats, partners=("Cy", "Di"),
                   call={"type": "card", "cards": ["JOKER", "AH"]})
    result = score_request(request)
    # seed 001: 27 with two partners and 3 defenders: bidder 5, partners 2, defenders −3
    assert result["payments"] == {"Ann": 5, "Bo": -3, "Cy": 2, "Di": 2, "Ed": -3, "Fay": -3}


def test_chicago_declarer_alone_takes_the_whole_defenders_total():
    request = hand("17 S", 17, system="chicago-5p", partners=(), call={"type": "first_trick"})
    assert score_request(request)["payments"]["Ann"] == 20


def test_conceded_by_the_declarers_team_is_set():
    request = hand("15 S", None, outcome="conceded", conceded_by="declarer_team")
    result = score_request(request)
    # no points entered: a set concession counts P = B − 1
    assert result["made"] is False and result["score"] == 1


def test_conceded_by_the_defenders_is_made():
    result = score_request(hand("15 S", None, outcome="conceded", conceded_by="defenders"))
    assert result["made"] is True and result["score"] == 4


def test_void_hand_pays_nobody():
    result = score_request(hand("15 S", None, outcome="void"))
    assert set(result["payments"].values()) == {0}


def test_defender_points_may_be_given_instead():
    request = hand("15 D", None, defender_points=4)
    assert score_request(request)["score"] == 5


def test_explanation_reads_line_by_line():
    lines = score_request(hand("16 NT", 18))["explanation"]
    assert lines[0] == "Contract 16 no trump; the declarer's team took 18 of 20: made."
    assert "2×(16−13)+(18−16) = 8" in lines[1]
    assert lines[2] == "No trump: ×2 → 16."


def test_illegal_hand_is_refused_with_every_problem():
    with pytest.raises(InvalidInput) as error:
        score_request(hand("12 S", 25))
    codes = {p.code for p in error.value.problems}
    assert {"below_minimum", "points_out_of_range"} <= codes


def test_a_no_trump_contract_bid_under_the_minimum_still_scores_from_the_minimum():
    # 신촌: M = 14 (RULES.md §7.1 "M = minimum bid", §9), for no trump too; the NT discount is the
    # auction's (§4.2). 16 NT taking 17, no friend: 2×(16−14)+(17−16) = 5, ×2 no trump ×2 no friend
    alone = score_request(hand("16 NT", 17, system="korean-sinchon", partners=()))
    assert (alone["base"], alone["score"], alone["payments"]["Ann"]) == (5, 20, 80)
    # 13 NT, one under the minimum, made exactly: 2×(13−14)+0 = −2, and a made base is never below 0
    assert score_request(hand("13 NT", 13, system="korean-sinchon"))["score"] == 0


def test_a_table_may_count_a_no_trump_contract_from_its_own_lower_minimum():
    options = {"nt_discount_in_score": True}
    # 13 NT taking 15: 2×(13−13)+(15−13) = 2, doubled for no trump
    assert score_request(hand("13 NT", 15, system="korean-sinchon", options=options))["score"] == 4
    alone = score_request(hand("16 NT", 17, system="korean-sinchon", partners=(), options=options))
    assert alone["base"] == 7
    # a suit contract is the same either way
    assert score_request(hand("15 S", 16, system="korean-sinchon", options=options))["base"] == 3


def test_an_illegal_attached_auction_refuses_the_hand():
    request = hand("15 S", 16, dealer="Ann", auction=[
        {"seat": "Ann", "bid": {"points": 15, "trump": "S"}},
        {"seat": "Bo", "bid": {"points": 14, "trump": "H"}},
    ])
    with pytest.raises(InvalidInput) as error:
        score_request(request)
    assert "bid_not_higher" in {p.code for p in error.value.problems}


@pytest.mark.parametrize("written", ["NT", "nt", "no trump", "No-Trump", "노기루다", "N"])
def test_no_trump_may_be_written_in_words(written):
    request = hand("16 NT", 18)
    request["contract"]["trump"] = written
    assert score_request(request)["doubles"] == ["no_trump"]


@pytest.mark.parametrize("call", [{"type": "card", "cards": "JOKER"}, {"type": "card", "card": "JOKER"}])
def test_a_single_called_card_may_be_a_string(call):
    assert score_request(hand("15 D", 16, call=call))["score"] == 5


def test_a_few_players_double_every_set_contract():
    # pagat variants: "a few players double the score for all failed contracts"
    request = hand("15 D", 13, options={"doubles": {"set_contract": "set"}})
    assert score_request(request)["score"] == 4
    assert score_request(hand("15 D", 16, options={"doubles": {"set_contract": "set"}}))["score"] == 5


# Seed 003's own worked hands, and the hands the audit's points change (ids cite the source).
# (id, request, made, declarer, partner, each defender)
KOREAN_EXAMPLES = [
    # §3.2.2 "공약이 '하트 15'인 경우 야당이 4장을 먹었다면 ... 16장 ... 여당의 승리": 2×(15 − 14) + 1 = 3
    ("seed-003-3.2.2-heart-15-defenders-took-4", hand("15 H", 16, system="korean-standard"), True, 6, 3, -3),
    # §3.2.2 "공약이 '클로버 17'인 경우 야당이 5장을 먹었다면 ... 15장 ... 야당의 승리": short by 2
    ("seed-003-3.2.2-club-17-defenders-took-5", hand("17 C", 15, system="korean-standard"), False, -4, -2, 2),
    # §6.6 footnote 24 "3점을 부르고 기루다를 쳐서 이겼다면 주공은 4점, 프렌드는 2점, 야당 셋은 -2점씩"
    ("seed-003-6.6-gwanak-5-bid-3-in-a-suit", hand("15 S", 15, system="korean-gwanak-5"), True, 4, 2, -2),
    # 000: a called card the declarer buried leaves him alone: ±4S, and no no-friend double
    (
        "seed-000-buried-called-card-plays-alone",
        hand("15 D", 16, partners=(), call={"type": "card", "cards": ["KH"]}, discards=["KH", "2S", "3S"]),
        True, 20, None, -5,
    ),
]


@pytest.mark.parametrize(("request_", "made", "declarer", "partner", "defender"),
                         [case[1:] for case in KOREAN_EXAMPLES], ids=[c[0] for c in KOREAN_EXAMPLES])
def test_the_sources_worked_hands(request_, made, declarer, partner, defender):
    result = score_request(request_)
    assert result["made"] is made
    assert payments(result, partner="Cy" if partner is not None else None) == (declarer, partner, defender)
    assert sum(result["payments"].values()) == 0


def test_a_system_without_any_partner_call_is_refused_rather_than_every_hand_in_it():
    with pytest.raises(InvalidInput) as error:
        score_request(hand("15 S", 16, options={"partner_calls": []}))
    assert [(p.field, p.code) for p in error.value.problems] == [("options.partner_calls", "impossible_options")]


@pytest.mark.parametrize(("options", "field"), [
    pytest.param({"sit_out": "dealer"}, "options.sit_out", id="five-play-and-the-dealer-sits-out"),
    pytest.param({"players": 6, "deck": "six_player_knockout", "sit_out": "none"}, "options.sit_out",
                 id="six-at-the-table-five-play-nobody-sits-out"),
    pytest.param({"doubles": {"run": "set"}}, "options.doubles.run", id="a-run-doubling-a-set-contract"),
    pytest.param({"back_run": {"n": 25}}, "options.back_run.n", id="a-back-run-of-25-of-20"),
    pytest.param({"partner_instruction": {"allowed": True, "per_hand": 0}}, "options.partner_instruction",
                 id="an-instruction-allowed-no-times"),
    pytest.param({"partner_instruction": {"allowed": True, "min_contract": 25}}, "options.partner_instruction",
                 id="an-instruction-needing-25-of-20"),
])
def test_options_that_no_hand_could_play_are_refused_where_they_are_set(options, field):
    with pytest.raises(InvalidInput) as error:
        score_request(hand("15 S", 16, options=options))
    assert (field, "impossible_options") in [(p.field, p.code) for p in error.value.problems]


def test_a_hard_score_says_no_set_rule_it_does_not_follow():
    from scoring.describe import describe
    from scoring.presets import resolve_system
    from scoring.words import translated

    sections = describe(resolve_system("hard-score", {"set": "shortfall"}))
    said = " ".join(translated(line, str) for section in sections for line in section.lines)
    assert "B − 12" in said and "shortfall" not in said


@pytest.mark.parametrize("slug", ["korean-6-rotation", "korean-7-rotation"])
def test_where_the_dealer_sits_out_the_words_say_who_opens_instead(slug):
    from scoring.describe import describe
    from scoring.presets import resolve_system
    from scoring.words import translated

    said = [translated(line, str) for section in describe(resolve_system(slug)) for line in section.lines]
    assert "The dealer bids first." not in said
    assert any("leaves it to the next player dealt in" in line for line in said)


def test_a_whole_number_option_written_as_a_float_is_read_as_a_hand_reads_its_numbers():
    # a client that counts in floats sends 10.0 as it sends a contract of 14.0: 민사's back run of 10
    request = hand("14 S", 10, options={"back_run": {"n": 10.0}, "min_bid": 13.0})
    assert score_request(request)["doubles"] == ["back_run"]
    with pytest.raises(InvalidInput) as error:
        score_request(hand("14 S", 10, options={"back_run": {"n": 10.5}}))
    assert [(p.field, p.code) for p in error.value.problems] == [("options.back_run.n", "bad_option")]
