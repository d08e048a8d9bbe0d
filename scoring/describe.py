"""A scoring system in words, generated from its options, and two systems compared option by option.

Every sentence comes from a table keyed by option path (and value), so a
preset is never described by hand and the words cannot drift from the data.
The tables hold English templates wrapped in ``N_`` and every sentence is a
``Words`` (scoring/words.py), so the web layer renders it in the reader's
language. The engine itself stays free of Django.

One module because its length is the two sentence tables, one entry per
option path, which are data; the functions that read them are short, and a
reader looks an option's words up in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import DECKS
from .redeal import CRITERION_WORDS, THRESHOLD_TEXT, criterion_words  # noqa: F401  (criterion_words: importable from here)
from .systems import System, system_diff

# the sentence machinery moved to words.py, the criteria's words to redeal.py; their names stay
# importable from here
from .words import N_, Translate, WordList, Words, _fill, _render  # noqa: F401


@dataclass(frozen=True)
class Section:
    title: Words
    lines: tuple[Words, ...]


@dataclass(frozen=True)
class Difference:
    path: str
    label: Words
    left_words: Words
    right_words: Words


# --- the tables -------------------------------------------------------------------------

SECTION_TITLES = {
    "players": N_("Players and cards"),
    "bidding": N_("Bidding"),
    "trump_change": N_("Changing trump"),
    "partner": N_("The partner (프렌드)"),
    "base": N_("Base score"),
    "doubles": N_("Doubles"),
    "payments": N_("Who pays whom"),
    "discards": N_("Discards"),
    "deal_miss": N_("Deal miss (딜 미스)"),
    "dealing": N_("Dealing and bidding order"),
}

# One short name per option, the row label of a comparison.
OPTION_LABELS = {
    "players": N_("Players"),
    "deck": N_("Deck"),
    "active_players": N_("Players in each hand"),
    "counts": N_("What a contract counts"),
    "min_bid": N_("Minimum bid"),
    "max_bid": N_("Maximum bid"),
    "bids_above_max": N_("Bids above the maximum"),
    "base": N_("Base score"),
    "set": N_("Set contract"),
    "minimum_score": N_("Lowest score of a made contract"),
    "nt_discount_in_score": N_("No-trump discount in the score too"),
    "doubles.run": N_("Run double"),
    "doubles.back_run": N_("Back-run double"),
    "doubles.no_trump": N_("No-trump double"),
    "doubles.no_friend": N_("No-friend double"),
    "doubles.buried_mighty": N_("Buried-Mighty double"),
    "doubles.buried_joker": N_("Buried-Joker double"),
    "doubles.grand_slam_bid": N_("Grand-slam-bid double"),
    "doubles.set_contract": N_("Set-contract double"),
    "back_run.rule": N_("What is a back run"),
    "back_run.n": N_("Back-run count"),
    "discards_count_for": N_("Points in the discards"),
    "four_player_set_split": N_("Four players, set contract"),
    "trump_penalty": N_("Trump-suit penalty"),
    "hard_offset": N_("Hard score: added to the 12 it counts over"),
    "min_suit_contract": N_("Lowest contract with a trump suit"),
    "secret_solo": N_("Secret solo"),
    "always_alone": N_("Declarer always alone"),
    "partner_calls": N_("How the partner is found"),
    "forbidden_calls": N_("Cards that may not be called"),
    "called_cards": N_("Called cards"),
    "spade_trump_keeps_mighty": N_("Mighty with spades trump"),
    "trump_change.allowed": N_("Changing trump"),
    "trump_change.suit": N_("Raise to change suit"),
    "trump_change.to_nt": N_("Raise to change to no trump"),
    "trump_change.nineteen_to_twenty": N_("19 → 20"),
    "trump_change.twenty_to_no_trump": N_("20 → 20 no trump"),
    "trump_change.same_trump_raise": N_("Raising without changing trump"),
    "trump_change.before_kitty_discount": N_("Change before the kitty"),
    "auction.nt_discount": N_("No-trump bids"),
    "auction.reenter_after_pass": N_("Bidding after a pass"),
    "auction.dealer_may_pass": N_("Dealer's first turn"),
    "auction.forced_minimum": N_("Everyone else passes"),
    "auction.all_pass": N_("All pass"),
    "partner_instruction.allowed": N_("\"Partner, take this trick\""),
    "partner_instruction.min_contract": N_("\"Partner, take this trick\" from"),
    "partner_instruction.per_hand": N_("\"Partner, take this trick\" per hand"),
    "deal_miss.criteria": N_("Deal-miss hands"),
    "deal_miss.threshold": N_("Deal-miss threshold"),
    "deal_miss.one_eyed_jacks_only": N_("Lone jack"),
    "deal_miss.bid_20_cancels": N_("Deal miss and a bid of 20"),
    "deal_miss.bid_20_after_demand": N_("A bid of 20 after a deal miss"),
    "deal_miss.before_bidding_only": N_("When a deal miss may be called"),
    "deal_miss.optional": N_("Must a deal miss be called"),
    "deal_miss.next_dealer": N_("Dealer after a deal miss"),
    "deal_miss.fine": N_("Deal-miss fine"),
    "next_dealer": N_("Next dealer"),
    "first_bidder": N_("First bidder"),
    "sit_out": N_("Who sits out"),
}

# The made-contract formula of each base, in the system's own numbers.
_MADE_FORMULAS = {
    "pagat": "2 × (B − {m}) + (P − B)",
    "over_ten": "P − {half}",
    "over_min": "P − {m}",
    "over_min_plus_one": "P − {m} + 1",
    "flat_bid": "B − {m} + 1",
    "over_bid": "P − B",
    "hard": "B − {unit}",
}
# The same formulas when a set contract counts as if made exactly (P = B).
_EXACT_FORMULAS = {
    "pagat": "2 × (B − {m})",
    "over_ten": "B − {half}",
    "over_min": "B − {m}",
    "over_min_plus_one": "B − {m} + 1",
    "flat_bid": "B − {m} + 1",
    "over_bid": "0",
    "hard": "B − {unit}",
}

# For each option path, a sentence per value; "*" is any other value ({value} in it).
OPTION_WORDS: dict[str, dict[object, str]] = {
    "players": {"*": N_("{value} players sit at the table.")},
    "deck": {"*": N_("The deck: {description}.")},
    "active_players": {"*": N_("{value} players play each hand.")},
    "counts": {
        "point_cards": N_("A contract counts point cards (A K Q J 10)."),
        "tricks": N_("A contract counts tricks, not point cards."),
    },
    "min_bid": {"*": N_("The minimum bid is {value}.")},
    "max_bid": {"*": N_("The highest bid is {value}.")},
    "bids_above_max": {
        True: N_("Bids above the maximum are allowed."),
        False: N_("Nobody may bid above the maximum."),
    },
    "base": {
        "pagat": N_("A made contract scores 2 × (B − {m}) + (P − B): twice the bid over the minimum, plus one for each point over the bid."),
        "over_ten": N_("A made contract scores P − {half}: one for each point over {half}, whatever the bid."),
        "over_min": N_("A made contract scores P − {m}: one for each point over the minimum bid."),
        "over_min_plus_one": N_("A made contract scores P − {m} + 1: one for each point over {m_less}."),
        "flat_bid": N_("A contract scores B − {m} + 1, with nothing for points over the bid."),
        "over_bid": N_("A made contract scores P − B: one for each point over the bid."),
        "hard": N_("A contract scores B − {unit}, the bid over {unit}, whatever the points."),
        "table": N_("Payments come from the Chicago tables (seed 001): each defender wins or loses B − {unit}, and the declarer's team shares the opposite, about 2 : 1."),
    },
    "set": {
        "shortfall": N_("A set contract pays the shortfall, B − P."),
        "same_as_made": N_("A set contract pays what it would have scored if made exactly: {exact}."),
        "pays_back": N_("A set contract pays (B − {half}) + (B − P)."),
    },
    "nt_discount_in_score": {
        True: N_("A no-trump contract counts from one under the minimum, as it ranks in the bidding: 13 NT scores as 14 in a suit."),
        False: N_("A no-trump contract counts from the minimum too: one bid under it scores less than a suit bid of the same number."),
    },
    "minimum_score": {
        0: N_("A contract made exactly at the minimum may score 0."),
        1: N_("A made contract scores at least 1."),
    },
    "back_run.rule": {
        "defenders_at_least": N_("A back run (백런) is when the defenders take {n} or more point cards."),
        "short_by": N_("A back run (백런) is when the contract fails by {n} or more."),
        "defenders_reach_bid": N_("A back run (백런) is when the defenders take at least the contract's number of point cards."),
    },
    "back_run.n": {"*": N_("The back-run count is {value}.")},
    "discards_count_for": {
        "declarer": N_("Point cards the declarer discards count for the declarer's team."),
        "defenders": N_("Point cards the declarer discards count for the defenders."),
    },
    "four_player_set_split": {
        "equal": N_("With four players a set contract costs the declarer and the partner the same."),
        "declarer_alone": N_("With four players a set declarer pays both defenders and the partner pays nothing."),
    },
    "hard_offset": {
        0: N_("The hard score counts the contract over 12 (24 with two decks)."),
        "*": N_("The hard score counts the contract over 12 + {value} (24 + {value} with two decks)."),
    },
    "trump_penalty": {
        0: N_("A trump suit costs nothing."),
        "*": N_("A contract with a trump suit scores {value} less."),
    },
    "min_suit_contract": {
        0: N_("Any contract may name a trump suit."),
        "*": N_("A contract below {value} must be no trump."),
    },
    "secret_solo": {
        True: N_("The declarer may call a card they hold or buried, and so play alone in secret."),
        False: N_("The called card may be neither held nor buried by the declarer: no secret solo."),
    },
    "always_alone": {
        True: N_("The declarer always plays alone (노프렌드 by rule, so the no-friend double does not count)."),
        False: N_("The declarer plays with a partner, or announces no friend (노프렌드)."),
    },
    "partner_calls": {
        "*": N_("Ways to find the partner: {items}."),
    },
    "forbidden_calls": {
        (): N_("Any card may be called, the Mighty and the Joker included."),
        "*": N_("These may not be called: {items}."),
    },
    "called_cards": {
        1: N_("The declarer calls one partner card."),
        "*": N_("The declarer calls {value} partner cards: the team may have 0, 1 or 2 partners."),
    },
    "spade_trump_keeps_mighty": {
        True: N_("The Mighty stays ♠A even when spades are trump."),
        False: N_("The Mighty (마이티) is ♠A, or ♦A when spades are trump."),
    },
    "trump_change.allowed": {
        True: N_("The declarer may change trump after taking the kitty."),
        False: N_("Trump is named before the kitty and cannot change."),
    },
    "trump_change.suit": {
        0: N_("Changing to another suit, or from no trump to a suit, needs no raise."),
        "*": N_("Changing to another suit, or from no trump to a suit, needs a raise of {value}."),
    },
    "trump_change.to_nt": {
        0: N_("Changing to no trump (노기루다) needs no raise."),
        "*": N_("Changing to no trump (노기루다) needs a raise of {value}."),
    },
    # pagat's 19 → 20 and 20 → 20 NT, said with the system's own maximum and raise
    "trump_change.nineteen_to_twenty": {
        True: N_("A {low} contract may change suit by going to {top}."),
        False: N_("A {low} contract cannot change suit, since it would need more than {top}."),
    },
    "trump_change.twenty_to_no_trump": {
        True: N_("A {top} contract in a suit may become {top} no trump."),
        False: N_("A {top} contract in a suit cannot become no trump."),
    },
    "trump_change.same_trump_raise": {
        True: N_("The declarer may raise the contract without changing trump."),
        False: N_("The contract may be raised only to change trump."),
    },
    "trump_change.before_kitty_discount": {
        0: N_("A change announced before taking the kitty costs the same."),
        "*": N_("A change announced before taking the kitty needs {value} less."),
    },
    "auction.nt_discount": {
        True: N_("A no-trump bid ranks one above its number: it may be one under a suit bid."),
        False: N_("A no-trump bid beats a suit bid of the same number only."),
    },
    "auction.reenter_after_pass": {
        True: N_("A player who passed may bid again later."),
        False: N_("A player who passed may not bid again."),
    },
    "auction.dealer_may_pass": {
        True: N_("The dealer may pass on the first turn."),
        False: N_("The dealer may not pass on the first turn."),
    },
    "auction.forced_minimum": {
        True: N_("When all the others pass, the last player must bid the minimum."),
        False: N_("When all the others pass, the last player may pass too."),
    },
    "auction.all_pass": {
        "redeal": N_("When everyone passes, the cards are thrown in and redealt."),
        "second_round": N_("When everyone passes, there is a second round of bidding first."),
    },
    "partner_instruction.allowed": {
        True: N_("The declarer may say \"partner, take this trick\"."),
        False: N_("The declarer may not tell the partner to take a trick."),
    },
    "partner_instruction.min_contract": {
        "*": N_("\"Partner, take this trick\" needs a contract of {value} or more."),
    },
    "partner_instruction.per_hand": {
        "*": N_("\"Partner, take this trick\" may be said {value} times a hand."),
    },
    "deal_miss.criteria": {
        (): N_("No hand may demand a redeal."),
        "*": N_("A player may demand a redeal (딜 미스) when: {items}."),
    },
    "deal_miss.threshold": {
        "*": N_("A counted hand qualifies at {value} or less."),
    },
    "deal_miss.one_eyed_jacks_only": {
        True: N_("A lone jack counts only when it is a one-eyed jack, ♠J or ♥J."),
        False: N_("A lone jack of any suit counts."),
    },
    "deal_miss.bid_20_cancels": {
        True: N_("A bid of {top} forbids a deal miss."),
        False: N_("A bid of {top} does not change the deal miss."),
    },
    "deal_miss.bid_20_after_demand": {
        True: N_("Another player may stop a deal miss by bidding {top} after it is demanded."),
        False: N_("Nobody can stop a deal miss by bidding after it is demanded."),
    },
    "deal_miss.before_bidding_only": {
        True: N_("A deal miss must be called before the bidding."),
        False: N_("A deal miss may be called during the bidding."),
    },
    "deal_miss.optional": {
        True: N_("A player with such a hand may keep playing it."),
        False: N_("A player with such a hand must show it and redeal."),
    },
    "deal_miss.next_dealer": {
        "demander": N_("After a deal miss, the player who showed the hand deals."),
        "next": N_("After a deal miss, the next player in turn deals."),
        "previous": N_("After a deal miss, the previous dealer's right-hand neighbour deals."),
        "same": N_("After a deal miss, the same dealer deals again."),
    },
    "deal_miss.fine": {
        0: N_("A deal miss costs nothing."),
        "*": N_("A deal miss costs the dealer {value}, paid into a pot the winners of the next hand take."),
    },
    "next_dealer": {
        "partner": N_("The previous partner deals next (the declarer when alone)."),
        "declarer": N_("The previous declarer deals next."),
        "partner_if_made": N_("The previous partner deals when the declarer's team won, otherwise the declarer."),
        "rotation": N_("The deal passes to the next player in turn."),
        "previous_dealer": N_("The same dealer deals again."),
        "joker_holder": N_("Whoever held the Joker deals next (when nobody did, the deal passes on)."),
    },
    "first_bidder": {
        "declarer": N_("The dealer bids first on the first hand, then the previous declarer."),
        "partner": N_("The dealer bids first on the first hand, then the previous partner."),
        "dealer": N_("The dealer bids first."),
        "left_of_dealer": N_("The player after the dealer bids first; the dealer bids last."),
    },
    "sit_out": {
        "none": N_("Everyone at the table plays every hand."),
        "dealer": N_("The dealer sits out the hand."),
        "previous_result": N_("The previous result decides who sits out: the partner when the declarer's team won, otherwise the declarer."),
        "declarer_and_partner": N_("The previous declarer and partner sit out."),
        "knockout": N_("The declarer knocks players out by naming a card; they score 0 on that hand."),
    },
}

# The doubles: what each one needs, and when the system applies it.
DOUBLE_CONDITIONS = {
    "run": N_("Run (런, the declarer's team takes every point card)"),
    "back_run": N_("Back run (백런)"),
    "no_trump": N_("No trump (노기루다)"),
    "no_friend": N_("Announced no friend (노프렌드)"),
    "buried_mighty": N_("The Mighty (마이티) discarded"),
    "buried_joker": N_("The Joker (조커) discarded"),
    "grand_slam_bid": N_("A contract of the highest bid"),
    "set_contract": N_("Any set contract"),
}
# 003 §3.5.1 변형 2마 "공약은 먹은 턴 수를 대상으로 한다": where contracts count tricks, what counts
# point cards says tricks instead, and a buried card wins no trick for anyone
TRICKS_WORDS: dict[tuple[str, object], str] = {
    ("doubles.run", None): N_("Run (런, the declarer's team takes every trick)"),
    ("back_run.rule", "defenders_at_least"): N_("A back run (백런) is when the defenders take {n} or more tricks."),
    ("back_run.rule", "defenders_reach_bid"): N_("A back run (백런) is when the defenders take at least the contract's number of tricks."),
    ("discards_count_for", "declarer"): N_("Discarded cards win no trick, so they count for neither side."),
    ("discards_count_for", "defenders"): N_("Discarded cards win no trick, so they count for neither side."),
}
DOUBLE_WHEN = {
    "never": N_("{double}: no double."),
    "made": N_("{double}: ×2 when the contract is made."),
    "set": N_("{double}: ×2 when the contract is set."),
    "both": N_("{double}: ×2 whether made or set."),
}

# The items of list options.
LIST_ITEMS: dict[str, dict[str, str]] = {
    "partner_calls": {
        "card": N_("the holder of a called card"),
        "first_trick": N_("the winner of the first trick"),
        "none": N_("nobody, by announcing no friend (노프렌드)"),
        "player": N_("a player named directly"),
    },
    "forbidden_calls": {
        "mighty": N_("the Mighty (마이티)"),
        "joker": N_("the Joker (조커)"),
    },
    # the deal-miss criteria have one owner, scoring.redeal
    "deal_miss.criteria": CRITERION_WORDS,
}
_LIST_SEPARATORS = {"deal_miss.criteria": "; "}

# The way the payments are shared, which follows from several options together.
PAYMENT_WORDS = {
    "score": N_("S is the base score after its doubles. Every hand's payments add up to zero."),
    "team": N_("With a partner: the declarer wins or loses {declarer}S, the partner S, each defender the opposite S."),
    "team_per_partner": N_("With partners: each partner wins or loses S, each defender the opposite S, and the declarer the rest."),
    "alone": N_("A declarer alone wins or loses {defenders}S, S from each defender."),
    "four": N_("Two against two: the declarer and the partner each win or lose S, each defender the opposite."),
    "always_alone": N_("The declarer plays alone: {defenders}S for the declarer, the opposite S for each defender."),
    "table": N_("Each defender wins or loses B − {unit}; the declarer and the partners share the opposite total by seed 001's tables (the declarer about twice each partner). A declarer alone takes the defenders' whole total."),
    "sitting_out": N_("A player who sits out or is knocked out scores 0 on that hand."),
    "trump_penalty": N_("A contract with a trump suit scores {penalty} less."),
    "notation": N_("B is the contract and P the point cards the declarer's team took, out of {total}."),
    "notation_tricks": N_("B is the contract and P the tricks the declarer's team took, out of {total}: contracts count tricks, not point cards."),
}

DEAL_WORDS = {
    "dealt": N_("Each player is dealt {dealt} cards and {kitty} go to the kitty (바닥); the declarer discards {discards}."),
}

# Deck.description of every deck in scoring.cards, marked so the web layer can translate them.
DECK_DESCRIPTIONS = (
    N_("53 cards: 52 and the Joker"),
    N_("33 cards: 2 to 6 removed, Joker added; the ripper is ♣7 (♠7 when clubs are trump)"),
    N_("43 cards: all 2s and 4s and the red 3s removed, Joker added"),
    N_("51 cards: ♥2 and ♣2 removed, Joker added"),
    N_("53 cards, 8 each and 5 in the kitty; the declarer knocks one player out"),
    N_("53 cards, 7 each and 4 in the kitty; the declarer knocks two players out"),
    N_("106 cards: two decks and two Jokers, 17 each"),
    N_("102 cards: two decks and two Jokers without the four ♣2 and ♥2"),
    N_("100 cards: two decks and two Jokers without both ♣2 and ♥2, one ♦2 and one ♠2"),
    N_("23 cards: the 20 point cards, the Joker, ♠3 and ♣3 (Korean 2마); dealt 10 each with 3 in the kitty"),
    N_("44 cards: the 43-card 4마 deck with ♦4 put back (♣3 is in it already), 10 each and 4 in the kitty"),
    N_("43 cards as in 4마: each player draws pairs and keeps one of each, 10 each and 3 in the kitty"),
)

_THRESHOLD_WORDS = THRESHOLD_TEXT


# --- sentences ----------------------------------------------------------------------------


# pagat's 19 → 20 when a change of suit needs more than the maximum for several contracts (two
# decks raise by 3: 38 and 39 cannot change suit within 40)
_SUIT_CAP_RANGE = {
    True: N_("A contract of {low} to {high} may change suit by going to {top}."),
    False: N_("A contract of {low} to {high} cannot change suit, since it would need more than {top}."),
}
# where no raise can take a change past the maximum (bids above it allowed, or no raise needed)
_CAP_NEVER_APPLIES = {
    "trump_change.nineteen_to_twenty": N_("No contract is too high to change suit in this system."),
    "trump_change.twenty_to_no_trump": N_("No contract in a suit is too high to become no trump in this system."),
}


def _cap_words(path: str, value: object, system: System) -> Words | None:
    """The 19 → 20 and 20 → 20 NT rules where their one-contract sentence would not be true: the cap
    never applies, or a change of suit overshoots the maximum from several contracts. None when the
    option's own sentence, with this system's maximum, says it."""
    rules, top = system.trump_change, system.max_bid
    raise_by = rules.suit if path.endswith("nineteen_to_twenty") else rules.to_nt
    # 003 §6.3, §6.9, §6.11: bids above 20 take any raise; 003 §6.7: no raise at all
    if system.bids_above_max or raise_by == 0 or (path.endswith("nineteen_to_twenty") and raise_by == 1):
        return Words(_CAP_NEVER_APPLIES[path])
    low = max(top - raise_by + 1, system.min_bid)
    if path.endswith("nineteen_to_twenty") and low < top - 1:
        return Words(_SUIT_CAP_RANGE[value], low=low, high=top - 1, top=top)
    return None


def _numbers(system: System | None) -> dict[str, object]:
    """The values formulas are written with: the system's own, or their letters."""
    if system is None:
        return {"m": "M", "m_less": "M − 1", "half": "T/2", "unit": "12", "n": "N", "threshold": "½",
                "top": 20, "low": 19}
    return {
        # the highest bid (pagat's 20; 40 with two decks) and the contract just under it
        "top": system.max_bid,
        "low": system.max_bid - 1,
        "m": system.min_bid,
        "m_less": system.min_bid - 1,
        "half": system.total_points // 2,
        # seed 001: B − 12 with one deck, B − 24 with two
        "unit": system.hard_unit,
        "n": system.back_run.n,
        "threshold": _THRESHOLD_WORDS[system.deal_miss.threshold],
    }


