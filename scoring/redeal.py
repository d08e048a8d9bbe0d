"""Deal miss (딜 미스): may this dealt hand demand a redeal, why, and how often does that happen.

Every criterion of RULES.md §8 looks only at how many cards of a few kinds a
hand holds (the Mighty, ♦A, Jokers, one-eyed jacks, other jacks, tens, other
A K Q, and the rest). A criterion is a *judge* of those counts, shared by the
verdict on one hand (which adds the value, the reason and the cards) and by the
exact odds (which weigh every pattern of counts by how many real hands have
it). No sampling: the odds are Fractions.

One module because the verdict and the odds share the judges: split, either
the criteria would be written twice or the counting would be passed between
modules.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .cards import (
    JOKER,
    CardCodeError,
    Deck,
    card_sort_key,
    card_text,
    is_point_card,
    mighty,
    parse_card,
    rank_of,
)
from .numbers import signed, whole
from .presets import get_preset
from .problems import InvalidInput, Problem
from .systems import DealMiss, System, options_of
from .words import N_, WordList, Words

# A deal miss is claimed before the bidding, when there is no trump yet: the Mighty is ♠A.
MIGHTY = mighty(None)
# 003 §7.1: some tables also count the red Mighty (빨마, ♦A) as a liability
RED_MIGHTY = mighty("S")
# 003 [18]: the one-eyed jacks (애꾸눈 잭) are the two seen in profile, ♠J and ♥J
ONE_EYED_JACKS = ("JS", "JH")

# The kinds of card the deal-miss rules tell apart; "honour" is any other A, K or Q.
KINDS = ("mighty", "red_mighty", "joker", "one_eyed_jack", "other_jack", "ten", "honour", "plain")
_KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}


def kind_of(card: str) -> str:
    if card == MIGHTY:
        return "mighty"
    if card == RED_MIGHTY:
        return "red_mighty"
    if card == JOKER:
        return "joker"
    if card in ONE_EYED_JACKS:
        return "one_eyed_jack"
    if rank_of(card) == "J":
        return "other_jack"
    if rank_of(card) == "10":
        return "ten"
    return "honour" if is_point_card(card) else "plain"


@dataclass(frozen=True)
class Holding:
    """How many cards of each kind a hand holds: all that any deal-miss rule looks at."""

    counts: tuple[int, ...]  # in KINDS order

    def __getitem__(self, kind: str) -> int:
        return self.counts[_KIND_INDEX[kind]]

    @property
    def size(self) -> int:
        return sum(self.counts)

    @property
    def points(self) -> int:
        """The Mighty is a point card, the Joker is not."""
        return self.size - self["joker"] - self["plain"]


def holding_of(hand) -> Holding:
    kinds = Counter(kind_of(card) for card in hand)
    return Holding(tuple(kinds[kind] for kind in KINDS))


# --- the scales --------------------------------------------------------------------


@dataclass(frozen=True)
class Scale:
    """What each kind of card is worth, in half points (pagat counts a 10 as ½)."""

    words: str
    halves: tuple[int, ...]  # in KINDS order
    # 003 §7.1: ♠A and ♦A held together count 0 between them
    mighty_pair_cancels: bool = False

    def worth(self, card: str) -> Fraction:
        return Fraction(self.halves[_KIND_INDEX[kind_of(card)]], 2)

    def half_value(self, holding: Holding) -> int:
        total = sum(map(operator.mul, holding.counts, self.halves))
        if self.mighty_pair_cancels:
            pair = self.halves[_KIND_INDEX["mighty"]] + self.halves[_KIND_INDEX["red_mighty"]]
            total -= pair * min(holding["mighty"], holding["red_mighty"])
        return total

    def value(self, holding: Holding) -> Fraction:
        return Fraction(self.half_value(holding), 2)


def _scale(words: str, *, mighty_pair_cancels: bool = False, **halves: int) -> Scale:
    return Scale(Words(words), tuple(halves.get(kind, 0) for kind in KINDS), mighty_pair_cancels)


# pagat: the default Mighty 0, Joker −1, each other A K Q J +1, each 10 +½, 2–9 nothing
PAGAT_SCALE = _scale(
    N_("♠A (the Mighty) as 0, the Joker as −1, other A K Q J as +1 and each 10 as +½"),
    mighty=0, red_mighty=2, joker=-2, one_eyed_jack=2, other_jack=2, ten=1, honour=2,
)  # fmt: skip
# pagat: "some count the Mighty as −1 instead of +0"
PAGAT_SCALE_MIGHTY_MINUS = _scale(
    N_("♠A (the Mighty) as −1, the Joker as −1, other A K Q J as +1 and each 10 as +½"),
    mighty=-2, red_mighty=2, joker=-2, one_eyed_jack=2, other_jack=2, ten=1, honour=2,
)  # fmt: skip
# 003 §6.1 표준 5마: each point card 1, the Mighty 0, the Joker −1
KOREAN_SCALE = _scale(
    N_("each point card as +1, ♠A (the Mighty) as 0 and the Joker as −1"),
    mighty=0, red_mighty=2, joker=-2, one_eyed_jack=2, other_jack=2, ten=2, honour=2,
)  # fmt: skip
# 003 §7.1: the Mighty −1, even the red Mighty −1, but the two held together 0
RED_MIGHTY_MINUS_SCALE = _scale(
    N_("each point card as +1, ♠A and ♦A as −1 each (0 when held together) and the Joker as −1"),
    mighty=-2, red_mighty=-2, joker=-2, one_eyed_jack=2, other_jack=2, ten=2, honour=2,
    mighty_pair_cancels=True,
)  # fmt: skip


@lru_cache(maxsize=16)
def _half_limit(threshold: str) -> int:
    """The threshold in half points, rounded down: scale values are whole halves."""
    return math.floor(2 * Fraction(threshold))


# --- the judges: does a holding qualify? ---------------------------------------------


def _lone(holding: Holding, *kinds: str) -> bool:
    """The only point card is one of these kinds."""
    return holding.points == 1 and any(holding[kind] for kind in kinds)


def _pagat_scale_met(holding: Holding, rules: DealMiss) -> bool:
    return PAGAT_SCALE.half_value(holding) <= _half_limit(rules.threshold)


def _pagat_scale_mighty_minus_met(holding: Holding, rules: DealMiss) -> bool:
    return PAGAT_SCALE_MIGHTY_MINUS.half_value(holding) <= _half_limit(rules.threshold)


def _korean_scale_met(holding: Holding, rules: DealMiss) -> bool:
    # 003 §6.1: a hand whose only point card is a single 10 is also a deal miss
    low = KOREAN_SCALE.half_value(holding) <= _half_limit(rules.threshold)
    return low or _lone(holding, "ten")


def _red_mighty_minus_met(holding: Holding, rules: DealMiss) -> bool:
    return RED_MIGHTY_MINUS_SCALE.half_value(holding) <= _half_limit(rules.threshold)


def _no_points_met(holding: Holding, rules: DealMiss) -> bool:
    return holding.points == 0


def _lone_jack_met(holding: Holding, rules: DealMiss) -> bool:
    # 003 신촌: some tables accept only a one-eyed jack
    if rules.one_eyed_jacks_only:
        return _lone(holding, "one_eyed_jack")
    return _lone(holding, "one_eyed_jack", "other_jack")


def _lone_mighty_met(holding: Holding, rules: DealMiss) -> bool:
    return _lone(holding, "mighty")


def _one_point_card_met(holding: Holding, rules: DealMiss) -> bool:
    # 003 민사: the Joker lets one more point card be ignored (each Joker, in a double deck)
    return 1 <= holding.points <= 1 + holding["joker"]


def _all_points_met(holding: Holding, rules: DealMiss) -> bool:
    return holding.size > 0 and holding.points == holding.size


Judge = Callable[[Holding, DealMiss], bool]

JUDGES: dict[str, Judge] = {
    "pagat_scale": _pagat_scale_met,
    "pagat_scale_mighty_minus": _pagat_scale_mighty_minus_met,
    "korean_scale": _korean_scale_met,
    "no_points": _no_points_met,
    "lone_jack": _lone_jack_met,
    "lone_mighty": _lone_mighty_met,
    "one_point_card": _one_point_card_met,
    "all_points": _all_points_met,
    "red_mighty_minus": _red_mighty_minus_met,
}

# the criteria that count a hand on a scale, so the threshold matters to them
COUNTING_CRITERIA = ("pagat_scale", "pagat_scale_mighty_minus", "korean_scale", "red_mighty_minus")

# What each criterion asks, in words: the one description the rules pages, the API, the CLI
# and docs/deal_miss.md all show. {threshold} is the system's.
CRITERION_WORDS: dict[str, str] = {
    "pagat_scale": N_("the hand counts {threshold} or less, with ♠A 0, the Joker −1, other A K Q J +1 and each 10 +½"),
    "pagat_scale_mighty_minus": N_("the hand counts {threshold} or less, with ♠A −1, the Joker −1, other A K Q J +1 and each 10 +½"),
    "korean_scale": N_("the hand counts {threshold} or less, with each point card +1, ♠A 0 and the Joker −1, or the only point card is a 10"),
    "no_points": N_("the hand holds no point card"),
    "lone_jack": N_("the only point card is a jack"),
    "lone_mighty": N_("the only point card is the Mighty"),
    "one_point_card": N_("the hand holds exactly one point card, or two with the Joker"),
    "all_points": N_("every card in the hand is a point card"),
    "red_mighty_minus": N_("the hand counts {threshold} or less, with each point card +1, ♠A and ♦A −1 each (0 together) and the Joker −1"),
}  # fmt: skip
# 003 [18]: some tables take only the one-eyed jacks
ONE_EYED_LONE_JACK_WORDS = N_("the only point card is a one-eyed jack, ♠J or ♥J")
THRESHOLD_TEXT = {"0": "0", "1/2": "½", "1": "1"}


def criterion_words(criterion: str, rules: System | DealMiss | None = None, *, threshold: str | None = None) -> Words:
    """What one criterion asks, with the system's threshold (½ without one; ``threshold`` writes it
    as given, such as "T" for a table over every threshold)."""
    deal_miss = None if rules is None else _rules(rules)
    if criterion == "lone_jack" and deal_miss is not None and deal_miss.one_eyed_jacks_only:
        return Words(ONE_EYED_LONE_JACK_WORDS)
    template = CRITERION_WORDS[criterion]
    if "{threshold}" not in template:
        return Words(template)
    if threshold is None:
        threshold = THRESHOLD_TEXT[deal_miss.threshold if deal_miss is not None else "1/2"]
    return Words(template, threshold=threshold)


# --- verdicts on one hand: the judge's answer with the value, the reason and the cards ---


@dataclass(frozen=True)
class CriterionVerdict:
    """What one criterion says about a hand."""

    id: str
    qualifies: bool
    # exact, as "1/2", "-1" or "3"
    value: str
    # Words: English as a plain string, translatable by the web layer
    reason: str
    # the cards the criterion counted (point cards, and Jokers where they matter), in suit order
    cards: tuple[str, ...]

    def as_json(self) -> dict:
        return {
            "id": self.id,
            "qualifies": self.qualifies,
            "value": self.value,
            "reason": self.reason,
            "cards": list(self.cards),
        }


@dataclass(frozen=True)
class DealMissVerdict:
    """A hand may demand a redeal when any of the system's criteria says so."""

    hand: tuple[str, ...]
    criteria: tuple[CriterionVerdict, ...]

    @property
    def qualifies(self) -> bool:
        return any(verdict.qualifies for verdict in self.criteria)


