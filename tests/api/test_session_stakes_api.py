"""What a session is played for, changed at any time (PATCH /api/v1/sessions/{id}): the table agrees
₩100 a point only when it settles, and the money follows from the points already scored."""

from __future__ import annotations

from decimal import Decimal

import pytest
import yaml

from mighty_ledger.models import Revision
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

from .conftest import Api, assert_error_shape

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    """Ann made 15 ♦ with Cy and 18 points, played for points alone: Ann +14, Cy +7, the others −7."""
    session = SessionFactory()
    HandFactory(session=session, entry=MADE_15_DIAMONDS | {"points": 18})
    return session


def session_url(session) -> str:
    return f"/api/v1/sessions/{session.pk}"


@pytest.fixture
def edit(evening):
    return Api(evening.group.edit_token)


def test_a_stake_set_after_the_hands_prices_the_points_already_scored(edit, evening):
    answer = edit.patch(session_url(evening), {"stake_per_point": "100", "currency": "KRW"})
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert (body["stake_per_point"], body["currency"]) == ("100.00", "KRW")
    assert body["totals"] == {"Ann": 14, "Bo": -7, "Cy": 7, "Di": -7, "Ed": -7}  # the points never move
    money = edit.get(f"{session_url(evening)}/settlement").json()["money"]
    assert Decimal(money["Ann"]) == 1400 and Decimal(money["Bo"]) == -700


@pytest.mark.parametrize(("field", "value", "stored"), [
    ("stake_per_point", "0.5", Decimal("0.50")),
    ("currency", "EUR", "EUR"),
    ("rounding_unit", "100", Decimal("100.00")),
    ("chips_start", 200, 200),
    ("chips_per_point", 5, 5),
], ids=["stake", "currency", "rounding", "chips-start", "chips-per-point"])
def test_each_field_changes_alone(edit, evening, field, value, stored):
    answer = edit.patch(session_url(evening), {field: value})
    assert answer.status_code == 200, answer.content
    evening.refresh_from_db()
    assert getattr(evening, field) == stored


def test_null_stops_playing_for_money(edit, evening):
    edit.patch(session_url(evening), {"stake_per_point": "100", "currency": "KRW"})
    answer = edit.patch(session_url(evening), {"stake_per_point": None})
    assert answer.status_code == 200
    assert answer.json()["stake_per_point"] is None
    assert edit.get(f"{session_url(evening)}/settlement").json()["money"] is None


@pytest.mark.parametrize(("body", "field"), [
    ({"stake_per_point": -1}, "stake_per_point"),
    ({"stake_per_point": "lots"}, "stake_per_point"),
    ({"rounding_unit": 0}, "rounding_unit"),
    ({"chips_start": -5}, "chips_start"),
    ({"chips_per_point": 0}, "chips_per_point"),
    ({"currency": "DOLLARS!!!"}, "currency"),
    ({"currency": 5}, "currency"),
    ({"chips_start": "²"}, "chips_start"),
    ({"stake_per_point": "NaN"}, "stake_per_point"),
    ({"stake_per_point": "0.001"}, "stake_per_point"),
    ({"currency": "KR\u0000W"}, "currency"),
    ({"stakes": 100}, "stakes"),
], ids=["negative-stake", "stake-not-a-number", "rounding-zero", "negative-chips", "zero-chips-per-point",
        "currency-too-long", "currency-not-text", "chips-not-ascii-digits", "stake-nan", "stake-below-a-cent",
        "currency-with-nul", "unknown-field"])
def test_a_bad_value_is_refused_in_the_error_shape_and_nothing_changes(edit, evening, body, field):
    errors = assert_error_shape(edit.patch(session_url(evening), body), 400)
    assert field in [error["field"] for error in errors]
    evening.refresh_from_db()
    assert (evening.stake_per_point, evening.currency, evening.chips_start) == (None, "", None)


def test_a_view_link_may_not_change_the_stakes(evening):
    answer = Api(evening.group.view_token).patch(session_url(evening), {"stake_per_point": "100"})
    assert_error_shape(answer, 403)
    evening.refresh_from_db()
    assert evening.stake_per_point is None


def test_each_change_is_kept_with_what_it_was_before(edit, evening):
    edit.patch(session_url(evening), {"stake_per_point": "100", "currency": "KRW"})
    edit.patch(session_url(evening), {"stake_per_point": "200"})
    changes = Revision.objects.filter(session=evening, subject="session", action=Revision.AMENDED).order_by("id")
    assert [(c.before["stakes"]["stake_per_point"], c.after["stakes"]["stake_per_point"]) for c in changes] == [
        (None, "100.00"), ("100.00", "200.00")]
    revisions = edit.get("/api/v1/revisions").json()
    listed = revisions["results"] if isinstance(revisions, dict) and "results" in revisions else revisions
    assert any(r["subject"] == "session" and r["action"] == "amended" for r in listed)


def test_the_same_stakes_sent_again_make_no_second_change(edit, evening):
    edit.patch(session_url(evening), {"stake_per_point": "100"})
    revision = edit.get(session_url(evening)).json()["revision"]
    again = edit.patch(session_url(evening), {"stake_per_point": "100"})
    assert again.status_code == 200 and again.json()["revision"] == revision
    assert Revision.objects.filter(session=evening, action=Revision.AMENDED).count() == 1


def test_the_schema_documents_the_change(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    patch = schema["paths"]["/api/v1/sessions/{session_id}"]["patch"]
    assert {"200", "400", "403"} <= set(patch["responses"])
    body = schema["components"]["schemas"][patch["requestBody"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]]
    assert set(body["properties"]) == {"stake_per_point", "currency", "rounding_unit", "chips_start", "chips_per_point"}