def _template(path: str, value: object) -> str:
    choices = OPTION_WORDS[path]
    key = tuple(value) if isinstance(value, list | tuple) else value
    return choices[key] if key in choices else choices["*"]


def _list_items(path: str, values, numbers: dict) -> WordList:
    items = [Words(LIST_ITEMS[path][v], **_used(LIST_ITEMS[path][v], numbers)) for v in values]
    return WordList(items, _LIST_SEPARATORS.get(path, ", "))


def _used(template: str, params: dict) -> dict:
    """Only the params a template names: str.format ignores extras, but translators see fewer."""
    return {name: value for name, value in params.items() if "{" + name + "}" in template}


def option_words(path: str, value: object, system: System | None = None) -> Words:
    """One sentence for one option value; with ``system``, formulas use its own numbers."""
    numbers = _numbers(system)
    tricks = system is not None and system.counts == "tricks"
    if path.startswith("doubles."):
        name = path.split(".", 1)[1]
        condition = TRICKS_WORDS.get((path, None)) if tricks else None
        return Words(DOUBLE_WHEN[value], double=Words(condition or DOUBLE_CONDITIONS[name]))
    if tricks and (path, value) in TRICKS_WORDS:
        template = TRICKS_WORDS[path, value]
        return Words(template, **_used(template, numbers))
    if path in _CAP_NEVER_APPLIES and system is not None:
        capped = _cap_words(path, value, system)
        if capped is not None:
            return capped
    template = _template(path, value)
    params = dict(numbers, value=_THRESHOLD_WORDS.get(value, value) if path == "deal_miss.threshold" else value)
    if path in LIST_ITEMS:
        params["items"] = _list_items(path, value, numbers)
    if path == "deck":
        params["description"] = Words(DECKS[value].description)
    if path == "set":
        base = system.base if system is not None else "pagat"
        params["exact"] = Words(_EXACT_FORMULAS.get(base, "B − {unit}"), **_used(_EXACT_FORMULAS.get(base, "B − {unit}"), numbers))
    return Words(template, **_used(template, params))