def shown(card: str) -> str:
    """A card as a player writes it: ♠A, ♥10, Joker."""
    return card_text(card)


def amount(value: Fraction) -> str:
    """½, 1½, −1: a value as printed for people (the JSON keeps "1/2")."""
    sign = "−" if value < 0 else ""
    whole, part = divmod(abs(value), 1)
    if part == 0:
        return f"{sign}{whole}"
    part_text = "½" if part == Fraction(1, 2) else f"{part.numerator}/{part.denominator}"
    return f"{sign}{whole or ''}{part_text}"


def _in_order(cards) -> tuple[str, ...]:
    return tuple(sorted(cards, key=card_sort_key))


def _point_cards(hand) -> tuple[str, ...]:
    return _in_order(card for card in hand if is_point_card(card))


def _with_jokers(hand) -> tuple[str, ...]:
    return _in_order(card for card in hand if is_point_card(card) or card == JOKER)


def _holding_words(points: tuple[str, ...]) -> Words:
    if not points:
        return Words(N_("You hold no point cards"))
    listed = WordList(shown(card) for card in points)
    if len(points) == 1:
        return Words(N_("You hold {count} point card ({cards})"), count=1, cards=listed)
    return Words(N_("You hold {count} point cards ({cards})"), count=len(points), cards=listed)


