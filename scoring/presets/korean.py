"""Korean local rule sets (seed 003, the namu/rigveda page, §3 and §6).

The page lists each local set only by its differences from 표준 5마 and never
says how a set computes its base score: each uses pagat's formula with that
group's minimum, as its description says.
"""

from ..systems import Preset, merge

SOURCE = "Korean wiki page on 마이티 (seed 003)"

_PAGAT_BASE = "Base score: pagat's formula 2×(bid − M) + overtricks, set pays the shortfall (the page does not say)."

# 표준 5마 (003 §6.1): minimum 14, the previous declarer deals and the dealer bids first,
# +2 for any trump change (신촌 and 광주 list "+1 to no trump" as their difference).
_STANDARD = {
    "min_bid": 14,
    "doubles": {"run": "made", "back_run": "set", "no_trump": "both", "no_friend": "never"},
    # 003 §3.2.2: a back run is 11 or more, or at least the bid (the same thing once bids start at 12)
    "back_run": {"rule": "defenders_at_least", "n": 11},
    # 003 §3.2.1 and §6.1 raise by 2 with no exception for a bid of 19 or 20 (pagat's own)
    "trump_change": {"suit": 2, "to_nt": 2, "nineteen_to_twenty": False, "twenty_to_no_trump": False},
    "partner_calls": ["card", "first_trick", "none", "player"],
    "deal_miss": {"criteria": ["korean_scale"], "threshold": "0"},
    "next_dealer": "declarer",
    "first_bidder": "dealer",
}

# 신촌 5마 (003 §6.3): 대전 6마 and 관악 6마 share its auction and deal-miss rules.
_SINCHON_AUCTION = {
    "trump_change": {"suit": 2, "to_nt": 1},
    "auction": {"nt_discount": True, "dealer_may_pass": False},
    "deal_miss": {"criteria": ["no_points", "lone_jack", "lone_mighty", "all_points"], "threshold": "0"},
    "doubles": {"run": "made", "back_run": "set", "no_trump": "both", "no_friend": "both"},
}


def _with(*layers: dict) -> dict:
    options: dict = {}
    for layer in layers:
        options = merge(options, layer)
    return options


# 대전 6마 (003 §6.4): six with one knocked out, 신촌's auction and deal miss; 관악 6마 builds on it
_DAEJEON_6 = _with(
    _STANDARD,
    _SINCHON_AUCTION,
    {"players": 6, "active_players": 5, "deck": "six_player_knockout", "sit_out": "knockout"},
)

