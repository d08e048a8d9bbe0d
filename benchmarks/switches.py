"""Each performance mechanism switched off inside a benchmark's process: the plain path put in its place.

A switch replaces names in the app's modules for as long as it is on (``switched_off``), or for
the life of a process (``switch_off``: the gunicorn beside the app's own, benchmarks/off_wsgi.py).
Nothing in the product reads a flag: what runs without a mechanism is what the code would be
without it, written here.

- ``link_query``: the link's query composed by the ORM per request (as before
  mighty_ledger/http/link_query.py), for the pages and the API.
- ``statements``: the reads' other statements written once (the board's step with its link,
  the group's sessions and seasons) through the ORM.
- ``append``: a new hand written by the ORM (an UPDATE, two INSERTs and the transaction) on
  PostgreSQL too (mighty_ledger/services/appending.py).
- ``drawn_once``: the pages drawn for each visitor (pages/views/conditional.py).
- ``steps``: a new hand's event carries no step on the board (live/steps.py): the phones fetch
  the board's live regions, as they do after any other change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from unittest import mock

MECHANISMS = ("link_query", "statements", "append", "drawn_once", "steps")


@contextmanager
def switched_off(*names: str) -> Iterator[None]:
    """The mechanisms ``names`` off while the block runs."""
    with ExitStack() as stack:
        for target, attribute, plain in _replacements(names):
            stack.enter_context(mock.patch.object(target, attribute, plain))
        yield


def switch_off(names: Iterable[str]) -> None:
    """The mechanisms ``names`` off for the rest of this process."""
    for target, attribute, plain in _replacements([name for name in names if name]):
        setattr(target, attribute, plain)


def _replacements(names: Iterable[str]) -> list[tuple[object, str, object]]:
    found = []
    for name in names:
        if name not in MECHANISMS:
            raise ValueError(f"no mechanism {name!r}: one of {', '.join(MECHANISMS)}")
        found += globals()[f"_{name}"]()
    return found


# --- the link's query, composed by the ORM --------------------------------------------------------


def _link_query() -> list:
    from mighty_ledger.http import link_query

    return [(link_query, "group_and_session", _orm_group_and_session), (link_query, "group", _orm_group)]


def _by_link(token: str, prefix: str = ""):
    from django.db.models import Q

    return Q(**{f"{prefix}edit_token": token}) | Q(**{f"{prefix}view_token": token})


def _sessions_by_link(token: str, session_id: int, alias: str):
    from mighty_ledger.models import Session

    # at most one row (the primary key): no ordering to compile or sort by
    return (Session.objects.using(alias).live()
            .filter(_by_link(token, "group__"), group__deleted_at__isnull=True, pk=session_id).order_by())


def _orm_group_and_session(token: str, session_id: int, alias: str = "default"):
    session = next(iter(_sessions_by_link(token, session_id, alias).select_related("group")[:1]), None)
    return None if session is None else (session.group, session)


def _orm_group(token: str, *, include_deleted: bool = False, alias: str = "default"):
    from mighty_ledger.models import Group

    groups = Group.objects.using(alias).all() if include_deleted else Group.objects.using(alias).live()
    return next(iter(groups.filter(_by_link(token)).order_by()[:1]), None)


# --- the reads' statements written once, through the ORM ------------------------------------------


def _statements() -> list:
    from mighty_ledger import reads
    from mighty_ledger.reads import seasons, stats

    return [(reads, "board_step", _orm_board_step), (stats, "group_sessions", _orm_group_sessions),
            (stats, "session_choices", _orm_session_choices), (seasons, "group_seasons", _orm_group_seasons)]


def _orm_board_step(token: str, session_id: int, alias: str = "default"):
    from mighty_ledger import reads
    from mighty_ledger.http import link_query
    from mighty_ledger.models import Contract, Hand

    found = link_query.group_and_session(token, session_id, alias)
    if found is None:
        return None
    group, session = found
    latest = list(Hand.objects.using(alias).filter(session=session).live().defer(*reads._NOT_SHOWN)
                  .order_by("-number")[:reads.STEP_ROWS])
    if not latest:
        return None
    rows = latest[::-1]
    in_progress = Contract.objects.using(alias).filter(session=session, status=Contract.OPEN).exists()
    return reads.BoardStep(group, session, reads._board(session, rows, False, rows[-1], rows), in_progress)


def _orm_group_sessions(group, alias: str = "default"):
    from mighty_ledger.models import Session
    from mighty_ledger.reads import stats

    return list(Session.objects.using(alias).filter(group=group).live().defer(*stats._NOT_READ)
                .order_by("played_on", "id"))


def _orm_session_choices(group, alias: str = "default"):
    from mighty_ledger.models import Session
    from mighty_ledger.reads import stats

    return [stats.SessionChoice(*row) for row in Session.objects.using(alias).filter(group=group).live()
            .order_by("played_on", "id").values_list(*stats._CHOICE)]


def _orm_group_seasons(group, alias: str = "default"):
    from mighty_ledger.models import Season
    from mighty_ledger.reads import seasons

    return seasons.spans_of(list(Season.objects.using(alias).filter(group=group).in_order()
                                 .values_list("id", "name", "starts")))


# --- the append through the ORM on PostgreSQL too -------------------------------------------------


def _append() -> list:
    from mighty_ledger.services import appending, hands

    return [(hands, "append_hand", appending._append_with_the_orm)]


# --- pages drawn for each visitor -----------------------------------------------------------------


def _drawn_once() -> list:
    from mighty_ledger.pages.views import ratings, sessions, stats

    return [(module, "drawn_once", _drawn_every_time) for module in (sessions, stats, ratings)]


def _drawn_every_time(request, key: str, template: str, context: Callable[[], dict]):
    from django.shortcuts import render

    return render(request, template, context())


# --- no steps in the events -----------------------------------------------------------------------


def _steps() -> list:
    from mighty_ledger.live.steps import BoardSteps

    return [(BoardSteps, "event", _the_change_alone)]


async def _the_change_alone(steps, change, token: str, language: str) -> bytes:
    from mighty_ledger.live.wire import sse

    return sse("change", change.public())
