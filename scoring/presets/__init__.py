"""Every named scoring system, as data. One module per family of presets."""

from __future__ import annotations

from ..problems import InvalidInput, Problem
from ..systems import Preset, System
from ..words import N_, Words
from . import chicago, korean, pagat

_PRESETS: dict[str, Preset] = {p.slug: p for family in (pagat, chicago, korean) for p in family.PRESETS}


def all_presets() -> tuple[Preset, ...]:
    return tuple(_PRESETS.values())


def preset_slugs() -> tuple[str, ...]:
    return tuple(_PRESETS)


def get_preset(slug: str) -> Preset:
    try:
        return _PRESETS[slug]
    except (KeyError, TypeError):
        raise InvalidInput(
            [
                Problem(
                    "system",
                    "unknown_system",
                    Words(N_("There is no scoring system called {slug}."), slug=repr(slug)),
                )
            ]
        ) from None


def resolve_system(slug: str, overrides: dict | None = None) -> System:
    """The preset's system with the table's overrides; InvalidInput for an unknown slug or option."""
    return get_preset(slug).system(overrides)
