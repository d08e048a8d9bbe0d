"""The stateless calculators speak HAND_JSON exactly (docs HAND_JSON.md)."""

import pytest

from scoring.presets import all_presets
from tests.factories import SEATS

from .conftest import HAND_JSON_EXAMPLE, assert_error_shape


def test_score_answers_the_hand_json_example(anonymous):
    response = anonymous.post("/api/v1/score", HAND_JSON_EXAMPLE)

    assert response.status_code == 200
    result = response.json()
    assert result["made"] is True
    assert (result["base"], result["multiplier"], result["score"]) == (7, 2, 14)
    assert result["doubles"] == ["no_trump"]
    assert result["payments"] == {"Ann": 28, "Bo": -14, "Cy": 14, "Di": -14, "Ed": -14}
    assert {"from": "Bo", "to": "Ann", "amount": 14} in result["transfers"]
    assert result["explanation"] and result["warnings"] == []


def test_score_of_an_illegal_hand_is_400_with_every_problem(anonymous):
    hand = {**HAND_JSON_EXAMPLE, "contract": {"points": 12, "trump": "S"}, "bid": {"points": 12, "trump": "S"}}

    errors = assert_error_shape(anonymous.post("/api/v1/score", hand), 400, "below_minimum")

    assert any(e["field"] == "contract.points" and e["code"] == "below_minimum" for e in errors)


@pytest.mark.parametrize("body", ["{not json", "[1, 2", '{"seats": ]'], ids=["bad-object", "bad-list", "bad-value"])
@pytest.mark.parametrize("url", ["/api/v1/score", "/api/v1/check", "/api/v1/auction/check", "/api/v1/redeal"])
def test_malformed_json_is_400_in_the_error_shape(anonymous, url, body):
    response = anonymous.client.post(url, body, content_type="application/json")

    assert_error_shape(response, 400, "parse_error")


@pytest.mark.parametrize("body", [[], "a string", 7, {"seats": "Ann"}, {"seats": ["Ann", "Ann"]}])
def test_score_of_a_malformed_hand_is_400_never_a_crash(anonymous, body):
    assert_error_shape(anonymous.post("/api/v1/score", body), 400)


def test_check_a_legal_hand(anonymous):
    response = anonymous.post("/api/v1/check", HAND_JSON_EXAMPLE)

    assert response.status_code == 200
    assert response.json() == {"legal": True, "errors": []}


def test_check_an_illegal_hand_is_200_with_its_problems(anonymous):
    hand = {**HAND_JSON_EXAMPLE, "declarer": "Zed"}

    response = anonymous.post("/api/v1/check", hand)

    assert response.status_code == 200
    body = response.json()
    assert body["legal"] is False
    assert body["errors"] and all(set(e) == {"field", "code", "message"} for e in body["errors"])


def test_check_of_a_non_object_is_200_not_legal(anonymous):
    response = anonymous.post("/api/v1/check", [1, 2])

    assert response.status_code == 200
    assert response.json()["legal"] is False


def test_auction_check_finds_the_winner(anonymous):
    seats = ["Ann", "Bo", "Cy", "Di", "Ed"]
    calls = [{"seat": "Ann", "bid": {"points": 13, "trump": "S"}}] + [{"seat": s, "pass": True} for s in seats[1:]]

    response = anonymous.post("/api/v1/auction/check", {"system": "pagat-standard", "seats": seats,
                                                       "dealer": "Ann", "auction": calls})

    assert response.status_code == 200
    body = response.json()
    assert body["legal"] is True
    assert body["declarer"] == "Ann" and body["bid"] == {"points": 13, "trump": "S"}
    assert body["finished"] is True


def test_auction_check_reports_the_first_illegal_call(anonymous):
    seats = ["Ann", "Bo", "Cy", "Di", "Ed"]
    calls = [{"seat": "Ann", "bid": {"points": 13, "trump": "S"}}, {"seat": "Bo", "bid": {"points": 13, "trump": "H"}}]

    body = anonymous.post("/api/v1/auction/check", {"seats": seats, "dealer": "Ann", "auction": calls}).json()

    assert body["legal"] is False
    assert body["first_illegal"] == 1
    assert body["errors"][0]["code"] == "bid_not_higher"


def test_redeal_gives_each_criterion_and_the_exact_odds(anonymous):
    hand = ["AS", "JOKER", "7H", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]

    response = anonymous.post("/api/v1/redeal", {"system": "korean-standard", "players": 5, "hand": hand})

    assert response.status_code == 200
    body = response.json()
    assert body["qualifies"] is True
    assert body["criteria"][0]["id"] == "korean_scale" and body["criteria"][0]["value"] == "-1"
    assert 0 < body["probability"] < 1
    numerator, denominator = map(int, body["probability_exact"].split("/"))
    assert body["probability"] == pytest.approx(numerator / denominator)


