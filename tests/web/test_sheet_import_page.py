"""The group page's "Bring your history in": upload, preview with its choices, Import, Undo."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from mighty_ledger import services
from mighty_ledger.models import Hand, Session
from tests.web.test_sheet_imports import KOREAN_PLAYERS, SCORE_SHEET_KOREAN, csv_bytes


@pytest.fixture
def group(db):
    return services.group_create(name="Thursday", player_names=KOREAN_PLAYERS)


def near_sheet() -> bytes:
    rows = [list(row) for row in SCORE_SHEET_KOREAN]
    rows[0][1] = "가영이"
    return csv_bytes(rows, "cp949")


def test_the_group_page_links_to_it_for_the_edit_link_only(client, group):
    assert f"/g/{group.edit_token}/import/" in client.get(f"/g/{group.edit_token}/").content.decode()
    assert "/import/" not in client.get(f"/g/{group.view_token}/").content.decode()
    assert client.get(f"/g/{group.view_token}/import/").status_code in (403, 404)


def test_preview_choose_import_and_undo(client, group):
    url = f"/g/{group.edit_token}/import/"
    upload = SimpleUploadedFile("scores.csv", near_sheet(), content_type="text/csv")
    preview = client.post(url, {"file": upload, "preset": "korean-standard", "action": "preview"})
    page = preview.content.decode()
    assert preview.status_code == 200 and 'data-testid="near-가영이"' in page
    assert not Session.objects.exists()
    sheet = preview.context["plan"].file_hash
    fields = {"sheet": sheet, "preset": "korean-standard", "action": "import"}
    for i, match in enumerate(preview.context["plan"].players):
        fields[f"name-{i}"] = match.name
        fields[f"match-{i}"] = "가영" if match.name == "가영이" else ""
    imported = client.post(url, fields)
    assert imported.status_code == 302
    assert Session.objects.get(played_on="2024-04-01").seats[0] == "가영"
    assert Hand.objects.filter(kind=Hand.SCORE_SHEET).count() == 3
    made = group.sheet_imports.get()
    assert client.post(f"{url}{made.key}/undo").status_code == 302
    assert not Session.objects.live().exists()


def test_a_sheet_with_problems_cannot_be_imported(client, group):
    rows = [*SCORE_SHEET_KOREAN, ["2024-04-09", "3", "1", "1", "1", "-1", ""]]
    upload = SimpleUploadedFile("scores.csv", csv_bytes(rows, "utf-8"), content_type="text/csv")
    preview = client.post(f"/g/{group.edit_token}/import/", {"file": upload, "preset": "korean-standard"})
    page = preview.content.decode()
    assert "Line 6" in page and 'data-testid="sheet-import" disabled' in page


def test_the_page_in_korean(client, group):
    client.cookies["django_language"] = "ko"
    upload = SimpleUploadedFile("scores.csv", near_sheet(), content_type="text/csv")
    page = client.post(f"/g/{group.edit_token}/import/", {"file": upload, "preset": "korean-standard"},
                       HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "기록 가져오기" in page and "새 플레이어" in page


def test_the_statistics_say_how_many_score_sheet_hands_they_could_not_use(client, group):
    from mighty_ledger.services.sheet_imports import sheet_import

    sheet_import(group=group, content=csv_bytes(SCORE_SHEET_KOREAN, "utf-8"), preset="korean-standard")
    page = client.get(f"/g/{group.view_token}/stats/").content.decode()
    assert "3 hands came from a score sheet" in page
    client.cookies["django_language"] = "ko"
    assert "점수표에서 가져온 3판" in client.get(f"/g/{group.view_token}/stats/").content.decode()


@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_page_of_an_imported_score_sheet_answers(client, group, language):
    """A hand from the score sheet has no declarer, contract or result: every page that shows a
    session or its hands reads it without falling over, and the API lists it."""
    from django.urls import reverse

    from mighty_ledger.services.sheet_imports import sheet_import

    sheet_import(group=group, content=csv_bytes(SCORE_SHEET_KOREAN, "utf-8"), preset="korean-standard")
    session = Session.objects.get(played_on="2024-04-01")
    client.cookies["django_language"] = language
    for token in (group.edit_token, group.view_token):
        for name, args in (("session_board", [session.pk]), ("session_history", [session.pk]),
                           ("session_settle", [session.pk]), ("hand_detail", [session.pk, 1]),
                           ("session_hands_csv", [session.pk]),
                           ("group_ratings", []), ("group_stats", []), ("group_page", []),
                           ("player_page", ["가영"])):
            answer = client.get(reverse(name, args=[token, *args]))
            assert answer.status_code == 200, (name, answer.status_code)
    board = client.get(reverse("session_board", args=[group.edit_token, session.pk])).content.decode()
    assert ("from the score sheet" if language == "en" else "점수표에서 가져옴") in board
    assert ">sheet<" in board if language == "en" else ">점수표<" in board
    api = client.get(f"/api/v1/sessions/{session.pk}/hands", HTTP_AUTHORIZATION=f"Bearer {group.view_token}")
    assert api.status_code == 200
