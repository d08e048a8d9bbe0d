"""Is a hand legal under a system? Every rule of RULES.md §4–6 as one small function.

``check(hand, system)`` returns every problem at once, each a ``Problem`` with a
stable code, the HAND_JSON field it concerns and a sentence a player at the
table understands. Bad input is never an exception here: an empty list means
the hand may be scored.

One module because its rules are small functions of one shape that ``check``
runs in the order of RULES.md §4–6, so a rule is looked up by its section
here; bid limits and seats have their own modules (limits.py, seats.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from . import tables
from .auction import auction_from_request
from .cards import JOKER, SUIT_NAMES, card_text, mighty, point_count
from .flow import dealer_sits_out
from .hand import Contract, Hand
from .limits import limit_problems
from .problems import Problem
from .seats import seat_count_problem
from .systems import System
from .words import N_, WordList, Words

# Every code check() can return; tests/scoring/test_legality.py has a case for each.
ERROR_CODES = (
    # the table
    "wrong_player_count",
    "wrong_active_count",
    "declarer_sitting_out",
    "partner_sitting_out",
    "sitting_out_not_dealer",
    # limits
    "below_minimum",
    "above_maximum",
    "suit_needs_higher_contract",
    "unscoreable_level",
    # changing trump after the kitty
    "contract_below_bid",
    "trump_change_not_allowed",
    "trump_change_too_small",
    "same_trump_raise_not_allowed",
    # the partner call
    "call_not_allowed",
    "called_card_count",
    "duplicate_called_card",
    "card_not_in_deck",
    "forbidden_call",
    "partner_is_declarer",
    "too_many_partners",
    "partners_with_no_friend",
    "player_call_mismatch",
    "always_alone",
    "secret_solo_not_allowed",
    "called_card_discarded",
    "partner_of_buried_card",
    # discards
    "wrong_discard_count",
    "duplicate_discard",
    "buried_joker_held",
    # points
    "points_inconsistent",
    "missing_points",
    "points_out_of_range",
    "points_below_discards",
    "defender_points_below_discards",
    # during play
    "illegal_instruction",
    "lead_suit_not_allowed",
)

# Extra codes of interface.check_request() when the request also carries the auction.
AUCTION_CROSS_CODES = ("auction_unfinished", "auction_declarer_mismatch", "auction_bid_mismatch")

Rule = Callable[[Hand, System], list[Problem]]


def trump_words(trump: str) -> Words:
    return SUIT_NAMES[trump]


def contract_words(contract: Contract) -> Words:
    if contract.no_trump:
        return Words(N_("{points} no trump"), points=contract.points)
    return Words(N_("{points} in {suit}"), points=contract.points, suit=SUIT_NAMES[contract.trump])


def team_points(hand: Hand, system: System) -> int | None:
    """The declarer's team's points: ``points``, or the total less ``defender_points``."""
    if hand.points is not None:
        return hand.points
    if hand.defender_points is not None:
        return system.total_points - hand.defender_points
    return None


# --- the table ---------------------------------------------------------------


def seat_count(hand: Hand, system: System) -> list[Problem]:
    problem = seat_count_problem(hand.seats, system.players)
    return [] if problem is None else [problem]


def active_count(hand: Hand, system: System) -> list[Problem]:
    active = len(hand.active)
    if active == system.active_players:
        return []
    out = system.players - system.active_players
    if out == 1:
        rule = Words(N_("{active} play each hand and {out} sits out"), active=system.active_players, out=out)
    elif out:
        rule = Words(N_("{active} play each hand and {out} sit out"), active=system.active_players, out=out)
    else:
        rule = Words(N_("all {players} play every hand"), players=system.players)
    return [
        Problem(
            "sitting_out",
            "wrong_active_count",
            Words(N_("In this system {rule}, but {entered} were entered as playing."), rule=rule, entered=active),
        )
    ]


def buried_joker_unheld(hand: Hand, system: System) -> list[Problem]:
    """pagat 3 players: the Joker's holder deals next, "and if the joker was buried the deal passes
    to the left": a Joker in the discards was nobody's."""
    if hand.joker_holder is None or JOKER not in hand.discards:
        return []
    return [
        Problem(
            "joker_holder",
            "buried_joker_held",
            Words(N_("The Joker was buried in the discards, so nobody held it: 'joker_holder' is null.")),
        )
    ]


