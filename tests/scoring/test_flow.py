"""Who deals, who bids first and who sits out, hand after hand (RULES.md §10, §8)."""

import pytest

from scoring.flow import (
    PreviousHand,
    TableState,
    first_bidder,
    next_dealer,
    next_hand,
    sitting_out_next,
)
from scoring.interface import next_request
from scoring.presets import all_presets, resolve_system
from scoring.problems import InvalidInput
from scoring.systems import build_system
from tests.offenders import offenders

FIVE = ("A", "B", "C", "D", "E")
SIX = ("A", "B", "C", "D", "E", "F")
SEVEN = ("A", "B", "C", "D", "E", "F", "G")
EIGHT = ("A", "B", "C", "D", "E", "F", "G", "H")

SIX_SITTING_OUT = {"players": 6, "active_players": 5}
SEVEN_SITTING_OUT = {"players": 7, "active_players": 5, "sit_out": "declarer_and_partner"}
CHICAGO_EIGHT = {
    "players": 8,
    "active_players": 8,
    "deck": "chicago_eight_player",
    "min_bid": 25,
    "max_bid": 40,
    "called_cards": 2,
    "base": "table",
    "doubles": {"run": "never", "back_run": "never", "no_trump": "never", "no_friend": "never"},
}


def scored(dealer, declarer, *partners, made=True, sitting_out=()):
    return PreviousHand(
        "scored", dealer, declarer, tuple(partners), made, sitting_out=tuple(sitting_out)
    )


MADE = scored("A", "C", "E")
SET = scored("A", "C", "E", made=False)
ALONE = scored("A", "C")
ALL_PASS = PreviousHand("all_pass", "B", first_bidder="D")
DEAL_MISS = PreviousHand("deal_miss", "B", demander="D", first_bidder="E")


@pytest.mark.parametrize(
    ("options", "seats", "previous", "dealer"),
    [
        pytest.param({}, FIVE, MADE, "E", id="pagat-next-dealer-partner"),
        pytest.param({}, FIVE, SET, "E", id="pagat-next-dealer-partner-even-when-set"),
        pytest.param({}, FIVE, ALONE, "C", id="pagat-next-dealer-declarer-alone"),
        pytest.param(
            {"next_dealer": "declarer"}, FIVE, MADE, "C", id="korean-standard-dealer-is-declarer"
        ),
        pytest.param(
            {"next_dealer": "partner_if_made"}, FIVE, MADE, "E", id="korean-6-partner-deals-if-made"
        ),
        pytest.param(
            {"next_dealer": "partner_if_made"}, FIVE, SET, "C", id="korean-6-declarer-deals-if-set"
        ),
        pytest.param(
            {"next_dealer": "partner_if_made"}, FIVE, ALONE, "C", id="korean-6-alone-declarer-deals"
        ),
        pytest.param({"next_dealer": "rotation"}, FIVE, MADE, "B", id="rotation-next-seat"),
        pytest.param(
            {"next_dealer": "rotation"},
            FIVE,
            scored("E", "C", "A"),
            "A",
            id="rotation-wraps-round",
        ),
        pytest.param(
            {"next_dealer": "previous_dealer"}, FIVE, MADE, "A", id="previous-dealer-stays"
        ),
        pytest.param(
            CHICAGO_EIGHT,
            EIGHT,
            scored("A", "F", "B", "H"),
            "H",
            id="seed-001-two-partners-first-clockwise-from-declarer",
        ),
        pytest.param(
            CHICAGO_EIGHT,
            EIGHT,
            scored("A", "C", "B", "H"),
            "H",
            id="seed-001-two-partners-first-after-declarer-wraps",
        ),
    ],
)
def test_next_dealer_after_a_scored_hand(options, seats, previous, dealer):
    assert next_dealer(build_system(options), seats, previous) == dealer


@pytest.mark.parametrize(
    ("previous", "dealer"),
    [
        pytest.param(
            PreviousHand("void", "A", "C", ("E",)), "E", id="void-with-partner-counts-as-scored"
        ),
        pytest.param(PreviousHand("void", "A", "C"), "C", id="void-partner-unknown-declarer-deals"),
        pytest.param(PreviousHand("void", "A"), "A", id="void-without-declarer-same-dealer"),
        pytest.param(ALL_PASS, "B", id="pagat-all-pass-same-dealer-redeals"),
    ],
)
def test_next_dealer_after_a_hand_not_scored(previous, dealer):
    assert next_dealer(build_system({}), FIVE, previous) == dealer


