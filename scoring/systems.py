"""The options of a scoring system, and how a system is built from a preset plus overrides.

A system is a tree of frozen dataclasses. Every field is an option of RULES.md
§4–8; its type says which values it takes (``Literal`` for choices, ``int``
with bounds in the field's metadata), so validation, the JSON shape, the
description in words and the diff between two presets all come from the same
declaration.

One module because the options are one tree: each dataclass names the next, and
the builder, the validator and the JSON shape walk that tree together; split,
every part would import every other.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import typing
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from .cards import DECKS, Deck
from .numbers import whole
from .problems import InvalidInput, Problem
from .words import N_, Words

When = Literal["never", "made", "set", "both"]
Base = Literal["pagat", "over_ten", "over_min", "over_min_plus_one", "flat_bid", "over_bid", "hard", "table"]
SetRule = Literal["shortfall", "same_as_made", "pays_back"]
BackRunRule = Literal["defenders_at_least", "short_by", "defenders_reach_bid"]
CallType = Literal["card", "first_trick", "none", "player"]
DealMissCriterion = Literal[
    "pagat_scale",
    "pagat_scale_mighty_minus",
    "korean_scale",
    "no_points",
    "lone_jack",
    "lone_mighty",
    "one_point_card",
    "all_points",
    "red_mighty_minus",
]
NextDealer = Literal["partner", "declarer", "partner_if_made", "rotation", "previous_dealer", "joker_holder"]
FirstBidder = Literal["declarer", "partner", "dealer", "left_of_dealer"]
SitOut = Literal["none", "dealer", "previous_result", "declarer_and_partner", "knockout"]
DealMissDealer = Literal["demander", "next", "previous", "same"]
Threshold = Literal["0", "1/2", "1"]


def bounded(default: int, low: int, high: int):
    return field(default=default, metadata={"min": low, "max": high})


@dataclass(frozen=True)
class Doubles:
    """Each double multiplies the score by 2 when it applies (RULES.md §7.2)."""

    run: When = "made"
    back_run: When = "set"
    no_trump: When = "both"
    no_friend: When = "both"
    buried_mighty: When = "never"
    buried_joker: When = "never"
    grand_slam_bid: When = "never"
    # pagat: "a few players double the score for all failed contracts"
    set_contract: When = "never"


@dataclass(frozen=True)
class BackRun:
    rule: BackRunRule = "defenders_at_least"
    n: int = bounded(11, 1, 40)


@dataclass(frozen=True)
class TrumpChange:
    """The raise needed to change trump after the kitty (RULES.md §4.3)."""

    # 관악 5마 names trump before the kitty is seen, and it cannot change afterwards
    allowed: bool = True
    # suit → another suit, and NT → suit
    suit: int = bounded(2, 0, 5)
    # suit → NT
    to_nt: int = bounded(1, 0, 5)
    # pagat: a 19 bid may change suit by going to 20
    nineteen_to_twenty: bool = True
    # pagat: 20 in a suit may become 20 NT
    twenty_to_no_trump: bool = True
    # pagat allows raising the number while keeping trump; Denexa (seed 004) does not
    same_trump_raise: bool = True
    # pagat variant: a change announced before taking the kitty needs this much less
    before_kitty_discount: int = bounded(0, 0, 2)


@dataclass(frozen=True)
class Auction:
    """Bidding options (RULES.md §4.2)."""

    # an NT bid ranks one point above its number (seed 003 footnote 4, 신촌, 광주)
    nt_discount: bool = False
    reenter_after_pass: bool = False
    dealer_may_pass: bool = True
    forced_minimum: bool = False
    all_pass: Literal["redeal", "second_round"] = "redeal"


@dataclass(frozen=True)
class DealMiss:
    """Who may demand a redeal and what follows (RULES.md §8)."""

    criteria: tuple[DealMissCriterion, ...] = ("pagat_scale",)
    threshold: Threshold = "1/2"
    # lone_jack counts only the one-eyed jacks ♠J and ♥J
    one_eyed_jacks_only: bool = False
    # pagat: "if there is a bid of 20, no one can demand a redeal" (민사: "주공이 20을 공약하면
    # 딜 미스 없이 바로 진행해야 한다"); the maximum bid of the deck, 40 with two
    bid_20_cancels: bool = False
    # pagat: "if a player demands a redeal another player can prevent the redeal by bidding 20"
    bid_20_after_demand: bool = False
    before_bidding_only: bool = False
    optional: bool = True
    next_dealer: DealMissDealer = "demander"
    # paid by the dealer into a pot that the winners of the next scored hand take
    fine: int = bounded(0, 0, 1000)


@dataclass(frozen=True)
class PartnerInstruction:
    """'Partner, take this trick' (pagat, seed 001)."""

    allowed: bool = False
    min_contract: int = bounded(17, 0, 40)
    per_hand: int = bounded(1, 0, 2)


@dataclass(frozen=True)
class System:
    """Every option of a scoring system. The defaults are pagat's standard 5-player game."""

    players: int = bounded(5, 2, 8)
    deck: Literal[tuple(DECKS)] = "standard"  # type: ignore[valid-type]
    # how many play each hand; the rest sit out or are knocked out
    active_players: int = bounded(5, 2, 8)
    # what a contract counts: point cards (every set but one), or tricks (003 변형 2마: "공약은 먹은
    # 턴 수를 대상으로 한다", the contract is the number of tricks taken)
    counts: Literal["point_cards", "tricks"] = "point_cards"
    min_bid: int = bounded(13, 1, 40)
    max_bid: int = bounded(20, 1, 40)
    bids_above_max: bool = False
    base: Base = "pagat"
    set: SetRule = "shortfall"
    minimum_score: int = bounded(0, 0, 1)
    # with the NT discount: a no-trump contract's bid also counts from one under the minimum, as it
    # ranks in the auction (13 NT scores as 14 in a suit). The sources score every contract from
    # the minimum (RULES.md §7.1 "M = minimum bid"); the discount is the auction's (§4.2)
    nt_discount_in_score: bool = False
    doubles: Doubles = Doubles()
    back_run: BackRun = BackRun()
    discards_count_for: Literal["declarer", "defenders"] = "declarer"
    four_player_set_split: Literal["equal", "declarer_alone"] = "equal"
    # 관악 5마: one less when there is a trump suit
    trump_penalty: int = bounded(0, 0, 5)
    # the hard score counts B − 12 (B − 24 with two decks) plus this: 관악 5마 read with the
    # defenders' 8 − n as what sets the contract enters n as 13 + n, worth B − 13
    hard_offset: int = bounded(0, 0, 4)
    # the lowest contract that may name a trump suit (관악 5마: 3 on its scale, contract 15)
    min_suit_contract: int = bounded(0, 0, 40)
    secret_solo: bool = True
    # the declarer always plays alone (3 players, 제주 3마)
    always_alone: bool = False
    partner_calls: tuple[CallType, ...] = ("card", "first_trick", "none")
    forbidden_calls: tuple[Literal["mighty", "joker"], ...] = ()
    called_cards: int = bounded(1, 1, 2)
    # 관악 5마: the Mighty stays ♠A when spades are trump
    spade_trump_keeps_mighty: bool = False
    trump_change: TrumpChange = TrumpChange()
    auction: Auction = Auction()
    partner_instruction: PartnerInstruction = PartnerInstruction()
    deal_miss: DealMiss = DealMiss()
    next_dealer: NextDealer = "partner"
    first_bidder: FirstBidder = "declarer"
    sit_out: SitOut = "none"

    @property
    def deck_cards(self) -> Deck:
        return DECKS[self.deck]

    @property
    def total_points(self) -> int:
        """T: the point cards in the deck, or the tricks in a hand when contracts count tricks."""
        if self.counts == "tricks":
            return self.deck_cards.dealt
        return self.deck_cards.total_points

    @property
    def hard_unit(self) -> int:
        """What the hard score counts a contract over (seed 001: 12 with one deck, 24 with two)."""
        return (24 if self.deck_cards.double else 12) + self.hard_offset

    @property
    def threshold(self) -> Fraction:
        return Fraction(self.deal_miss.threshold)


