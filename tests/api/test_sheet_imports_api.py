"""POST /api/v1/imports (a preview, then the import) and DELETE /api/v1/imports/{import_id}."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from mighty_ledger import services
from mighty_ledger.models import Hand, Session
from tests.web.test_sheet_imports import (
    HAND_SHEET_KOREAN,
    KOREAN_PLAYERS,
    SCORE_SHEET_KOREAN,
    csv_bytes,
)

URL = "/api/v1/imports"


@pytest.fixture
def group(db):
    return services.group_create(name="Thursday", player_names=KOREAN_PLAYERS)


def client(token: str) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return api


def send(api: APIClient, content: bytes, **fields):
    upload = SimpleUploadedFile("hands.csv", content, content_type="text/csv")
    return api.post(URL, {"file": upload, "preset": "korean-standard", **fields}, format="multipart")


def test_a_preview_writes_nothing(group):
    answer = send(client(group.edit_token), csv_bytes(HAND_SHEET_KOREAN, "cp949"))
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert [(s["date"], s["hands"]) for s in body["sessions"]] == [("2024-03-05", 3), ("2024-03-12", 3)]
    assert sum(body["sessions"][0]["totals"].values()) == 0
    assert {"name": "가영", "match": "가영", "near": []} in body["players"]
    assert body["problems"] == [] and body["import_id"] is None
    assert not Session.objects.exists()


def test_a_commit_writes_once_and_the_same_file_again_adds_nothing(group):
    api = client(group.edit_token)
    content = csv_bytes(SCORE_SHEET_KOREAN, "utf-8-sig")
    first = send(api, content, commit="true")
    assert first.status_code == 201, first.json()
    import_id = first.json()["import_id"]
    hands = Hand.objects.count()
    again = send(api, content, commit="true")
    assert again.status_code == 200 and again.json()["import_id"] == import_id
    assert Hand.objects.count() == hands == 3
    assert api.delete(f"{URL}/{import_id}").status_code == 204
    assert not Session.objects.live().exists()


def test_a_commit_with_problems_is_refused_with_them(group):
    rows = [*SCORE_SHEET_KOREAN, ["2024-04-09", "3", "1", "1", "1", "-1", ""]]
    answer = send(client(group.edit_token), csv_bytes(rows, "utf-8"), commit="true")
    assert answer.status_code == 400
    assert [problem["line"] for problem in answer.json()["problems"]] == [6]
    assert answer.json()["errors"][0]["code"] == "sheet_problems"
    assert not Session.objects.exists()


def test_a_view_link_cannot_import(group):
    answer = send(client(group.view_token), csv_bytes(SCORE_SHEET_KOREAN, "utf-8"))
    assert answer.status_code == 403


def test_another_groups_import_is_not_found(group):
    made = send(client(group.edit_token), csv_bytes(SCORE_SHEET_KOREAN, "utf-8"), commit="true").json()
    other = services.group_create(name="Other")
    assert client(other.edit_token).delete(f"{URL}/{made['import_id']}").status_code == 404


def test_a_near_name_is_chosen_in_players(group):
    rows = [list(row) for row in SCORE_SHEET_KOREAN]
    rows[0][1] = "가영이"
    api = client(group.edit_token)
    preview = send(api, csv_bytes(rows, "utf-8")).json()
    assert {"name": "가영이", "match": None, "near": ["가영"]} in preview["players"]
    chosen = send(api, csv_bytes(rows, "utf-8"), players='{"가영이": "가영"}', commit="true")
    assert chosen.status_code == 201
    assert Session.objects.first().seats[0] == "가영"


def test_the_schema_has_the_imports(db):
    api = APIClient()
    schema = api.get("/api/schema/", {"format": "json"}).json()
    post = schema["paths"]["/api/v1/imports"]["post"]
    assert "multipart/form-data" in post["requestBody"]["content"]
    assert post["security"] == [{"link": []}]
    assert "delete" in schema["paths"]["/api/v1/imports/{import_id}"]


def test_a_sheet_of_thousands_of_rows_is_taken_where_json_bodies_stop_at_64_kb(group):
    rows = [SCORE_SHEET_KOREAN[0]]
    for day in range(1, 29):
        rows += [[f"2024-02-{day:02d}", "4", "-1", "-1", "-1", "-1", ""]] * 100
    content = csv_bytes(rows, "utf-8")
    assert len(content) > 64 * 1024
    answer = send(client(group.edit_token), content)
    assert answer.status_code == 200, answer.content[:300]
    assert sum(session["hands"] for session in answer.json()["sessions"]) == 2800
    # elsewhere the JSON limit stands
    big = client(group.edit_token).post("/api/v1/players", {"name": "x" * (70 * 1024)}, format="json")
    assert big.status_code == 413
