"""The auction checker (RULES.md §4.2), one behaviour per test, each option beside its default."""

from __future__ import annotations

import pytest

from scoring.auction import AUCTION_CODES, Call, bid_rank, check_auction, outbids
from scoring.hand import Contract
from scoring.interface import auction_request as interface_auction_request
from scoring.presets import resolve_system

from .test_legality import c

FIVE = ["Ann", "Bo", "Cy", "Di", "Ed"]


def bid(seat: str, text: str) -> dict:
    return {"seat": seat, "bid": c(text)}


def passes(*seats: str) -> list[dict]:
    return [{"seat": seat, "pass": True} for seat in seats]


def walk(
    calls: list[dict], system: str = "pagat-standard", options: dict | None = None, **extra
) -> dict:
    from scoring.auction import auction_request

    request = {"system": system, "seats": FIVE, "dealer": "Ann", "auction": calls, **extra}
    if options:
        request["options"] = options
    return auction_request(request)


def first_error(answer: dict) -> tuple[int | None, str | None]:
    errors = answer["errors"]
    return answer["first_illegal"], (errors[0]["code"] if errors else None)


# --- the ordinary auction (pagat) ---------------------------------------------------------


def test_pagat_the_last_bidder_standing_is_the_declarer():
    answer = walk([bid("Ann", "13 S"), bid("Bo", "14 S"), *passes("Cy", "Di", "Ed", "Ann")])
    assert answer["legal"] and answer["finished"] and not answer["thrown_in"]
    assert answer["declarer"] == "Bo" and answer["bid"] == c("14 S")
    assert answer["first_illegal"] is None and answer["errors"] == []


def test_pagat_an_unfinished_auction_names_whose_turn_it_is():
    answer = walk([bid("Ann", "13 S"), *passes("Bo")])
    assert answer["legal"] and not answer["finished"]
    assert answer["declarer"] is None and answer["bid"] is None
    assert answer["high_bidder"] == "Ann" and answer["next_seat"] == "Cy"


def test_pagat_the_dealer_opens_by_default():
    assert first_error(walk([bid("Bo", "13 S")])) == (0, "not_your_turn")


def test_first_bidder_may_be_given():
    answer = walk([bid("Cy", "13 S"), *passes("Di", "Ed", "Ann", "Bo")], first_bidder="Cy")
    assert answer["legal"] and answer["declarer"] == "Cy"


def test_003_gwanak_5_the_dealer_bids_last():
    answer = walk([bid("Bo", "15 NT"), *passes("Cy", "Di", "Ed", "Ann")], system="korean-gwanak-5")
    assert answer["legal"] and answer["declarer"] == "Bo"


def test_pagat_6p_the_dealer_who_sits_out_does_not_bid():
    seats = [*FIVE, "Fay"]
    answer = walk(
        [bid("Ann", "13 S"), *passes("Bo", "Cy", "Di", "Ed")],
        system="pagat-6p-rotation",
        seats=seats,
        dealer="Fay",
        sitting_out=["Fay"],
    )
    assert answer["legal"] and answer["declarer"] == "Ann"


def test_pagat_6p_a_seat_that_sits_out_may_not_bid():
    seats = [*FIVE, "Fay"]
    answer = walk(
        [bid("Ann", "13 S"), bid("Fay", "14 S")],
        system="pagat-6p-rotation",
        seats=seats,
        dealer="Ed",
        sitting_out=["Fay"],
        first_bidder="Ann",
    )
    assert first_error(answer) == (1, "not_your_turn")


# --- knockout games: the players knocked out after the auction bid in it ----------------------

SIX, SEVEN = [*FIVE, "Fay"], [*FIVE, "Fay", "Gus"]


def knockout_hand(system: str, seats: list[str], out: list[str], calls: list[dict], **extra) -> dict:
    """A hand Ann won at 15 in spades with Cy as partner, entered with its auction and with the
    seats the declarer's called card knocked out as sitting out."""
    from scoring.interface import check_request

    return check_request({
        "system": system, "seats": seats, "dealer": "Ann", "sitting_out": out, "declarer": "Ann",
        "contract": c("15 S"), "partner_call": {"type": "card", "cards": ["JOKER"]},
        "partners": ["Cy"], "points": 16, "auction": calls, **extra,
    })