@pytest.mark.parametrize(
    ("highest_bid", "redeal", "rule"),
    [
        pytest.param(20, False, "bid_20_cancels", id="seed-003-minsa-bid-of-20-forbids-a-deal-miss"),
        pytest.param(17, True, "criteria", id="seed-003-minsa-deal-miss-during-the-bidding"),
    ],
)
def test_redeal_says_which_rule_decided(anonymous, highest_bid, redeal, rule):
    hand = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "2H", "3H"]
    response = anonymous.post(
        "/api/v1/redeal", {"system": "korean-minsa", "hand": hand, "highest_bid": highest_bid}
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["qualifies"], body["redeal"], body["decided_by"]["rule"]) == (True, redeal, rule)


def test_redeal_with_a_bad_moment_is_400(anonymous):
    hand = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "2H", "3H"]
    assert_error_shape(
        anonymous.post("/api/v1/redeal", {"system": "korean-minsa", "hand": hand, "highest_bid": "x"}), 400, "bad_type"
    )


def test_redeal_with_an_unknown_card_is_400(anonymous):
    assert_error_shape(anonymous.post("/api/v1/redeal", {"system": "korean-standard", "hand": ["XX"]}), 400)


def test_systems_lists_every_preset_with_options_words_and_deal_miss(anonymous):
    response = anonymous.get("/api/v1/systems")

    assert response.status_code == 200
    systems = response.json()
    assert [s["slug"] for s in systems] == [p.slug for p in all_presets()]
    for system in systems:
        assert system["name"] and system["description"]
        options = system["options"]
        # the keys HAND_JSON.md says must exist
        for key in ("players", "min_bid", "max_bid", "bids_above_max", "base", "set", "minimum_score", "doubles",
                    "back_run", "discards_count_for", "four_player_set_split", "trump_penalty", "secret_solo",
                    "trump_change", "auction", "deal_miss", "next_dealer", "first_bidder"):
            assert key in options, (system["slug"], key)
        assert [c["id"] for c in system["deal_miss"]["criteria"]] == options["deal_miss"]["criteria"]
        assert all(c["rule"] for c in system["deal_miss"]["criteria"])


def test_systems_answers_exactly_what_the_cli_prints(anonymous, monkeypatch, capsys):
    import io
    import json
    import sys

    from scoring.__main__ import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["systems"]) == 0
    printed = json.loads(capsys.readouterr().out)

    assert anonymous.get("/api/v1/systems").json() == printed
    assert anonymous.get("/api/v1/systems/korean-minsa").json() == next(
        system for system in printed if system["slug"] == "korean-minsa"
    )


def test_one_system_in_words(anonymous):
    response = anonymous.get("/api/v1/systems/korean-standard")

    assert response.status_code == 200
    body = response.json()
    assert body["slug"] == "korean-standard"
    assert body["options"]["min_bid"] == 14
    assert body["deal_miss"]["criteria"][0]["id"] == "korean_scale"
    assert body["deal_miss"]["probability"] == pytest.approx(0.026, abs=0.001)
    assert body["rules_in_words"], "scoring.describe gives the system in words"
    assert all(section["lines"] for section in body["rules_in_words"])


def test_unknown_system_is_404_in_the_error_shape(anonymous):
    assert_error_shape(anonymous.get("/api/v1/systems/no-such-game"), 404, "unknown_system")


def test_next_hand_says_who_deals_bids_first_and_sits_out(anonymous):
    # pagat: the partner of the previous hand deals; its declarer bids first
    previous = {"kind": "scored", "dealer": "Ed", "declarer": "Ann", "partners": ["Cy"], "made": True}
    response = anonymous.post("/api/v1/next", {"system": "pagat-standard", "seats": list(SEATS), "previous": previous})
    assert response.status_code == 200
    assert response.json() == {"dealer": "Cy", "first_bidder": "Ann", "sitting_out": [], "active": list(SEATS)}


def test_next_hand_takes_the_previous_hand_as_entered(anonymous):
    previous = {**HAND_JSON_EXAMPLE, "points": 12}  # set: under pagat the partner still deals
    response = anonymous.post("/api/v1/next", {"system": "pagat-standard", "seats": list(SEATS), "previous": previous})
    assert response.json()["dealer"] == "Cy"


