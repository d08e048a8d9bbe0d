"""Every Korean local set is 표준 5마 plus the lines of its own section (seed 003 §6.1:
"이하 표준 5마와의 차이점만 설명한다"). Each row lists every option where a preset differs
from korean-standard; anything else differing, or missing, is a rule the page does not give."""

from __future__ import annotations

import pytest

from scoring.interface import check_request, score_request
from scoring.presets import all_presets, resolve_system
from scoring.systems import option_paths, system_as_options, system_diff

SINCHON_HANDS = ["no_points", "lone_jack", "lone_mighty", "all_points"]
SINCHON_BIDDING = {"trump_change.to_nt": 1, "auction.nt_discount": True, "auction.dealer_may_pass": False}
SIX_KNOCKOUT = {"players": 6, "deck": "six_player_knockout", "sit_out": "knockout"}
FOUR = {"players": 4, "active_players": 4, "deck": "jun_four_player", "forbidden_calls": ["mighty", "joker"]}

# slug → (every difference from 표준, where the page says so)
DIFFERENCES = {
    "korean-minsa": (
        {
            "next_dealer": "partner",  # "전 판의 프렌드가 딜러가 된다."
            "deal_miss.criteria": ["no_points", "one_point_card"],  # "점수 카드가 한 장뿐이라면"
            "deal_miss.bid_20_cancels": True,  # "주공이 20을 공약하면 딜 미스 없이"
            "deal_miss.optional": True,  # "딜 미스를 낼 수 있다"
            "back_run.n": 10,  # "야당이 10장 이상 득점하면 백런"
        },
        "seed-003-6.2-minsa",
    ),
    "korean-sinchon": (
        {
            "next_dealer": "partner",
            "bids_above_max": True,  # "목표 점수를 20보다 높게 부를 수 있다."
            **SINCHON_BIDDING,  # "딜러가 처음에 패스할 수 없다." and the no-trump lines
            "discards_count_for": "defenders",  # "버린 세 장의 카드는 야당이 득점한다."
            "doubles.no_friend": "both",  # "노프렌드 2배"
            "deal_miss.criteria": SINCHON_HANDS,
            "deal_miss.optional": True,
        },
        "seed-003-6.3-sinchon",
    ),
    "korean-daejeon-6": (
        # "선거는 신촌 5마와 거의 비슷하나, 20보다 높은 공약을 할 수는 없다." / "딜 미스 조건도 신촌
        # 5마와 동일하다." Nothing about the dealer, the discards or the doubles: 표준's.
        {**SIX_KNOCKOUT, **SINCHON_BIDDING, "deal_miss.criteria": SINCHON_HANDS, "deal_miss.optional": True},
        "seed-003-6.4-daejeon-6",
    ),
    "korean-gwanak-6": (
        # "대전 6마와 큰 차이가 없다." plus "전 판의 프렌드가 딜러가 된다."
        {
            **SIX_KNOCKOUT, **SINCHON_BIDDING, "deal_miss.criteria": SINCHON_HANDS, "deal_miss.optional": True,
            "next_dealer": "partner",
        },
        "seed-003-6.5-gwanak-6",
    ),
    "korean-gwanak-5": (
        {
            "max_bid": 19, "base": "hard", "set": "same_as_made", "trump_penalty": 1,  # "2~7", "-1점"
            "min_suit_contract": 15, "trump_change.allowed": False,  # "3점 이상부터", "미리 기루다"
            "spade_trump_keeps_mighty": True,  # "삽 기루다일때에도 마이티는 스페이드 A"
            "doubles.run": "never", "doubles.back_run": "never", "doubles.no_trump": "never",
            "first_bidder": "left_of_dealer",  # "딜러는 가장 마지막에 공약을 부른다."
        },
        "seed-003-6.6-gwanak-5",
    ),
    "korean-gyeonggi": (
        {
            "min_bid": 12,  # "기본 목표 점수가 12."
            "trump_change.suit": 0, "trump_change.to_nt": 0,  # "목표점수를 안 높여도 된다."
            "doubles.no_friend": "both",  # "역시 노프렌드 2배."
        },
        "seed-003-6.7-gyeonggi",
    ),
    "korean-gwangju": (
        {"min_bid": 12, "auction.nt_discount": True, "trump_change.to_nt": 1},
        "seed-003-6.8-gwangju",
    ),
    "korean-daegu": (
        {
            "next_dealer": "partner", "min_bid": 12, "auction.dealer_may_pass": False,
            "bids_above_max": True, "trump_change.to_nt": 1,  # "광주 5마와 동일"
        },
        "seed-003-6.9-daegu",
    ),
    "korean-jeju-3": (
        # the previous declarer deals, as in 표준: the page does not change it
        {
            "players": 3, "active_players": 3, "deck": "three_player", "always_alone": True, "min_bid": 12,
            "deal_miss.criteria": ["no_points", "lone_jack", "lone_mighty"], "deal_miss.optional": True,
        },
        "seed-003-6.10-jeju-3",
    ),
    "korean-gyeonggibuk": ({"bids_above_max": True}, "seed-003-6.11-gyeonggibuk"),
    "korean-uos": ({"min_bid": 12}, "seed-003-6.13-uos"),
    "korean-uos-4": ({**FOUR, "min_bid": 17}, "seed-003-6.13-uos-4"),
    "korean-4": (FOUR, "seed-003-3.5-four"),
    "korean-6-rotation": (
        {"players": 6, "sit_out": "dealer", "next_dealer": "partner"},
        "seed-003-3.3.1-six-in-rotation",
    ),
    "korean-7-rotation": ({"players": 7, "sit_out": "declarer_and_partner"}, "seed-003-3.4.1-seven-in-rotation"),
    "korean-2": (
        {"players": 2, "active_players": 2, "deck": "two_player", "always_alone": True, "partner_calls": ["none"]},
        "seed-003-3.5-two",
    ),
    # the sets the page describes outside §6 (issue: "any other set the page describes")
    "korean-6": (SIX_KNOCKOUT, "seed-003-3.3-six-knockout"),
    "korean-7": ({"players": 7, "deck": "seven_player_knockout", "sit_out": "knockout"}, "seed-003-3.4-seven-knockout"),
    # "괸악에서는 다이아 4와 클럽 3를 넣고 친다"
    "korean-gwanak-4": ({**FOUR, "deck": "gwanak_four_player"}, "seed-003-3.5-gwanak-4"),
    # §6.5 "부산 4마도 동일하다": 관악 6마's lines with the 4마 deck
    "korean-busan-4": (
        {
            **FOUR, **SINCHON_BIDDING, "deal_miss.criteria": SINCHON_HANDS, "deal_miss.optional": True,
            "next_dealer": "partner",
        },
        "seed-003-6.5-busan-4",
    ),
    "korean-honeymoon-4": (FOUR, "seed-003-3.5-honeymoon-as-four"),
    # "카드를 53장, 한 사람의 카드수를 13장, 내려놓는 카드를 1장으로 한다"
    "korean-network-4": ({**FOUR, "deck": "network_four_player"}, "seed-003-3.5-network-4"),
    # "공약은 먹은 턴 수를 대상으로 한다"; the numbers are assumed (see the description)
    "korean-2-variant": (
        {
            "players": 2, "active_players": 2, "deck": "variant_two_player", "counts": "tricks",
            "min_bid": 6, "max_bid": 10, "back_run.n": 6, "always_alone": True, "partner_calls": ["none"],
        },
        "seed-003-3.5.1-variant-two-counts-tricks",
    ),
}


