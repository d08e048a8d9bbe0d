"""What a request's filters mean (``stats.Filters``: which hands the statistics and the ratings
count), read here once for the pages and the API alike.

The pages take ``?period=`` (all, 30d or s<session id>), ``?system=`` and ``?season=``; a value
they do not understand means all, and their links carry only what was understood. The API takes
``?session=``, ``?since=``, ``?system=`` and, for the ratings, ``?season=``; a value it does not
understand is a 400 that names it.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from mighty_ledger.reads import seasons
from mighty_ledger.reads.stats import Filters
from scoring.presets import get_preset
from scoring.problems import InvalidInput, Problem

RECENT_DAYS = 30  # "last 30 days" on the statistics page
_DAY_SHAPE = re.compile(r"\d{4}-\d{2}-\d{2}")


# --- the pages ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageFilters:
    """The filters a page's query asks for, and each as the page's own links carry it."""

    filters: Filters
    period: str  # all, 30d or s<session id>
    system: str  # a preset's slug, or "" for every system
    season: str  # a season's id, or all


def page_filters(query: Mapping[str, str], sessions: Sequence, season_list: list[seasons.SeasonSpan]) -> PageFilters:
    """The filters of a page of the group's record, among its ``sessions`` (stats.SessionChoice)
    and seasons. No season asked is the current one; a session chosen is that session, whichever
    season it was played in and whatever season the form sent with it."""
    period = query.get("period", "all")
    system = query.get("system", "")
    if system not in {s.preset for s in sessions}:
        system = ""
    session_id = since = None
    if period.startswith("s") and period[1:].isdigit() and int(period[1:]) in {s.pk for s in sessions}:
        session_id = int(period[1:])
    elif period == "30d":
        since = timezone.localdate() - datetime.timedelta(days=RECENT_DAYS)
    else:
        period = "all"
    filters = Filters(session_id=session_id, since=since, system=system or None)
    asked = seasons.ALL if session_id is not None else query.get("season")
    season, season_value = seasons.chosen_season(season_list, asked)
    return PageFilters(filters.narrowed_to(season) if season is not None else filters, period, system, season_value)


# --- the API --------------------------------------------------------------------------------------

API_FILTERS = ("session", "since", "system")


def no_such_day(raw: object) -> str | None:
    """Why ``raw``, written as YYYY-MM-DD, is no date ("2026-02-30"); None when it is one, or not
    written so (that is a wrong format, said as such)."""
    if not (isinstance(raw, str) and _DAY_SHAPE.fullmatch(raw)):
        return None
    try:
        datetime.date.fromisoformat(raw)
    except ValueError:
        return _("{value} is not a date: that day does not exist.").format(value=raw)
    return None


def api_filters(params: Mapping[str, str], *, taken_by: str, group=None) -> Filters:
    """The filters an API request's query asks for; InvalidInput naming each it does not
    understand. With ``group`` (the ratings), ``?season=`` too: a season's id, ``current`` or
    ``all`` (the default), and a misspelt filter is told before anything else."""
    names = API_FILTERS + (("season",) if group is not None else ())
    listed = f"{', '.join(names[:-1])} or {names[-1]}"
    problems = [Problem(name or "?", "unknown_parameter", f"The {taken_by} take no filter called {name!r}: {listed}.")
                for name in params if name not in names]
    if problems and group is not None:
        raise InvalidInput(problems)
    session_id = since = None
    if (raw := params.get("session")) is not None:
        if not raw.isdigit() or not 0 < int(raw) < 2**63:
            problems.append(Problem("session", "bad_type", "session must be a session's id."))
        else:
            session_id = int(raw)
    if (raw := params.get("since")) is not None:
        try:
            since = datetime.date.fromisoformat(raw)
        except ValueError:
            problems.append(Problem("since", "bad_date", no_such_day(raw) or "since must be a date, YYYY-MM-DD."))
    if (system := params.get("system") or None) is not None:
        try:
            get_preset(system)
        except InvalidInput as error:
            problems.extend(error.problems)
    if problems:
        raise InvalidInput(problems)
    filters = Filters(session_id=session_id, since=since, system=system)
    return filters if group is None else _in_season(params.get("season"), filters, group)


def _in_season(raw: str | None, filters: Filters, group) -> Filters:
    if raw is None or raw == seasons.ALL:
        return filters
    spans = seasons.group_seasons(group)
    if raw == "current":
        season = seasons.current_season(spans)
        if season is None:
            raise InvalidInput([Problem("season", "no_current_season", "No season has started yet.")])
    elif raw.isdigit() and len(raw) < 19:
        season = next((s for s in spans if s.pk == int(raw)), None)
        if season is None:
            raise Http404("No such season in this group.")
    else:
        raise InvalidInput([Problem("season", "bad_type", "season must be a season's id, 'current' or 'all'.")])
    return filters.narrowed_to(season)