def declarer_plays(hand: Hand, system: System) -> list[Problem]:
    if hand.declarer not in hand.sitting_out:
        return []
    return [
        Problem(
            "declarer",
            "declarer_sitting_out",
            Words(N_("{seat} sits out this hand, so cannot be the declarer."), seat=hand.declarer),
        )
    ]


def partners_play(hand: Hand, system: System) -> list[Problem]:
    return [
        Problem(
            f"partners[{i}]",
            "partner_sitting_out",
            Words(N_("{seat} sits out this hand, so cannot be a partner."), seat=seat),
        )
        for i, seat in enumerate(hand.partners)
        if seat in hand.sitting_out
    ]


def dealer_sitting_out(hand: Hand, system: System) -> list[Problem]:
    """Where the dealer sits out (pagat 6 players, 003 변형 6마), the one sitting out is the dealer."""
    if not dealer_sits_out(system) or hand.dealer is None or len(hand.sitting_out) != 1:
        return []  # no dealer to check against, or active_count already says the count is wrong
    if hand.sitting_out == (hand.dealer,):
        return []
    return [
        Problem(
            "sitting_out",
            "sitting_out_not_dealer",
            Words(
                N_("In this system the dealer sits the hand out: {dealer} dealt, so {dealer} sits out, "
                   "not {seat}."),
                dealer=hand.dealer,
                seat=hand.sitting_out[0],
            ),
        )
    ]


# --- limits (RULES.md §4.1) --------------------------------------------------


def bid_limits(hand: Hand, system: System) -> list[Problem]:
    if hand.bid is None or hand.bid == hand.contract:
        return []
    return limit_problems(hand.bid, system, what=Words(N_("A bid")), points_field="bid.points", trump_field="bid.trump")


def contract_limits(hand: Hand, system: System) -> list[Problem]:
    return limit_problems(
        hand.contract, system, what=Words(N_("A contract")), points_field="contract.points", trump_field="contract.trump"
    )


def scoreable_level(hand: Hand, system: System) -> list[Problem]:
    """Chicago tables (seed 001) cannot score some levels; the declarer must switch up."""
    if system.base != "table":
        return []
    level = hand.contract.points
    players = system.active_players
    levels = tables.TWO_DECK_LEVELS if system.deck_cards.double else tables.ONE_DECK_LEVELS
    if level not in levels:
        return []  # outside the table altogether: the limits say so
    counts = [system.called_cards]
    # a double-deck team may end with one partner: that table must score the level too
    if 0 < len(hand.partners) < system.called_cards:
        counts.append(len(hand.partners))
    for partners in counts:
        if partners == 2:
            with_whom = Words(N_("{players} players and two partners"), players=players)
        else:
            with_whom = Words(N_("{players} players"), players=players)
        if (players, partners) not in tables.TABLES:
            return [
                Problem(
                    "contract.points",
                    "unscoreable_level",
                    Words(N_("Seed 001 has no table for {with_whom}, so this hand cannot be scored."), with_whom=with_whom),
                )
            ]
        if tables.team_amounts(players, partners, level) is not None:
            continue
        # 001: "If a bid is taken at these levels, the declarer must switch up to the
        # lowest valid level."
        target = tables.lowest_scoreable(players, partners, level)
        if target:
            advice = Words(N_("switch up to {target}"), target=target)
        else:
            advice = Words(N_("no higher level can be scored either"))
        return [
            Problem(
                "contract.points",
                "unscoreable_level",
                Words(
                    N_("A contract of {level} cannot be scored with {with_whom} (Chicago tables): {advice}."),
                    level=level,
                    with_whom=with_whom,
                    advice=advice,
                ),
            )
        ]
    return []


