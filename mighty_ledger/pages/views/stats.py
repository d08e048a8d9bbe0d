"""The group's record and the evening's story: statistics, player pages, charts, the hands as CSV.

Every view reaches its objects through the link (``access_for``), reads through
``mighty_ledger.reads.stats`` (its counts kept by ``mighty_ledger.reads.kept_counts``) or
``mighty_ledger.reads`` and renders (payments: views/payments.py). Like the
scoreboard, a page a phone already holds is answered 304 (views/conditional.py),
and the statistics page's body is a template fragment cached under every
session's revision: a page seen before costs the link's query and two small
ones (the sessions to choose from, the seasons), whatever the number of hands. After a hand only that
hand is read and counted (kept_counts.py), and the body drawn again by the first view.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.http import content_disposition_header, urlencode
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from mighty_ledger import reads
from mighty_ledger.http.access import Access, access_for
from mighty_ledger.http.cache import COPY_OF_A_REVISION_SECONDS
from mighty_ledger.models import Group, Hand, Session
from mighty_ledger.pages import charts
from mighty_ledger.pages.forms import trump_label
from mighty_ledger.pages.views.conditional import conditional, page_per_revision
from mighty_ledger.pages.views.rules import preset_name
from mighty_ledger.reads import (
    balance,
    exports,
    filters,
    groups,
    kept_counts,
    ratings,
    seasons,
    stats,
)
from mighty_ledger.reads.exports import SpreadsheetWriter
from scoring.presets import get_preset

# --- filters ---------------------------------------------------------------------------------


def _stamp(sessions: list[stats.SessionChoice], season_list: list[seasons.SeasonSpan] = ()) -> str:
    """What a statistics page shows: the sessions it counts, each at its revision, and the seasons
    (a new one changes which is current, and the choices)."""
    return ";".join([f"{s.pk}.{s.created_at.timestamp()}.{s.revision}" for s in sessions]
                    + [f"season.{s.pk}.{s.starts}.{s.name}" for s in season_list])


def _query(period: str, system: str, season: str = "") -> str:
    """The filters as the page's own links carry them: only what was understood, never what was typed."""
    return urlencode({key: value for key, value in (("period", period), ("system", system), ("season", season))
                      if value and (value != "all" or key == "season")})


def _session_labels(sessions: list[stats.SessionChoice]) -> list[str]:
    """Each session as the period list names it: its day and title, and where two untitled
    sessions share a day, which of that day's it is (2026-11-25 (2))."""
    days = Counter(s.played_on for s in sessions if not s.shown_title)
    seen: Counter = Counter()
    labels = []
    for session in sessions:
        label = f"{session.played_on:%Y-%m-%d}"
        if session.shown_title:
            label += f" · {session.shown_title}"
        elif days[session.played_on] > 1:
            seen[session.played_on] += 1
            label += f" ({seen[session.played_on]})"
        labels.append(label)
    return labels


def _filter_context(sessions, period, system, stamp: str, season: str = "",
                    season_list: list[seasons.SeasonSpan] = ()) -> dict:
    """The filters' choices, and what the page's cached body is keyed by besides the link and language:
    every session of the group at its revision (``stamp``: the choices list them all) and the filters."""
    systems = sorted({s.preset for s in sessions})
    choices = [("all", _("All time")), ("30d", _("Last 30 days"))] + [
        (f"s{s.pk}", label) for s, label in zip(sessions[::-1], _session_labels(sessions)[::-1], strict=True)
    ]
    return {
        "period_choices": choices, "period": period, "system": system,
        "query": _query(period, system, season if season_list else ""),
        "stamp": hashlib.sha256(stamp.encode()).hexdigest(),
        "trumps": [trump_label(trump) for trump in stats.TRUMPS],
        "systems": [(slug, preset_name(get_preset(slug))) for slug in systems],
        "season": season, "season_choices": [(str(s.pk), s.name) for s in season_list[::-1]],
        "copy_seconds": COPY_OF_A_REVISION_SECONDS,  # how long the page's cached body is kept
    }