@pytest.mark.parametrize(
    ("system", "seats", "out"),
    [
        # pagat: "The bidding then takes place as usual ... The winner of the bidding then names a
        # card ... and whoever holds that card must drop out."
        pytest.param("pagat-6p-knockout", SIX, ["Fay"], id="pagat-6p-first-version"),
        # pagat: "After the bidding the declarer names two cards and the holders of those two cards
        # must sit out."
        pytest.param("pagat-7p-knockout", SEVEN, ["Fay", "Gus"], id="pagat-7p"),
        # 003 §3.3: "같은 방법으로 주공을 정하고, 주공이 된 사람은 특정한 카드를 불러서 그 카드를 가진
        # 사람을 탈락시킨다"
        pytest.param("korean-6", SIX, ["Bo"], id="003-6ma"),
        # 003 §3.4: the two are named after the declarer is decided
        pytest.param("korean-7", SEVEN, ["Bo", "Gus"], id="003-7ma"),
    ],
)
def test_a_knocked_out_player_took_part_in_the_auction(system, seats, out):
    everyone = [bid("Ann", "15 S"), *passes(*seats[1:])]
    assert knockout_hand(system, seats, out, everyone) == {"legal": True, "errors": []}
    without_them = [bid("Ann", "15 S"), *passes(*(seat for seat in seats[1:] if seat not in out))]
    # their turn comes round: the auction skipping them is not the one the table played
    assert not knockout_hand(system, seats, out, without_them)["legal"]


def test_003_daejeon_6_a_dealer_knocked_out_still_may_not_pass_first():
    # 003 §6.4 bids as 신촌 ("딜러가 처음에 패스할 수 없다"), and the knockout comes after the bidding
    calls = [*passes("Ann"), bid("Bo", "15 S"), *passes("Cy", "Di", "Ed", "Fay")]
    answer = walk(calls, system="korean-daejeon-6", seats=SIX, sitting_out=["Ann"])
    assert first_error(answer) == (0, "dealer_must_bid")


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        pytest.param([bid("Ann", "12 S")], (0, "below_minimum"), id="pagat-minimum-13"),
        pytest.param([bid("Ann", "21 S")], (0, "above_maximum"), id="pagat-maximum-20"),
        pytest.param(
            [bid("Ann", "14 S"), bid("Bo", "14 H")],
            (1, "bid_not_higher"),
            id="pagat-suits-unordered",
        ),
        pytest.param(
            [bid("Ann", "14 NT"), bid("Bo", "14 S")],
            (1, "bid_not_higher"),
            id="pagat-nt-beats-suit",
        ),
        pytest.param(
            [bid("Ann", "14 NT"), bid("Bo", "14 NT")], (1, "bid_not_higher"), id="pagat-equal-nt"
        ),
        pytest.param(
            [bid("Ann", "15 S"), bid("Bo", "14 NT")],
            (1, "bid_not_higher"),
            id="pagat-no-nt-discount",
        ),
    ],
)
def test_pagat_each_bid_must_be_higher_and_within_limits(calls, expected):
    assert first_error(walk(calls)) == expected


def test_pagat_the_same_number_in_no_trump_beats_a_suit():
    assert walk([bid("Ann", "14 S"), bid("Bo", "14 NT")])["legal"]


def test_003_gyeonggibuk_bids_above_20():
    answer = walk([bid("Ann", "20 NT"), bid("Bo", "21 S")], system="korean-gyeonggibuk")
    assert answer["legal"]


def test_003_gwanak_5_a_suit_needs_15():
    answer = walk([bid("Bo", "14 S")], system="korean-gwanak-5")
    assert first_error(answer) == (0, "suit_needs_higher_contract")


# --- passing -------------------------------------------------------------------------


def test_pagat_a_player_who_passed_may_not_bid_again():
    calls = [
        bid("Ann", "13 S"),
        *passes("Bo", "Cy", "Di"),
        bid("Ed", "14 S"),
        bid("Ann", "15 S"),
        bid("Bo", "16 S"),
    ]
    assert first_error(walk(calls)) == (6, "already_passed")


