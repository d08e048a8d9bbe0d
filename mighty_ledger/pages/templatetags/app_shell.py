"""The page's side of the installable app: the theme colour the manifest also names, and how long
a Save waits for the server (the service worker's wait, for the forms the page sends itself)."""

from django import template

from mighty_ledger.pages.views import app

register = template.Library()


@register.simple_tag
def theme_color() -> str:
    return app.theme_color()


@register.simple_tag
def save_timeout_ms() -> int:
    return app.SAVE_TIMEOUT_MS
