"""The rules pages read as Korean is spoken: no "을(를)" left for the reader to choose.

The session's rules page said "표준 5마을(를) 바탕으로", and every Chicago system's rules,
on its own page, on a session's and on the comparison, "B − 24을(를) 따거나 잃고".
"""

import pytest
from django.urls import reverse

from tests.factories import SessionFactory

UNRESOLVED = ("을(를)", "이(가)", "은(는)", "(으)로", "와(과)")


def korean(client, url: str) -> str:
    return client.get(url, HTTP_ACCEPT_LANGUAGE="ko").text


def unresolved(page: str) -> list[str]:
    return [pair for pair in UNRESOLVED if pair in page]


def test_a_sessions_rules_say_which_preset_they_began_from_in_korean(client, db):
    session = SessionFactory(preset="korean-standard")

    page = korean(client, reverse("session_rules", args=[session.group.edit_token, session.pk]))

    assert "표준 5마를 바탕으로" in page and unresolved(page) == []


@pytest.mark.parametrize("preset", ["chicago-6p", "hard-score", "pagat-over-min"])
def test_a_systems_rules_leave_no_particle_unchosen(client, db, preset):
    session = SessionFactory(preset=preset, seats=[f"P{i}" for i in range(6 if preset == "chicago-6p" else 5)])

    assert unresolved(korean(client, reverse("system_detail", args=[preset]))) == []
    assert unresolved(korean(client, reverse("session_rules", args=[session.group.edit_token, session.pk]))) == []


def test_the_comparison_leaves_no_particle_unchosen(client, db):
    page = korean(client, reverse("systems_compare") + "?a=pagat-standard&b=chicago-5p")

    assert unresolved(page) == []