def choice_words(path: str, choice: str, system: System | None = None) -> Words:
    """One choice of an option as a control offers it: an item of a list option ("the holder of a
    called card"), else the sentence the option would read with that choice."""
    if path in LIST_ITEMS:
        template = LIST_ITEMS[path][choice]
        return Words(template, **_used(template, _numbers(system)))
    return option_words(path, choice, system)


def describe_option(path: str, value: object, system: System | None = None) -> str:
    """One English sentence for an option value (``option_words`` keeps it translatable)."""
    return str(option_words(path, value, system))


def option_label(path: str) -> Words:
    return Words(OPTION_LABELS[path])


def _on(system: System, path: str) -> Words:
    value = system
    for part in path.split("."):
        value = getattr(value, part)
    return option_words(path, value, system)


def made_formula(system: System) -> str:
    """The made-contract base as a formula with the system's M, for tables and tests."""
    if system.base == "table":
        return "B − {unit}".format(**_numbers(system))
    return _MADE_FORMULAS[system.base].format(**_numbers(system))


# --- the sections -----------------------------------------------------------------------------


def _players(system: System) -> list[Words]:
    deck = system.deck_cards
    lines = [_on(system, "players")]
    if system.active_players != system.players:
        lines.append(_on(system, "active_players"))
    lines += [
        _on(system, "deck"),
        Words(DEAL_WORDS["dealt"], dealt=deck.dealt, kitty=deck.kitty, discards=deck.discards),
        _on(system, "spade_trump_keeps_mighty"),
    ]
    return lines