def test_pagat_players_who_passed_are_skipped():
    calls = [
        bid("Ann", "13 S"),
        *passes("Bo", "Cy", "Di"),
        bid("Ed", "14 S"),
        bid("Ann", "15 S"),
        *passes("Ed"),
    ]
    answer = walk(calls)
    assert answer["legal"] and answer["declarer"] == "Ann" and answer["bid"] == c("15 S")


def test_001_a_player_who_passed_may_reenter():
    calls = [
        bid("Ann", "13 S"),
        *passes("Bo", "Cy", "Di"),
        bid("Ed", "14 S"),
        bid("Ann", "15 S"),
        bid("Bo", "16 S"),
        *passes("Cy", "Di", "Ed", "Ann"),
    ]
    answer = walk(calls, system="chicago-5p")
    assert answer["legal"] and answer["declarer"] == "Bo" and answer["bid"] == c("16 S")


def test_001_with_reentry_the_turn_still_comes_to_those_who_passed():
    calls = [bid("Ann", "13 S"), *passes("Bo", "Cy", "Di", "Ed")]
    answer = walk(calls, system="chicago-5p")
    assert answer["finished"] and answer["declarer"] == "Ann"
    answer = walk([bid("Ann", "13 S"), *passes("Bo", "Cy", "Di")], system="chicago-5p")
    assert not answer["finished"] and answer["next_seat"] == "Ed"


def test_a_call_after_the_auction_is_over_is_illegal():
    calls = [bid("Ann", "13 S"), *passes("Bo", "Cy", "Di", "Ed"), bid("Bo", "14 S")]
    assert first_error(walk(calls)) == (5, "auction_over")


def test_003_sinchon_the_dealer_may_not_pass_at_first():
    assert first_error(walk(passes("Ann"), system="korean-sinchon")) == (0, "dealer_must_bid")


def test_003_daegu_the_dealer_may_not_pass_even_when_someone_else_opens():
    answer = walk(passes("Bo", "Cy", "Di", "Ed", "Ann"), system="korean-daegu", first_bidder="Bo")
    assert first_error(answer) == (4, "dealer_must_bid")


def test_003_standard_the_dealer_may_pass():
    answer = walk([*passes("Ann"), bid("Bo", "14 S")], system="korean-standard")
    assert answer["legal"]


def test_003_sinchon_the_dealer_may_pass_later():
    calls = [bid("Ann", "14 S"), bid("Bo", "15 S"), *passes("Cy", "Di", "Ed", "Ann")]
    answer = walk(calls, system="korean-sinchon")
    assert answer["legal"] and answer["declarer"] == "Bo"


def test_pagat_variant_forced_minimum_when_everyone_else_passed():
    options = {"auction": {"forced_minimum": True}}
    assert first_error(walk(passes(*FIVE), options=options)) == (4, "must_bid_minimum")
    answer = walk([*passes("Ann", "Bo", "Cy", "Di"), bid("Ed", "13 S")], options=options)
    assert answer["legal"] and answer["finished"] and answer["declarer"] == "Ed"


def test_without_forced_minimum_everyone_may_pass():
    assert walk(passes(*FIVE))["legal"]


# --- everyone passes --------------------------------------------------------------------


def test_pagat_all_pass_throws_the_hand_in():
    answer = walk(passes(*FIVE))
    assert answer["finished"] and answer["thrown_in"]
    assert answer["declarer"] is None and answer["bid"] is None


def test_pagat_variant_all_pass_gives_a_second_round_first():
    options = {"auction": {"all_pass": "second_round"}}
    answer = walk(passes(*FIVE), options=options)
    assert not answer["finished"] and not answer["thrown_in"]
    assert answer["round"] == 2 and answer["next_seat"] == "Ann"
    answer = walk(
        [*passes(*FIVE), *passes("Ann"), bid("Bo", "13 H"), *passes("Cy", "Di", "Ed")],
        options=options,
    )
    assert answer["finished"] and answer["declarer"] == "Bo"


def test_pagat_variant_two_rounds_of_passes_throw_in():
    answer = walk(passes(*FIVE, *FIVE), options={"auction": {"all_pass": "second_round"}})
    assert answer["finished"] and answer["thrown_in"]


# --- no-trump discount (seed 003 footnote 4, 신촌, 광주) ---------------------------------------