@pytest.mark.parametrize(
    ("rule", "dealer"),
    [
        pytest.param("demander", "D", id="pagat-deal-miss-demander-deals"),
        pytest.param("next", "C", id="pagat-variant-deal-miss-next-in-rotation"),
        pytest.param("previous", "A", id="pagat-variant-deal-miss-back-to-previous"),
        pytest.param("same", "B", id="pagat-variant-deal-miss-same-dealer"),
    ],
)
def test_next_dealer_after_a_deal_miss(rule, dealer):
    system = build_system({"deal_miss": {"next_dealer": rule}})
    assert next_dealer(system, FIVE, DEAL_MISS) == dealer


def test_deal_miss_previous_wraps_round():
    system = build_system({"deal_miss": {"next_dealer": "previous"}})
    previous = PreviousHand("deal_miss", "A", demander="C")
    assert next_dealer(system, FIVE, previous) == "E"


def test_first_hand_dealer_is_chosen_at_the_table():
    assert next_dealer(build_system({}), FIVE, None, first_dealer="D") == "D"
    assert next_dealer(build_system({}), FIVE, None) == "A"


@pytest.mark.parametrize(
    ("options", "dealer", "previous", "bidder"),
    [
        pytest.param({}, "C", None, "C", id="pagat-first-hand-dealer-bids-first"),
        pytest.param(
            {"first_bidder": "partner"}, "C", None, "C", id="seed-001-first-hand-dealer-bids"
        ),
        pytest.param({}, "E", MADE, "C", id="pagat-first-bidder-previous-declarer"),
        pytest.param(
            {"first_bidder": "partner"}, "E", MADE, "E", id="seed-001-first-bidder-first-partner"
        ),
        pytest.param(
            {"first_bidder": "partner"}, "C", ALONE, "C", id="seed-001-first-bidder-declarer-alone"
        ),
        pytest.param(
            {"first_bidder": "dealer", "next_dealer": "declarer"},
            "C",
            MADE,
            "C",
            id="korean-standard-dealer-bids-first",
        ),
        pytest.param(
            {"first_bidder": "left_of_dealer"},
            "E",
            MADE,
            "A",
            id="korean-gwanak-5-dealer-bids-last",
        ),
        pytest.param(
            {"first_bidder": "left_of_dealer"},
            "B",
            None,
            "C",
            id="korean-gwanak-5-dealer-bids-last-from-the-first-hand",
        ),
        pytest.param({}, "D", DEAL_MISS, "D", id="pagat-deal-miss-demander-bids-first"),
        pytest.param(
            {"first_bidder": "partner"},
            "D",
            DEAL_MISS,
            "D",
            id="korean-3-2-2-deal-miss-demander-bids-first",
        ),
        pytest.param(
            {"deal_miss": {"next_dealer": "next"}},
            "C",
            DEAL_MISS,
            "E",
            id="deal-miss-redeal-opens-where-the-thrown-in-hand-did",
        ),
        pytest.param(
            {"deal_miss": {"next_dealer": "next"}, "first_bidder": "dealer"},
            "C",
            DEAL_MISS,
            "C",
            id="deal-miss-next-dealer-bids-first-when-the-dealer-does",
        ),
        pytest.param({}, "B", ALL_PASS, "D", id="pagat-all-pass-redeal-same-first-bidder"),
        pytest.param(
            {},
            "B",
            PreviousHand("all_pass", "B"),
            "B",
            id="all-pass-first-bidder-unknown-dealer-opens",
        ),
    ],
)
def test_first_bidder(options, dealer, previous, bidder):
    assert first_bidder(build_system(options), FIVE, dealer, previous) == bidder