def _rules(rules: System | DealMiss) -> DealMiss:
    """A criterion reads only the deal-miss options; it accepts the whole system too."""
    return rules.deal_miss if isinstance(rules, System) else rules


def _tally(hand, scale: Scale) -> list[tuple[Words | str, Fraction]]:
    """Each counted card with its worth; with the pair rule, ♠A ♦A pairs show as one 0."""
    cards = list(_with_jokers(hand))
    pairs = min(cards.count(MIGHTY), cards.count(RED_MIGHTY)) if scale.mighty_pair_cancels else 0
    for _ in range(pairs):
        cards.remove(MIGHTY)
        cards.remove(RED_MIGHTY)
    return [(Words(N_("♠A ♦A together")), Fraction(0))] * pairs + [
        (shown(card), scale.worth(card)) for card in cards
    ]


def _scale_verdict(
    criterion: str, scale: Scale, hand, rules: DealMiss, also: Words | None = None
) -> CriterionVerdict:
    """A verdict for a counting rule; ``also`` names another way the judge may say yes."""
    holding = holding_of(hand)
    value = scale.value(holding)
    qualifies = JUDGES[criterion](holding, rules)
    threshold = Fraction(rules.threshold)
    low_enough = value <= threshold
    tally = _tally(hand, scale)
    if tally:
        counted = WordList(Words(N_("{card} {worth}"), card=label, worth=signed(worth)) for label, worth in tally)
        gives = Words(N_("{counted} gives {value}"), counted=counted, value=amount(value))
    else:
        gives = Words(N_("you hold none of these cards, which gives 0"))
    if low_enough:
        compared = Words(N_("{threshold} or less"), threshold=amount(threshold))
    else:
        compared = Words(N_("more than {threshold}"), threshold=amount(threshold))
    reason = Words(N_("Counting {scale}: {gives}, which is {compared}."), scale=scale.words, gives=gives, compared=compared)
    if qualifies and not low_enough:
        reason = Words(N_("{reason} But {also}"), reason=reason, also=also)
    return CriterionVerdict(criterion, qualifies, str(value), reason, _with_jokers(hand))


