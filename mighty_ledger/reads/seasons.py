"""A group's seasons as the pages and the API read them: each from its start to the day before
the next one's start, the last going on until another is named.

Statistics, ratings and money are shown per season; a page asked for no season
shows the current one (the last that has started), and ``all`` shows every hand.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from mighty_ledger.models import Group, Revision, Season

ALL = "all"  # the query's value for every season at once


@dataclass(frozen=True)
class SeasonSpan:
    pk: int
    name: str
    starts: datetime.date
    ends: datetime.date | None  # its last day; None while no later season is named


def group_seasons(group: Group) -> list[SeasonSpan]:
    """The group's seasons, earliest first."""
    return spans_of(list(Season.objects.filter(group=group).in_order().values_list("id", "name", "starts")))


def spans_of(rows: list[tuple[int, str, datetime.date]]) -> list[SeasonSpan]:
    """Seasons from (id, name, start) rows in start order: the next season's start ends the last."""
    if not rows:
        return []
    ends = [following - datetime.timedelta(days=1) for _, _, following in rows[1:]] + [None]
    return [SeasonSpan(pk, name, starts, end) for (pk, name, starts), end in zip(rows, ends, strict=True)]


def current_season(seasons: list[SeasonSpan], today: datetime.date | None = None) -> SeasonSpan | None:
    """The last season that has started; None before the first (or when none is named)."""
    today = today or timezone.localdate()
    started = [season for season in seasons if season.starts <= today]
    return started[-1] if started else None


def chosen_season(seasons: list[SeasonSpan], asked: str | None) -> tuple[SeasonSpan | None, str]:
    """The season a page's ``?season=`` names, and the value its links carry: no value (or one not
    understood) is the current season, ``all`` every hand."""
    if asked == ALL:
        return None, ALL
    if asked and asked.isdigit():
        for season in seasons:
            if season.pk == int(asked):
                return season, str(season.pk)
    current = current_season(seasons)
    return current, (str(current.pk) if current else ALL)


SEASON_CHANGES_SHOWN = 20


def group_season(group: Group, pk: int) -> Season | None:
    """The group's season ``pk``, or None (another group's, or one deleted meanwhile)."""
    return group.seasons.filter(pk=pk).first()


def season_changes(group: Group) -> list[Revision]:
    """The latest changes to the group's seasons, newest first: who named, renamed, moved or
    deleted which (a deleted season lives on here)."""
    return list(Revision.objects.filter(group=group, subject="season")[:SEASON_CHANGES_SHOWN])