@pytest.mark.parametrize(
    ("options", "seats", "dealer", "previous", "out"),
    [
        pytest.param({}, FIVE, "C", MADE, (), id="five-players-nobody-sits-out"),
        pytest.param(
            {**SIX_SITTING_OUT, "sit_out": "dealer"},
            SIX,
            "E",
            MADE,
            ("E",),
            id="pagat-6p-dealer-sits-out",
        ),
        pytest.param(
            {**SIX_SITTING_OUT, "sit_out": "dealer"},
            SIX,
            "A",
            None,
            ("A",),
            id="pagat-6p-first-dealer-sits-out",
        ),
        pytest.param(
            {**SIX_SITTING_OUT, "sit_out": "previous_result"},
            SIX,
            "E",
            MADE,
            ("E",),
            id="pagat-6p-previous-result-dealer-sits-out",
        ),
        pytest.param(
            {
                "players": 6,
                "active_players": 5,
                "deck": "six_player_knockout",
                "sit_out": "knockout",
                "min_bid": 14,
            },
            SIX,
            "E",
            MADE,
            (),
            id="pagat-6p-knockout-nobody-known-before-the-deal",
        ),
        pytest.param(
            SEVEN_SITTING_OUT,
            SEVEN,
            "E",
            MADE,
            ("C", "E"),
            id="korean-7-declarer-and-partner-sit-out",
        ),
        pytest.param(
            SEVEN_SITTING_OUT,
            SEVEN,
            "C",
            ALONE,
            ("C", "D"),
            id="korean-7-alone-fill-from-after-the-dealer",
        ),
        pytest.param(
            SEVEN_SITTING_OUT,
            SEVEN,
            "F",
            None,
            ("A", "G"),
            id="korean-7-first-hand-two-after-the-dealer-wrapping",
        ),
        pytest.param(
            SEVEN_SITTING_OUT,
            SEVEN,
            "B",
            PreviousHand("all_pass", "B", sitting_out=("D", "F")),
            ("D", "F"),
            id="korean-7-redeal-same-players-sit-out",
        ),
    ],
)
def test_sitting_out_next(options, seats, dealer, previous, out):
    assert sitting_out_next(build_system(options), seats, dealer, previous) == out


@pytest.mark.parametrize(
    ("options", "seats", "previous", "state"),
    [
        pytest.param(
            {},
            FIVE,
            scored("B", "D", "A"),
            TableState("A", "D", (), FIVE),
            id="pagat-partner-deals-declarer-bids",
        ),
        pytest.param(
            {**SIX_SITTING_OUT, "sit_out": "previous_result"},
            SIX,
            scored("A", "C", "E"),
            TableState("E", "C", ("E",), ("A", "B", "C", "D", "F")),
            id="pagat-6p-declarers-side-wins-partner-deals-and-sits-out",
        ),
        pytest.param(
            {**SIX_SITTING_OUT, "sit_out": "previous_result"},
            SIX,
            scored("A", "C", "E", made=False),
            TableState("C", "D", ("C",), ("A", "B", "D", "E", "F")),
            id="pagat-6p-declarers-side-loses-declarer-deals-sits-out-next-seat-bids",
        ),
        pytest.param(
            {**SIX_SITTING_OUT, "sit_out": "dealer", "next_dealer": "partner"},
            SIX,
            scored("A", "C", "E", made=False),
            TableState("E", "C", ("E",), ("A", "B", "C", "D", "F")),
            id="korean-6-rotation-partner-deals-and-sits-out",
        ),
        pytest.param(
            {**SIX_SITTING_OUT, "sit_out": "dealer", "next_dealer": "partner_if_made"},
            SIX,
            scored("A", "C", "E", made=False),
            TableState("C", "D", ("C",), ("A", "B", "D", "E", "F")),
            id="korean-6-local-rule-set-declarer-deals-and-sits-out",
        ),
        pytest.param(
            {**SIX_SITTING_OUT, "sit_out": "dealer", "next_dealer": "rotation"},
            SIX,
            scored("F", "C", "E"),
            TableState("A", "C", ("A",), ("B", "C", "D", "E", "F")),
            id="pagat-6p-sit-out-in-rotation",
        ),
        pytest.param(
            {**SEVEN_SITTING_OUT, "first_bidder": "partner"},
            SEVEN,
            scored("A", "C", "E"),
            TableState("E", "F", ("C", "E"), ("A", "B", "D", "F", "G")),
            id="korean-7-partner-deals-sits-out-next-active-bids",
        ),
        pytest.param(
            {},
            FIVE,
            None,
            TableState("A", "A", (), FIVE),
            id="pagat-first-hand",
        ),
    ],
)
def test_next_hand(options, seats, previous, state):
    assert next_hand(build_system(options), seats, previous) == state


