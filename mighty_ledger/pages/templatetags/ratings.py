"""Ratings as the pages print them: one decimal, the minus sign the pages use for points."""

from __future__ import annotations

from django import template

from mighty_ledger.pages.charts import one_decimal

register = template.Library()


@register.filter
def rating(value: float) -> str:
    """12.3, −1.4; a rating at -0.04 is 0.0, not −0.0 (as the charts write it)."""
    return one_decimal(value)


@register.filter
def player_record(stats, name: str):
    """One player's statistics (their record as declarer, partner and defender), or None."""
    return stats.player(name) if stats else None
