"""Korean local rule sets (seed 003, the namu/rigveda page, §3 and §6).

§6.1 ends its list with "이하 표준 5마와의 차이점만 설명한다": each local set lists only
its differences from 표준 5마, so whatever a set does not change it takes from 표준 (the
previous declarer deals, the minimum is 14, 표준's doubles and deal-miss scale). Every
preset below is 표준 plus the lines of its own section, each cited beside the option it
sets. The page never says how a set computes its base score: each uses pagat's formula
with that group's minimum, as its description says.

Two sets the page names are not presets: 서울과학고's 57-card 6마 puts an 11 in each
suit, a card no code here can name, and "호응을 얻지 못해 두어지지 않는다" (nobody plays
it); 아주대 마이티 (§6.12) is only said to exist.

One module because it is one source read section by section: each preset
sits beside the lines it quotes, in the page's order, so a reader checks a
set against §6 from top to bottom.
"""

from ..systems import Preset, merge

SOURCE = "Korean wiki page on 마이티 (seed 003)"

_PAGAT_BASE = "Base score: pagat's formula 2×(bid − M) + overtricks, set pays the shortfall (the page does not say)."
# the sets with the NT discount: how a no-trump contract under the minimum scores, which the page does not say
_NT_DISCOUNT_BASE = (" An NT contract bid under the minimum still scores from the minimum M (the discount is the "
                     "bidding's): set nt_discount_in_score to count it from one under, as it ranks.")

# 표준 5마 (003 §6.1), line by line
_STANDARD = {
    # "기본 목표 점수, 즉 최소 공약은 14장이다."
    "min_bid": 14,
    # "돈을 걸고 할 경우 백런, 노기루다라면 2배." and §3.2.2 "'런' ... '백런' ... 2배가 된다"
    "doubles": {"run": "made", "back_run": "set", "no_trump": "both", "no_friend": "never"},
    # §3.2.2: a back run is 11 or more, or at least the bid (the same thing once bids start at 12)
    "back_run": {"rule": "defenders_at_least", "n": 11},
    # "주공이 기루다를 바꿀 때 목표점수를 2 올린다." (no exception at 19 or 20: those are pagat's)
    "trump_change": {"suit": 2, "to_nt": 2, "nineteen_to_twenty": False, "twenty_to_no_trump": False},
    # §3.2.1: a card, a named player, the first trick, or no friend ("조커를 프렌드로 부를 수 있다")
    "partner_calls": ["card", "first_trick", "none", "player"],
    # "점수 카드는 1, 마이티는 0, 조커는 -1로 계산하여 합이 0 이하이면 딜 미스이다." and "점수 카드가
    # 10 한 장뿐인 경우도 딜 미스로 인정된다." (korean_scale counts both). It *is* a deal miss, and
    # §7.1 lists "딜 미스 선언은 선택사항이다" among the local rules, so here it is not optional.
    # §3.2.1: "딜 미스가 된 사람이 다시 딜을 하고, 그 사람부터 다시 선거를 시작한다."
    "deal_miss": {"criteria": ["korean_scale"], "threshold": "0", "optional": False, "next_dealer": "demander"},
    # "딜러가 처음에 패스할 수 있다. 이 때 딜러는 전 판의 주공."
    "next_dealer": "declarer",
    # §3.2.1: "딜러부터 시작해서 ... 공약으로 숫자와 기루다를 부르는 식으로 진행한다"
    "first_bidder": "dealer",
}

# the sets that list their own deal-miss hands say a player "딜 미스를 낼 수 있다" (may call it)
_MAY_CALL = {"optional": True}