# --- changing trump after the kitty (RULES.md §4.3) ----------------------------


def change_kind(bid: Contract, contract: Contract) -> str:
    """'same', 'to_nt' (suit → NT) or 'suit' (suit → another suit, or NT → suit)."""
    if bid.trump == contract.trump:
        return "same"
    return "to_nt" if contract.no_trump else "suit"


def required_contract(
    bid: Contract, trump: str, system: System, *, before_kitty: bool = False
) -> int:
    """The lowest contract in ``trump`` that a winning ``bid`` may become."""
    rules = system.trump_change
    kind = change_kind(bid, Contract(bid.points, trump))
    if kind == "same":
        return bid.points
    raise_by = rules.to_nt if kind == "to_nt" else rules.suit
    if before_kitty:
        # pagat variant: a change announced before taking the kitty needs one less
        raise_by -= rules.before_kitty_discount
    needed = bid.points + max(raise_by, 0)
    top = system.max_bid
    if needed > top:
        if bid.points < top and kind == "suit" and rules.nineteen_to_twenty:
            # pagat: "If changing from one suit to another or from no-trumps to a suit ...
            # unless the bid was 19 in which case it is sufficient to increase it to 20": a bid
            # just under the maximum may change suit by going to the maximum (a change to no
            # trump has its own exception, at 20 only)
            needed = top
        elif bid.points == top and kind == "to_nt" and rules.twenty_to_no_trump:
            # pagat: "unless the bid was already 20 in which case it can be changed to
            # '20 with no-trump'"
            needed = top
    return needed


def contract_not_below_bid(hand: Hand, system: System) -> list[Problem]:
    bid = hand.auction_bid
    if hand.contract.points >= bid.points:
        return []
    return [
        Problem(
            "contract.points",
            "contract_below_bid",
            Words(
                N_("The contract ({contract}) cannot be lower than the winning bid ({bid}): "
                   "the kitty only lets the declarer raise it."),
                contract=hand.contract.points,
                bid=bid.points,
            ),
        )
    ]


def trump_change(hand: Hand, system: System) -> list[Problem]:
    bid, contract = hand.auction_bid, hand.contract
    kind = change_kind(bid, contract)
    if kind == "same" or contract.points < bid.points:
        return []
    old, new = trump_words(bid.trump), trump_words(contract.trump)
    if not system.trump_change.allowed:
        # 관악 5마: trump is named with the bid, before the kitty, and cannot change
        return [
            Problem(
                "contract.trump",
                "trump_change_not_allowed",
                Words(
                    N_("Changing trump from {old} to {new} is not allowed in this system: trump stays as bid."),
                    old=old,
                    new=new,
                ),
            )
        ]
    needed = required_contract(bid, contract.trump, system, before_kitty=hand.changed_before_kitty)
    if contract.points >= needed:
        return []
    if hand.changed_before_kitty:
        change = Words(N_("Changing trump from {old} to {new} (announced before the kitty)"), old=old, new=new)
    else:
        change = Words(N_("Changing trump from {old} to {new}"), old=old, new=new)
    if needed > system.max_bid and not system.bids_above_max:
        return [
            Problem(
                "contract.points",
                "trump_change_too_small",
                Words(
                    N_("{change} needs {needed} or more, above this system's maximum of {maximum}: "
                       "from a bid of {bid} trump cannot change."),
                    change=change,
                    needed=needed,
                    maximum=system.max_bid,
                    bid=bid.points,
                ),
            )
        ]
    return [
        Problem(
            "contract.points",
            "trump_change_too_small",
            Words(N_("{change} needs {needed} or more: the bid was {bid}."), change=change, needed=needed, bid=bid.points),
        )
    ]