def pagat_scale(hand, rules: System | DealMiss) -> CriterionVerdict:
    """pagat: a value of the threshold (½) or less on the pagat count."""
    return _scale_verdict("pagat_scale", PAGAT_SCALE, hand, _rules(rules))


def pagat_scale_mighty_minus(hand, rules: System | DealMiss) -> CriterionVerdict:
    """pagat variant: the same count with the Mighty at −1."""
    return _scale_verdict("pagat_scale_mighty_minus", PAGAT_SCALE_MIGHTY_MINUS, hand, _rules(rules))


def korean_scale(hand, rules: System | DealMiss) -> CriterionVerdict:
    """003 표준 5마: point cards +1, Mighty 0, Joker −1, at 0 or less; or a lone 10."""
    also = Words(N_("a single 10 as the only point card also qualifies."))
    return _scale_verdict("korean_scale", KOREAN_SCALE, hand, _rules(rules), also)


def red_mighty_minus(hand, rules: System | DealMiss) -> CriterionVerdict:
    """003 §7.1: the Korean count with ♠A and ♦A at −1 each, and 0 when held together."""
    return _scale_verdict("red_mighty_minus", RED_MIGHTY_MINUS_SCALE, hand, _rules(rules))


def _count_verdict(criterion: str, hand, rules: DealMiss, reason: Words, cards=None):
    points = _point_cards(hand)
    qualifies = JUDGES[criterion](holding_of(hand), rules)
    counted = points if cards is None else cards
    return CriterionVerdict(criterion, qualifies, str(len(points)), reason, counted)


def no_points(hand, rules: System | DealMiss) -> CriterionVerdict:
    """000 variant, 003 §7: no A K Q J or 10 at all (the Mighty is one; the Joker is not)."""
    points = _point_cards(hand)
    if points:
        reason = Words(N_("{holding}; this rule needs none."), holding=_holding_words(points))
    else:
        reason = Words(N_("You hold no point cards (A K Q J 10, the Mighty included; the Joker is not one)."))
    return _count_verdict("no_points", hand, _rules(rules), reason)


def lone_jack(hand, rules: System | DealMiss) -> CriterionVerdict:
    """000, 003: the only point card is one jack (option: only ♠J or ♥J, the one-eyed jacks)."""
    rules = _rules(rules)
    points = _point_cards(hand)
    which = Words(N_("a one-eyed jack (♠J or ♥J)") if rules.one_eyed_jacks_only else N_("a jack"))
    if len(points) == 1 and rank_of(points[0]) == "J":
        if JUDGES["lone_jack"](holding_of(hand), rules):
            reason = Words(N_("Your only point card is {card}, {which}."), card=shown(points[0]), which=which)
        else:
            reason = Words(
                N_("Your only point card is {card}, but only {which} counts here."), card=shown(points[0]), which=which
            )
    else:
        reason = Words(
            N_("{holding}; this rule needs {which} as the only one."), holding=_holding_words(points), which=which
        )
    return _count_verdict("lone_jack", hand, rules, reason)


