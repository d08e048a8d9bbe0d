"""A check over every preset, page or module is one test that names every offender: each item the
check fails on, with what failed, rather than one test item per preset."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def offenders(items: Iterable, check: Callable[[object], None], name: Callable[[object], str] = str) -> dict:
    """Each item whose ``check`` raised AssertionError, by ``name``, with the assertion's words."""
    found = {}
    for item in items:
        try:
            check(item)
        except AssertionError as failed:
            found[name(item)] = str(failed).splitlines()[0] if str(failed) else "failed"
    return found