def same_trump_raise(hand: Hand, system: System) -> list[Problem]:
    bid, contract = hand.auction_bid, hand.contract
    if system.trump_change.same_trump_raise or bid.trump != contract.trump:
        return []
    if contract.points <= bid.points:
        return []
    # Denexa (seed 004): the contract changes only with the trump suit
    return [
        Problem(
            "contract.points",
            "same_trump_raise_not_allowed",
            Words(
                N_("This system does not let the declarer raise the contract while keeping {trump}: "
                   "the bid was {bid}, so the contract is {bid}."),
                trump=trump_words(bid.trump),
                bid=bid.points,
            ),
        )
    ]


# --- the partner call (RULES.md §5) --------------------------------------------


def call_type(hand: Hand, system: System) -> list[Problem]:
    call = hand.partner_call.type
    if call in system.partner_calls:
        return []
    words = {
        "card": N_("calling a card"),
        "first_trick": N_("the first-trick partner"),
        "none": N_("announcing no friend"),
        "player": N_("naming a player as partner"),
    }
    allowed = WordList(Words(words[c]) for c in system.partner_calls)
    return [
        Problem(
            "partner_call.type",
            "call_not_allowed",
            Words(N_("This system does not allow {call}; it allows {allowed}."), call=Words(words[call]), allowed=allowed),
        )
    ]


def called_card_count(hand: Hand, system: System) -> list[Problem]:
    call = hand.partner_call
    if call.type != "card" or len(call.cards) == system.called_cards:
        return []
    wanted = Words(N_("one card") if system.called_cards == 1 else N_("two distinct cards (two decks)"))
    if len(call.cards) == 1:
        sentence = N_("The declarer calls exactly {wanted} in this system: {count} was entered.")
    else:
        sentence = N_("The declarer calls exactly {wanted} in this system: {count} were entered.")
    return [
        Problem("partner_call.cards", "called_card_count", Words(sentence, wanted=wanted, count=len(call.cards)))
    ]


def called_cards_valid(hand: Hand, system: System) -> list[Problem]:
    call = hand.partner_call
    if call.type != "card":
        return []
    deck = system.deck_cards
    problems, seen = [], set()
    for i, card in enumerate(call.cards):
        field = f"partner_call.cards[{i}]"
        if card in seen:
            problems.append(
                Problem(
                    field,
                    "duplicate_called_card",
                    Words(N_("{card} is called twice: the two called cards must differ (seed 001)."), card=card_text(card)),
                )
            )
        seen.add(card)
        if not deck.holds(card):
            problems.append(
                Problem(
                    field,
                    "card_not_in_deck",
                    Words(
                        N_("{card} cannot be called: it is not in this deck ({deck})."),
                        card=card_text(card),
                        deck=Words(deck.description),
                    ),
                )
            )
    return problems


def forbidden_call(hand: Hand, system: System) -> list[Problem]:
    call = hand.partner_call
    if call.type != "card":
        return []
    # 003 §3.5 (Korean 4마): the Mighty and the Joker may not be called; pagat: some forbid
    # calling the Joker with four. The Mighty is the card of the final trump.
    banned = {}
    if "mighty" in system.forbidden_calls:
        card = mighty(hand.contract.trump, spade_trump_keeps_mighty=system.spade_trump_keeps_mighty)
        banned[card] = Words(N_("the Mighty ({card} with {trump})"), card=card_text(card), trump=trump_words(hand.contract.trump))
    if "joker" in system.forbidden_calls:
        banned[JOKER] = Words(N_("the Joker"))
    return [
        Problem(
            f"partner_call.cards[{i}]",
            "forbidden_call",
            Words(N_("This system does not allow calling {card} as partner card."), card=banned[card]),
        )
        for i, card in enumerate(call.cards)
        if card in banned
    ]


