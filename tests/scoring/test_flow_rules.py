"""The table-flow rule as data (scoring/flow_rules.py): what the phone is given to step offline."""

import json

import pytest

from scoring.flow import PreviousHand, dealer_sits_out, next_hand
from scoring.flow_rules import MOMENTS, SEAT_NAMES, flow_rule
from scoring.interface import systems_response
from scoring.presets import all_presets, resolve_system
from scoring.systems import build_system
from tests.offenders import offenders


def test_every_preset_has_a_flow_rule_in_plain_json():
    def check(preset):
        rule = flow_rule(preset.system())
        shape = rule.as_json()

        assert json.loads(json.dumps(shape)) == shape
        assert shape["players"] == preset.system().players
        assert rule.names() <= set(SEAT_NAMES)
        for moment in MOMENTS:
            # someone always deals and someone always opens
            assert shape["dealer"][moment] and shape["first_bidder"][moment]

    assert offenders(all_presets(), check, name=lambda preset: preset.slug) == {}


def test_systems_output_carries_each_presets_flow_rule():
    for preset, system in zip(all_presets(), systems_response(), strict=True):
        assert system["flow"] == flow_rule(preset.system()).as_json()


@pytest.mark.parametrize(
    ("options", "after_hand"),
    [
        pytest.param({}, ["first_partner", "declarer"], id="pagat-partner-deals-or-the-declarer-alone"),
        pytest.param({"next_dealer": "declarer"}, ["declarer"], id="korean-standard-declarer-deals"),
        pytest.param({"next_dealer": "partner_if_made"}, ["first_partner_if_made", "declarer"],
                     id="korean-6-local-partner-deals-if-made"),
        pytest.param({"next_dealer": "rotation"}, ["left_of_previous_dealer"], id="rotation"),
        pytest.param({"next_dealer": "previous_dealer"}, ["previous_dealer"], id="previous-dealer-stays"),
        pytest.param({"players": 6, "active_players": 5, "sit_out": "previous_result"},
                     ["first_partner_if_made", "declarer"], id="pagat-6p-previous-result"),
    ],
)
def test_the_dealer_after_a_hand(options, after_hand):
    assert flow_rule(build_system(options)).as_json()["dealer"]["after_hand"] == after_hand


def test_pagat_3p_joker_holder_deals_else_the_deal_passes_on():
    dealer = flow_rule(resolve_system("pagat-3p")).as_json()["dealer"]

    assert dealer["after_hand"] == ["joker_holder", "left_of_previous_dealer"]


@pytest.mark.parametrize(
    ("rule", "dealer"),
    [
        pytest.param("demander", ["demander"], id="pagat-deal-miss-demander-deals"),
        pytest.param("next", ["left_of_previous_dealer"], id="deal-miss-next"),
        pytest.param("previous", ["right_of_previous_dealer"], id="deal-miss-previous"),
        pytest.param("same", ["previous_dealer"], id="deal-miss-same"),
    ],
)
def test_the_dealer_after_a_deal_miss(rule, dealer):
    shape = flow_rule(build_system({"deal_miss": {"next_dealer": rule}})).as_json()

    assert shape["dealer"]["after_deal_miss"] == dealer
    # pagat: after all pass "there is a redeal by the same dealer"
    assert shape["dealer"]["after_all_pass"] == ["previous_dealer"]


@pytest.mark.parametrize(
    ("options", "first_bidder"),
    [
        pytest.param({}, {"first_hand": ["dealer"], "after_hand": ["declarer"], "after_deal_miss": ["demander"],
                          "after_all_pass": ["previous_first_bidder", "dealer"]}, id="pagat"),
        pytest.param({"first_bidder": "partner", "deal_miss": {"next_dealer": "next"}},
                     {"first_hand": ["dealer"], "after_hand": ["first_partner", "declarer"],
                      "after_deal_miss": ["previous_first_bidder", "dealer"],
                      "after_all_pass": ["previous_first_bidder", "dealer"]}, id="seed-001-first-partner"),
        pytest.param({"first_bidder": "dealer", "deal_miss": {"next_dealer": "same"}},
                     {"first_hand": ["dealer"], "after_hand": ["dealer"], "after_deal_miss": ["dealer"],
                      "after_all_pass": ["dealer"]}, id="korean-3-2-1-dealer-opens"),
        pytest.param({"first_bidder": "left_of_dealer"},
                     {moment: ["left_of_dealer"] for moment in MOMENTS}, id="korean-gwanak-5-dealer-bids-last"),
    ],
)
def test_who_opens_the_bidding(options, first_bidder):
    assert flow_rule(build_system(options)).as_json()["first_bidder"] == first_bidder


@pytest.mark.parametrize(
    ("options", "sitting_out"),
    [
        pytest.param({}, None, id="five-players-nobody-sits-out"),
        pytest.param({"players": 6, "active_players": 5, "deck": "six_player_knockout", "sit_out": "knockout",
                      "min_bid": 14}, None, id="pagat-6p-knockout-decided-after-the-deal"),
        pytest.param({"players": 6, "active_players": 5, "sit_out": "dealer"},
                     {"count": 1, **{moment: ["dealer"] for moment in MOMENTS}}, id="pagat-6p-dealer-sits-out"),
        pytest.param({"players": 7, "active_players": 5, "sit_out": "declarer_and_partner"},
                     {"count": 2, "first_hand": [], "after_hand": ["declarer", "partners"],
                      "after_deal_miss": ["previous_sitting_out"], "after_all_pass": ["previous_sitting_out"]},
                     id="korean-7-declarer-and-partner-sit-out"),
    ],
)
def test_who_sits_out(options, sitting_out):
    assert flow_rule(build_system(options)).as_json()["sitting_out"] == sitting_out


def test_the_hand_form_ticks_the_dealer_out_exactly_where_the_rule_says_so():
    sits_out = {preset.slug for preset in all_presets() if dealer_sits_out(preset.system())}

    assert sits_out == {"pagat-6p-rotation", "korean-6-rotation"}


def test_flow_steps_the_same_rule_object_it_exports():
    # flow.py reads the rule, not the options: two systems with the same rule deal alike
    chicago = resolve_system("chicago-5p")
    seoul = build_system({"first_bidder": "partner"})
    assert flow_rule(chicago) == flow_rule(seoul)
    previous = PreviousHand("scored", "A", "C", ("E",), True)
    seats = ("A", "B", "C", "D", "E")

    assert next_hand(chicago, seats, previous) == next_hand(seoul, seats, previous)
