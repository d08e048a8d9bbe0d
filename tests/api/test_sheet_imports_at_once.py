"""An import is a create like the others (issue 49): the same file committed by ten clients at
once makes one import, and every answer describes it (201 for the one that made it, 200 for the
rest, never a 5xx), with one Idempotency-Key for all ten or none.

Real threads, each with its own database connection, released together (``at_once``): on
PostgreSQL the ten truly overlap; SQLite lets one writer in at a time.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from mighty_ledger import services
from mighty_ledger.models import Hand, Player, SheetImport
from tests.api.test_concurrency import at_once, codes
from tests.web.test_sheet_imports import HAND_SHEET_KOREAN, KOREAN_PLAYERS, csv_bytes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_rate_limits")]

TEN = 10
# 마루 is new to the group: ten imports at once would each add him
SHEET = csv_bytes([[cell.replace("마루", "바다") for cell in row] for row in HAND_SHEET_KOREAN], "utf-8")


def commit(token: str, **headers):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    upload = SimpleUploadedFile("thursdays.csv", SHEET, content_type="text/csv")
    return api.post("/api/v1/imports", {"file": upload, "preset": "korean-standard", "commit": "true"},
                    format="multipart", headers=headers)


@pytest.mark.parametrize("key", [None, "one-key"], ids=["without a key", "with one key"])
def test_ten_commits_of_one_file_at_once_make_one_import_and_every_answer_describes_it(key):
    group = services.group_create(name="Thursday", player_names=KOREAN_PLAYERS[:4])
    headers = {"Idempotency-Key": key} if key else {}

    answers = at_once(TEN, lambda i: commit(group.edit_token, **headers))

    assert codes(answers) == [200] * (TEN - 1) + [201], [a.content[:200] for a in answers]
    made = SheetImport.objects.get()
    first = next(answer for answer in answers if answer.status_code == 201)
    for answer in answers:
        body = answer.json()
        assert body["import_id"] == made.key
        assert [(s["date"], s["hands"], s["totals"]) for s in body["sessions"]] == [
            (s["date"], s["hands"], s["totals"]) for s in first.json()["sessions"]]
        if key:
            assert answer.status_code == 201 or answer["Idempotent-Replayed"] == "true"
    assert Hand.objects.count() == 6
    assert Player.objects.filter(group=group, name="바다").count() == 1