def test_next_hand_first_dealer():
    system = build_system({**SIX_SITTING_OUT, "sit_out": "dealer"})
    assert next_hand(system, SIX, None, first_dealer="D") == TableState(
        "D", "E", ("D",), ("A", "B", "C", "E", "F")
    )


def test_first_bidder_takes_who_sits_out_when_given():
    system = build_system({})
    assert first_bidder(system, FIVE, "A", MADE, sitting_out=("C",)) == "D"


def test_a_whole_session_under_pagat():
    system = build_system({})
    state = next_hand(system, FIVE, None, first_dealer="B")
    assert (state.dealer, state.first_bidder) == ("B", "B")
    # D demands a redeal: D deals and bids first
    miss = PreviousHand("deal_miss", state.dealer, demander="D", first_bidder=state.first_bidder)
    state = next_hand(system, FIVE, miss)
    assert (state.dealer, state.first_bidder) == ("D", "D")
    # everyone passes: D deals again and D opens again
    throw_in = PreviousHand("all_pass", state.dealer, first_bidder=state.first_bidder)
    state = next_hand(system, FIVE, throw_in)
    assert (state.dealer, state.first_bidder) == ("D", "D")
    # E declares with A as partner: A deals, E opens
    state = next_hand(system, FIVE, scored(state.dealer, "E", "A"))
    assert (state.dealer, state.first_bidder) == ("A", "E")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        pytest.param(lambda: PreviousHand("misdeal", "A"), "one of", id="unknown-kind"),
        pytest.param(lambda: PreviousHand("scored", "A"), "declarer", id="scored-needs-declarer"),
        pytest.param(
            lambda: PreviousHand("scored", "A", "B"), "made", id="scored-needs-made-or-set"
        ),
        pytest.param(lambda: PreviousHand("deal_miss", "A"), "demanded", id="deal-miss-demander"),
        pytest.param(
            lambda: PreviousHand("scored", "A", "B", ("B",), True), "own partner", id="self-partner"
        ),
    ],
)
def test_impossible_previous_hands_are_bugs(make, message):
    with pytest.raises(ValueError, match=message):
        make()


@pytest.mark.parametrize(
    ("seats", "previous"),
    [
        pytest.param(("A", "B", "C", "D"), None, id="too-few-seats"),
        pytest.param(("A", "B", "C", "D", "D"), None, id="seat-twice"),
        pytest.param(FIVE, scored("A", "Z", "B"), id="declarer-not-seated"),
    ],
)
def test_seats_that_do_not_fit_are_bugs(seats, previous):
    with pytest.raises(ValueError):
        next_hand(build_system({}), seats, previous)


def _previous_hands(seats):
    first, second, last = seats[0], seats[1], seats[-1]
    # with two players (2마) the declarer always plays alone
    partners = (last,) if len(seats) > 2 else ()
    return [
        None,
        scored(first, second, *partners),
        scored(first, second, *partners, made=False),
        scored(last, second),
        PreviousHand("void", second, last),
        PreviousHand("all_pass", second, first_bidder=last),
        PreviousHand("deal_miss", second, demander=first, first_bidder=second),
    ]


def test_every_preset_gives_a_playable_next_hand():
    def check(preset):
        system = preset.system()
        seats = tuple(f"S{i}" for i in range(system.players))
        sitting_out = (
            0 if system.sit_out in ("none", "knockout") else system.players - system.active_players
        )
        for previous in _previous_hands(seats):
            state = next_hand(system, seats, previous)
            assert state.dealer in seats
            assert len(state.sitting_out) == sitting_out
            assert state.first_bidder in state.active
            assert len(state.active) == len(seats) - sitting_out

    assert offenders(all_presets(), check, name=lambda preset: preset.slug) == {}


# --- pagat 3 players: "The holder of the joker in each hand deals the next." -------------