def lone_mighty(hand, rules: System | DealMiss) -> CriterionVerdict:
    """003 신촌/대전/관악/제주: the only point card is the Mighty."""
    points = _point_cards(hand)
    if points == (MIGHTY,):
        reason = Words(N_("Your only point card is the Mighty (♠A)."))
    else:
        reason = Words(
            N_("{holding}; this rule needs the Mighty (♠A) as the only one."), holding=_holding_words(points)
        )
    return _count_verdict("lone_mighty", hand, _rules(rules), reason)


def one_point_card(hand, rules: System | DealMiss) -> CriterionVerdict:
    """003 민사: exactly one point card; holding the Joker lets one more be ignored."""
    points = _point_cards(hand)
    jokers = sum(1 for card in hand if card == JOKER)
    if not points:
        reason = Words(N_("You hold no point cards; this rule needs exactly one."))
    elif len(points) == 1:
        reason = Words(N_("You hold exactly one point card ({card})."), card=shown(points[0]))
    elif not jokers:
        reason = Words(
            N_("{holding}; this rule needs exactly one, or two with the Joker."), holding=_holding_words(points)
        )
    else:
        left = len(points) - min(jokers, len(points) - 1)
        sentence = {
            (True, True): N_("{holding} and the Joker, which lets one be ignored: that leaves exactly one."),
            (True, False): N_("{holding} and the Joker, which lets one be ignored: that leaves {left}, more than one."),
            (False, True): N_("{holding} and {jokers} Jokers, which let up to {jokers} be ignored: "
                              "that leaves exactly one."),
            (False, False): N_("{holding} and {jokers} Jokers, which let up to {jokers} be ignored: "
                               "that leaves {left}, more than one."),
        }[jokers == 1, left == 1]
        reason = Words(sentence, holding=_holding_words(points), jokers=jokers, left=left)
    return _count_verdict("one_point_card", hand, _rules(rules), reason, _with_jokers(hand))


def all_points(hand, rules: System | DealMiss) -> CriterionVerdict:
    """000 variant, 003 신촌: every card in the hand is a point card."""
    points = _point_cards(hand)
    if hand and len(points) == len(hand):
        reason = Words(N_("All {count} of your cards are point cards."), count=len(hand))
    else:
        reason = Words(
            N_("{points} of your {count} cards are point cards; this rule needs all of them."),
            points=len(points),
            count=len(hand),
        )
    return _count_verdict("all_points", hand, _rules(rules), reason)


Criterion = Callable[[tuple[str, ...], "System | DealMiss"], CriterionVerdict]

CRITERIA: dict[str, Criterion] = {
    "pagat_scale": pagat_scale,
    "pagat_scale_mighty_minus": pagat_scale_mighty_minus,
    "korean_scale": korean_scale,
    "no_points": no_points,
    "lone_jack": lone_jack,
    "lone_mighty": lone_mighty,
    "one_point_card": one_point_card,
    "all_points": all_points,
    "red_mighty_minus": red_mighty_minus,
}


def check_deal_miss(system: System, hand) -> DealMissVerdict:
    """Every criterion of the system on a hand of canonical codes, in the system's order."""
    hand = tuple(hand)
    rules = system.deal_miss
    return DealMissVerdict(hand, tuple(CRITERIA[c](hand, rules) for c in rules.criteria))


# --- exact odds ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DealMissOdds:
    """Exact chances that one player's random deal qualifies."""

    qualifies: Fraction
    # summed separately over the hands that fail, so the two adding to 1 checks the count
    does_not_qualify: Fraction
    by_criterion: tuple[tuple[str, Fraction], ...]


def kind_sizes(deck: Deck) -> tuple[int, ...]:
    """How many physical cards of each kind the deck holds (a double deck holds two of a code)."""
    sizes = Counter()
    for card, copies in deck.cards:
        sizes[kind_of(card)] += copies
    return tuple(sizes[kind] for kind in KINDS)