@dataclass(frozen=True)
class Selection:
    """What a statistics, ratings or player page shows: the group's sessions (the choices), its
    seasons, the filters understood from the query and the sessions they select."""

    group: Group
    sessions: list[stats.SessionChoice]
    seasons: list[seasons.SeasonSpan]
    filters: stats.Filters
    period: str
    system: str
    season: str
    stamp: str

    @cached_property
    def selected(self) -> list[Session]:
        """The sessions the filters select, whole: what is counted and drawn. One more query, made
        only by a page that is drawn (a page from its cache needs the choices alone)."""
        wanted = {session.pk for session in self.sessions if self.filters.selects(session)}
        return [session for session in stats.group_sessions(self.group) if session.pk in wanted]

    def context(self) -> dict:
        return _filter_context(self.sessions, self.period, self.system, self.stamp, self.season, self.seasons)

    def here(self, request: HttpRequest) -> str:
        """The page's address with the filters as understood, never as typed (what its language switcher returns to)."""
        query = _query(self.period, self.system, self.season if self.seasons else "")
        return f"{request.path}?{query}" if query else request.path

    def page_key(self, request: HttpRequest, page: str, right: str) -> str:
        """What a page of this selection shows, for ``page_per_revision``: the sessions and seasons at their
        revisions, the filters as understood, today (the last 30 days move with it), the language and
        the address (the link's token is in the page's links)."""
        return f"{page}|{right}|{self.stamp}|{timezone.localdate()}|{get_language()}|{self.here(request)}"


def selection_of(request: HttpRequest, access: Access) -> Selection:
    """The page's selection: two queries (every live session of the group, its seasons), and the
    filters its query asks for (reads/filters.py)."""
    sessions = stats.session_choices(access.group)
    season_list = seasons.group_seasons(access.group)
    asked = filters.page_filters(request.GET, sessions, season_list)
    return Selection(access.group, sessions, season_list, asked.filters, asked.period, asked.system, asked.season,
                     _stamp(sessions, season_list))


# --- the statistics page and the player pages ---------------------------------------------------


@require_GET
def group_stats(request: HttpRequest, token: str) -> HttpResponse:
    """The group's statistics table, the contracts, partnerships and the season's chart."""
    access = access_for(token)
    # two queries: every live session of the group and its seasons, for the filters' choices and the cache key
    chosen = selection_of(request, access)

    def drawing() -> dict:
        # read only when the page is not cached for this state: the sessions whole, counted and charted
        selected = chosen.selected
        if chosen.filters.session_id is not None and selected:
            # one session: its hands one by one; several: the season, session by session
            chart, chart_kind = SimpleLazyObject(lambda: session_chart_of(selected[0])), "hands"
        else:
            chart, chart_kind = SimpleLazyObject(lambda: season_chart(selected)), "season"
        return {
            "access": access, "group": access.group, "stats": SimpleLazyObject(lambda: kept_counts.stats_for(selected)),
            "ratings": SimpleLazyObject(lambda: ratings.ratings_for(access.group, chosen.filters, selected)),
            "chart": chart, "chart_kind": chart_kind, "here": chosen.here(request), **chosen.context(),
        }

    def page() -> HttpResponse:
        # the same page for everyone on the link but for its CSRF token: drawn once per state
        return page_per_revision(request, chosen.page_key(request, "stats", access.right), "table/stats.html", drawing)

    return conditional(request, f"stats|{access.right}|{chosen.stamp}", page)


@require_GET
def player_page(request: HttpRequest, token: str, name: str) -> HttpResponse:
    """One player's record in the group: roles, sessions, friends, biggest hands."""
    access = access_for(token)
    player_id = groups.player_id_named(access.group, name)
    if player_id is None:
        raise Http404("No such player in this group.")
    # two queries: every live session of the group and its seasons, for the filters' choices and the cache key
    chosen = selection_of(request, access)

    def page() -> HttpResponse:
        selected = chosen.selected
        record = kept_counts.stats_for(selected)
        best, worst = stats.best_and_worst_friend(record, name)
        rated = ratings.ratings_for(access.group, chosen.filters, selected)
        return render(request, "table/player.html", {
            "access": access, "group": access.group, "name": name, "player_id": player_id, "player": record.player(name),
            "pairs": record.pairs_of(name), "best_friend": best, "worst_friend": worst, "stats": record,
            "rating": rated.player(name), "rating_chart": rating_trend_chart(name, rated.trend_of(name)),
            **chosen.context(),
        })

    return conditional(request, f"player|{access.right}|{chosen.stamp}", page)


# --- charts -----------------------------------------------------------------------------------------


def _tooltip_hand(name: str, label: str, points: str) -> str:
    return _("%(name)s after hand %(number)s: %(points)s") % {"name": name, "number": label, "points": points}


def _tooltip_session(name: str, label: str, points: str) -> str:
    return _("%(name)s after %(session)s: %(points)s") % {"name": name, "session": label, "points": points}


def session_chart_of(session: Session) -> charts.Chart | None:
    """The running totals of every seat over the session's live hands (one query)."""
    steps = [(str(point.hand), point.totals) for point in stats.series_of([session])]
    return charts.score_chart(session.seats, steps, tooltip=_tooltip_hand)


def _tooltip_rating(name: str, label: str, rating: str) -> str:
    return _("%(name)s's rating after %(session)s: %(rating)s") % {"name": name, "session": label, "rating": rating}


