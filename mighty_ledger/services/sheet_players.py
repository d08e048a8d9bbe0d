"""Each name of a spreadsheet of past hands against the group's players: the same name (however
spaced or composed), the choice made in the preview, or a new player with the near names offered."""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass

from mighty_ledger.models import Group
from mighty_ledger.services.groups import name_normalised

# how alike two names must be, letter by letter (Hangul in its jamo: 민쥰 and 민준 differ in one
# of six), for the preview to offer the group's as a choice: one letter in five or six differs;
# 민준 and 민지, two players, share a syllable and no more (0.73)
NEAR_CUTOFF = 0.75


@dataclass(frozen=True)
class PlayerMatch:
    name: str  # as the sheet writes it
    match: str | None  # the group's player it is, or None: a new player
    near: tuple[str, ...] = ()  # the group's players it may be, offered as a choice


def letters(name: str) -> str:
    """A name letter by letter, as near names are compared: case folded, Hangul syllables in their
    jamo (NFD: 준 is ㅈ, ㅜ, ㄴ), so that one letter wrong weighs as little in 민쥰 as in "Jon"."""
    return unicodedata.normalize("NFD", name_normalised(name).casefold())


def near_names(name: str, players: list[str]) -> list[str]:
    """The group's players ``name`` may be, nearest first: the same letters in another case, then
    those alike letter by letter."""
    wanted = letters(name)
    alike = []
    for player in players:
        ratio = difflib.SequenceMatcher(None, wanted, letters(player)).ratio()
        if ratio >= NEAR_CUTOFF:
            alike.append((-ratio, player))
    return [player for _, player in sorted(alike)[:3]]


def player_matches(group: Group, names, choices: dict[str, str | None]) -> tuple[PlayerMatch, ...]:
    """Each name of the sheet against the group's players: the same name, then the choice made in
    the preview, else a new player, with the near names offered."""
    players = list(group.players.values_list("name", flat=True))
    by_normal = {name_normalised(player): player for player in players}
    matches = []
    for name in names:
        same = by_normal.get(name_normalised(name))
        if same is not None:
            matches.append(PlayerMatch(name, same))
            continue
        chosen = choices.get(name)
        matches.append(PlayerMatch(name, chosen if chosen in players else None, tuple(near_names(name, players))))
    return tuple(matches)
