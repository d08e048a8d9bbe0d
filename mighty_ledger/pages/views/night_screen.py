"""The night's big screen: a page for a TV or projector, read from across the room, with no
controls; and its body, which the page asks for again on each change of the group.

The body is the same for every screen of the night in one language, so it is drawn once per
change of the night (reads.nights.night_stamped: the night's revision and its tables') and kept
in the cache: a screen asking after a hand costs the link's query, the stamp's and a cache read.
The first screen to ask after a hand draws it.

The page follows the group's event stream with htmx's SSE extension (reconnecting by itself)
and polls slowly besides; each answer replaces the body whole, so a screen left on for hours
keeps one copy of it.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from mighty_ledger.http.cache import COPY_OF_A_REVISION_SECONDS
from mighty_ledger.models import Group, Night
from mighty_ledger.pages.views.links import view_access
from mighty_ledger.reads import nights

# the screen asks for its body this often besides its stream: a stream gone without a word, the end
# of a timed round (no write tells it), a player come or gone
POLL_SECONDS = 30


def screen_key(stamp: str, language: str) -> str:
    return f"night-screen:{stamp}:{language}"


def _body_html(night: Night) -> str:
    """The body as it stands: every round's progress, where everyone sits, the standings."""
    overview = nights.night_overview(night)
    current = overview.current
    standings = nights.night_standings(night, overview.rounds)
    playing = current is not None and any(t.hands or t.playing for t in current.tables)
    return render_to_string("partials/night_screen_body.html", {
        "night": night, "overview": overview, "current": current, "standings": standings,
        # the draw stands on the screen from the moment it is made until the first hand of the round
        "draw_shown": current is not None and not playing and not current.finished,
        "places": sorted(overview.places.items()),
        "time_up": current is not None and current.ends_at is not None and current.finished,
    })


def screen_body(group: Group, night_id: int, language: str) -> str:
    """The body for the night's state now, from the cache; drawn and kept when it is not there."""
    key = screen_key(nights.night_stamp(group, night_id).whole, language)
    body = cache.get(key)
    if body is None:
        body = _body_html(nights.group_night(group, night_id))
        cache.set(key, body, COPY_OF_A_REVISION_SECONDS)
    return body


@require_GET
def night_screen(request: HttpRequest, token: str, night_id: int) -> HttpResponse:
    """The big screen: the page around the body, which follows the group live."""
    access = view_access(token)
    language = get_language()
    body = screen_body(access.group, night_id, language)
    night = nights.group_night(access.group, night_id)
    response = render(request, "table/night_screen.html", {
        "access": access, "night": night, "body": mark_safe(body), "poll_seconds": POLL_SECONDS})
    patch_cache_control(response, no_store=True)
    return response


@require_GET
def night_screen_live(request: HttpRequest, token: str, night_id: int) -> HttpResponse:
    """The big screen's body, what the screen asks for on each change: the same bytes for every
    screen of the night in a language, drawn once per change."""
    access = view_access(token)
    language = get_language()
    response = HttpResponse(screen_body(access.group, night_id, language))
    patch_cache_control(response, no_store=True)
    return response
