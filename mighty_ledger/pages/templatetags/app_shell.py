"""The page's side of the installable app: the theme colour the manifest also names."""

from django import template

from mighty_ledger.pages.views.app import theme_color as _theme_color

register = template.Library()


@register.simple_tag
def theme_color() -> str:
    return _theme_color()
