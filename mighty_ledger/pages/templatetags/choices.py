"""One choice of a radio or checkbox field as its ``<input>``, written here rather than through
Django's widget templates.

The hand form draws some hundred choices (seats, numbers, trumps, every card for the call and
the discards). Through ``{{ option.tag }}`` each choice renders three templates of its own,
which made them half the cost of showing the form, the wait of every hand at the table. The
markup is the same as Django's ``input.html``: type, name, value, then the widget's attributes
in their order (``True`` written bare, ``False`` and ``None`` left out).
"""

from __future__ import annotations

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def choice_input(option) -> SafeString:
    """``{{ option|choice_input }}``: the ``<input>`` of one choice of a bound field."""
    widget = option.data
    parts = [f'<input type="{conditional_escape(widget["type"])}" name="{conditional_escape(widget["name"])}"']
    if widget["value"] is not None:
        parts.append(f' value="{conditional_escape(str(widget["value"]))}"')
    for name, value in widget["attrs"].items():
        if value is True:
            parts.append(f" {conditional_escape(name)}")
        elif value is not False and value is not None:
            parts.append(f' {conditional_escape(name)}="{conditional_escape(str(value))}"')
    parts.append(">")
    return mark_safe("".join(parts))  # every part above is escaped
