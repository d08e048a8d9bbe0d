"""Choosing the rules on the start page: the systems in families and by player count, the likeliest
first for the reader's language and the table's size, each with one line that says what it is.

A table that has never used the app knows its rules by name (표준 5마, "the pagat rules"), so the
menu starts from the family the reader's language plays and the number of players at the table;
the rest stay a tap away, folded. The line beside each name is the preset's own description cut to
what sets it apart (scoring/presets/ holds the whole, with its sources).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from mighty_ledger.pages.preset_names import preset_name
from scoring.presets import all_presets, get_preset
from scoring.systems import Preset

KOREAN, PAGAT, CHICAGO = "korean", "pagat", "chicago"
FAMILY_NAMES = {
    KOREAN: _("Korean rule sets"),
    PAGAT: _("Pagat's rules"),
    CHICAGO: _("Chicago (seed 001's tables)"),
}

# the system each family plays at each table size, when the table has not said another
USUAL = {
    KOREAN: {2: "korean-2", 3: "korean-jeju-3", 4: "korean-4", 5: "korean-standard", 6: "korean-6",
             7: "korean-7"},
    PAGAT: {3: "pagat-3p", 4: "pagat-4p-jun", 5: "pagat-standard", 6: "pagat-6p-knockout",
            7: "pagat-7p-knockout"},
    CHICAGO: {4: "chicago-4p", 5: "chicago-5p", 6: "chicago-6p", 7: "chicago-7p", 8: "chicago-8p"},
}

# one line each: what a player reading the menu needs to tell the systems apart
PRESET_LINES = {
    "pagat-standard": _("The most widespread: 2×(bid − 13) plus overtricks; doubled for a run, back run, no trump, no friend."),
    "pagat-over-ten": _("One point for each point taken above 10, whatever the bid."),
    "pagat-over-min": _("The points taken above the minimum bid (P − 13)."),
    "pagat-over-min-plus-one": _("One point for each point taken above 12."),
    "pagat-classic": _("Pagat's previous version: bid − 12 made or set, nothing for overtricks."),
    "pagat-3p": _("33 cards; the declarer always plays alone against two; minimum 11."),
    "pagat-4p-jun": _("43 cards, minimum 14, two against two."),
    "pagat-6p-knockout": _("The declarer names a card; its holder sits the hand out."),
    "pagat-7p-knockout": _("The declarer names two cards; their holders sit the hand out."),
    "pagat-6p-rotation": _("Five play, the dealer sits out; scored as the five-player game."),
    "hard-score": _("Every hand is worth bid − 12, made or set; doubled for a run or back run."),
    "chicago-4p": _("51 cards; each defender wins or loses bid − 12, the team shares about 2:1."),
    "chicago-5p": _("53 cards; each defender wins or loses bid − 12, the team shares 2:1; no doubles."),
    "chicago-6p": _("Two decks, two partner cards, minimum 27."),
    "chicago-7p": _("Two decks (102 cards), two partner cards."),
    "chicago-8p": _("Two decks (100 cards), two partner cards."),
    "korean-standard": _("The common Korean game: minimum 14, +2 to change trump, the previous declarer deals."),
    "korean-minsa": _("표준, but the previous partner deals and a deal miss counts cards."),
    "korean-sinchon": _("표준, but bids above 20, the dealer may not pass, no trump one under."),
    "korean-daejeon-6": _("Six players: the declarer knocks one out by naming a card; 신촌's bidding."),
    "korean-gwanak-6": _("As 대전 6마, but the previous partner deals."),
    "korean-gwanak-5": _("Bid 2 to 7, the hand worth that made or set."),
    "korean-gyeonggi": _("표준, but minimum 12, no raise to change trump, doubled for no friend."),
    "korean-gwangju": _("표준, but minimum 12, no trump one less, +1 to change to no trump."),
    "korean-daegu": _("표준, but minimum 12, the previous partner deals, bids above 20."),
    "korean-jeju-3": _("Three players, 33 cards, no friend: the declarer plays alone."),
    "korean-uos": _("표준, but minimum 12."),
    "korean-uos-4": _("Four players, 43 cards, minimum 17, two against two."),
    "korean-4": _("Four players, 43 cards, two against two, no Mighty or Joker call."),
    "korean-6-rotation": _("Six at the table, five play: the previous partner deals and sits out."),
    "korean-7-rotation": _("Seven at the table, five play: the last declarer and friend sit out."),
    "korean-2": _("Two players with the 23 cards that matter; the declarer plays alone."),
    "korean-gyeonggibuk": _("표준, but bids above 20 are allowed."),
    "korean-gwanak-4": _("Four players as 관악 plays: 44 cards, two against two."),
    "korean-busan-4": _("Four players as 관악 6마: the previous partner deals."),
    "korean-honeymoon-4": _("A teaching game for four, scored as 4마."),
    "korean-network-4": _("Four players with all 53 cards, as Mighty Network 4.0."),
    "korean-6": _("Six players: the declarer names a card, its holder drops out."),
    "korean-7": _("Seven players: the declarer names two cards, their holders drop out."),
    "korean-2-variant": _("Two players with the 43-card deck; the contract counts tricks."),
}


@dataclass(frozen=True)
class SystemChoice:
    slug: str
    name: str
    line: str


@dataclass(frozen=True)
class SystemGroup:
    """One family's systems for one table size, as the menu shows them."""

    title: str
    players: int
    choices: list[SystemChoice]
    chosen: bool  # holds the system chosen: its fold is drawn open


