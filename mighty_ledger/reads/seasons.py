"""A group's seasons as the pages and the API read them: each from its start to the day before
the next one's start, the last going on until another is named.

Statistics, ratings and money are shown per season; a page asked for no season
shows the current one (the last that has started), and ``all`` shows every hand.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from functools import cache

from django.db import connections
from django.utils import timezone

from mighty_ledger.http.link_query import Columns, all_rows
from mighty_ledger.models import Group, Revision, Season

ALL = "all"  # the query's value for every season at once


@dataclass(frozen=True)
class SeasonSpan:
    pk: int
    name: str
    starts: datetime.date
    ends: datetime.date | None  # its last day; None while no later season is named


def group_seasons(group: Group, alias: str = "default") -> list[SeasonSpan]:
    """The group's seasons, earliest first, in one statement written once: every page of the
    group's record reads them, a page from its cache included (as ``stats.session_choices``)."""
    columns, sql = _seasons_statement(alias)
    connection = connections[alias]
    seasons = [columns.converted(row, connection) for row in all_rows(alias, sql, (group.pk,))]
    return spans_of([(season["id"], season["name"], season["starts"]) for season in seasons])


@cache
def _seasons_statement(alias: str) -> tuple[Columns, str]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    columns = Columns(Season, "n", connection, only=("id", "name", "starts"))
    n = quote("n")
    # Season.objects.in_order()
    return columns, (f"SELECT {columns.sql} FROM {quote(Season._meta.db_table)} {n} "
                     f"WHERE {n}.{quote('group_id')} = %s ORDER BY {n}.{quote('starts')}, {n}.{quote('id')}")


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
