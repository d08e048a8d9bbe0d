"""What the installable app and its pages share: the colours the manifest and the page's title bar
wear (read from static/css/app.css), and how long the outbox waits for an answer. The app's views
(views/app.py) and the page's tags (templatetags/app_shell.py) both read them here, so a tag never
imports a view."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from django.contrib.staticfiles import finders

# the brand colour (--color-brand in app.css), should the stylesheet ever lose it
THEME_FALLBACK = "#1f3b2d"
BACKGROUND_FALLBACK = "#fbfaf7"
# how long the outbox (static/js/outbox.js) waits for the server to answer what it sent before it
# counts it unanswered and sends it again, with its key: a hand is saved in well under a second,
# and gunicorn gives up on a request after 30 s
SEND_TIMEOUT_MS = 10_000


@cache
def _stylesheet_colours() -> dict[str, str]:
    """The light scheme's custom properties that are colours, as app.css declares them first."""
    path = finders.find("css/app.css")
    text = Path(path).read_text(encoding="utf-8") if path else ""
    colours: dict[str, str] = {}
    for name, value in re.findall(r"(--[\w-]+)\s*:\s*(#[0-9a-fA-F]{3,8})\b", text):
        colours.setdefault(name, value)  # the first is the light scheme's; dark mode comes after
    return colours


def theme_color() -> str:
    colours = _stylesheet_colours()
    return colours.get("--color-brand", THEME_FALLBACK)


def background_color() -> str:
    return _stylesheet_colours().get("--color-background", BACKGROUND_FALLBACK)
