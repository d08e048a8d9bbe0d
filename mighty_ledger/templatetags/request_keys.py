"""``{% new_request_key %}``: a fresh one-time key for a form (partials/request_key.html)."""

from django import template

from ..request_keys import new_form_key

register = template.Library()


@register.simple_tag
def new_request_key() -> str:
    return new_form_key()