def rating_trend_chart(name: str, trend: list[tuple[Session, float]]) -> charts.Chart | None:
    """One player's rating after each session of the selection, from the starting rating."""
    steps = [(f"{session.played_on:%Y-%m-%d}", value) for session, value in trend]
    return charts.trend_chart(name, steps, start=ratings.ordinal(ratings.MODEL.mu, ratings.MODEL.sigma),
                              tooltip=_tooltip_rating)


def _season_labels(sessions: list[Session]) -> list[str]:
    """Each session (oldest first) as the season chart names it: its date, and when an evening
    holds more than one, its title or its place that evening, so no date is read twice as one."""
    per_day = Counter(session.played_on for session in sessions)
    seen: Counter = Counter()
    labels = []
    for session in sessions:
        label = f"{session.played_on:%Y-%m-%d}"
        seen[session.played_on] += 1
        if per_day[session.played_on] > 1:
            label += f" · {session.shown_title}" if session.shown_title else f" #{seen[session.played_on]}"
        labels.append(label)
    return labels


def season_chart(sessions: list[Session]) -> charts.Chart | None:
    """Every player's cumulative total over the season's sessions, from their stored totals."""
    season = charts.season_steps(sessions)
    steps = list(zip(_season_labels([session for session, _ in season]), (totals for _, totals in season),
                     strict=True))
    names = sorted({name for _, totals in steps for name in totals}, key=lambda n: (-steps[-1][1].get(n, 0), n)) \
        if steps else []
    return charts.score_chart(names, steps, tooltip=_tooltip_session)


@require_GET
def session_chart(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The score over time on the scoreboard, loaded by htmx after the board.

    Without JavaScript the scoreboard's link leads to the statistics of this session,
    which draw the same chart over its hands.
    """
    access = access_for(token, session_id=pk)
    session = access.session(pk)
    if not request.htmx:
        return redirect(reverse("group_stats", args=[token]) + f"?period=s{session.pk}")
    stamp = reads.session_stamp(session, access.right, "chart")
    # the same chart for every phone on the link: drawn once per revision and language
    key = f"chart|{stamp}|{get_language()}|{request.path}"
    return conditional(request, stamp, lambda: page_per_revision(
        request, key, "partials/chart_session.html",
        lambda: {"access": access, "session": session, "chart": session_chart_of(session)},
    ))


# --- the hands as CSV -----------------------------------------------------------------------------


def _contract(entry: dict) -> str:
    contract = entry.get("contract") or {}
    return f"{contract.get('points', '')} {contract.get('trump', '')}".strip()


@require_GET
def session_hands_csv(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The session's live hands, one row each, for a spreadsheet: what was played and what it paid."""
    access = access_for(token, session_id=pk)
    session = access.session(pk)
    seats = session.seats
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = slugify(f"{access.group.name} {session.played_on:%Y-%m-%d}", allow_unicode=True) or "session"
    response["Content-Disposition"] = content_disposition_header(True, f"{name}-hands.csv")
    # a spreadsheet opening the file as UTF-8 needs the byte-order mark to read Korean names
    response.write("\ufeff")
    writer = SpreadsheetWriter(response)  # names like =HYPERLINK(…) are shown, never run
    # the evening's date and title on every row: the group's import reads the file back into it
    writer.writerow([
        "date", "title", "number", "kind", "dealer", "declarer", "contract", "partner_call", "partners",
        "sitting_out", "points", "made", "runs", *(f"{seat} payment" for seat in seats),
        *(f"{seat} total" for seat in seats),
    ])
    played_on = session.played_on.isoformat()
    for number, kind, entry, result, payments, totals in exports.session_hand_rows(session):
        result = result or {}
        made = result.get("made")
        writer.writerow([
            played_on, session.title, number, kind, entry.get("dealer", ""), entry.get("declarer", ""),
            _contract(entry), exports.partner_call_text(entry),
            " ".join(entry.get("partners", [])), " ".join(entry.get("sitting_out", [])),
            result.get("points", entry.get("points", "")) if kind == Hand.SCORED else "",
            "" if made is None else ("yes" if made else "no"),
            " ".join(d for d in result.get("doubles", []) if d in ("run", "back_run")),
            *(payments.get(seat, 0) for seat in seats), *(totals.get(seat, 0) for seat in seats),
        ])
    return response


# --- the group page's season chart and balance -------------------------------------------------------


def group_page_extras(access: Access, sessions: list[Session]) -> dict:
    """The season's chart and what is still owed across sessions, for the group page (one query)."""
    return {
        "season_chart": season_chart(sessions),
        "balances": balance.group_balance(sessions, balance.group_payments(access.group.pk, sessions)),
        "stats_url": reverse("group_stats", args=[access.token]),
    }