@dataclass(frozen=True)
class Preset:
    slug: str
    name: str
    description: str
    options: dict = field(hash=False)
    source: str = ""

    def system(self, overrides: dict | None = None) -> System:
        if not isinstance(overrides or {}, dict):
            raise InvalidInput([Problem("options", "bad_option", Words(N_("The options must be a JSON object.")))])
        # systems are immutable, so each distinct (preset, overrides) is built and checked once
        return _cached_system(self, json.dumps(overrides or {}, sort_keys=True))


@functools.lru_cache(maxsize=512)
def _cached_system(preset: Preset, overrides_json: str) -> System:
    return build_system(merge(preset.options, json.loads(overrides_json)))


def system_from(options: dict) -> System:
    """``build_system``, once per distinct options: a session's system, frozen into it as options,
    is read on every page of the session, and building and checking it costs more than the page's
    own reads."""
    return _built_system(json.dumps(options, sort_keys=True))


@functools.lru_cache(maxsize=512)
def _built_system(options_json: str) -> System:
    options = json.loads(options_json)
    try:
        return build_system(options)
    except InvalidInput:
        # a session frozen before a combination of its options was refused is still that
        # session: its pages show it as it was; each option on its own is still checked
        return build_system(options, combinations=False)


# --- building and validating ------------------------------------------------