def _bidding(system: System) -> list[Words]:
    lines = [_on(system, "min_bid"), _on(system, "max_bid"), _on(system, "bids_above_max")]
    if system.min_suit_contract:
        lines.append(_on(system, "min_suit_contract"))
    lines += [_on(system, f"auction.{name}") for name in ("nt_discount", "reenter_after_pass", "dealer_may_pass", "forced_minimum", "all_pass")]
    return lines


def _trump_change(system: System) -> list[Words]:
    if not system.trump_change.allowed:
        return [_on(system, "trump_change.allowed")]
    names = ("allowed", "suit", "to_nt", "nineteen_to_twenty", "twenty_to_no_trump", "same_trump_raise", "before_kitty_discount")
    lines = [_on(system, f"trump_change.{name}") for name in names]
    # a cap that never applies (bids above the maximum, or no raise) is not a rule of this system
    never = {str(Words(words)) for words in _CAP_NEVER_APPLIES.values()}
    return [line for line in lines if str(line) not in never]


def _partner(system: System) -> list[Words]:
    if system.always_alone:
        return [_on(system, "always_alone")]
    lines = [_on(system, "called_cards"), _on(system, "partner_calls"), _on(system, "forbidden_calls"), _on(system, "secret_solo")]
    lines.append(_on(system, "partner_instruction.allowed"))
    if system.partner_instruction.allowed:
        lines += [_on(system, "partner_instruction.min_contract"), _on(system, "partner_instruction.per_hand")]
    return lines