@pytest.mark.parametrize(
    ("calls", "legal"),
    [
        pytest.param([bid("Ann", "13 NT")], True, id="003-sinchon-nt-opening-one-under"),
        pytest.param([bid("Ann", "12 NT")], False, id="003-sinchon-nt-opening-not-two-under"),
        pytest.param([bid("Ann", "13 S")], False, id="003-sinchon-suit-opening-at-minimum"),
        pytest.param(
            [bid("Ann", "15 S"), bid("Bo", "14 NT")], True, id="003-sinchon-nt-one-under-a-suit"
        ),
        pytest.param(
            [bid("Ann", "15 S"), bid("Bo", "15 NT")], True, id="003-sinchon-nt-equal-to-a-suit"
        ),
        pytest.param(
            [bid("Ann", "15 S"), bid("Bo", "13 NT")], False, id="003-sinchon-nt-not-two-under"
        ),
        pytest.param(
            [bid("Ann", "14 NT"), bid("Bo", "15 S")], False, id="003-sinchon-suit-must-pass-nt-rank"
        ),
        pytest.param(
            [bid("Ann", "14 NT"), bid("Bo", "16 S")], True, id="003-sinchon-suit-two-over-nt"
        ),
        pytest.param([bid("Ann", "14 NT"), bid("Bo", "15 NT")], True, id="003-sinchon-higher-nt"),
    ],
)
def test_003_nt_discount(calls, legal):
    assert walk(calls, system="korean-sinchon")["legal"] is legal


def test_nt_discount_ranks_nt_one_point_up():
    sinchon, pagat = resolve_system("korean-sinchon"), resolve_system("pagat-standard")
    assert bid_rank(Contract(14, "NT"), sinchon) == (15, 1)
    assert outbids(Contract(14, "NT"), Contract(15, "H"), sinchon)
    assert not outbids(Contract(14, "NT"), Contract(15, "H"), pagat)


# --- the Python API and malformed requests --------------------------------------------------


def test_check_auction_takes_calls():
    system = resolve_system("pagat-standard")
    calls = [Call("Ann", Contract(13, "S")), Call("Bo"), Call("Cy"), Call("Di"), Call("Ed")]
    result = check_auction(system, tuple(FIVE), "Ann", calls)
    assert result.legal and result.declarer == "Ann" and result.bid == Contract(13, "S")


def test_a_malformed_call_stops_the_walk_there():
    answer = walk([bid("Ann", "13 S"), {"seat": "Zed", "pass": True}])
    assert first_error(answer) == (1, "unknown_seat")
    answer = walk([bid("Ann", "13 S"), {"seat": "Bo", "bid": {"points": 14, "trump": "X"}}])
    assert first_error(answer) == (1, "bad_trump")
    answer = walk([{"seat": "Ann"}])
    assert first_error(answer) == (0, "bad_call")


def test_errors_name_the_call():
    answer = walk([bid("Ann", "14 S"), bid("Bo", "14 H")])
    assert answer["errors"][0]["field"] == "auction[1]"
    assert (
        answer["errors"][0]["message"]
        == "14 hearts does not beat the standing bid of 14 spades by Ann."
    )


def test_an_unknown_system_is_an_error_not_a_crash():
    answer = walk([], system="no-such-game")
    assert not answer["legal"] and answer["errors"][0]["code"] == "unknown_system"
    assert answer["first_illegal"] is None and answer["finished"] is False


def test_a_request_without_a_dealer_is_an_error():
    from scoring.auction import auction_request

    answer = auction_request({"seats": FIVE, "auction": []})
    assert not answer["legal"] and answer["errors"][0]["field"] == "dealer"
    assert auction_request("nonsense")["legal"] is False


def test_the_interface_answers_the_same():
    calls = [bid("Ann", "13 S"), *passes("Bo", "Cy", "Di", "Ed")]
    request = {"system": "pagat-standard", "seats": FIVE, "dealer": "Ann", "auction": calls}
    assert interface_auction_request(request) == walk(calls)


def test_every_auction_code_is_tested_here():
    import pathlib

    text = pathlib.Path(__file__).read_text()
    assert all(f'"{code}"' in text for code in AUCTION_CODES)
