"""Ratings as the pages print them: one decimal, the minus sign the pages use for points."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def rating(value: float) -> str:
    """12.3, −1.4; a rating at -0.04 is 0.0, not −0.0."""
    shown = f"{value:.1f}"
    return "0.0" if shown == "-0.0" else shown.replace("-", "−")


@register.filter
def player_record(stats, name: str):
    """One player's statistics (their record as declarer, partner and defender), or None."""
    return stats.player(name) if stats else None
