"""Hand + system → Result: whether the contract was made, the score, every seat's payment, and why.

Notation follows RULES.md §7: B the final contract, P the declarer's team's
points, M the minimum bid, T the point cards in the deck, S the base score.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import JOKER, mighty
from .hand import Hand
from .legality import check, contract_words, team_points
from .limits import lowest_bid
from .numbers import signed
from .problems import InvalidInput
from .settle import fewest_transfers
from .systems import System
from .tables import defender_amount, team_amounts
from .words import N_, WordList, Words

# each double as its explanation line names it
DOUBLE_NAMES = {
    "run": N_("Run (the declarer's team took every point card)"),
    "back_run": N_("Back run"),
    "no_trump": N_("No trump"),
    "no_friend": N_("Announced no friend"),
    "buried_mighty": N_("Mighty buried"),
    "buried_joker": N_("Joker buried"),
    "grand_slam_bid": N_("Grand-slam bid"),
    "set_contract": N_("Contract set"),
}
# 003 §3.5.1 변형 2마: where contracts count tricks, a run is every trick
RUN_OF_TRICKS = N_("Run (the declarer's team took every trick)")


@dataclass(frozen=True)
class Result:
    made: bool | None
    base: int
    multiplier: int
    doubles: tuple[str, ...]
    score: int
    payments: dict[str, int]
    transfers: tuple
    # Words: English as plain strings, translatable by the web layer
    explanation: tuple[str, ...]
    warnings: tuple[str, ...] = ()
    outcome: str = "played"
    points: int | None = None
    # who played on which side: the ledger gives the deal-miss pot to the winners, and
    # statistics count roles from the stored hand without scoring it again
    declarers: tuple[str, ...] = ()
    defenders: tuple[str, ...] = ()

    @property
    def winners(self) -> tuple[str, ...]:
        if self.made is None:  # void: nobody won
            return ()
        return self.declarers if self.made else self.defenders

    def as_json(self) -> dict:
        return {
            "made": self.made,
            "base": self.base,
            "multiplier": self.multiplier,
            "doubles": list(self.doubles),
            "score": self.score,
            "payments": dict(self.payments),
            "transfers": [t.as_json() for t in self.transfers],
            "explanation": list(self.explanation),
            "warnings": list(self.warnings),
            "outcome": self.outcome,
            "points": self.points,
        }


# --- the pieces of a score ---------------------------------------------------


def outcome_points(hand: Hand, system: System, points: int | None) -> tuple[bool, int, list[Words]]:
    """Made or set, and the P the base is computed from (RULES.md §7.5 for concessions)."""
    contract = hand.contract.points
    if hand.outcome != "conceded":
        return points >= contract, points, []
    made = hand.conceded_by == "defenders"
    if points is None:
        assumed = contract if made else contract - 1
        if made:
            warning = N_("The defenders conceded; with no points entered the hand counts P = {points}.")
        else:
            warning = N_("The declarer's team conceded; with no points entered the hand counts P = {points}.")
        return made, assumed, [Words(warning, points=assumed)]
    # a concession decides the result; the points only size the base
    clamped = max(points, contract) if made else min(points, contract - 1)
    if clamped == points:
        return made, clamped, []
    if made:
        warning = N_("The defenders conceded, so P counts as {clamped}, not {points}.")
    else:
        warning = N_("The declarer's team conceded, so P counts as {clamped}, not {points}.")
    return made, clamped, [Words(warning, clamped=clamped, points=points)]


def _made_base(kind: str, *, contract: int, points: int, minimum: int, half: int, hard_unit: int):
    b, p, m = contract, points, minimum
    formulas = {
        "pagat": (2 * (b - m) + (p - b), f"2×({b}−{m})+({p}−{b})"),
        "over_ten": (p - half, f"{p}−{half}"),
        "over_min": (p - m, f"{p}−{m}"),
        "over_min_plus_one": (p - m + 1, f"{p}−{m}+1"),
        "flat_bid": (b - m + 1, f"{b}−{m}+1"),
        "over_bid": (p - b, f"{p}−{b}"),
        "hard": (b - hard_unit, f"{b}−{hard_unit}"),
    }
    value, words = formulas[kind]
    return value, f"{words} = {value}"


def base_score(system: System, contract: int, points: int, made: bool, *, trump: str = "S") -> tuple[int, str]:
    """S before doubles, with the formula written out for the explanation (RULES.md §7.1)."""
    half = system.total_points // 2
    shape = {
        # M is the minimum bid (RULES.md §7.1), also for a no-trump contract bid one under it with the
        # NT discount (신촌, 광주), unless the table counts such a contract from its own lower minimum
        "minimum": lowest_bid(system, trump) if system.nt_discount_in_score else system.min_bid,
        "half": half,
        "hard_unit": system.hard_unit,
    }
    if made:
        return _made_base(system.base, contract=contract, points=points, **shape)
    if system.base in ("flat_bid", "hard") or system.set == "same_as_made":
        # pagat "previous version" and hard score pay the same either way; for bases that
        # depend on P, "same as made" values a set hand as a contract made exactly
        return _made_base(system.base, contract=contract, points=contract, **shape)
    if system.set == "pays_back":
        value = (contract - half) + (contract - points)
        return value, f"({contract}−{half})+({contract}−{points}) = {value}"
    return contract - points, f"{contract}−{points} = {contract - points}"


def doubles_applied(hand: Hand, system: System, *, made: bool, points: int) -> tuple[str, ...]:
    """The doubles whose condition holds and whose setting covers this result (RULES.md §7.2)."""
    total = system.total_points
    defenders = total - points
    contract = hand.contract
    conditions = {
        "run": points == total,
        "back_run": _back_run(system, contract.points, points, defenders),
        "no_trump": contract.no_trump,
        "no_friend": hand.announced_no_friend,
        "buried_mighty": mighty(
            contract.trump, spade_trump_keeps_mighty=system.spade_trump_keeps_mighty
        ) in hand.discards,
        "buried_joker": JOKER in hand.discards,
        "grand_slam_bid": contract.points >= system.max_bid,
        "set_contract": not made,
    }
    covers = ("made", "both") if made else ("set", "both")
    settings = system.doubles
    return tuple(name for name, holds in conditions.items() if holds and getattr(settings, name) in covers)


def _back_run(system: System, contract: int, points: int, defenders: int) -> bool:
    rule = system.back_run
    if rule.rule == "defenders_at_least":
        return defenders >= rule.n
    if rule.rule == "short_by":
        return contract - points >= rule.n
    return defenders >= contract  # defenders_reach_bid


def team_payments(hand: Hand, system: System, *, made: bool, score: int) -> tuple[dict[str, int], list[Words]]:
    """Who pays whom (RULES.md §7.3): each defender ∓S; each partner ±S; the declarer the rest."""
    sign = 1 if made else -1
    defenders = hand.defenders
    payments = {seat: 0 for seat in hand.seats}
    for seat in defenders:
        payments[seat] = -sign * score
    team_total = sign * score * len(defenders)
    if hand.alone:
        payments[hand.declarer] = team_total
        return payments, [
            Words(
                N_("{declarer} plays alone: {amount} = {defenders} × {score} from the defenders."),
                declarer=hand.declarer,
                amount=signed(team_total),
                defenders=len(defenders),
                score=score,
            )
        ]
    if not made and system.players == 4 and system.four_player_set_split == "declarer_alone":
        # pagat 4 players: by agreement a set declarer pays both opponents, the partner nothing
        payments[hand.declarer] = team_total
        return payments, [
            Words(
                N_("Set with four players: {declarer} pays both defenders, the partner pays nothing."),
                declarer=hand.declarer,
            )
        ]
    for seat in hand.partners:
        payments[seat] = sign * score
    payments[hand.declarer] = team_total - sign * score * len(hand.partners)
    share = payments[hand.declarer] // (sign * score) if score else 0
    partners = WordList(
        Words(N_("{seat} (partner) {amount}"), seat=seat, amount=signed(payments[seat])) for seat in hand.partners
    )
    if score and share != 1:
        line = N_("{declarer} (declarer) {amount} = {share} × {score}; {partners}.")
    else:
        line = N_("{declarer} (declarer) {amount}; {partners}.")
    return payments, [
        Words(
            line,
            declarer=hand.declarer,
            amount=signed(payments[hand.declarer]),
            share=share,
            score=score,
            partners=partners,
        )
    ]


def table_payments(hand: Hand, system: System, *, made: bool) -> tuple[int, dict[str, int], list[Words]]:
    """Chicago (seed 001): each defender wins or loses B − 12 (B − 24 with two decks); the team by the tables."""
    level = hand.contract.points
    unit = defender_amount(level, system.deck_cards.double)
    sign = 1 if made else -1
    defenders = hand.defenders
    payments = {seat: 0 for seat in hand.seats}
    for seat in defenders:
        payments[seat] = -sign * unit
    lines = [
        Words(
            N_("Chicago table: each defender {amount} ({level}−{hard_unit})."),
            amount=signed(-sign * unit),
            level=level,
            hard_unit=system.hard_unit,
        )
    ]
    if hand.alone:
        payments[hand.declarer] = sign * unit * len(defenders)
        lines.append(
            Words(
                N_("{declarer} plays alone and takes the defenders' whole total: {amount}."),
                declarer=hand.declarer,
                amount=signed(payments[hand.declarer]),
            )
        )
        return unit, payments, lines
    declarer_share, partner_share = team_amounts(len(hand.active), len(hand.partners), level)
    payments[hand.declarer] = sign * declarer_share
    for seat in hand.partners:
        payments[seat] = sign * partner_share
    if len(hand.partners) > 1:
        line = N_("Table for {players} players with {partners} partners at {level}: "
                  "declarer {declarer}, each partner {partner}.")
    else:
        line = N_("Table for {players} players with {partners} partner at {level}: "
                  "declarer {declarer}, each partner {partner}.")
    lines.append(
        Words(
            line,
            players=len(hand.active),
            partners=len(hand.partners),
            level=level,
            declarer=signed(sign * declarer_share),
            partner=signed(sign * partner_share),
        )
    )
    return unit, payments, lines


def score(hand: Hand, system: System, *, checked: bool = False) -> Result:
    """Score a legal hand; InvalidInput with every problem when it is not legal.

    ``checked`` says the caller has just run the legality checks, so they are not run twice.
    """
    problems = [] if checked else check(hand, system)
    if problems:
        raise InvalidInput(problems)

    if hand.outcome == "void":
        zero = {seat: 0 for seat in hand.seats}
        void = Words(N_("Void: the hand is kept but not scored; nobody pays."))
        return Result(None, 0, 1, (), 0, zero, (), (void,),
                      outcome="void", points=team_points(hand, system), **_sides(hand))

    entered = team_points(hand, system)
    made, points, warnings = outcome_points(hand, system, entered)
    contract = hand.contract.points
    total = system.total_points
    if hand.outcome != "played":
        # a concession by the defenders is scored as made, by the declarer's team as set
        if made:
            first = N_("Contract {contract} conceded by the defenders: scored as made.")
        else:
            first = N_("Contract {contract} conceded by the declarer's team: scored as set.")
    elif system.counts == "tricks":
        # 003 §3.5.1 변형 2마: the contract counts tricks (in Korean 트릭, not 장, cards)
        if made:
            first = N_("Contract {contract}; the declarer's team took {points} of {total} tricks: made.")
        else:
            first = N_("Contract {contract}; the declarer's team took {points} of {total} tricks: set.")
    elif made:
        first = N_("Contract {contract}; the declarer's team took {points} of {total}: made.")
    else:
        first = N_("Contract {contract}; the declarer's team took {points} of {total}: set.")
    # in words as the errors say it (15 in diamonds, 다이아몬드 15), not the JSON's 15 D
    explanation = [Words(first, contract=contract_words(hand.contract), points=points, total=total)]

    if system.base == "table":
        unit, payments, lines = table_payments(hand, system, made=made)
        explanation += lines
        return Result(made, unit, 1, (), unit, payments, tuple(fewest_transfers(payments)),
                      tuple(explanation), tuple(warnings), hand.outcome, entered, **_sides(hand))

    base, formula = base_score(system, contract, points, made, trump=hand.contract.trump)
    explanation.append(Words(N_("Base (made): {formula}.") if made else N_("Base (set): {formula}."), formula=formula))
    if system.trump_penalty and not hand.contract.no_trump:
        base -= system.trump_penalty
        explanation.append(
            Words(N_("A trump suit costs {penalty}: base {base}."), penalty=system.trump_penalty, base=base)
        )
    floor = system.minimum_score if made else 0
    if base < floor:
        explanation.append(Words(N_("The base cannot be below {floor}: base {floor}."), floor=floor))
        base = floor

    doubles = doubles_applied(hand, system, made=made, points=points)
    multiplier = 2 ** len(doubles)
    running = base
    for name in doubles:
        running *= 2
        named = RUN_OF_TRICKS if name == "run" and system.counts == "tricks" else DOUBLE_NAMES[name]
        explanation.append(Words(N_("{double}: ×2 → {score}."), double=Words(named), score=running))
    final = base * multiplier

    payments, lines = team_payments(hand, system, made=made, score=final)
    explanation += lines
    if hand.defenders:
        explanation.append(
            Words(
                N_("Each defender ({defenders}) {amount}."),
                defenders=", ".join(hand.defenders),
                amount=signed(payments[hand.defenders[0]]),
            )
        )
    if hand.sitting_out:
        explanation.append(Words(N_("Sitting out: {seats} (0)."), seats=", ".join(hand.sitting_out)))
    return Result(made, base, multiplier, doubles, final, payments, tuple(fewest_transfers(payments)),
                  tuple(explanation), tuple(warnings), hand.outcome, entered, **_sides(hand))


def _sides(hand: Hand) -> dict:
    return {"declarers": (hand.declarer, *hand.partners), "defenders": tuple(hand.defenders)}