THREE = ("A", "B", "C")


def three_player_hand(joker_holder, *, dealer="A", declarer="B"):
    return PreviousHand("scored", dealer, declarer, (), True, joker_holder=joker_holder)


@pytest.mark.parametrize(
    ("previous", "dealer"),
    [
        pytest.param(three_player_hand("C"), "C", id="seed-000-3p-joker-holder-deals-next"),
        pytest.param(three_player_hand("A"), "A", id="seed-000-3p-dealer-held-the-joker-deals-again"),
        pytest.param(three_player_hand("B"), "B", id="seed-000-3p-declarer-held-the-joker"),
        pytest.param(three_player_hand(None), "B", id="seed-000-3p-joker-buried-deal-passes-on"),
        pytest.param(
            PreviousHand("deal_miss", "A", demander="C", joker_holder="B"), "C",
            id="seed-000-3p-deal-miss-demander-deals",
        ),
    ],
)
def test_pagat_3p_joker_holder_deals_next(previous, dealer):
    assert next_dealer(resolve_system("pagat-3p"), THREE, previous) == dealer


@pytest.mark.parametrize(
    ("previous", "dealer"),
    [
        pytest.param(
            {"kind": "scored", "dealer": "A", "declarer": "B", "made": True, "joker_holder": "C"}, "C",
            id="seed-000-3p-next-summary",
        ),
        pytest.param(
            {"kind": "scored", "dealer": "A", "declarer": "B", "made": True, "joker_holder": None}, "B",
            id="seed-000-3p-next-summary-joker-in-no-hand",
        ),
        pytest.param(
            {"dealer": "A", "declarer": "B", "contract": {"points": 13, "trump": "S"},
             "partner_call": {"type": "none"}, "points": 14, "joker_holder": "C"}, "C",
            id="seed-000-3p-next-from-the-hand",
        ),
    ],
)
def test_next_request_takes_the_joker_holder(previous, dealer):
    answer = next_request({"system": "pagat-3p", "seats": list(THREE), "previous": previous})
    assert answer["dealer"] == dealer


def test_next_request_asks_who_held_the_joker():
    previous = {"kind": "scored", "dealer": "A", "declarer": "B", "made": True}
    with pytest.raises(InvalidInput) as raised:
        next_request({"system": "pagat-3p", "seats": list(THREE), "previous": previous})
    assert [(p.field, p.code) for p in raised.value.problems] == [("previous.joker_holder", "missing")]
    # an unknown seat is refused as any seat would be
    with pytest.raises(InvalidInput):
        next_request({"system": "pagat-3p", "seats": list(THREE), "previous": {**previous, "joker_holder": "Z"}})


# --- the previous hand as a request gives it (interface.next_request) --------------------------

PAGAT_PARTNER_DEALS = {"kind": "scored", "dealer": "B", "declarer": "C", "partners": ["E"], "made": True}


@pytest.mark.parametrize(
    ("change", "field", "code"),
    [
        # an outside client's probe: "Ed" alone was read as no partner, and the declarer dealt
        pytest.param({"partners": "E"}, "previous.partners", "bad_type", id="partners-a-name-not-a-list"),
        pytest.param({"partners": {"a": 1}}, "previous.partners", "bad_type", id="partners-an-object"),
        pytest.param({"partners": 5}, "previous.partners", "bad_type", id="partners-a-number"),
        pytest.param({"partners": ["Z"]}, "previous.partners[0]", "unknown_seat", id="partner-not-seated"),
        pytest.param({"partners": ["C"]}, "previous.partners[0]", "partner_is_declarer", id="declarer-own-partner"),
        pytest.param({"made": "yes"}, "previous.made", "bad_type", id="made-not-true-or-false"),
        pytest.param({"made": None}, "previous.made", "missing", id="scored-without-made"),
        pytest.param({"dealer": None}, "previous.dealer", "missing", id="no-dealer"),
        pytest.param({"dealer": 5}, "previous.dealer", "unknown_seat", id="dealer-a-number"),
        pytest.param({"declarer": ["C"]}, "previous.declarer", "unknown_seat", id="declarer-a-list"),
        pytest.param({"sitting_out": "A"}, "previous.sitting_out", "bad_type", id="sitting-out-a-name"),
        pytest.param({"first_bidder": 3}, "previous.first_bidder", "unknown_seat", id="first-bidder-a-number"),
        pytest.param({"kind": ["scored"]}, "previous.kind", "bad_type", id="kind-a-list"),
        pytest.param({"kind": "misdeal"}, "previous.kind", "bad_previous", id="kind-unknown"),
    ],
)
def test_next_request_names_the_field_of_the_previous_hand_that_does_not_fit(change, field, code):
    with pytest.raises(InvalidInput) as raised:
        next_request({"system": "pagat-standard", "seats": list(FIVE), "previous": {**PAGAT_PARTNER_DEALS, **change}})
    assert [(p.field, p.code) for p in raised.value.problems] == [(field, code)]


