"""Small chart pieces drawn in Python: the statistics tables draw one per row, where an
``{% include %}`` each would cost more than the rest of the row."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def made_bar(pct: int | None) -> str:
    """A made/won percentage as a small bar beside its figure: the figure is the number, the bar
    only helps the eye (hidden from screen readers)."""
    if pct is None:
        return ""
    return format_html(
        '<svg class="bar" viewBox="0 0 100 8" aria-hidden="true"><rect class="bar-back" width="100" height="8">'
        '</rect><rect class="bar-made" width="{}" height="8"></rect></svg>', int(pct),
    )
