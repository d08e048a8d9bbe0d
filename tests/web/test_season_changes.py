"""A season renamed, started on another day, or no longer named: on the seasons page and over the
API, kept in the group's history, and never changing a score."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from mighty_ledger.models import Revision
from mighty_ledger.reads import seasons
from mighty_ledger.services.seasons import season_change, season_create, season_delete
from scoring.problems import InvalidInput
from tests.api.conftest import Api
from tests.factories import MADE_15_DIAMONDS, HandFactory, SessionFactory

AUTUMN, WINTER = datetime.date(2026, 9, 1), datetime.date(2026, 11, 15)


@pytest.fixture
def group(db):
    session = SessionFactory(played_on=datetime.date(2026, 11, 20))
    HandFactory(session=session, entry=dict(MADE_15_DIAMONDS))
    season_create(group=session.group, name="Autumn", starts=AUTUMN)
    season_create(group=session.group, name="Wniter", starts=WINTER)  # a typo, to be mended
    return session.group


def spans(group) -> list[tuple[str, datetime.date, datetime.date | None]]:
    return [(span.name, span.starts, span.ends) for span in seasons.group_seasons(group)]


def test_a_season_is_renamed_and_started_on_another_day_moving_the_end_of_the_one_before(group):
    winter = group.seasons.get(name="Wniter")
    season_change(season=winter, name="Winter")
    season_change(season=winter, starts=datetime.date(2026, 11, 1))

    assert spans(group) == [("Autumn", AUTUMN, datetime.date(2026, 10, 31)), ("Winter", datetime.date(2026, 11, 1), None)]
    changes = [(r.action, r.before, r.after) for r in seasons.season_changes(group)]
    assert changes[:2] == [
        ("amended", {"name": "Winter", "starts": "2026-11-15"}, {"name": "Winter", "starts": "2026-11-01"}),
        ("amended", {"name": "Wniter", "starts": "2026-11-15"}, {"name": "Winter", "starts": "2026-11-15"}),
    ]


def test_the_same_change_again_changes_nothing_and_is_not_a_revision(group):
    winter = group.seasons.get(name="Wniter")
    before = Revision.objects.count()
    season_change(season=winter, name="Wniter", starts=WINTER)
    assert Revision.objects.count() == before


@pytest.mark.parametrize(("change", "field", "code"), [
    ({"starts": AUTUMN}, "starts", "duplicate_season_start"),
    ({"name": "   "}, "name", "missing"),
    ({"name": "x" * 81}, "name", "too_long"),
])
def test_a_change_that_cannot_be_made_is_refused_and_leaves_the_season_as_it_was(group, change, field, code):
    winter = group.seasons.get(name="Wniter")
    with pytest.raises(InvalidInput) as refused:
        season_change(season=winter, **change)
    assert [(p.field, p.code) for p in refused.value.problems] == [(field, code)]
    winter.refresh_from_db()
    assert (winter.name, winter.starts) == ("Wniter", WINTER)


def test_a_deleted_season_gives_its_days_to_the_one_before_and_lives_on_in_the_history(group, client):
    stats = reverse("group_stats", args=[group.view_token])
    totals_before = client.get(stats, {"season": "all"}).context["stats"].players

    season_delete(season=group.seasons.get(name="Wniter"))

    assert spans(group) == [("Autumn", AUTUMN, None)]
    assert client.get(stats, {"season": "all"}).context["stats"].players == totals_before  # no score changed
    latest = seasons.season_changes(group)[0]
    assert (latest.action, latest.before) == ("deleted", {"name": "Wniter", "starts": "2026-11-15"})


# --- the page ----------------------------------------------------------------------------------


def test_the_page_mends_a_name_and_says_so(group, client):
    winter = group.seasons.get(name="Wniter")
    page = client.post(reverse("season_change", args=[group.edit_token, winter.pk]),
                       {"name": "Winter", "starts": "2026-11-15"}, follow=True)
    text = page.content.decode()
    assert "Season “Winter” now starts on 2026-11-15." in text
    assert "Season “Wniter” renamed “Winter”" in text  # in the changes, with who made it
    assert spans(group)[-1][0] == "Winter"


def test_the_page_keeps_what_was_typed_beside_the_problem_in_that_seasons_own_form(group, client):
    winter = group.seasons.get(name="Wniter")
    page = client.post(reverse("season_change", args=[group.edit_token, winter.pk]),
                       {"name": "Winter", "starts": "2026-09-01"})
    text = page.content.decode()
    assert page.status_code == 400
    assert "Another season already starts on 2026-09-01." in text
    own_form = text.split(f'data-testid="change-season-{winter.pk}"')[1].split("</details>")[0]
    assert own_form.lstrip().startswith("open") and 'value="Winter"' in own_form
    new_form = text.split('data-testid="season-form"')[1]
    assert "aria-invalid" not in new_form and 'value="Winter"' not in new_form
    assert spans(group)[-1][:2] == ("Wniter", WINTER)


def test_the_page_asks_for_a_start_date_it_can_read(group, client):
    winter = group.seasons.get(name="Wniter")
    page = client.post(reverse("season_change", args=[group.edit_token, winter.pk]), {"name": "Winter", "starts": ""})
    assert page.status_code == 400 and "Give the day the season starts." in page.content.decode()
    assert spans(group)[-1][:2] == ("Wniter", WINTER)


def test_the_page_deletes_a_season_and_a_second_tap_finds_it_gone(group, client):
    winter = group.seasons.get(name="Wniter")
    delete = reverse("season_delete", args=[group.edit_token, winter.pk])
    first = client.post(delete, follow=True).content.decode()
    again = client.post(delete, follow=True).content.decode()
    assert "Season “Wniter” was deleted; its days count with the season before it." in first
    assert "That season was deleted meanwhile." in again
    assert "Season “Wniter” deleted" in again  # the history still has it
    assert spans(group) == [("Autumn", AUTUMN, None)]


def test_the_first_season_deleted_leaves_its_days_in_no_season_and_says_so(group, client):
    autumn = group.seasons.get(name="Autumn")
    page = client.get(reverse("group_seasons", args=[group.edit_token])).content.decode()
    own_form = page.split(f'data-testid="change-season-{autumn.pk}"')[1].split("</details>")[0]
    assert "its days are in no season again" in own_form

    deleted = client.post(reverse("season_delete", args=[group.edit_token, autumn.pk]), follow=True)

    assert "Season “Autumn” was deleted; its days are in no season again." in deleted.content.decode()


def test_a_change_of_name_and_start_at_once_says_both_in_the_history(group, client):
    winter = group.seasons.get(name="Wniter")
    page = client.post(reverse("season_change", args=[group.edit_token, winter.pk]),
                       {"name": "Winter", "starts": "2026-11-10"}, follow=True)

    assert "Season “Wniter” renamed “Winter”, now from 2026-11-10" in page.content.decode()


def test_a_view_link_sees_the_seasons_but_cannot_change_them(group, client):
    winter = group.seasons.get(name="Wniter")
    listed = client.get(reverse("group_seasons", args=[group.view_token])).content.decode()
    assert "Wniter" in listed and "change-season-" not in listed and "delete-season-" not in listed
    assert client.post(reverse("season_change", args=[group.view_token, winter.pk]),
                       {"name": "Mine", "starts": "2026-11-15"}).status_code == 403
    assert client.post(reverse("season_delete", args=[group.view_token, winter.pk])).status_code == 403
    assert group.seasons.count() == 2


# --- the API -----------------------------------------------------------------------------------


def test_the_api_changes_and_deletes_a_season(group):
    api = Api(group.edit_token)
    winter = group.seasons.get(name="Wniter")
    changed = api.patch(f"/api/v1/seasons/{winter.pk}", {"name": "Winter"})
    assert changed.status_code == 200
    assert changed.json() == {"id": winter.pk, "name": "Winter", "starts": "2026-11-15", "ends": None,
                              "current": True}

    assert api.delete(f"/api/v1/seasons/{winter.pk}").status_code == 204
    gone = api.delete(f"/api/v1/seasons/{winter.pk}")
    assert gone.status_code == 404 and gone.json()["errors"][0]["code"] == "not_found"
    assert [season["name"] for season in Api(group.view_token).get("/api/v1/seasons").json()] == ["Autumn"]


@pytest.mark.parametrize(("body", "field", "code"), [
    ({"starts": "2026-09-01"}, "starts", "duplicate_season_start"),
    ({"starts": "soon"}, "starts", "invalid"),
    ({"name": ""}, "name", "blank"),
])
def test_the_api_refuses_a_change_in_the_error_shape(group, body, field, code):
    winter = group.seasons.get(name="Wniter")
    answer = Api(group.edit_token).patch(f"/api/v1/seasons/{winter.pk}", body)
    assert answer.status_code == 400
    assert (answer.json()["errors"][0]["field"], answer.json()["errors"][0]["code"]) == (field, code)


def test_a_view_link_or_another_group_cannot_change_a_season(group):
    winter = group.seasons.get(name="Wniter")
    assert Api(group.view_token).patch(f"/api/v1/seasons/{winter.pk}", {"name": "Mine"}).status_code == 403
    other = SessionFactory().group
    assert Api(other.edit_token).delete(f"/api/v1/seasons/{winter.pk}").status_code == 404
    assert group.seasons.count() == 2


def test_the_changes_read_as_korean_with_the_right_particles(group, client):
    winter = group.seasons.get(name="Wniter")
    season_change(season=winter, name="Winter")
    season_change(season=winter, starts=datetime.date(2026, 11, 1))
    page = client.get(reverse("group_seasons", args=[group.edit_token]), HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "“Wniter” 시즌 이름을 “Winter”로 변경" in page
    assert "“Winter” 시즌 시작일을 2026-11-01로 변경" in page
    assert "시즌 고치기" in page and "(으)" not in page
