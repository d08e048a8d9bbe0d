"""Draw the app's PNG icons from static/icons/mighty.svg, once, with Debian's Chromium.

An installed app needs PNG icons (192 and 512 pixels) and a maskable one: the
phone cuts a maskable icon to its own shape (a circle, a squircle), so its mark
sits inside the middle 80% and its background fills the whole square.

Run after changing the SVG, then commit the PNGs: `.venv/bin/python scripts/make_icons.py`.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
CHROMIUM = "/usr/bin/chromium"


def maskable(svg: str) -> str:
    """The same mark on a full-bleed square, shrunk to 60% so every phone's mask leaves it whole."""
    background = re.search(r'<rect[^>]*fill="([^"]+)"', svg)[1]
    mark = re.search(r"<path[^>]*/>", svg)[0]
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        f'<rect width="64" height="64" fill="{background}"/>'
        f'<g transform="translate(12.8 12.8) scale(0.6)">{mark}</g></svg>'
    )


def draw(browser, svg: str, size: int, path: Path) -> None:
    page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
    page.set_content(
        f'<style>html,body{{margin:0;background:transparent}}svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}'
    )
    page.screenshot(path=path, omit_background=True)
    page.close()


def main() -> None:
    svg = (ICONS / "mighty.svg").read_text()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        draw(browser, svg, 192, ICONS / "app-192.png")
        draw(browser, svg, 512, ICONS / "app-512.png")
        draw(browser, maskable(svg), 512, ICONS / "app-maskable-512.png")
        browser.close()


if __name__ == "__main__":
    main()