# 신촌 5마 (003 §6.3): its bidding, as 대전 6마 (§6.4 "선거는 신촌 5마와 거의 비슷하나") takes it
_SINCHON_BIDDING = {
    # "딜러가 처음에 패스할 수 없다." / "노기루다를 부를 때 기본 목표 점수를 하나 까서 부를 수 있기는하다."
    "auction": {"nt_discount": True, "dealer_may_pass": False},
    # "주공이 정해진 후 주공이 노기루다로 바꿀 때는 목표점수를 1만 올린다."
    "trump_change": {"to_nt": 1},
}
# 신촌's deal miss, which 대전 (§6.4 "딜 미스 조건도 신촌 5마와 동일하다") and 제주 repeat:
# "점수 카드가 J, 혹은 애꾸눈 잭 한 장뿐이거나 마이티 한 장뿐이면" and "모든 카드가 점수 카드여도
# 딜미스", with §7's principle "점수 카드가 1장도 없으면 딜 미스이다". The set names its own hands,
# so they replace 표준's scale (a lone Mighty already counts 0 on it). "J, 혹은 애꾸눈 잭" reads
# two ways: any jack (taken here) or, at some tables, only a one-eyed jack (one_eyed_jacks_only).
_SINCHON_DEAL_MISS = {"criteria": ["no_points", "lone_jack", "lone_mighty", "all_points"], **_MAY_CALL}

# §3.3 6마: "각 플레이어가 8장씩 가지고 5장을 내려놓는다. 공약을 정할 때는 기본이 14이다." and the
# declarer "특정한 카드를 불러서 그 카드를 가진 사람을 탈락시킨다"
_SIX_KNOCKOUT = {"players": 6, "active_players": 5, "deck": "six_player_knockout", "sit_out": "knockout", "min_bid": 14}
# §3.5: "4마는 2, 빨간 3, 4를 빼고 한다" and "여당 측이 유리하므로 마이티 프렌드, 조커 프렌드는 할 수 없다"
_FOUR = {
    "players": 4,
    "active_players": 4,
    "deck": "jun_four_player",
    "forbidden_calls": ["mighty", "joker"],
}


def _with(*layers: dict) -> dict:
    options: dict = {}
    for layer in layers:
        options = merge(options, layer)
    return options


_DAEJEON_6 = _with(_STANDARD, _SIX_KNOCKOUT, _SINCHON_BIDDING, {"deal_miss": _SINCHON_DEAL_MISS})

# 관악 6마 (§6.5) is "대전 6마와 큰 차이가 없다" plus its own lines
_GWANAK_6_LINES = {
    # "전 판의 프렌드가 딜러가 된다."
    "next_dealer": "partner",
    # "처음 부르거나 노기루다로 바꿀 때 1을 줄일 수 있음": one less than 표준 (an NT opening of 13,
    # +1 to change to NT, as 대전 already has). Read as one less than 대전 it needs no raise at all:
    # set trump_change.to_nt to 0.
    "auction": {"nt_discount": True},
    "trump_change": {"to_nt": 1},
}

