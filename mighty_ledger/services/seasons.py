"""Seasons: a group names a stretch of its record (a name and a start date)."""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from mighty_ledger.models import Group, Revision, Season
from mighty_ledger.services.changes import SYSTEM, Actor, invalid, revise
from mighty_ledger.services.groups import name_normalised

NAME_MAX = 80


def season_create(*, group: Group, name: str, starts: datetime.date, by: Actor = SYSTEM) -> Season:
    """A new season from ``starts``; it ends the season before it. Two seasons cannot start the
    same day (one of them would hold no day at all)."""
    name = name_normalised(name)
    if not name:
        raise invalid("name", "missing", _("A season needs a name."))
    if len(name) > NAME_MAX:
        raise invalid("name", "too_long", _("A season's name can be at most 80 characters."))
    if not isinstance(starts, datetime.date) or isinstance(starts, datetime.datetime):
        raise invalid("starts", "bad_date", _("A season needs a start date."))
    try:
        with transaction.atomic():
            season = Season.objects.create(group=group, name=name, starts=starts)
            revise(group=group, subject="season", action=Revision.CREATED, by=by,
                   after={"name": name, "starts": starts.isoformat()})
    except IntegrityError:
        raise invalid("starts", "duplicate_season_start",
                      _("Another season already starts on {date}.").format(date=starts.isoformat())) from None
    return season
