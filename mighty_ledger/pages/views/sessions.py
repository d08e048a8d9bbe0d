"""A session's pages: starting it, the scoreboard, settlement, history and rules.

Every view reaches its objects through the link (links.py), parses the request,
calls one read (mighty_ledger.reads) or one service, and renders. Pages that
phones reload all evening answer a conditional request whose session has not
changed with 304 Not Modified.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mighty_ledger import reads, services
from mighty_ledger.http.request_keys import once_per_form_key
from mighty_ledger.models import Session
from mighty_ledger.pages.forms import SessionStartForm
from mighty_ledger.pages.views.conditional import conditional as _conditional
from mighty_ledger.pages.views.in_progress import playing_now
from mighty_ledger.pages.views.links import board_url, edit_access, view_access
from mighty_ledger.pages.views.rules import (
    deal_miss_odds,
    preset_name,
    system_differences,
    system_sections,
)
from scoring.presets import get_preset
from scoring.problems import InvalidInput


@require_http_methods(["GET", "POST"])
@once_per_form_key
def session_new(request: HttpRequest, token: str) -> HttpResponse:
    access = edit_access(token)
    players = list(access.group.players.values_list("name", flat=True))
    if request.method == "POST":
        form = SessionStartForm(request.POST, players=players)
        if form.is_valid():
            try:
                session = services.session_start(
                    group=access.group, by=access.actor(), **form.service_kwargs()
                )
            except InvalidInput as error:
                form.add_problems(error.problems)
            else:
                return redirect(board_url(access, session))
    else:
        initial = {"played_on": timezone.localdate(), "preset": "pagat-standard"}
        initial |= {f"seat_{i + 1}": name for i, name in enumerate(players[:5])}
        # the table usually sits and plays as it did last time
        last = access.group.sessions.live().order_by("-created_at").first()
        if last is not None:
            initial = {"played_on": timezone.localdate(), **SessionStartForm.initial_like(last)}
        if request.GET.get("preset"):
            # another system chosen on the page: its rule controls, the seats as they were tapped
            initial |= SessionStartForm.initial_from_query(request.GET)
        form = SessionStartForm(initial=initial, players=players)
    return render(request, "table/session_new.html", {"access": access, "form": form})


def _before(request: HttpRequest, session: Session) -> int | None:
    """The hand number the earlier rows end before, within the session's numbers (so the
    board's cached fragments are one per page of hands, whatever a link's query says)."""
    raw = request.GET.get("before", "")
    if not (raw.isdigit() and len(raw) < 19):
        return None
    before = int(raw)
    return None if before > session.hand_count else max(before, 1)


@require_GET
def session_board(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The scoreboard, the page phones reload all evening.

    The link and session are checked on every request, in one query (a rotated
    link or a deleted session stops at once); when the phone already holds this
    revision of the board the answer is 304 and nothing more is read.
    """
    access = view_access(token, pk)
    session = access.session(pk)
    before = _before(request, session)
    if request.htmx and before is not None:
        rows, earlier = reads.board_rows(session, before=before)
        return render(request, "partials/scoreboard_rows.html", {
            "access": access, "session": session, "rows": rows, "earlier": earlier,
            "earlier_before": rows[0].number if rows else None,
        })

    def page() -> HttpResponse:
        # read only when the board's fragment is not cached for this revision yet (partials/board_body.html)
        board = SimpleLazyObject(lambda: reads.session_board(session, before=before))
        return render(request, "table/board.html", {
            "access": access, "session": session, "board": board, "before": before,
            "settlement": reads.session_settlement(session, per_hand=False),
            "system_name": preset_name(get_preset(session.preset)),
            "playing": playing_now(session),  # the hand in progress, if one is being played
        })

    return _conditional(request, reads.session_stamp(session, access.right), page)


@require_POST
def session_delete(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = edit_access(token, pk)
    services.session_delete(session=access.session(pk), by=access.actor())
    messages.success(request, _("The session was deleted. You can restore it from the group page."))
    return redirect("group_page", token)


@require_POST
def session_restore(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = edit_access(token)
    session = services.session_restore(session=access.session(pk, include_deleted=True), by=access.actor())
    return redirect(board_url(access, session))


@require_GET
def session_settle(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = view_access(token, pk)
    session = access.session(pk)
    return _conditional(request, reads.session_stamp(session, access.right), lambda: render(
        request, "table/settle.html",
        {"access": access, "session": session, "settlement": reads.session_settlement(session)},
    ))


@require_GET
def session_history(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = view_access(token, pk)
    session = access.session(pk)

    def page() -> HttpResponse:
        history = reads.session_history(session)
        return render(request, "table/history.html", {
            "access": access, "session": session, "revisions": history.revisions, "deleted": history.deleted,
        })

    return _conditional(request, reads.session_stamp(session, access.right), page)


@require_GET
def session_rules(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The session's own system in words, and where the table changed its preset."""
    access = view_access(token, pk)
    session = access.session(pk)
    system = reads.system_of(session)
    preset = get_preset(session.preset)
    return render(request, "table/session_rules.html", {
        "access": access, "session": session, "preset_name": preset_name(preset),
        "differences": system_differences(preset.system(), system),
        "sections": system_sections(system), "odds": deal_miss_odds(system),
    })
