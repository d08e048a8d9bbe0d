"""pagat.com's Mighty (seed 000): the standard 5-player game, its scoring variants, 3–7 players."""

from ..systems import Preset

SOURCE = "pagat.com, Mighty (seed 000)"

_NO_DOUBLES = {"run": "never", "back_run": "never", "no_trump": "never", "no_friend": "never"}

PRESETS = (
    Preset(
        "pagat-standard",
        "Pagat standard (5 players)",
        "The most widespread scoring: a made contract scores 2×(bid − 13) + overtricks, a set one "
        "the shortfall. Doubled for a run (made), a back run of 11+ defender points (set), no trump "
        "and an announced no friend (both). Declarer ±2S, partner ±S, each defender ∓S; alone ±4S.",
        {},
        SOURCE,
    ),
    Preset(
        "pagat-over-ten",
        "Pagat: points over ten",
        "Pagat variant: a made contract scores one per point taken above 10, whatever the bid; "
        "a set one the shortfall. Doubles as in the standard game.",
        {"base": "over_ten"},
        SOURCE,
    ),
    Preset(
        "pagat-over-min",
        "Pagat: points over the minimum",
        "Pagat variant: a made contract scores the points taken above the minimum bid (P − 13); "
        "a set one the shortfall. Doubles as in the standard game.",
        {"base": "over_min"},
        SOURCE,
    ),
    Preset(
        "pagat-over-min-plus-one",
        "Pagat: points over twelve",
        "Pagat variant: a made contract scores P − 13 + 1, one per point above 12; a set one the "
        "shortfall. Doubles as in the standard game.",
        {"base": "over_min_plus_one"},
        SOURCE,
    ),
    Preset(
        "pagat-classic",
        "Pagat previous version (flat bid)",
        "The scoring of pagat's previous version: bid − 13 + 1 whether made or set, no credit for "
        "overtricks; doubled only for a run (made) or a back run (set).",
        {
            "base": "flat_bid",
            "set": "same_as_made",
            "doubles": {**_NO_DOUBLES, "run": "made", "back_run": "set"},
        },
        SOURCE,
    ),
    Preset(
        "pagat-3p",
        "Pagat 3 players (Jun Chulmin)",
        "33 cards (2–6 removed), ripper ♣7. The declarer always plays alone against the other "
        "two and wins or pays S to each; minimum bid 11 (some groups play 12: set min_bid). "
        "Playing alone is the rule here, not an announced no friend, so that double never "
        "applies. The holder of the Joker deals next (enter who held it with each hand; when it "
        "lay buried or was not entered, the deal passes to the left).",
        {
            "players": 3,
            "active_players": 3,
            "deck": "three_player",
            "min_bid": 11,
            "always_alone": True,
            "doubles": {"no_friend": "never"},
            # 000: "The holder of the joker in each hand deals the next."
            "next_dealer": "joker_holder",
        },
        SOURCE,
    ),
    Preset(
        "pagat-4p-jun",
        "Pagat 4 players (Jun Chulmin)",
        "43 cards (2s, 4s and red 3s removed), minimum 14. Two against two: declarer and "
        "partner each win or lose S, each defender the opposite. Options: the partner pays "
        "nothing when set (four_player_set_split: declarer_alone); forbid calling the Joker "
        "(forbidden_calls: [joker]).",
        {"players": 4, "active_players": 4, "deck": "jun_four_player", "min_bid": 14},
        SOURCE,
    ),
    Preset(
        "pagat-6p-knockout",
        "Pagat 6 players, one knocked out",
        "8 cards each and 5 in the kitty; after the auction the declarer names a card and its "
        "holder drops out for the hand (enter them as sitting out: they score 0). Minimum 14, "
        "otherwise the 5-player game.",
        {
            "players": 6,
            "active_players": 5,
            "deck": "six_player_knockout",
            "min_bid": 14,
            "sit_out": "knockout",
        },
        SOURCE,
    ),
    Preset(
        "pagat-7p-knockout",
        "Pagat 7 players, two knocked out",
        "7 cards each and 4 in the kitty; the declarer names two cards and their holders drop "
        "out (enter them as sitting out: they score 0). Minimum 14, otherwise the 5-player game.",
        {
            "players": 7,
            "active_players": 5,
            "deck": "seven_player_knockout",
            "min_bid": 14,
            "sit_out": "knockout",
        },
        SOURCE,
    ),
    Preset(
        "pagat-6p-rotation",
        "Pagat 6 players in rotation",
        "Five play and one sits out: the dealer deals to the other five and takes no part "
        "(sit_out: previous_result instead lets the previous hand decide: the partner deals and "
        "sits out when the declarer's side won, else the declarer). Scored as the 5-player game.",
        {"players": 6, "active_players": 5, "sit_out": "dealer", "next_dealer": "rotation"},
        SOURCE,
    ),
    Preset(
        "hard-score",
        "Hard score (bid − 12)",
        "Seeds 002 and 004: every hand is worth bid − 12 whether made or set, doubled for a run "
        "or a back run (defenders take 11 or more). Declarer ±2S, partner ±S, each defender ∓S "
        "(two defenders pay the declarer, the third the partner); alone, the declarer takes all. "
        "The dealer bids first on the first hand, then the previous declarer; the partner deals. "
        "Changing trump costs 2 (1 to no trump) with no exception: a 19 cannot change suit at 20.",
        {
            "base": "hard",
            "set": "same_as_made",
            "doubles": {**_NO_DOUBLES, "run": "both", "back_run": "both"},
            # 002 and 004 "increase their bid by 2" (by 1 to no trump) with no exception:
            # pagat's 19 → 20 and 20 → 20 NT are not theirs
            "trump_change": {"same_trump_raise": False, "nineteen_to_twenty": False, "twenty_to_no_trump": False},
        },
        "seeds 002 and 004 (Denexa)",
    ),
)