def partner_not_declarer(hand: Hand, system: System) -> list[Problem]:
    return [
        Problem(
            f"partners[{i}]",
            "partner_is_declarer",
            Words(N_("{seat} is the declarer and cannot also be their own partner."), seat=seat),
        )
        for i, seat in enumerate(hand.partners)
        if seat == hand.declarer
    ]


def partner_count(hand: Hand, system: System) -> list[Problem]:
    call, partners = hand.partner_call, hand.partners
    if not partners:
        return []
    if system.always_alone:
        # pagat 3 players, 제주 3마: the declarer always plays alone
        return [
            Problem(
                "partners",
                "always_alone",
                Words(N_("In this system the declarer always plays alone: enter no partners.")),
            )
        ]
    if call.type == "none":
        return [
            Problem(
                "partners",
                "partners_with_no_friend",
                Words(N_("The declarer announced no friend, so there can be no partner.")),
            )
        ]
    most = system.called_cards if call.type == "card" else 1
    if len(partners) <= most:
        return []
    how = {
        "card": N_("{most} called cards") if most > 1 else N_("{most} called card"),
        "first_trick": N_("the winner of the first trick"),
        "player": N_("the named player"),
    }[call.type]
    if most > 1:
        sentence = N_("{count} partners were entered, but {how} can make at most {most} partners.")
    else:
        sentence = N_("{count} partners were entered, but {how} can make at most {most} partner.")
    return [
        Problem(
            "partners",
            "too_many_partners",
            Words(sentence, count=len(partners), how=Words(how, most=most), most=most),
        )
    ]


def player_call(hand: Hand, system: System) -> list[Problem]:
    call = hand.partner_call
    if call.type != "player":
        return []
    seat = call.seat
    if seat is None:
        return [
            Problem(
                "partner_call.seat",
                "player_call_mismatch",
                Words(N_("A player call must name the seat that becomes the partner.")),
            )
        ]
    if seat == hand.declarer:
        return [
            Problem(
                "partner_call.seat",
                "partner_is_declarer",
                Words(N_("{seat} is the declarer and cannot name themselves as partner."), seat=seat),
            )
        ]
    if seat in hand.sitting_out:
        return [
            Problem(
                "partner_call.seat",
                "partner_sitting_out",
                Words(N_("{seat} sits out this hand, so cannot be named as partner."), seat=seat),
            )
        ]
    if hand.partners == (seat,) or system.always_alone:
        return []
    return [
        Problem(
            "partners",
            "player_call_mismatch",
            Words(N_("The declarer named {seat} as partner, so the partners must be exactly {seat}."), seat=seat),
        )
    ]


def secret_solo(hand: Hand, system: System) -> list[Problem]:
    if (
        hand.partner_call.type != "card"
        or hand.partners
        or system.secret_solo
        or system.always_alone
    ):
        return []
    # 001 and a pagat variant: the called card may be neither held nor buried by the declarer,
    # so a card call always finds a partner; playing alone means announcing no friend
    return [
        Problem(
            "partners",
            "secret_solo_not_allowed",
            Words(
                N_("A card was called but no partner was entered: that would be a secret solo, "
                   "which this system does not allow. Enter the partner, or announce no friend.")
            ),
        )
    ]


def called_card_buried(hand: Hand, system: System) -> list[Problem]:
    call = hand.partner_call
    if system.secret_solo or call.type != "card":
        return []
    # 001: the declarer names a card "he neither possesses in his hand nor has buried"
    return [
        Problem(
            f"discards[{i}]",
            "called_card_discarded",
            Words(N_("{card} was called as partner card, so the declarer may not bury it in this system."),
                  card=card_text(card)),
        )
        for i, card in enumerate(hand.discards)
        if card in call.cards
    ]