@pytest.mark.parametrize(
    ("joker_holder", "status", "dealer"),
    [
        pytest.param({"joker_holder": "Cy"}, 200, "Cy", id="seed-000-3p-joker-holder-deals-next"),
        pytest.param({"joker_holder": None}, 200, "Bo", id="seed-000-3p-joker-buried-deal-passes-on"),
        pytest.param({}, 400, None, id="seed-000-3p-who-held-the-joker-is-asked"),
    ],
)
def test_next_hand_of_three_players_takes_who_held_the_joker(anonymous, joker_holder, status, dealer):
    previous = {"kind": "scored", "dealer": "Ann", "declarer": "Bo", "made": True, **joker_holder}
    response = anonymous.post("/api/v1/next", {"system": "pagat-3p", "seats": ["Ann", "Bo", "Cy"], "previous": previous})
    assert response.status_code == status
    if dealer is None:
        assert_error_shape(response, 400, "missing")
    else:
        assert response.json()["dealer"] == dealer


def test_next_hand_refuses_seats_that_do_not_fit_the_system(anonymous):
    response = anonymous.post("/api/v1/next", {"system": "pagat-standard", "seats": ["Ann", "Bo"]})
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "wrong_player_count"


@pytest.mark.parametrize(
    "partners",
    [pytest.param("Ed", id="one-name"), pytest.param({"a": 1}, id="an-object"), pytest.param(5, id="a-number")],
)
def test_next_hand_refuses_partners_that_are_not_a_list(anonymous, partners):
    # an outside client's probe: "Ed" was dropped and Cy, the declarer, was said to deal (200);
    # 5 answered "'int' object is not iterable"
    previous = {"kind": "scored", "dealer": "Bo", "declarer": "Cy", "partners": partners, "made": True}
    response = anonymous.post("/api/v1/next", {"system": "pagat-standard", "seats": list(SEATS), "previous": previous})

    errors = assert_error_shape(response, 400, "bad_type")
    assert [(e["field"], e["message"]) for e in errors] == [("previous.partners", "'previous.partners' must be a list of seats.")]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        pytest.param({"points": 15.5}, "points", id="points-not-whole"),
        pytest.param({"contract": {"points": "16", "trump": "NT"}}, "contract.points", id="contract-as-text"),
        pytest.param({"partner_call": {"type": "card", "cards": 7}}, "partner_call.cards", id="cards-a-number"),
        pytest.param({"options": []}, "options", id="options-a-list"),
    ],
)
def test_score_refuses_a_value_of_the_wrong_type(anonymous, change, field):
    errors = assert_error_shape(anonymous.post("/api/v1/score", {**HAND_JSON_EXAMPLE, **change}), 400, "bad_type")
    assert [e["field"] for e in errors] == [field]


@pytest.mark.parametrize("change", [
    pytest.param({"points": 17.0}, id="points-written-17.0"),
    pytest.param({"contract": {"points": 16.0, "trump": "NT"}}, id="contract-written-16.0"),
    pytest.param({"partner_call": {"type": "card", "cards": "JOKER"}}, id="a-lone-card"),
    pytest.param({"options": None}, id="options-null"),
])
def test_score_reads_what_a_client_may_write_another_way_as_the_example(anonymous, change):
    # 17.0 is 17 (a client counting in floats), a lone card code is a list of one, null options none
    assert anonymous.post("/api/v1/score", {**HAND_JSON_EXAMPLE, **change}).json()["score"] == 14


def test_a_single_called_card_may_be_named_as_card(anonymous):
    hand = {**HAND_JSON_EXAMPLE, "partner_call": {"type": "card", "card": "JOKER"}}
    assert anonymous.post("/api/v1/score", hand).json()["score"] == 14


def test_an_auction_bid_of_13_0_is_read_as_the_hand_is(anonymous):
    # the first bid of the evening: the dealer (Ann) opens
    auction = [{"seat": "Ann", "bid": {"points": 13.0, "trump": "S"}}]
    body = anonymous.post("/api/v1/auction/check", {"system": "pagat-standard", "seats": list(SEATS), "dealer": "Ann",
                                                     "auction": auction}).json()
    assert body["legal"] is True


@pytest.mark.parametrize("options", [pytest.param([], id="a-list"), pytest.param("pagat", id="text")])
@pytest.mark.parametrize(("path", "request_"), [
    pytest.param("/api/v1/redeal", {"system": "korean-standard", "players": 5,
                                    "hand": ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S"]}, id="redeal"),
    pytest.param("/api/v1/auction/check", {"system": "pagat-standard", "seats": list(SEATS), "dealer": "Ed",
                                           "auction": [{"seat": "Ann", "pass": True}]}, id="auction"),
    pytest.param("/api/v1/next", {"system": "pagat-standard", "seats": list(SEATS)}, id="next"),
])
def test_every_calculator_takes_options_only_as_an_object(anonymous, path, request_, options):
    response = anonymous.post(path, {**request_, "options": options})
    body = response.json()
    assert [(e["field"], e["code"]) for e in body["errors"]] == [("options", "bad_type")]
