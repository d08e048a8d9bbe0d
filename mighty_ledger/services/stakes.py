"""What a session is played for, changed at any time: its stake, currency, rounding and chips.

A table often agrees the stake only when it settles ("let's make it ₩100 a point"). The points
stay as they were scored; the money and chips are read from them and the stakes each time
(reads.session_settlement), so changing the stakes moves nothing else. Payments already marked
keep the amount, unit and currency they were marked in.
"""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from mighty_ledger.models import Revision, Session
from mighty_ledger.services.changes import SYSTEM, Actor, announce, locked, revise
from scoring.problems import InvalidInput, Problem
from scoring.settle import Stakes, in_cents

# named as the engine names them (scoring.settle.Stakes), as the session's columns are
STAKE_FIELDS = tuple(field.name for field in dataclasses.fields(Stakes))
# the columns' own bounds (models.Session): 12 digits with 2 decimals, a currency of 8 characters
MAX_AMOUNT = Decimal(10) ** 10
MAX_CHIPS_START = 1_000_000_000
MAX_CHIPS_PER_POINT = 1_000_000
MAX_CURRENCY = 8
WHOLE = re.compile(r"-?[0-9]{1,20}")


def _amount(field: str, value, *, least: Decimal) -> tuple[Decimal | None, Problem | None]:
    """An amount of money as the column keeps it, or the problem with it; None clears it."""
    if value is None:
        return None, None
    if isinstance(value, bool):
        value = "not a number"  # JSON true is no amount, though Python counts it as 1
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        amount = None
    if amount is None or not amount.is_finite():
        return None, Problem(field, "not_a_number", _("Write an amount, such as 100 or 0.5."))
    if amount < least:
        return None, Problem(field, "too_small", _("This must be at least %(least)s.") % {"least": least})
    if amount >= MAX_AMOUNT or amount.normalize().as_tuple().exponent < -2:
        return None, Problem(field, "bad_amount", _("An amount can have at most 10 digits and 2 decimals."))
    # as the column keeps it (100.00), so the same stake sent as 100 or 100.00 is no change
    return in_cents(amount), None


def _count(field: str, value, *, least: int, most: int) -> tuple[int | None, Problem | None]:
    """A whole number of chips, or the problem with it; None clears it."""
    if value is None:
        return None, None
    # ASCII digits only: "²" is a digit to str.isdigit, and no number to int()
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not WHOLE.fullmatch(str(value).strip()):
        return None, Problem(field, "not_a_whole_number", _("Write a whole number, such as 100."))
    count = int(str(value).strip())
    if not least <= count <= most:
        return None, Problem(field, "out_of_range", _("This must be between %(least)s and %(most)s.") % {
            "least": least, "most": most})
    return count, None


def _currency(value) -> tuple[str | None, Problem | None]:
    if value is None:
        return "", None
    if not isinstance(value, str) or len(value.strip()) > MAX_CURRENCY or "\x00" in value:
        return None, Problem("currency", "bad_currency", _(
            "A currency is a code or a sign of at most 8 characters, such as KRW, ₩ or EUR."))
    return value.strip(), None


def stakes_checked(changes: dict) -> tuple[dict, list[Problem]]:
    """``changes`` (any of STAKE_FIELDS) as the session's columns keep them, and every problem,
    each beside its field. A field this does not know is refused, not ignored."""
    kept, problems = {}, []
    for field, value in changes.items():
        if field == "stake_per_point":
            kept[field], problem = _amount(field, value, least=Decimal(0))
        elif field == "rounding_unit":
            kept[field], problem = _amount(field, value, least=Decimal("0.01"))
        elif field == "chips_start":
            kept[field], problem = _count(field, value, least=0, most=MAX_CHIPS_START)
        elif field == "chips_per_point":
            kept[field], problem = _count(field, value, least=1, most=MAX_CHIPS_PER_POINT)
        elif field == "currency":
            kept[field], problem = _currency(value)
        else:
            problem = Problem(field, "unknown_field", _("%(field)s is not something a session is played for: "
                                                       "send any of %(fields)s.") % {
                "field": field, "fields": ", ".join(STAKE_FIELDS)})
        if problem is not None:
            problems.append(problem)
    return kept, problems


def stakes_snapshot(session: Session) -> dict:
    """The stakes as a revision keeps them: amounts as text, so they read back exactly."""
    def as_text(value):
        return str(value) if isinstance(value, Decimal) else value
    return {field: as_text(getattr(session, field)) for field in STAKE_FIELDS}


@transaction.atomic
def session_stakes_change(*, session: Session, changes: dict, by: Actor = SYSTEM) -> Session:
    """Play the session for other stakes from now on (and for the whole evening: the money is
    counted from the points). Any subset of STAKE_FIELDS; None clears a field. InvalidInput for
    a bad value, and nothing is changed then."""
    kept, problems = stakes_checked(changes)
    if problems:
        raise InvalidInput(problems)
    session = locked(session)
    before = stakes_snapshot(session)
    for field, value in kept.items():
        setattr(session, field, value)
    after = stakes_snapshot(session)
    if after == before:
        return session  # nothing to keep: the same stakes sent twice make one change
    session.save(update_fields=list(kept))
    # every page that shows money is stamped with the session's revision (reads.session_stamp)
    Session.objects.filter(pk=session.pk).update(revision=F("revision") + 1)
    session.refresh_from_db(fields=["revision"])
    revise(session=session, subject="session", action=Revision.AMENDED, by=by,
           before={"stakes": before}, after={"stakes": after})
    announce(session, "stakes_changed")
    return session
