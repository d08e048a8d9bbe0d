"""Each performance mechanism switched off inside a benchmark's process: the plain path put in its place.

A switch replaces names in the app's modules for as long as it is on (``switched_off``), or for
the life of a process (``switch_off``).
Nothing in the product reads a flag: what runs without a mechanism is what the code would be
without it, written here.

- ``page_per_revision``: the pages drawn for each visitor (pages/views/conditional.py).
- ``steps``: a new hand's event carries no step on the board (live/steps.py): the phones fetch
  the board's live regions, as they do after any other change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from unittest import mock

MECHANISMS = ("page_per_revision", "steps")


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


# --- pages drawn for each visitor -----------------------------------------------------------------


def _page_per_revision() -> list:
    from mighty_ledger.pages.views import ratings, sessions, stats

    return [(module, "page_per_revision", _page_for_each_visitor) for module in (sessions, stats, ratings)]


def _page_for_each_visitor(request, key: str, template: str, context: Callable[[], dict]):
    from django.shortcuts import render

    return render(request, template, context())


# --- no steps in the events -----------------------------------------------------------------------


def _steps() -> list:
    from mighty_ledger.live.steps import BoardSteps

    return [(BoardSteps, "event", _the_change_alone)]


async def _the_change_alone(steps, change, token: str, language: str) -> bytes:
    from mighty_ledger.live.wire import sse

    return sse("change", change.public())
