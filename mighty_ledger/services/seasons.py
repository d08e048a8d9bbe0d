"""Seasons: a group names a stretch of its record (a name and a start date)."""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from mighty_ledger.models import Group, Revision, Season
from mighty_ledger.services.changes import SYSTEM, Actor, invalid, revise
from mighty_ledger.services.groups import name_normalised

NAME_MAX = 80


def _checked(name: str, starts: datetime.date) -> str:
    """The name as kept, once the name and the start date are fit for a season."""
    name = name_normalised(name)
    if not name:
        raise invalid("name", "missing", _("A season needs a name."))
    if len(name) > NAME_MAX:
        raise invalid("name", "too_long", _("A season's name can be at most 80 characters."))
    if not isinstance(starts, datetime.date) or isinstance(starts, datetime.datetime):
        raise invalid("starts", "bad_date", _("A season needs a start date."))
    return name


def _same_start(starts: datetime.date):
    return invalid("starts", "duplicate_season_start",
                   _("Another season already starts on {date}.").format(date=starts.isoformat()))


def _as_kept(season: Season) -> dict:
    return {"name": season.name, "starts": season.starts.isoformat()}


def season_create(*, group: Group, name: str, starts: datetime.date, by: Actor = SYSTEM) -> Season:
    """A new season from ``starts``; it ends the season before it. Two seasons cannot start the
    same day (one of them would hold no day at all)."""
    name = _checked(name, starts)
    try:
        with transaction.atomic():
            season = Season.objects.create(group=group, name=name, starts=starts)
            revise(group=group, subject="season", action=Revision.CREATED, by=by, after=_as_kept(season))
    except IntegrityError:
        raise _same_start(starts) from None
    return season


def season_change(*, season: Season, name: str | None = None, starts: datetime.date | None = None,
                  by: Actor = SYSTEM) -> Season:
    """A season renamed, or started on another day (which moves the end of the season before it).
    What is not given stays; the change is kept in the group's history."""
    before = _as_kept(season)
    name = _checked(season.name if name is None else name, season.starts if starts is None else starts)
    starts = season.starts if starts is None else starts
    if (name, starts) == (season.name, season.starts):
        return season  # nothing to change: no revision either
    season.name, season.starts = name, starts
    try:
        with transaction.atomic():
            season.save(update_fields=["name", "starts"])
            revise(group=season.group, subject="season", action=Revision.AMENDED, by=by, before=before,
                   after=_as_kept(season))
    except IntegrityError:
        season.name, season.starts = before["name"], datetime.date.fromisoformat(before["starts"])
        raise _same_start(starts) from None
    return season


def season_delete(*, season: Season, by: Actor = SYSTEM) -> None:
    """A season no longer named: its days belong to the season before it again (or to none).
    Nothing is counted differently; the history keeps its name and start."""
    with transaction.atomic():
        revise(group=season.group, subject="season", action=Revision.DELETED, by=by, before=_as_kept(season))
        season.delete()