def _base(system: System) -> list[Words]:
    notation = PAYMENT_WORDS["notation_tricks" if system.counts == "tricks" else "notation"]
    lines = [Words(notation, total=system.total_points), _on(system, "base")]
    if system.base == "table":
        return lines
    # a hard score and a flat bid pay the same made or set (their base line says so): no set line
    if system.base not in ("hard", "flat_bid"):
        lines.append(_on(system, "set"))
    if system.minimum_score:
        lines.append(_on(system, "minimum_score"))
    if system.auction.nt_discount:
        lines.append(_on(system, "nt_discount_in_score"))
    if system.trump_penalty:
        lines.append(Words(PAYMENT_WORDS["trump_penalty"], penalty=system.trump_penalty))
    return lines


def _doubles(system: System) -> list[Words]:
    names = list(DOUBLE_CONDITIONS)
    if system.base == "table":
        return [_on(system, f"doubles.{name}") for name in names if getattr(system.doubles, name) != "never"] or [
            option_words("doubles.run", "never", system)
        ]
    lines = [_on(system, f"doubles.{name}") for name in names if getattr(system.doubles, name) != "never"]
    if system.doubles.back_run != "never":
        lines.append(_on(system, "back_run.rule"))
    if not lines:
        lines.append(Words(N_("No doubles: the base score is the score.")))
    return lines


