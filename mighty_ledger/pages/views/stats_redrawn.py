"""The group's statistics and ratings drawn again when a hand changes, for a group that is looking at them.

The statistics page sums every hand of the group and draws some thirty kilobytes of tables and
chart from them; the ratings page rates the new hand and draws the table again: drawn when a
phone asks, the first view after a hand costs several times a page from the cache
(docs/performance.md). Every view of either notes which page it was (its address with the
filters as understood, and the language: ``looked_at``) in the cache, and tells the stream
processes through the broker that the group is looked at. When one of the group's sessions
changes, a process serving its streams calls ``redrawn`` on a thread of its own
(live/redraws.py; the project's ASGI module hands it over): the pages looked at in the last half
hour are drawn again, each through its own view, into the shared cache, and the next view of
each is read from there.

A group that nobody looks at costs nothing here, and a look keeps its page drawn again for half an
hour of hands: at a table that opens the statistics between hands, as many drawings as without
this, each made before it is asked for. Every stream process holding phones of the table hears the
change; the first to claim it draws.
"""

from __future__ import annotations

from contextlib import suppress

from django.http import Http404, HttpRequest, QueryDict
from django.urls import Resolver404, resolve
from django.utils import translation

from mighty_ledger.http.access import access_for
from mighty_ledger.pages.views.ratings import ratings_page
from mighty_ledger.pages.views.stats import selection_of, statistics_page
from mighty_ledger.pages.views.stats_looks import looks_key, looks_to_draw

# the pages drawn again, by the name of their address: each drawn as its view draws it, but for the look
PAGES = {"group_stats": statistics_page, "group_ratings": ratings_page}


def redrawn(group_id: int, session_id: int, revision: int | None, what: str) -> None:
    """Draw again into the cache the statistics and ratings pages of the group looked at in the last half hour,
    after a change of one of its sessions (``what`` happened to ``session_id``, now at ``revision``)."""
    change = f"statistics-redrawn:{group_id}:{session_id}:{revision}:{what}"
    for here, language in looks_to_draw(looks_key(group_id), change):
        _draw(here, language)


def _draw(here: str, language: str) -> None:
    """The page at ``here`` asked for as a phone with no cookie asks for it, but for noting a look:
    its view draws it into the cache (``drawn_once``), where the next phone finds it. (Were the
    drawing a look, a table playing on would keep its statistics drawn for ever.)"""
    path, _, query = here.partition("?")
    try:
        match = resolve(path)
    except Resolver404:
        return
    if match.url_name not in PAGES:
        return
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = path
    request.GET = QueryDict(query)
    # a link rotated, or a group deleted, since the look: nothing to draw
    with translation.override(language), suppress(Http404):
        request.LANGUAGE_CODE = language
        access = access_for(match.kwargs["token"])
        PAGES[match.url_name](request, access, selection_of(request, access))