@pytest.mark.parametrize(
    ("request_", "field", "code"),
    [
        pytest.param({"previous": "B dealt"}, "previous", "bad_type", id="previous-text"),
        pytest.param({"previous": {"kind": "deal_miss", "dealer": "B"}}, "previous.demander", "missing",
                     id="deal-miss-without-who-showed"),
        pytest.param({"first_dealer": 5}, "first_dealer", "unknown_seat", id="first-dealer-a-number"),
        pytest.param({"options": []}, "options", "bad_type", id="options-a-list"),
        pytest.param({"system": 5}, "system", "bad_type", id="system-a-number"),
    ],
)
def test_next_request_refuses_the_wrong_type_anywhere(request_, field, code):
    with pytest.raises(InvalidInput) as raised:
        next_request({"system": "pagat-standard", "seats": list(FIVE), **request_})
    assert [(p.field, p.code) for p in raised.value.problems] == [(field, code)]


def test_a_deal_miss_may_say_who_showed_as_the_ledger_does():
    # the ledger records a deal miss with "shown_by"; pagat: whoever showed the hand deals the redeal
    answer = next_request({"system": "pagat-standard", "seats": list(FIVE),
                           "previous": {"kind": "deal_miss", "dealer": "B", "shown_by": "D"}})
    assert answer["dealer"] == "D"


NAMED_SEVEN = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gil"]
NAMED_SIX = NAMED_SEVEN[:6]


@pytest.mark.parametrize(("slug", "seats", "previous", "field", "code"), [
    pytest.param("pagat-6p-rotation", NAMED_SIX, {"kind": "deal_miss", "dealer": "Bo", "demander": "Bo", "sitting_out": ["Bo"]},
                 "previous.demander", "demander_sitting_out", id="the-dealer-who-sat-out-showed-a-hand"),
    pytest.param("pagat-6p-rotation", NAMED_SIX, {"kind": "scored", "dealer": "Di", "declarer": "Di", "partners": ["Cy"],
                                            "made": True, "sitting_out": ["Di"]},
                 "previous.declarer", "declarer_sitting_out", id="a-declarer-sitting-out"),
    pytest.param("pagat-6p-rotation", NAMED_SIX, {"kind": "scored", "dealer": "Di", "declarer": "Ann", "partners": ["Di"],
                                            "made": True, "sitting_out": ["Di"]},
                 "previous.partners[0]", "partner_sitting_out", id="a-partner-sitting-out"),
    # 변형 7마: "a redeal keeps the same players out": who they were must be said
    pytest.param("korean-7-rotation", NAMED_SEVEN, {"kind": "deal_miss", "dealer": "Bo", "demander": "Di"},
                 "previous.sitting_out", "missing", id="a-redeal-without-who-sat-out"),
])
def test_a_previous_hand_no_table_could_have_played_is_refused(slug, seats, previous, field, code):
    with pytest.raises(InvalidInput) as error:
        next_request({"system": slug, "seats": seats, "previous": previous})
    assert (field, code) in [(p.field, p.code) for p in error.value.problems]


def test_a_redeal_in_seven_keeps_the_same_two_out():
    answer = next_request({"system": "korean-7-rotation", "seats": NAMED_SEVEN,
                           "previous": {"kind": "deal_miss", "dealer": "Bo", "demander": "Di", "sitting_out": ["Ed", "Fay"]}})
    assert answer["sitting_out"] == ["Ed", "Fay"]