@pytest.mark.parametrize(
    ("slug", "expected"),
    [pytest.param(slug, expected, id=cited) for slug, (expected, cited) in DIFFERENCES.items()],
)
def test_a_local_set_is_standard_plus_its_own_lines(slug, expected):
    standard = resolve_system("korean-standard")
    found = {path: value for path, _, value in system_diff(standard, resolve_system(slug))}
    assert found == expected


def test_every_korean_preset_is_in_the_table():
    korean = {p.slug for p in all_presets() if p.slug.startswith("korean-") and p.slug != "korean-standard"}
    assert korean <= set(DIFFERENCES)


@pytest.mark.parametrize(
    ("slug", "path", "value"),
    [
        # "기본 목표 점수, 즉 최소 공약은 14장이다." 민사 does not change it (RULES.md §9 says 13)
        pytest.param("korean-minsa", "min_bid", 14, id="seed-003-6.1-minsa-minimum-is-standard-14"),
        # "이 때 딜러는 전 판의 주공." 제주 does not change it
        pytest.param("korean-jeju-3", "next_dealer", "declarer", id="seed-003-6.1-jeju-previous-declarer-deals"),
        pytest.param("korean-2", "min_bid", 14, id="seed-003-6.1-two-players-minimum-14"),
        pytest.param("korean-2", "next_dealer", "declarer", id="seed-003-6.1-two-players-previous-declarer-deals"),
        # 대전 lists no doubles: 표준's, without the no-friend double of 신촌
        pytest.param("korean-daejeon-6", "doubles.no_friend", "never", id="seed-003-6.4-daejeon-standard-doubles"),
        # "합이 0 이하이면 딜 미스이다": a rule; §7.1 has the optional deal miss as a local rule
        pytest.param("korean-standard", "deal_miss.optional", False, id="seed-003-6.1-deal-miss-is-a-rule"),
        pytest.param("korean-standard", "first_bidder", "dealer", id="seed-003-3.2.1-dealer-bids-first"),
    ],
)
def test_what_a_set_does_not_change_is_standard(slug, path, value):
    assert option_paths(system_as_options(resolve_system(slug)))[path] == value


# --- the systems the page describes outside §6, scored ----------------------------------------