def holding_patterns(deck: Deck, size: int | None = None) -> Iterator[tuple[Holding, int]]:
    """Every holding a dealt hand can have, with how many hands of the deck have it."""
    sizes = kind_sizes(deck)
    size = deck.dealt if size is None else size
    *specials, plain = sizes
    ways = [[math.comb(n, k) for k in range(n + 1)] for n in sizes]
    for counts in itertools.product(*(range(min(n, size) + 1) for n in specials)):
        rest = size - sum(counts)
        if 0 <= rest <= plain:
            hands = ways[-1][rest]
            for i, k in enumerate(counts):
                hands *= ways[i][k]
            yield Holding((*counts, rest)), hands


@lru_cache(maxsize=256)
def _odds(
    deck: Deck, criteria: tuple[str, ...], threshold: str, one_eyed_jacks_only: bool
) -> DealMissOdds:
    rules = DealMiss(
        criteria=criteria, threshold=threshold, one_eyed_jacks_only=one_eyed_jacks_only
    )
    judges = [(c, JUDGES[c]) for c in criteria]
    qualifying = failing = 0
    by_criterion = dict.fromkeys(criteria, 0)
    for holding, hands in holding_patterns(deck):
        met = [c for c, judge in judges if judge(holding, rules)]
        for c in met:
            by_criterion[c] += hands
        if met:
            qualifying += hands
        else:
            failing += hands
    every_hand = math.comb(deck.size, deck.dealt)
    return DealMissOdds(
        Fraction(qualifying, every_hand),
        Fraction(failing, every_hand),
        tuple((c, Fraction(n, every_hand)) for c, n in by_criterion.items()),
    )


def deal_miss_odds(deck: Deck, deal_miss: DealMiss) -> DealMissOdds:
    """The exact odds for a deck and deal-miss options (cached: they never change)."""
    criteria = tuple(sorted(set(deal_miss.criteria)))
    return _odds(deck, criteria, deal_miss.threshold, deal_miss.one_eyed_jacks_only)


def deal_miss_probability(system: System) -> Fraction:
    """The chance that one player's random deal qualifies under any of the system's criteria."""
    return deal_miss_odds(system.deck_cards, system.deal_miss).qualifies


def criterion_probabilities(system: System) -> dict[str, Fraction]:
    """The chance of each criterion on its own, in the system's order."""
    odds = dict(deal_miss_odds(system.deck_cards, system.deal_miss).by_criterion)
    return {c: odds[c] for c in system.deal_miss.criteria}


@dataclass(frozen=True)
class CriterionSummary:
    """One criterion of a system: its id, what it asks in words, and its exact chance alone."""

    id: str
    rule: Words
    chance: Fraction


@dataclass(frozen=True)
class DealMissSummary:
    """A system's deal-miss rules as every face shows them: each criterion and the overall chance."""

    criteria: tuple[CriterionSummary, ...]
    threshold: str
    fine: int
    # None when the system has no criteria: no hand may demand a redeal
    chance: Fraction | None

    def as_json(self) -> dict:
        """The shape of GET /api/v1/systems' ``deal_miss`` and of ``python -m scoring systems``."""
        return {
            "criteria": [
                {"id": c.id, "rule": str(c.rule), **_chance_json(c.chance)} for c in self.criteria
            ],
            "threshold": self.threshold,
            "fine": self.fine,
            **_chance_json(self.chance),
        }


def _chance_json(chance: Fraction | None) -> dict:
    if chance is None:
        return {"probability": None, "probability_exact": None}
    return {"probability": float(chance), "probability_exact": f"{chance.numerator}/{chance.denominator}"}


def deal_miss_summary(system: System) -> DealMissSummary:
    """Every criterion of ``system`` in words with its exact odds, and the odds of any of them."""
    rules = system.deal_miss
    per_criterion = criterion_probabilities(system)
    return DealMissSummary(
        criteria=tuple(CriterionSummary(c, criterion_words(c, rules), per_criterion[c]) for c in rules.criteria),
        threshold=rules.threshold,
        fine=rules.fine,
        chance=deal_miss_probability(system) if rules.criteria else None,
    )


# --- the JSON boundary -------------------------------------------------------------------