def merge(base: dict, overrides: dict) -> dict:
    """Overrides win; nested option groups merge key by key."""
    merged = dict(base)
    for key, value in overrides.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = value
    return merged


@functools.cache
def _hints(cls) -> dict:
    return typing.get_type_hints(cls)


def _is_dataclass_type(hint) -> bool:
    return isinstance(hint, type) and dataclasses.is_dataclass(hint)


def _convert(hint, value, path: str, spec: dataclasses.Field | None, problems: list[Problem]):
    origin = typing.get_origin(hint)
    if _is_dataclass_type(hint):
        if not isinstance(value, dict):
            problems.append(Problem(path, "bad_option", Words(N_("The option '{path}' must be an object."), path=path)))
            return hint()
        return _build(hint, value, path, problems)
    if origin is Literal:
        allowed = typing.get_args(hint)
        if value not in allowed:
            choices = ", ".join(repr(a) for a in allowed)
            problems.append(
                Problem(
                    path,
                    "bad_option",
                    Words(
                        N_("The option '{path}' cannot be {value}: choose one of {choices}."),
                        path=path,
                        value=repr(value),
                        choices=choices,
                    ),
                )
            )
            return None
        return value
    if origin is tuple:
        (item_hint, _ellipsis) = typing.get_args(hint)
        if not isinstance(value, list | tuple):
            problems.append(Problem(path, "bad_option", Words(N_("The option '{path}' must be a list."), path=path)))
            return ()
        items = tuple(_convert(item_hint, item, f"{path}[{i}]", None, problems) for i, item in enumerate(value))
        if len(set(items)) != len(items):
            problems.append(Problem(path, "bad_option", Words(N_("The option '{path}' lists a value twice."), path=path)))
        return items
    if hint is bool:
        if not isinstance(value, bool):
            problems.append(Problem(path, "bad_option", Words(N_("The option '{path}' must be true or false."), path=path)))
            return False
        return value
    if hint is int:
        value = whole(value)  # 10.0 is 10, as a hand's numbers are read
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(Problem(path, "bad_option", Words(N_("The option '{path}' must be a whole number."), path=path)))
            return 0
        low, high = spec.metadata.get("min"), spec.metadata.get("max")
        if (low is not None and value < low) or (high is not None and value > high):
            problems.append(
                Problem(
                    path,
                    "bad_option",
                    Words(
                        N_("The option '{path}' must be between {low} and {high}, not {value}."),
                        path=path,
                        low=low,
                        high=high,
                        value=value,
                    ),
                )
            )
        return value
    raise TypeError(f"no converter for {hint!r}")  # a bug in the declarations, not bad input


def _build(cls, options: dict, prefix: str, problems: list[Problem]):
    hints = _hints(cls)
    specs = {f.name: f for f in dataclasses.fields(cls)}
    values = {}
    for key, value in options.items():
        path = f"{prefix}.{key}" if prefix else key
        if key not in specs:
            known = ", ".join(specs)
            problems.append(
                Problem(
                    f"options.{path}",
                    "unknown_option",
                    Words(N_("There is no option '{path}'. Known: {known}."), path=path, known=known),
                )
            )
            continue
        converted = _convert(hints[key], value, path, specs[key], problems)
        if converted is not None:
            values[key] = converted
    return cls(**values)