def buried_call_alone(hand: Hand, system: System) -> list[Problem]:
    """A called card the declarer buried makes no partner: he plays alone.

    pagat (seed 000): "If the declarer calls a card that is in his own hand or which he
    discarded, he will be playing alone against the other four." With two decks a card
    makes no partner only when both its copies were buried (001: "of which he neither
    possesses both copies nor has buried").
    """
    call = hand.partner_call
    if call.type != "card" or not hand.partners or system.always_alone:
        return []
    deck = system.deck_cards
    buried = Counter(hand.discards)
    dead = [card for card in dict.fromkeys(call.cards) if deck.holds(card) and buried[card] >= deck.count(card)]
    if not dead:
        return []
    live = len(set(call.cards)) - len(dead)
    if len(hand.partners) <= live:
        return []
    # as the table writes them (♥A), as every reason does
    cards = WordList(card_text(card) for card in dead)
    if live == 0:
        sentence = N_("The declarer buried the called card {cards}, so nobody holds it: the declarer "
                      "plays alone, and no partner may be entered.")
    else:
        sentence = N_("The declarer buried the called card {cards}, so only {live} partner may be entered.")
    return [Problem("partners", "partner_of_buried_card", Words(sentence, cards=cards, live=live))]


# --- discards (RULES.md §5) ------------------------------------------------------


def discard_count(hand: Hand, system: System) -> list[Problem]:
    wanted = system.deck_cards.discards
    if not hand.discards or len(hand.discards) == wanted:
        return []
    if len(hand.discards) == 1:
        sentence = N_("The declarer buries exactly {wanted} cards in this game: {count} was entered.")
    else:
        sentence = N_("The declarer buries exactly {wanted} cards in this game: {count} were entered.")
    return [Problem("discards", "wrong_discard_count", Words(sentence, wanted=wanted, count=len(hand.discards)))]


def discards_valid(hand: Hand, system: System) -> list[Problem]:
    deck = system.deck_cards
    problems, seen = [], Counter()
    for i, card in enumerate(hand.discards):
        field = f"discards[{i}]"
        if not deck.holds(card):
            problems.append(
                Problem(
                    field,
                    "card_not_in_deck",
                    Words(
                        N_("{card} cannot be buried: it is not in this deck ({deck})."),
                        card=card_text(card),
                        deck=Words(deck.description),
                    ),
                )
            )
            continue
        seen[card] += 1
        copies = deck.count(card)
        if seen[card] > copies:
            if copies == 1:
                sentence = N_("{card} is buried {times} times, but this deck holds one.")
            else:
                sentence = N_("{card} is buried {times} times, but this deck holds only two.")
            problems.append(Problem(field, "duplicate_discard", Words(sentence, card=card_text(card), times=seen[card])))
    return problems


# --- points (RULES.md §6) ----------------------------------------------------------


def points_given(hand: Hand, system: System) -> list[Problem]:
    if hand.points is not None or hand.defender_points is not None or hand.outcome != "played":
        return []
    return [
        Problem(
            "points",
            "missing_points",
            Words(N_("Enter the point cards the declarer's team took (or the defenders' count).")),
        )
    ]


def points_range(hand: Hand, system: System) -> list[Problem]:
    total = system.total_points
    problems = []
    for field, value, sentence in (
        (
            "points",
            hand.points,
            N_("The declarer's team cannot take {value} point cards: there are {total} in this deck."),
        ),
        (
            "defender_points",
            hand.defender_points,
            N_("The defenders cannot take {value} point cards: there are {total} in this deck."),
        ),
    ):
        if value is not None and not 0 <= value <= total:
            problems.append(Problem(field, "points_out_of_range", Words(sentence, value=value, total=total)))
    return problems


def _in_range(value: int | None, total: int) -> bool:
    return value is not None and 0 <= value <= total


