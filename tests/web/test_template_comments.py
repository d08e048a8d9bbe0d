"""Django's ``{# … #}`` ends at the end of its line: a note that runs on to the next is printed on
the page for the players to read. Notes longer than a line use ``{% comment %}``."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def test_no_template_note_runs_past_its_line():
    unclosed = [f"{path.relative_to(TEMPLATES)}:{number}"
                for path in sorted(TEMPLATES.rglob("*.html"))
                for number, line in enumerate(path.read_text().splitlines(), 1)
                if line.count("{#") > line.count("#}")]
    assert unclosed == []


@pytest.mark.django_db
def test_the_scoreboard_and_its_live_regions_show_no_template_note(client):
    session = SessionFactory()
    for _ in range(3):
        HandFactory(session=session, entry=dict(MADE_15_DIAMONDS))
    for name in ("session_board", "session_live"):
        page = client.get(reverse(name, args=[session.group.edit_token, session.pk])).text
        assert "{#" not in page and "#}" not in page and "{% comment" not in page
