"""The rating table and the group's seasons, as pages.

Like the statistics, the ratings page reads the filters (period, system,
season) through ``views.stats.selection_of`` and its figures from the state
kept by ``mighty_ledger.reads.ratings``: after a hand, that hand is read and rated,
nothing before it. A phone that already holds the page gets 304.
"""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from mighty_ledger.http.access import access_for
from mighty_ledger.http.request_keys import once_per_form_key
from mighty_ledger.models import Season
from mighty_ledger.pages.views.conditional import conditional, page_per_revision
from mighty_ledger.pages.views.stats import selection_of
from mighty_ledger.reads import ratings, seasons
from mighty_ledger.services import seasons as season_services
from scoring.problems import InvalidInput, Problem


@require_http_methods(["GET", "HEAD"])
def group_ratings(request: HttpRequest, token: str) -> HttpResponse:
    """Every player's rating over the selected hands (their record in each role is on the statistics
    page, beside the same table)."""
    access = access_for(token)
    chosen = selection_of(request, access)

    def page() -> HttpResponse:
        # the same page for everyone on the link but for its CSRF token: drawn once per state
        return page_per_revision(request, chosen.page_key(request, "ratings", access.right), "table/ratings.html",
                          lambda: {"access": access, "group": access.group, "here": chosen.here(request),
                                   "ratings": ratings.ratings_for(access.group, chosen.filters, chosen.selected),
                                   **chosen.context()})

    return conditional(request, f"ratings|{access.right}|{chosen.stamp}", page)


@require_http_methods(["GET", "HEAD", "POST"])
@once_per_form_key
def group_seasons(request: HttpRequest, token: str) -> HttpResponse:
    """The group's seasons, and (with the edit link) a form to name a new one."""
    access = access_for(token)
    problems = []
    if request.method == "POST":
        access.require_edit()
        try:
            season = season_services.season_create(group=access.group, name=request.POST.get("name", ""),
                                                   starts=_start_date(request), by=access.actor())
        except InvalidInput as error:
            problems = list(error.problems)
        else:
            messages.success(request, _("Season “%(name)s” starts on %(date)s.")
                             % {"name": season.name, "date": season.starts.isoformat()})
            return redirect("group_seasons", token)
    return _seasons_page(request, access, problems)


def _seasons_page(request: HttpRequest, access, problems: list, changing: int | None = None) -> HttpResponse:
    """The seasons page; with ``problems``, the form they belong to opened again with what was sent
    (``changing``: the season whose change they are about, else the new season's form)."""
    season_list = seasons.group_seasons(access.group)
    return render(request, "table/seasons.html", {
        "access": access, "group": access.group, "seasons": season_list[::-1],
        "current": seasons.current_season(season_list), "problems": problems,
        "errors": {problem.field: problem.message for problem in problems}, "changing": changing,
        "changes": seasons.season_changes(access.group),
        "values": request.POST if problems else {},
    }, status=400 if problems else 200)


def _start_date(request: HttpRequest) -> datetime.date:
    """The season's first day as the form sent it; a problem on ``starts`` when it is not a date."""
    try:
        return datetime.date.fromisoformat(request.POST.get("starts", ""))
    except ValueError:
        raise InvalidInput([Problem("starts", "bad_date", _("Give the day the season starts."))]) from None


def _season_or_gone(request: HttpRequest, access, season_id: int) -> Season | None:
    """The season a form is about, or None with the notice that another phone deleted it."""
    season = seasons.group_season(access.group, season_id)
    if season is None:
        messages.info(request, _("That season was deleted meanwhile."))
    return season


@require_POST
def season_change(request: HttpRequest, token: str, season_id: int) -> HttpResponse:
    """Rename a season, or start it on another day."""
    access = access_for(token)
    access.require_edit()
    season = _season_or_gone(request, access, season_id)
    if season is None:
        return redirect("group_seasons", token)
    try:
        season = season_services.season_change(season=season, name=request.POST.get("name", ""),
                                               starts=_start_date(request), by=access.actor())
    except InvalidInput as error:
        return _seasons_page(request, access, list(error.problems), changing=season.pk)
    messages.success(request, _("Season “%(name)s” now starts on %(date)s.")
                     % {"name": season.name, "date": season.starts.isoformat()})
    return redirect("group_seasons", token)


@require_POST
def season_delete(request: HttpRequest, token: str, season_id: int) -> HttpResponse:
    """Stop naming a season: its days belong to the season before it again."""
    access = access_for(token)
    access.require_edit()
    season = _season_or_gone(request, access, season_id)
    if season is not None:
        earlier = any(span.starts < season.starts for span in seasons.group_seasons(access.group))
        season_services.season_delete(season=season, by=access.actor())
        if earlier:
            said = _("Season “%(name)s” was deleted; its days count with the season before it.")
        else:
            said = _("Season “%(name)s” was deleted; its days are in no season again.")
        messages.success(request, said % {"name": season.name})
    return redirect("group_seasons", token)