def family_of(preset: Preset) -> str:
    if preset.slug.startswith("korean-"):
        return KOREAN
    if preset.slug.startswith("chicago-"):
        return CHICAGO
    return PAGAT  # pagat's own, and the hard score its seeds play


def families_for(language: str | None) -> list[str]:
    """The families in the order a reader of ``language`` looks for them: a Korean phone's table
    plays a Korean rule set, another's pagat's, which English sources describe."""
    if (language or "").startswith("ko"):
        return [KOREAN, PAGAT, CHICAGO]
    return [PAGAT, KOREAN, CHICAGO]


def likeliest_preset(*, language: str | None, players: int | None) -> str:
    """The system a new table most likely plays: its language's family at its size (a Korean phone
    with five players: 표준 5마), else the family's five-player game."""
    families = families_for(language)
    for family in families:
        if players in USUAL[family]:
            return USUAL[family][players]
    return USUAL[families[0]][5]


def system_groups(*, language: str | None = None, players: int | None = None,
                  chosen: str | None = None) -> list[SystemGroup]:
    """Every preset, in groups of one family and one table size: the table's size first (its
    language's family first among them), then the other sizes from five outwards. Within a group the
    usual system of the family leads, the others as the catalog lists them."""
    language = language if language is not None else get_language()
    families = families_for(language)
    grouped: dict[tuple[str, int], list[Preset]] = {}
    for preset in all_presets():
        grouped.setdefault((family_of(preset), preset.system().players), []).append(preset)

    def size_rank(size: int) -> tuple[int, int]:
        return (0 if size == players else 1, abs(size - 5), size)

    groups = []
    for family, size in sorted(grouped, key=lambda key: (size_rank(key[1]), families.index(key[0]))):
        usual = USUAL[family].get(size)
        presets = sorted(grouped[family, size], key=lambda preset: preset.slug != usual)
        title = _("%(family)s, %(count)s players") % {"family": FAMILY_NAMES[family], "count": size}
        groups.append(SystemGroup(str(title), size, [
            SystemChoice(preset.slug, preset_name(preset), str(PRESET_LINES.get(preset.slug, ""))) for preset in presets
        ], any(preset.slug == chosen for preset in presets)))
    return groups


def second_choice(groups: list[SystemGroup], chosen: str) -> str:
    """The system to compare ``chosen`` with: the next likeliest for the same table."""
    for group in groups:
        for choice in group.choices:
            if choice.slug != chosen and group.players == get_preset(chosen).system().players:
                return choice.slug
    return next(choice.slug for group in groups for choice in group.choices if choice.slug != chosen)
