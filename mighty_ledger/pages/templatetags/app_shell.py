"""The page's side of the installable app: the theme colour the manifest also names, and how long
a Save waits for the server (the service worker's wait, for the forms the page sends itself)."""

from django import template

from mighty_ledger.pages import app_shell

register = template.Library()


@register.simple_tag
def theme_color() -> str:
    return app_shell.theme_color()


@register.simple_tag
def save_timeout_ms() -> int:
    return app_shell.SAVE_TIMEOUT_MS