PRESETS = (
    Preset(
        "korean-standard",
        "표준 5마 (Korean standard)",
        "The most common Korean game: minimum 14, the dealer (the previous declarer) may pass, "
        "+2 for any trump change, the Joker may be called. Doubled for a run, a back run (11+) "
        "and no trump (003 §6.1 lists no trump without a condition; §3.2.2 speaks of winning "
        "without trump: set doubles.no_trump to made for that reading). Deal miss: point cards "
        "+1, Mighty 0, Joker −1, total 0 or less, or a lone 10. " + _PAGAT_BASE,
        _STANDARD,
        SOURCE,
    ),
    Preset(
        "korean-minsa",
        "민사 5마",
        "민족사관고 rules: minimum 13 as the catalog gives it (the page lists only differences "
        "from 표준, which would mean 14: set min_bid), the previous partner deals, a back run "
        "is 10 or more defender points. Deal miss: no point card or exactly one, and the Joker "
        "lets one more be ignored; a bid of 20 forbids the deal miss. " + _PAGAT_BASE,
        _with(
            _STANDARD,
            {
                "min_bid": 13,
                "back_run": {"n": 10},
                "deal_miss": {"criteria": ["no_points", "one_point_card"], "bid_20_cancels": True},
                "next_dealer": "partner",
                "first_bidder": "partner",
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-sinchon",
        "신촌 5마",
        "연세대 rules: minimum 14, bids above 20 allowed, the dealer may not pass, an NT bid may "
        "be one under, +1 to change to no trump; the discards count for the defenders. Doubled "
        "for back run, no trump and no friend (and a run, as in 표준). Deal miss: no point card, "
        "a lone jack, a lone Mighty, or all point cards. The previous partner deals. "
        + _PAGAT_BASE,
        _with(
            _STANDARD,
            _SINCHON_AUCTION,
            {
                "bids_above_max": True,
                "discards_count_for": "defenders",
                "next_dealer": "partner",
                "first_bidder": "partner",
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-daejeon-6",
        "대전 6마",
        "KAIST and 대전과학고: six players, 8 cards each and 5 in the kitty; the declarer "
        "knocks one player out by naming a card (enter them as sitting out). Minimum 14, the "
        "auction and deal miss of 신촌 but no bids above 20; the discards count for the "
        "declarer. " + _PAGAT_BASE,
        _DAEJEON_6,
        SOURCE,
    ),
    Preset(
        "korean-gwanak-6",
        "관악 6마",
        "서울대 rules: as 대전 6마, but the previous partner deals and a no-trump opening or a "
        "change to no trump may be one less (so the change needs no raise). " + _PAGAT_BASE,
        _with(
            _DAEJEON_6,
            {
                "trump_change": {"to_nt": 0},
                "next_dealer": "partner",
                "first_bidder": "partner",
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-gwanak-5",
        "관악 5마",
        "서울대 rules 2: the declarer bids n from 2 to 7, entered as the contract 12 + n (14–19), "
        "and the hand is worth n whether made or set, one less with a trump suit (bid 3 in a "
        "suit and made: declarer +4, partner +2, defenders −2). A trump suit needs n ≥ 3 and "
        "is named before the kitty, so it cannot change; the Mighty stays ♠A with spades "
        "trump. No run, back run or no-trump doubles. The dealer bids last.",
        _with(
            _STANDARD,
            {
                "min_bid": 14,
                "max_bid": 19,
                "base": "hard",
                "set": "same_as_made",
                "trump_penalty": 1,
                "min_suit_contract": 15,
                "spade_trump_keeps_mighty": True,
                "doubles": {"run": "never", "back_run": "never", "no_trump": "never", "no_friend": "never"},
                "trump_change": {"allowed": False},
                "first_bidder": "left_of_dealer",
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-gyeonggi",
        "경기 5마",
        "성균관대 and 수원: minimum 12 and changing trump needs no raise; doubled for no friend "
        "as well as the 표준 doubles. " + _PAGAT_BASE,
        _with(
            _STANDARD,
            {
                "min_bid": 12,
                "trump_change": {"suit": 0, "to_nt": 0},
                "doubles": {"no_friend": "both"},
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-gwangju",
        "광주 5마",
        "광주과학고 and 장영실과학고: minimum 12, a no-trump bid may be one less, +2 to change "
        "suit but +1 to change to no trump; the 표준 doubles. " + _PAGAT_BASE,
        _with(
            _STANDARD,
            {"min_bid": 12, "auction": {"nt_discount": True}, "trump_change": {"to_nt": 1}},
        ),
        SOURCE,
    ),
    Preset(
        "korean-daegu",
        "대구 5마",
        "대구과학고: minimum 12, the dealer may not pass, bids above 20 allowed, trump changes "
        "as 광주 (+2, +1 to no trump), the previous partner deals; the 표준 doubles. "
        + _PAGAT_BASE,
        _with(
            _STANDARD,
            {
                "min_bid": 12,
                "bids_above_max": True,
                "auction": {"dealer_may_pass": False},
                "trump_change": {"to_nt": 1},
                "next_dealer": "partner",
                "first_bidder": "partner",
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-jeju-3",
        "제주 3마",
        "제주과학고: three players with the 33-card deck (black 7s are the rippers), no friend "
        "ever: the declarer plays alone against two. Minimum 12. Deal miss: no point card, a "
        "lone jack or a lone Mighty. " + _PAGAT_BASE,
        _with(
            _STANDARD,
            {
                "players": 3,
                "active_players": 3,
                "deck": "three_player",
                "min_bid": 12,
                "always_alone": True,
                "deal_miss": {"criteria": ["no_points", "lone_jack", "lone_mighty"]},
                "next_dealer": "rotation",
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-uos",
        "서울시립대 5마",
        "서울시립대: minimum 12, the declarer calls a friend; otherwise 표준. " + _PAGAT_BASE,
        _with(_STANDARD, {"min_bid": 12}),
        SOURCE,
    ),
    Preset(
        "korean-uos-4",
        "서울시립대 4마",
        "서울시립대 four players: the 43-card deck, minimum 17, two against two. " + _PAGAT_BASE,
        _with(
            _STANDARD,
            {"players": 4, "active_players": 4, "deck": "jun_four_player", "min_bid": 17},
        ),
        SOURCE,
    ),
    Preset(
        "korean-4",
        "4마",
        "Korean four players (003 §3.5): 2s, red 3s and 4s removed (43 cards); the team is "
        "strong two against two, so the Mighty and the Joker may not be called. " + _PAGAT_BASE,
        _with(
            _STANDARD,
            {
                "players": 4,
                "active_players": 4,
                "deck": "jun_four_player",
                "forbidden_calls": ["mighty", "joker"],
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-6-rotation",
        "변형 6마 (one sits out)",
        "Six at the table, five play (003 §3.3.1): the previous partner deals and sits out "
        "the hand; set next_dealer to partner_if_made for the local rule where the partner "
        "deals only when the declarer's side won. Otherwise 표준. " + _PAGAT_BASE,
        _with(_STANDARD, {"players": 6, "active_players": 5, "sit_out": "dealer", "next_dealer": "partner"}),
        SOURCE,
    ),
    Preset(
        "korean-7-rotation",
        "변형 7마 (two sit out)",
        "Seven at the table, five play (003 §3.4.1): usually the previous declarer and friend "
        "sit out the next hand (a declarer alone sits out with the next seat after the "
        "dealer). Otherwise 표준. " + _PAGAT_BASE,
        _with(_STANDARD, {"players": 7, "active_players": 5, "sit_out": "declarer_and_partner"}),
        SOURCE,
    ),
    Preset(
        "korean-2",
        "2마 (two players)",
        "Two players (003 §3.5) with the 23 cards that matter: the 20 point cards, the Joker "
        "and the black 3s, 10 each and 3 in the kitty. The declarer always plays alone against "
        "the other. The page gives no minimum or scoring, so this takes pagat's: minimum 13, "
        "2×(bid − 13) + overtricks, set pays the shortfall; the deal rotates.",
        _with(
            _STANDARD,
            {
                "players": 2,
                "active_players": 2,
                "deck": "two_player",
                "min_bid": 13,
                "always_alone": True,
                "partner_calls": ["none"],
                "next_dealer": "rotation",
                "deal_miss": {"criteria": ["no_points"]},
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-gyeonggibuk",
        "경기북 5마",
        "경기북과고: bids above 20 are allowed (players bid past 20 to take the contract and "
        "spoil it); otherwise 표준. " + _PAGAT_BASE,
        _with(_STANDARD, {"bids_above_max": True}),
        SOURCE,
    ),
)