def _payments(system: System) -> list[Words]:
    active = system.active_players
    if system.base == "table":
        lines = [Words(PAYMENT_WORDS["table"], unit=_numbers(system)["unit"])]
    elif system.always_alone:
        lines = [Words(PAYMENT_WORDS["always_alone"], defenders=active - 1), Words(PAYMENT_WORDS["score"])]
    elif active == 4 and system.called_cards == 1:
        lines = [Words(PAYMENT_WORDS["four"]), _on(system, "four_player_set_split"),
                 Words(PAYMENT_WORDS["alone"], defenders=active - 1), Words(PAYMENT_WORDS["score"])]
    elif system.called_cards == 1:
        defenders = active - 2
        # the declarer takes the defenders' total less the partner's S
        lines = [Words(PAYMENT_WORDS["team"], declarer=defenders - 1),
                 Words(PAYMENT_WORDS["alone"], defenders=active - 1), Words(PAYMENT_WORDS["score"])]
    else:
        lines = [Words(PAYMENT_WORDS["team_per_partner"]),
                 Words(PAYMENT_WORDS["alone"], defenders=active - 1), Words(PAYMENT_WORDS["score"])]
    if active != system.players:
        lines.append(Words(PAYMENT_WORDS["sitting_out"]))
    return lines


def _discards(system: System) -> list[Words]:
    return [_on(system, "discards_count_for")]


