"""The parts of the scoreboard a new hand's step carries, found in drawn HTML as a phone would
swap them (partials/board_step.html): for checking a step against the live regions."""

from __future__ import annotations

import re

PARTS = {
    "totals": r'<tr id="totals".*?</tr>',
    "next": r'<section class="next card" id="next-hand".*?</section>',
    "notes": r'<div id="board-notes".*?</div>',
    "latest": r'<div id="board-latest".*?</div>',
    "chart": r'<section class="card score-over-time".*?</section>',
}


def parts_of(html: str) -> dict[str, str]:
    found = {name: re.search(pattern, html, re.S) for name, pattern in PARTS.items()}
    return {name: match.group(0) for name, match in found.items() if match}


def row_of(html: str, number: int) -> str | None:
    found = re.search(rf'<tr id="hand-{number}">.*?</tr>', html, re.S)
    return found.group(0) if found else None