def points_agree(hand: Hand, system: System) -> list[Problem]:
    total = system.total_points
    if not (_in_range(hand.points, total) and _in_range(hand.defender_points, total)):
        return []
    if hand.points + hand.defender_points == total:
        return []
    return [
        Problem(
            "defender_points",
            "points_inconsistent",
            Words(
                N_("{points} points for the declarer's team and {defender_points} for the defenders "
                   "make {sum}, not the {total} point cards in this deck: enter one of them, or make them add up."),
                points=hand.points,
                defender_points=hand.defender_points,
                sum=hand.points + hand.defender_points,
                total=total,
            ),
        )
    ]


def points_cover_discards(hand: Hand, system: System) -> list[Problem]:
    total = system.total_points
    team = team_points(hand, system)
    if not _in_range(team, total) or not hand.discards or system.counts == "tricks":
        # counting tricks (변형 2마), a buried card wins no trick for anyone
        return []
    if (
        hand.points is not None
        and hand.defender_points is not None
        and hand.points + hand.defender_points != total
    ):
        return []  # points_inconsistent already says so
    buried = point_count(card for card in hand.discards if system.deck_cards.holds(card))
    side = system.discards_count_for
    held = team if side == "declarer" else total - team
    if held >= buried:
        return []
    code, one_card, more_cards = _DISCARDS_COUNT_FOR[side]
    # the problem goes beside the points the table entered: this side's own count when given
    own, other = ("points", "defender_points") if side == "declarer" else ("defender_points", "points")
    field = own if getattr(hand, own) is not None else other
    sentence = one_card if buried == 1 else more_cards
    return [Problem(field, code, Words(sentence, buried=buried, team=team, defenders=total - team))]


# whoever the buried point cards count for must have taken at least that many
_DISCARDS_COUNT_FOR = {
    # pagat and most tables: the discards are the declarer's team's
    "declarer": (
        "points_below_discards",
        N_("The discards hold {buried} point card, which count for the declarer's team, "
           "but only {team} points were entered for it."),
        N_("The discards hold {buried} point cards, which count for the declarer's team, "
           "but only {team} points were entered for it."),
    ),
    # 신촌 5마 (seed 003 §6.3): the buried point cards count for the defenders
    "defenders": (
        "defender_points_below_discards",
        N_("The discards hold {buried} point card, which count for the defenders in this system, "
           "but the defenders were left only {defenders}."),
        N_("The discards hold {buried} point cards, which count for the defenders in this system, "
           "but the defenders were left only {defenders}."),
    ),
}


# --- during play (RULES.md §5) -------------------------------------------------------


def instructions(hand: Hand, system: System) -> list[Problem]:
    """'Partner, take this trick' (pagat after John Pannell; seed 001)."""
    said = hand.instructions
    # entered as its rule says (set by the declarer's team's concession, or void): nothing to refuse;
    # a concession by the defenders would pay the declarer for the instruction that set him
    if said <= 0 or hand.outcome == "void" or (hand.outcome == "conceded" and hand.conceded_by == "declarer_team"):
        return []
    rules = system.partner_instruction
    # each reason is written as it reads in its place: the first one opens the sentence
    reasons = []
    if not rules.allowed:
        reasons.append(Words(N_("This system does not allow telling the partner to take a trick")))
    else:
        if hand.contract.points < rules.min_contract:
            reasons.append(
                Words(
                    N_('"partner, take this trick" needs a contract of {minimum} or more, and this one is {contract}'),
                    minimum=rules.min_contract,
                    contract=hand.contract.points,
                )
            )
        if said > rules.per_hand:
            times = Words(N_("once")) if rules.per_hand == 1 else Words(N_("{count} times"), count=rules.per_hand)
            if reasons:
                sentence = N_("it may be said {times} a hand, and it was said {said} times")
            else:
                sentence = N_("It may be said {times} a hand, and it was said {said} times")
            reasons.append(Words(sentence, times=times, said=said))
    if not reasons:
        return []
    # 001: "Any other instruction, or instruction at a lower bid level, causes the contract to
    # be immediately deemed set. If the partnership is not fully known at this point, the
    # hand is not scored."
    return [
        Problem(
            "instructions",
            "illegal_instruction",
            Words(
                N_("{reasons}. The hand must be entered as conceded by the declarer's team "
                   "(or void if the partnership was not yet known)."),
                reasons=WordList(reasons, "; "),
            ),
        )
    ]