PRESETS = (
    Preset(
        "korean-standard",
        "표준 5마 (Korean standard)",
        "The most common Korean game (003 §6.1): minimum 14, the dealer (the previous declarer) "
        "bids first and may pass, +2 for any trump change (no exception at 19 or 20), the Joker "
        "may be called. Doubled for a run, a back run (11+) and no trump (§6.1 lists no trump "
        "without a condition; §3.2.2 speaks of winning without trump: set doubles.no_trump to "
        "made for that reading). Deal miss: point cards +1, Mighty 0, Joker −1, total 0 or less, "
        "or a lone 10; it is a rule, not a choice (§7.1 lists an optional deal miss as a local "
        "rule: set deal_miss.optional), and whoever showed the hand deals. " + _PAGAT_BASE,
        _STANDARD,
        SOURCE,
    ),
    Preset(
        "korean-minsa",
        "민사 5마",
        "민족사관고 (003 §6.2), 표준 but: the previous partner deals; a deal miss is counted in "
        "cards, not on the scale: no point card or exactly one, and holding the Joker lets one "
        "more be ignored; a bid of 20 forbids the deal miss; a back run is 10 or more defender "
        "points. Minimum 14 as in 표준 (RULES.md §9 gives 13, which the page does not say). "
        + _PAGAT_BASE,
        _with(
            _STANDARD,
            {
                # "전 판의 프렌드가 딜러가 된다."
                "next_dealer": "partner",
                # "딜 미가 카드의 점수계산이 아닌 숫자로 결정된다": "어떤 카드든 점수 카드가 한 장뿐이라면
                # 딜 미스를 낼 수 있다" and "조커를 들고 있으면 점수 카드를 한 장 뺄 수 있다";
                # "주공이 20을 공약하면 딜 미스 없이 바로 진행해야 한다"
                "deal_miss": {"criteria": ["no_points", "one_point_card"], "bid_20_cancels": True, **_MAY_CALL},
                # "야당이 10장 이상 득점하면 백런."
                "back_run": {"n": 10},
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-sinchon",
        "신촌 5마",
        "연세대 (003 §6.3), 표준 but: the previous partner deals, bids above 20 allowed, the "
        "dealer may not pass, an NT bid may be one under, +1 to change to no trump (+2 to another "
        "suit as in 표준); the discards count for the defenders. Doubled for back run, no trump "
        "and no friend (and a run, as in 표준); the page gives the no-friend double no condition, "
        "so a set no-friend hand doubles too (§3.2.2 doubles a no-friend win only: set "
        "doubles.no_friend to made for that reading). Deal miss: no point card, a lone jack (any jack; "
        "set deal_miss.one_eyed_jacks_only for the one-eyed reading), a lone Mighty, or all "
        "point cards. " + _PAGAT_BASE + _NT_DISCOUNT_BASE,
        _with(
            _STANDARD,
            _SINCHON_BIDDING,
            {
                # "전 판의 프렌드가 딜러가 된다."
                "next_dealer": "partner",
                # "목표 점수를 20보다 높게 부를 수 있다."
                "bids_above_max": True,
                # "주공이 처음에 버린 세 장의 카드는 야당이 득점한다."
                "discards_count_for": "defenders",
                # "백런 2배, 노기루다 2배에 더해 노프렌드 2배."
                "doubles": {"no_friend": "both"},
                "deal_miss": _SINCHON_DEAL_MISS,
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-daejeon-6",
        "대전 6마",
        "KAIST and 대전과학고 (003 §6.4, §3.3): six players, 8 cards each and 5 in the kitty; "
        "the declarer knocks one player out by naming a card (enter them as sitting out). "
        "Minimum 14; the bidding of 신촌 (dealer may not pass, NT one under, +1 to change to "
        "no trump) but no bids above 20; 신촌's deal miss. What the section does not change is "
        "표준's: the previous declarer deals, the discards count for the declarer, and the "
        "doubles are 표준's (RULES.md §9 says 신촌's, no-friend double included, which §6.4 "
        "does not say: set doubles.no_friend to both for it). " + _PAGAT_BASE + _NT_DISCOUNT_BASE,
        _DAEJEON_6,
        SOURCE,
    ),
    Preset(
        "korean-gwanak-6",
        "관악 6마",
        "서울대 (003 §6.5): as 대전 6마, but the previous partner deals. \"처음 부르거나 "
        "노기루다로 바꿀 때 1을 줄일 수 있음\" is read as one less than 표준: an NT opening "
        "may be one under and a change to no trump needs +1, as in 대전 (read as one less than "
        "대전, the change needs no raise: set trump_change.to_nt to 0). " + _PAGAT_BASE + _NT_DISCOUNT_BASE,
        _with(_DAEJEON_6, _GWANAK_6_LINES),
        SOURCE,
    ),
    Preset(
        "korean-gwanak-5",
        "관악 5마",
        "서울대 rules 2 (003 §6.6): the declarer bids n from 2 to 7, entered as the contract "
        "12 + n (14–19), and the hand is worth n whether made or set, one less with a trump "
        "suit (bid 3 in a suit and made: declarer +4, partner +2, defenders −2). A trump suit "
        "needs n ≥ 3 and is named before the kitty, so it cannot change; the Mighty stays ♠A "
        "with spades trump. No run, back run or no-trump doubles. The dealer bids last. The "
        "rest is 표준's: the previous declarer deals, 표준's deal miss. The contract follows "
        "RULES.md (12 + n: the defenders' 8 − n leaves the contract made); read as the defenders' "
        "target, it is 13 + n: set min_bid 15, max_bid 20, min_suit_contract 16 and hard_offset 1.",
        _with(
            _STANDARD,
            {
                # "주공이 공약을 부를 때는 2~7 사이의 숫자를 부른다. 그럼 야당은 8-(주공이 부른 숫자)
                # 만큼의 점수패를 가져가야 한다": the declarer's team needs 20 − (8 − n) = 12 + n
                "min_bid": 14,
                "max_bid": 19,
                "base": "hard",
                "set": "same_as_made",
                # "기루다일 경우 게임 후 얻은 득점에서 -1점을 한다."
                "trump_penalty": 1,
                # "기루다는 3점 이상부터 부를 수 있으며, 바닥에 깔린 카드 3장을 보기 전에 미리 기루다라고
                # 말을 해야한다."
                "min_suit_contract": 15,
                "trump_change": {"allowed": False},
                # "삽 기루다일때에도 마이티는 스페이드 A이다."
                "spade_trump_keeps_mighty": True,
                # "노 기루다로 이겼을 경우 점수 2배 룰은 없다." / "런, 백런 룰은 없다."
                "doubles": {"run": "never", "back_run": "never", "no_trump": "never", "no_friend": "never"},
                # "딜러는 가장 마지막에 공약을 부른다."
                "first_bidder": "left_of_dealer",
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-gyeonggi",
        "경기 5마",
        "성균관대 and 수원 (003 §6.7), 표준 but: minimum 12, changing trump needs no raise, "
        "and doubled for no friend as well as the 표준 doubles, made or set (§3.2.2 doubles a "
        "no-friend win only: set doubles.no_friend to made for that reading). " + _PAGAT_BASE,
        _with(
            _STANDARD,
            {
                # "기본 목표 점수가 12."
                "min_bid": 12,
                # "기루다를 바꿀 때 목표점수를 안 높여도 된다."
                "trump_change": {"suit": 0, "to_nt": 0},
                # "역시 노프렌드 2배."
                "doubles": {"no_friend": "both"},
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-gwangju",
        "광주 5마",
        "광주과학고 and 장영실과학고 (003 §6.8), 표준 but: minimum 12, a no-trump bid may be one "
        "less, +2 to change suit but +1 to change to no trump. " + _PAGAT_BASE + _NT_DISCOUNT_BASE,
        _with(
            _STANDARD,
            {
                # "기본 목표 점수가 12."
                "min_bid": 12,
                # "노기루다를 부를 때 기본 점수를 하나 줄여서 부를 수 있다."
                "auction": {"nt_discount": True},
                # "기루다를 바꾸려면 목표 점수를 2 올리나, 노기루다로 바꾸면 1만 올린다."
                "trump_change": {"to_nt": 1},
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-daegu",
        "대구 5마",
        "대구과학고 (003 §6.9), 표준 but: the previous partner deals, minimum 12, the dealer may "
        "not pass, bids above 20 allowed, trump changes as 광주 (+2, +1 to no trump). "
        + _PAGAT_BASE,
        _with(
            _STANDARD,
            {
                # "전 판의 프렌드가 딜러가 된다."
                "next_dealer": "partner",
                # "기본 목표 점수가 12인 대신에 딜러가 패스할 수 없다."
                "min_bid": 12,
                "auction": {"dealer_may_pass": False},
                # "목표 점수를 20보다 높게 부를 수 있다."
                "bids_above_max": True,
                # "기루다를 바꿀 때의 점수에 대한 룰은 광주 5마와 동일."
                "trump_change": {"to_nt": 1},
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-jeju-3",
        "제주 3마",
        "제주과학고 (003 §6.10, §3.5): three players with the 33-card deck (black 7s are the "
        "rippers), no friend ever: the declarer plays alone against two. Minimum 12. Deal miss: "
        "no point card, a lone jack or a lone Mighty. As in 표준, the previous declarer deals. "
        + _PAGAT_BASE,
        _with(
            _STANDARD,
            {
                # §3.5: "3마는 2~6을 빼고 한다. 총은 검은 7이다."
                "players": 3,
                "active_players": 3,
                "deck": "three_player",
                # "프랜드 그런거 없다"
                "always_alone": True,
                # "기본 점수가 12."
                "min_bid": 12,
                # "점수 카드가 J, 혹은 애꾸눈 잭 한 장뿐이거나 마이티 한 장뿐이면 딜 미스를 낼 수 있다."
                "deal_miss": {"criteria": ["no_points", "lone_jack", "lone_mighty"], **_MAY_CALL},
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-uos",
        "서울시립대 5마",
        "서울시립대 (003 §6.13): minimum 12, the declarer calls a friend; otherwise 표준. "
        + _PAGAT_BASE,
        # "12장 공약을 기본 ... 주공은 프랜드를 잡을 수 있다."
        _with(_STANDARD, {"min_bid": 12}),
        SOURCE,
    ),
    Preset(
        "korean-uos-4",
        "서울시립대 4마",
        "서울시립대 four players (003 §6.13, §3.5): the 43-card 4마 deck, minimum 17, two "
        "against two; as in every 4마 (§3.5) the Mighty and the Joker may not be called (the "
        "section says only that the declarer calls a friend: set forbidden_calls to [] if your "
        "table calls them). " + _PAGAT_BASE,
        # "5마, 4마를 주로 플레이 하며 12장 공약을 기본(4마는 17장)"
        _with(_STANDARD, _FOUR, {"min_bid": 17}),
        SOURCE,
    ),
    Preset(
        "korean-4",
        "4마",
        "Korean four players (003 §3.5): 2s, red 3s and 4s removed (43 cards); the team is "
        "strong two against two, so the Mighty and the Joker may not be called. Otherwise 표준 "
        "(minimum 14). " + _PAGAT_BASE,
        _with(_STANDARD, _FOUR),
        SOURCE,
    ),
    Preset(
        "korean-gwanak-4",
        "관악 4마",
        "Four players as 관악 plays them (003 §3.5: \"괸악에서는 다이아 4와 클럽 3를 넣고 친다\"): "
        "the 4마 deck with ♦4 and ♣3 in it, 44 cards (♣3 is already in the 43-card deck, so "
        "♦4 is the one added). Assumed, since the page says no more: 10 cards each and 4 in "
        "the kitty, the declarer buries 4; the Mighty and the Joker may not be called as in "
        "every 4마; otherwise 표준 (minimum 14). " + _PAGAT_BASE,
        _with(_STANDARD, _FOUR, {"deck": "gwanak_four_player"}),
        SOURCE,
    ),
    Preset(
        "korean-busan-4",
        "부산 4마",
        "003 §6.5: \"부산 4마도 동일하다\", the same as 관악 6마 with four players: the 4마 "
        "deck and no Mighty or Joker call (§3.5), the previous partner deals, the dealer may not "
        "pass, an NT opening may be one under and a change to no trump needs +1, 신촌's deal "
        "miss. Assumed: the minimum stays 14. " + _PAGAT_BASE + _NT_DISCOUNT_BASE,
        _with(
            _STANDARD,
            _SINCHON_BIDDING,
            {"deal_miss": _SINCHON_DEAL_MISS},
            _GWANAK_6_LINES,
            _FOUR,
        ),
        SOURCE,
    ),
    Preset(
        "korean-honeymoon-4",
        "허니문 마이티 (4마)",
        "003 §3.5: a teaching game \"4마와 같되\", where each player also plays one card of their "
        "partner's hand in turn. It is scored as 4마: the 43-card deck, two against two, no "
        "Mighty or Joker call, otherwise 표준 (minimum 14). " + _PAGAT_BASE,
        _with(_STANDARD, _FOUR),
        SOURCE,
    ),
    Preset(
        "korean-network-4",
        "마이티 네트워크 4.0 (4 players)",
        "003 §3.5: the online Mighty Network 4.0 plays four with all 53 cards, 13 each and one "
        "card face down (\"카드를 53장, 한 사람의 카드수를 13장, 내려놓는 카드를 1장으로 한다\"). "
        "Assumed, since the page says no more: the declarer takes that card and buries one, two "
        "against two with no Mighty or Joker call as in every 4마 (§3.5), otherwise 표준 "
        "(minimum 14). " + _PAGAT_BASE,
        _with(_STANDARD, _FOUR, {"deck": "network_four_player"}),
        SOURCE,
    ),
    Preset(
        "korean-6",
        "6마 (one knocked out)",
        "Korean six players (003 §3.3): 8 cards each and 5 in the kitty, minimum 14; the "
        "declarer names a card and its holder drops out (enter them as sitting out; if the card "
        "is in the kitty another is named), then the declarer and the four others share the "
        "dropped hand and the kitty. Otherwise 표준. " + _PAGAT_BASE,
        _with(_STANDARD, _SIX_KNOCKOUT),
        SOURCE,
    ),
    Preset(
        "korean-7",
        "7마 (two knocked out)",
        "Korean seven players (003 §3.4): 7 cards each and 4 in the kitty, minimum 14; the "
        "declarer names two cards and their holders drop out (enter them as sitting out). "
        "Otherwise 표준. " + _PAGAT_BASE,
        _with(
            _STANDARD,
            # "각 플레이어가 7장씩 가지고 4장을 내려놓는다. 공약을 정할 때는 기본이 14이다."
            {"players": 7, "active_players": 5, "deck": "seven_player_knockout", "sit_out": "knockout", "min_bid": 14},
        ),
        SOURCE,
    ),
    Preset(
        "korean-6-rotation",
        "변형 6마 (one sits out)",
        "Six at the table, five play (003 §3.3.1): the previous partner deals and sits out "
        "the hand; set next_dealer to partner_if_made for the local rule where the partner "
        "deals only when the declarer's side won. Otherwise 표준. " + _PAGAT_BASE,
        # "보통 이전 판에 프렌드가 된 사람이 딜러가 되어 카드를 분배한 다음 그 판을 쉰다."
        _with(_STANDARD, {"players": 6, "active_players": 5, "sit_out": "dealer", "next_dealer": "partner"}),
        SOURCE,
    ),
    Preset(
        "korean-7-rotation",
        "변형 7마 (two sit out)",
        "Seven at the table, five play (003 §3.4.1): usually the previous declarer and friend "
        "sit out the next hand (a declarer alone sits out with the next seat after the "
        "dealer). Otherwise 표준: the previous declarer deals. " + _PAGAT_BASE,
        # "매 판마다 2명이 쉬는 방식으로 5마를 플레이한다, 보통 주공과 프랜드가 한 판을 쉰다."
        _with(_STANDARD, {"players": 7, "active_players": 5, "sit_out": "declarer_and_partner"}),
        SOURCE,
    ),
    Preset(
        "korean-2",
        "2마 (two players)",
        "Two players (003 §3.5) with the 23 cards that matter: the 20 point cards, the Joker "
        "and the black 3s, 10 each and 3 in the kitty. The declarer always plays alone against "
        "the other. The page gives no minimum or scoring, so this is 표준's: minimum 14, the "
        "previous declarer deals, 표준's deal-miss scale (which almost never qualifies with "
        "this deck). " + _PAGAT_BASE,
        _with(
            _STANDARD,
            {
                # "2마는 모든 점수 카드와 조커, 검은 3을 넣고 한다"
                "players": 2,
                "active_players": 2,
                "deck": "two_player",
                "always_alone": True,
                "partner_calls": ["none"],
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-2-variant",
        "변형 2마 (tricks)",
        "Variant two players (003 §3.5.1): the 43-card 4마 deck; each draws pairs from the pile, "
        "keeps one card of each pair and throws the other away, 10 each and 3 left face down. "
        "The contract counts tricks, not point cards (\"공약은 먹은 턴 수를 대상으로 한다\"): "
        "enter the tricks the declarer took as the points, out of 10. The declarer plays alone "
        "against the other. Assumed, since the page gives no numbers: the minimum is 6 tricks "
        "(more than half), the maximum 10; a run is all 10 tricks and a back run 6 or more for "
        "the defender; pagat's formula 2×(bid − 6) + overtricks, set pays the shortfall; "
        "otherwise 표준.",
        _with(
            _STANDARD,
            {
                "players": 2,
                "active_players": 2,
                "deck": "variant_two_player",
                # "공약은 먹은 턴 수를 대상으로 한다."
                "counts": "tricks",
                "min_bid": 6,
                "max_bid": 10,
                "back_run": {"n": 6},
                "always_alone": True,
                "partner_calls": ["none"],
            },
        ),
        SOURCE,
    ),
    Preset(
        "korean-gyeonggibuk",
        "경기북 5마",
        "경기북과고 (003 §6.11): bids above 20 are allowed (players bid past 20 to take the "
        "contract and spoil it); otherwise 표준. " + _PAGAT_BASE,
        # "20보다 높게 불러서라도 조커 콜을 잡고 주공이 된다."
        _with(_STANDARD, {"bids_above_max": True}),
        SOURCE,
    ),
)