def _combination_problems(system: System) -> list[Problem]:
    """Options that are valid one by one but cannot go together."""
    problems = []
    deck = system.deck_cards
    total = system.total_points

    def bad(path: str, message: Words) -> None:
        problems.append(Problem(f"options.{path}", "impossible_options", message))

    if system.active_players > system.players:
        bad("active_players", Words(N_("More players cannot be active in a hand than sit at the table.")))
    dealt_to = system.players if system.sit_out == "knockout" else system.active_players
    if dealt_to * deck.dealt + deck.kitty + deck.unused != deck.size:
        bad(
            "deck",
            Words(
                N_("The {deck} deck deals {dealt} cards to each of {players} players and {kitty} to the kitty, "
                   "which is not its {size} cards."),
                deck=deck.name,
                dealt=deck.dealt,
                players=dealt_to,
                kitty=deck.kitty,
                size=deck.size,
            ),
        )
    if system.min_bid > system.max_bid:
        bad("min_bid", Words(N_("The minimum bid is above the maximum bid.")))
    if system.max_bid > total:
        if system.counts == "tricks":
            bad("max_bid", Words(N_("A hand has only {total} tricks, so no bid can be above {total}."), total=total))
        else:
            bad("max_bid", Words(N_("This deck holds only {total} point cards, so no bid can be above {total}."), total=total))
    if system.base == "table" and system.doubles != Doubles(**{k: "never" for k in _hints(Doubles)}):
        bad("doubles", Words(N_("The Chicago tables already fix every payment: they take no doubles.")))
    if system.called_cards == 2 and not deck.double:
        bad("called_cards", Words(N_("Two partner cards can only be called with a double deck.")))
    if system.sit_out == "knockout" and system.active_players == system.players:
        bad("sit_out", Words(N_("A knockout game needs fewer active players than seats.")))
    if not system.partner_calls:
        # no hand could be entered: every partner call would be refused
        bad("partner_calls", Words(N_("A system needs at least one way to call the partner.")))
    out = system.players - system.active_players
    if system.sit_out == "none" and out:
        bad("sit_out", Words(N_("With fewer players in a hand than at the table, say who sits out each hand.")))
    elif system.sit_out in ("dealer", "previous_result", "declarer_and_partner") and not out:
        bad("sit_out", Words(N_("Nobody can sit a hand out when every player at the table plays it.")))
    elif system.sit_out == "dealer" and out != 1:
        bad("sit_out", Words(N_("The dealer alone sits out, so a hand has one player fewer than the table.")))
    if system.doubles.run == "set":
        bad("doubles.run", Words(N_("A run takes every point card, so its contract is always made: it cannot double a set one.")))
    if system.back_run.rule == "defenders_at_least" and system.back_run.n > total:
        bad("back_run.n", Words(N_("The defenders cannot take {value} point cards: there are {total} in this deck."),
                                value=system.back_run.n, total=total))
    instruction = system.partner_instruction
    if instruction.allowed and (instruction.per_hand == 0 or instruction.min_contract > total):
        bad("partner_instruction", Words(N_("'Partner, take this trick' is allowed, but no hand could ever say it: "
                                            "it needs a contract no higher than {total} and at least once a hand."),
                                         total=total))
    return problems


def options_of(request: object) -> object:
    """A request's ``options`` as it means them: absent or null is none; anything else as sent,
    for the reader to check it is an object."""
    options = request.get("options") if isinstance(request, dict) else None
    return {} if options is None else options


def build_system(options: dict, *, combinations: bool = True) -> System:
    """A validated System from a plain options mapping; InvalidInput lists every problem.
    ``combinations=False`` only for a system frozen earlier (``system_from``)."""
    if not isinstance(options, dict):
        raise InvalidInput([Problem("options", "bad_option", Words(N_("The options must be a JSON object.")))])
    problems: list[Problem] = []
    system = _build(System, options, "", problems)
    problems = [
        p if p.field.startswith("options") else Problem(f"options.{p.field}", p.code, p.message) for p in problems
    ]
    if not problems and combinations:
        problems = _combination_problems(system)
    if problems:
        raise InvalidInput(problems)
    return system


def system_as_options(system: System) -> dict:
    """The HAND_JSON "Options" shape of a system."""

    def plain(value):
        if dataclasses.is_dataclass(value):
            return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, tuple):
            return [plain(v) for v in value]
        return value

    return plain(system)


def option_paths(options: dict, prefix: str = "") -> dict[str, object]:
    """Flatten nested options into dotted paths, for diffs and descriptions."""
    flat = {}
    for key, value in options.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(option_paths(value, path + "."))
        else:
            flat[path] = value
    return flat


def system_diff(a: System, b: System) -> list[tuple[str, object, object]]:
    """Every option where two systems differ, as (path, value in a, value in b)."""
    left, right = option_paths(system_as_options(a)), option_paths(system_as_options(b))
    return [(path, left[path], right[path]) for path in left if left[path] != right[path]]