TWO = ["Ann", "Bo"]
FOUR_SEATS = ["Ann", "Bo", "Cy", "Di"]


def request(slug: str, seats: list[str], contract: int, points: int, **extra) -> dict:
    return {
        "system": slug, "seats": seats, "declarer": "Ann", "contract": {"points": contract, "trump": "S"},
        "partner_call": {"type": "none"}, "partners": [], "points": points, **extra,
    }


@pytest.mark.parametrize(
    ("hand", "payments"),
    [
        # 7 tricks bid, 8 taken: 2×(7 − 6) + 1 = 3, and the other player pays it
        pytest.param(request("korean-2-variant", TWO, 7, 8), {"Ann": 3, "Bo": -3},
                     id="seed-003-3.5.1-variant-two-made-in-tricks"),
        pytest.param(request("korean-2-variant", TWO, 7, 5), {"Ann": -2, "Bo": 2},
                     id="seed-003-3.5.1-variant-two-set-by-two-tricks"),
        # every trick: a run, doubled as in 표준
        pytest.param(request("korean-2-variant", TWO, 8, 10), {"Ann": 12, "Bo": -12},
                     id="seed-003-3.5.1-variant-two-run-is-every-trick"),
        # 4마 two against two: the declarer and the partner each win S
        pytest.param(
            request("korean-gwanak-4", FOUR_SEATS, 15, 16, partner_call={"type": "card", "cards": ["4D"]},
                    partners=["Cy"]),
            {"Ann": 3, "Bo": -3, "Cy": 3, "Di": -3},
            id="seed-003-3.5-gwanak-4-calls-the-diamond-four",
        ),
        pytest.param(
            request("korean-network-4", FOUR_SEATS, 15, 16, partner_call={"type": "card", "cards": ["KH"]},
                    partners=["Bo"], discards=["2C"]),
            {"Ann": 3, "Bo": 3, "Cy": -3, "Di": -3},
            id="seed-003-3.5-network-4-buries-one-card",
        ),
    ],
)
def test_the_other_systems_of_the_page_score(hand, payments):
    assert score_request(hand)["payments"] == payments


@pytest.mark.parametrize(
    ("hand", "code"),
    [
        pytest.param(request("korean-2-variant", TWO, 7, 11), "points_out_of_range",
                     id="seed-003-3.5.1-variant-two-has-ten-tricks"),
        pytest.param(request("korean-2-variant", TWO, 11, 10), "above_maximum",
                     id="seed-003-3.5.1-variant-two-bids-at-most-ten-tricks"),
        pytest.param(
            request("korean-4", FOUR_SEATS, 15, 16, partner_call={"type": "card", "cards": ["4D"]}, partners=["Cy"]),
            "card_not_in_deck", id="seed-003-3.5-four-has-no-diamond-four",
        ),
        pytest.param(
            request("korean-network-4", FOUR_SEATS, 14, 14, partner_call={"type": "card", "cards": ["KH"]},
                    partners=["Bo"], discards=["2C", "3C", "4C"]),
            "wrong_discard_count", id="seed-003-3.5-network-4-one-card-face-down",
        ),
        pytest.param(
            request("korean-6", ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"], 13, 14, sitting_out=["Fay"]),
            "below_minimum", id="seed-003-3.3-six-minimum-14",
        ),
        pytest.param(
            request("korean-7", ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus"], 15, 15, sitting_out=["Fay"]),
            "wrong_active_count", id="seed-003-3.4-seven-two-knocked-out",
        ),
    ],
)
def test_the_other_systems_of_the_page_refuse(hand, code):
    assert code in [error["code"] for error in check_request(hand)["errors"]]


def test_gwanak_four_puts_the_diamond_four_back():
    deck = resolve_system("korean-gwanak-4").deck_cards
    assert (deck.size, deck.holds("4D"), deck.holds("3C"), deck.holds("3D")) == (44, True, True, False)


FIVE_SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]


@pytest.mark.parametrize("slug", ["korean-sinchon", "korean-gyeonggi"])
@pytest.mark.parametrize(
    ("options", "doubles"),
    [
        # 003 §6.3 "노프렌드 2배", §6.7 "역시 노프렌드 2배": no condition, so a set no-friend hand doubles too
        pytest.param({}, ["no_friend"], id="seed-003-no-friend-doubles-made-or-set"),
        # 003 §3.2.2 "프렌드 없이(노프렌드)승리할 때도 2배가 된다": only when the declarer wins
        pytest.param({"doubles": {"no_friend": "made"}}, [], id="seed-003-3.2.2-no-friend-doubles-a-win-only"),
    ],
)
def test_a_set_no_friend_hand_in_the_sets_that_double_no_friend(slug, options, doubles):
    answer = score_request({**request(slug, FIVE_SEATS, 16, 15), "options": options})
    assert answer["made"] is False and answer["doubles"] == doubles