def _read_cards(raw: object, problems: list[Problem]) -> tuple[str, ...] | None:
    if raw is None:
        problems.append(
            Problem("hand", "missing", Words(N_("'hand' is required: list the cards you were dealt.")))
        )
        return None
    if not isinstance(raw, list):
        problems.append(
            Problem(
                "hand", "bad_type", Words(N_('\'hand\' must be a list of card codes such as ["AS", "10H"].'))
            )
        )
        return None
    cards = []
    for i, item in enumerate(raw):
        try:
            cards.append(parse_card(item))
        except CardCodeError as error:
            problems.append(Problem(f"hand[{i}]", "unknown_card", error.message))
            cards.append(None)
    return tuple(cards)


def _hand_problems(cards: tuple[str | None, ...], deck: Deck) -> list[Problem]:
    """Cards this deck does not hold, more copies than it holds, and the wrong number of cards."""
    problems = []
    seen: Counter = Counter()
    for i, card in enumerate(cards):
        if card is None:
            continue
        seen[card] += 1
        if not deck.holds(card):
            problems.append(
                Problem(
                    f"hand[{i}]",
                    "card_not_in_deck",
                    Words(
                        N_("{card} is not in this system's deck: {deck}."),
                        card=shown(card),
                        deck=Words(deck.description),
                    ),
                )
            )
        elif seen[card] > deck.count(card):
            if deck.count(card) == 1:
                sentence = N_("{card} is in the hand more often than the deck holds it (once).")
            else:
                sentence = N_("{card} is in the hand more often than the deck holds it (twice).")
            problems.append(Problem(f"hand[{i}]", "duplicate_card", Words(sentence, card=shown(card))))
    if len(cards) != deck.dealt:
        problems.append(
            Problem(
                "hand",
                "wrong_hand_size",
                Words(
                    N_("A hand in this system has {dealt} cards, not {count}."),
                    dealt=deck.dealt,
                    count=len(cards),
                ),
            )
        )
    return problems


def _read_system(request: dict, problems: list[Problem]) -> tuple[str, System | None]:
    slug = request.get("system", "pagat-standard")
    options = options_of(request)
    if not isinstance(slug, str):
        problems.append(
            Problem(
                "system",
                "bad_type",
                Words(N_("'system' must be a preset name such as \"pagat-standard\".")),
            )
        )
        return "", None
    if not isinstance(options, dict):
        problems.append(Problem("options", "bad_type", Words(N_("'options' must be a JSON object."))))
        return slug, None
    try:
        return slug, get_preset(slug).system(options)
    except InvalidInput as error:
        problems.extend(error.problems)
        return slug, None


def _players_problems(raw: object, system: System) -> list[Problem]:
    raw = whole(raw)
    if raw is None:
        return []
    if isinstance(raw, bool) or not isinstance(raw, int):
        return [
            Problem(
                "players",
                "bad_type",
                Words(N_("'players' must be a whole number, not {value}."), value=repr(raw)),
            )
        ]
    if raw != system.players:
        return [
            Problem(
                "players",
                "players_mismatch",
                Words(N_("This system is for {players} players, not {count}."), players=system.players, count=raw),
            )
        ]
    return []


def read_redeal_request(request: object) -> tuple[str, System, tuple[str, ...]]:
    """(slug, system, hand) from a HAND_JSON deal-miss request; InvalidInput lists every problem."""
    if not isinstance(request, dict):
        raise InvalidInput(
            [
                Problem(
                    "",
                    "bad_type",
                    Words(N_("A deal-miss request must be a JSON object with 'system' and 'hand'.")),
                )
            ]
        )
    problems: list[Problem] = []
    slug, system = _read_system(request, problems)
    cards = _read_cards(request.get("hand"), problems)
    if system is not None:
        problems.extend(_players_problems(request.get("players"), system))
        if cards is not None:
            problems.extend(_hand_problems(cards, system.deck_cards))
    if problems or system is None or cards is None:
        raise InvalidInput(problems)
    return slug, system, cards


# --- when the hand qualifies: the table's moment decides (RULES.md §8 options) --------------


@dataclass(frozen=True)
class DealMissMoment:
    """Where the table is when the deal miss is demanded; every field is optional.

    ``bidding_started``: someone has already bid or passed. ``highest_bid``: the
    highest bid so far (its points). ``bid_after_demand``: a bid another player
    made after the demand, to stop it. ``demands``: whether the player demands
    the redeal at all (False: they keep the hand).
    """

    bidding_started: bool = False
    highest_bid: int | None = None
    bid_after_demand: int | None = None
    demands: bool = True


@dataclass(frozen=True)
class RedealDecision:
    redeal: bool
    # the option (or "criteria") that decided, and why in words
    rule: str
    reason: Words

    def as_json(self) -> dict:
        return {"rule": self.rule, "reason": self.reason}


