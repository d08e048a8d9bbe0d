"""The page's side of the installable app: the theme colour the manifest also names, and how long
the outbox waits for an answer."""

from django import template

from mighty_ledger.pages import app_shell

register = template.Library()


@register.simple_tag
def theme_color() -> str:
    return app_shell.theme_color()


@register.simple_tag
def send_timeout_ms() -> int:
    return app_shell.SEND_TIMEOUT_MS