def _deal_miss(system: System) -> list[Words]:
    rules = system.deal_miss
    lines = [_on(system, "deal_miss.criteria")]
    if not rules.criteria:
        return lines
    if "lone_jack" in rules.criteria:
        lines.append(_on(system, "deal_miss.one_eyed_jacks_only"))
    lines += [_on(system, f"deal_miss.{name}") for name in ("bid_20_cancels", "bid_20_after_demand", "before_bidding_only", "optional", "next_dealer", "fine")]
    return lines


def _dealing(system: System) -> list[Words]:
    bidder = _on(system, "first_bidder")
    if system.first_bidder == "dealer" and system.sit_out not in ("none", "knockout"):
        # 변형 6마 and 7마: the one who deals may be sitting the hand out, and cannot open it
        bidder = Words(N_("The dealer bids first; a dealer who sits the hand out leaves it to the next player dealt in."))
    return [_on(system, "next_dealer"), bidder, _on(system, "sit_out")]


_SECTIONS = (
    ("players", _players),
    ("bidding", _bidding),
    ("trump_change", _trump_change),
    ("partner", _partner),
    ("base", _base),
    ("doubles", _doubles),
    ("payments", _payments),
    ("discards", _discards),
    ("deal_miss", _deal_miss),
    ("dealing", _dealing),
)


def describe(system: System) -> list[Section]:
    """The whole system in words, section by section, generated from its options."""
    return [Section(Words(SECTION_TITLES[key]), tuple(lines(system))) for key, lines in _SECTIONS]


def compare(a: System, b: System) -> list[Difference]:
    """Every option where two systems differ, each side in words with its own numbers."""
    return [
        Difference(path, option_label(path), option_words(path, left, a), option_words(path, right, b))
        for path, left, right in system_diff(a, b)
    ]