def lead_suit(hand: Hand, system: System) -> list[Problem]:
    suit = hand.lead_suit
    if suit is None:
        return []
    contract = hand.contract
    # pagat, Denexa: only with 20 no trump may the declarer name a suit for the partner to lead
    # (parse_hand already refused anything that is not a suit)
    if contract.no_trump and contract.points >= system.max_bid:
        return []
    return [
        Problem(
            "lead_suit",
            "lead_suit_not_allowed",
            Words(
                N_("Only a {maximum} no-trump contract may name a suit for the partner to lead: "
                   "this contract is {contract}."),
                maximum=system.max_bid,
                contract=contract_words(contract),
            ),
        )
    ]


RULES: tuple[Rule, ...] = (
    seat_count,
    active_count,
    declarer_plays,
    partners_play,
    dealer_sitting_out,
    bid_limits,
    contract_limits,
    scoreable_level,
    contract_not_below_bid,
    trump_change,
    same_trump_raise,
    call_type,
    called_card_count,
    called_cards_valid,
    forbidden_call,
    partner_not_declarer,
    partner_count,
    player_call,
    secret_solo,
    called_card_buried,
    buried_call_alone,
    discard_count,
    discards_valid,
    buried_joker_unheld,
    points_given,
    points_range,
    points_agree,
    points_cover_discards,
    instructions,
    lead_suit,
)


def check(hand: Hand, system: System) -> list[Problem]:
    """Every rule of RULES.md §4–6 that ``hand`` breaks under ``system``; [] when legal."""
    problems: list[Problem] = []
    for rule in RULES:
        problems += rule(hand, system)
    return problems


# --- the JSON boundary -------------------------------------------------------------------


def _auction_problems(data: dict, hand: Hand, system: System) -> list[Problem]:
    """When the request carries the auction, it must be legal and end in this hand's bid."""
    result, problems = auction_from_request(data, system)
    if problems or result is None or not result.legal:
        return problems + (list(result.problems) if result is not None else [])
    if not result.finished:
        return [
            Problem(
                "auction",
                "auction_unfinished",
                Words(N_("The auction entered has not finished: every player but one must pass.")),
            )
        ]
    if result.thrown_in:
        return [
            Problem(
                "auction",
                "auction_unfinished",
                Words(N_("Everyone passed in the auction entered: the hand was thrown in, not played.")),
            )
        ]
    problems = []
    if result.declarer != hand.declarer:
        problems.append(
            Problem(
                "declarer",
                "auction_declarer_mismatch",
                Words(N_("The auction was won by {winner}, not {declarer}."), winner=result.declarer, declarer=hand.declarer),
            )
        )
    if result.bid != hand.auction_bid:
        if hand.bid is not None:
            field, said = "bid", N_("The auction ended at {auction_bid}, but the bid entered is {bid}.")
        else:
            # no bid given: the contract stands for it (HAND_JSON), which a trump change after the kitty moved
            field, said = "contract", N_("The auction ended at {auction_bid}, but the contract is {bid} and no "
                                         "bid was entered: after a trump change, give the winning bid as 'bid'.")
        problems.append(
            Problem(
                field,
                "auction_bid_mismatch",
                Words(said, auction_bid=contract_words(result.bid), bid=contract_words(hand.auction_bid)),
            )
        )
    return problems


def auction_problems(data: dict, hand: Hand, system: System) -> list[Problem]:
    """The problems of an auction attached to a hand request (``"auction": [...]``), if any."""
    if data.get("auction") is None:
        return []
    return _auction_problems(data, hand, system)