def decide_redeal(system: System, qualifies: bool, moment: DealMissMoment) -> RedealDecision:
    """Is the hand redealt? The criteria first, then each option of RULES.md §8 that applies."""
    rules, top = system.deal_miss, system.max_bid
    if not qualifies:
        return RedealDecision(False, "criteria", Words(N_("The hand meets none of this system's deal-miss criteria.")))
    if rules.before_bidding_only and moment.bidding_started:
        # pagat: "Some play that a redeal can only be demanded before the bidding begins."
        return RedealDecision(
            False,
            "before_bidding_only",
            Words(N_("A deal miss may only be demanded before the bidding, and the bidding has begun.")),
        )
    if rules.bid_20_cancels and moment.highest_bid is not None and moment.highest_bid >= top:
        # pagat: "if there is a bid of 20, no one can demand a redeal"; 003 민사: "주공이 20을
        # 공약하면 딜 미스 없이 바로 진행해야 한다"
        return RedealDecision(
            False,
            "bid_20_cancels",
            Words(N_("A bid of {top} has been made, and in this system a bid of {top} forbids a deal miss."), top=top),
        )
    if rules.bid_20_after_demand and moment.bid_after_demand is not None and moment.bid_after_demand >= top:
        # pagat: "another player can prevent the redeal by bidding 20"
        return RedealDecision(
            False,
            "bid_20_after_demand",
            Words(N_("Another player bid {top} after the demand, which in this system stops the redeal."), top=top),
        )
    if not rules.optional:
        # 003 §3.2.1 reads the deal miss as the rule, not a choice ("딜 미스가 되어")
        return RedealDecision(
            True,
            "optional",
            Words(N_("The hand qualifies, and in this system a deal miss is not optional: it is shown and redealt.")),
        )
    if not moment.demands:
        # pagat: a player "is allowed to" ask; 003 §7.1: "딜 미스 선언은 선택사항이다"
        return RedealDecision(
            False,
            "optional",
            Words(N_("The hand qualifies, but a deal miss is optional in this system and the player keeps the hand.")),
        )
    return RedealDecision(True, "criteria", Words(N_("The hand qualifies, so the cards are redealt.")))


def _read_moment(request: dict, system: System) -> DealMissMoment:
    """The optional context of a deal-miss request; InvalidInput for a value of the wrong kind."""
    problems: list[Problem] = []
    values: dict = {}
    for name in ("bidding_started", "demands"):
        value = request.get(name)
        if value is None:
            continue
        if not isinstance(value, bool):
            problems.append(
                Problem(name, "bad_type", Words(N_("'{field}' must be true or false."), field=name))
            )
        else:
            values[name] = value
    # 신촌, 대구 and 경기북 bid above the maximum (a bid to sink the leader); scoring takes any such contract
    top = None if system.bids_above_max else system.total_points
    for name in ("highest_bid", "bid_after_demand"):
        value = whole(request.get(name))
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 1 or (top is not None and value > top):
            if top is None:
                words = Words(N_("'{field}' is a bid's points, a whole number of at least 1."), field=name)
            else:
                words = Words(N_("'{field}' is a bid's points, a whole number from 1 to {top}."), field=name, top=top)
            problems.append(Problem(name, "bad_type", words))
        else:
            values[name] = value
    if problems:
        raise InvalidInput(problems)
    if "highest_bid" in values:
        # a bid on the table means the bidding has begun, whatever else was said
        values["bidding_started"] = True
    return DealMissMoment(**values)


def redeal_response(request: object) -> dict:
    """HAND_JSON deal-miss request → the verdict of every criterion, the exact odds, and
    whether the cards are redealt at this moment of the bidding (and which rule decided)."""
    slug, system, hand = read_redeal_request(request)
    moment = _read_moment(request, system)
    verdict = check_deal_miss(system, hand)
    decision = decide_redeal(system, verdict.qualifies, moment)
    chance = deal_miss_probability(system)
    return {
        "qualifies": verdict.qualifies,
        "redeal": decision.redeal,
        "decided_by": decision.as_json(),
        "criteria": [criterion.as_json() for criterion in verdict.criteria],
        "probability": float(chance),
        "probability_exact": f"{chance.numerator}/{chance.denominator}",
        "system": slug,
        "players": system.players,
        "hand_size": len(hand),
        "hand": list(hand),
    }
