"""A session's pages: starting it, the scoreboard, settlement, history and rules.

Every view reaches its objects through the link (links.py), parses the request,
calls one read (mighty_ledger.reads) or one service, and renders. Pages that
phones reload all evening answer a conditional request whose session has not
changed with 304 Not Modified.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mighty_ledger import reads, services
from mighty_ledger.http import etags
from mighty_ledger.http.access import Access
from mighty_ledger.http.cache import COPY_OF_A_REVISION_SECONDS, ROW_SECONDS
from mighty_ledger.http.request_keys import once_per_form_key
from mighty_ledger.models import Session
from mighty_ledger.pages.forms import SessionStakesForm, SessionStartForm
from mighty_ledger.pages.views.board_rows import board_rows_when_shown, drawn_rows, page_ends
from mighty_ledger.pages.views.conditional import conditional as _conditional
from mighty_ledger.pages.views.conditional import page_per_revision
from mighty_ledger.pages.views.links import board_url, edit_access, view_access
from mighty_ledger.pages.views.rules import (
    deal_miss_odds,
    preset_name,
    redeal_page,
    system_differences,
    system_sections,
)
from mighty_ledger.reads import balance, groups, payees
from scoring.presets import get_preset
from scoring.problems import InvalidInput


@require_http_methods(["GET", "POST"])
@once_per_form_key
def session_new(request: HttpRequest, token: str) -> HttpResponse:
    access = edit_access(token)
    players = groups.player_names(access.group)
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
        # the seats start empty: tapping the players clockwise, as the page says, seats them so
        # the likeliest system for the phone's language and the group's size (a Korean phone, five
        # players: 표준 5마)
        initial = {"played_on": timezone.localdate(), "preset": SessionStartForm.likeliest_preset(players)}
        # the table usually sits and plays as it did last time
        last = groups.latest_session(access.group)
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


def _board_regions(access: Access, session: Session, before: int | None) -> dict:
    """What the board's live regions show; the board is read only when its cached region is
    missing for this revision (partials/board_region.html), and its rows drawn then."""
    board = SimpleLazyObject(lambda: reads.session_board(session, before=before))
    return {
        "access": access, "session": session, "before": before, "board": board,
        "rows_drawn": board_rows_when_shown(board, session=session, access=access, before=before),
        "playing": reads.playing_now(session),  # the hand in progress, if one is being played
        "copy_seconds": COPY_OF_A_REVISION_SECONDS,  # how long the regions' cached parts are kept
        # the parts that show nothing of one revision (the seats, who deals next, the chart's frame)
        "part_seconds": ROW_SECONDS,
    }


def _fragments_key(access: Access, session: Session, before: int | None) -> str:
    return etags.live_fragments_key(session, access.right, access.token, get_language(), before)


def _board_address(name: str, access: Access, session: Session, before: int | None) -> str:
    """The board's (or its live regions') own address for this page of hands."""
    url = reverse(name, args=[access.token, session.pk])
    return f"{url}?before={before}" if before is not None else url


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
            "rows_drawn": drawn_rows(rows, session=session, access=access, **page_ends(earlier, session, before)),
            "earlier_before": rows[0].number if rows else None,
        })

    stamp = reads.session_stamp(session, access.right)

    # the board's own address, whatever else a link's query says: one drawn page per page of hands
    here = _board_address("session_board", access, session, before)

    def board() -> dict:
        return {
            **_board_regions(access, session, before),
            "here": here,  # where the language switcher comes back to
            "system_name": preset_name(get_preset(session.preset)),
            # on a change the live script fetches the regions alone, holding the ETag of these
            "live_fragments": _board_address("session_live", access, session, before),
            "live_fragments_etag": etags.etag_of(_fragments_key(access, session, before)),
            # showing the latest hands: each new hand's step comes inside the event (board_steps.py)
            "board_steps": before is None,
        }

    def page() -> HttpResponse:
        # the same page for every phone on this link but for its CSRF token: drawn once per revision
        key = f"board|{stamp}|{get_language()}|{here}"
        return page_per_revision(request, key, "table/board.html", board)

    return _conditional(request, stamp, page)


@require_GET
def session_live(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The scoreboard's live regions, what a live phone fetches when the session changes.

    The answer depends only on the session's revision, the link (its right, and its token,
    which the regions' links carry), the language and the page of earlier hands: its board
    region is drawn once per revision for all the phones at the table and read from the cache
    after, and a phone that holds it gets 304. No CSRF token, request key or cookie is in it;
    the parts of the page that carry them are not fetched again on a change (docs/operations.md).
    """
    access = view_access(token, pk)
    session = access.session(pk)
    before = _before(request, session)
    etag = etags.etag_of(_fragments_key(access, session, before))
    if etags.held(request, etag):
        # also a revision no phone fetched: a phone that applied a hand's step holds its ETag
        response = HttpResponseNotModified()
    else:
        # drawn without the request: nothing of this visitor (CSRF token, cookies) can get in. The
        # board region inside is kept per revision (partials/board_region.html)
        response = HttpResponse(render_to_string("partials/board_fragments.html",
                                                 _board_regions(access, session, before)))
    response["ETag"] = etag
    # a capability link's answer: kept by the phone's script, never on disk or in a shared cache
    patch_cache_control(response, no_store=True)
    return response


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


def _settle_page(request: HttpRequest, access: Access, session: Session, pay, *, stakes_form=None,
                 status: int = 200) -> HttpResponse:
    settlement = reads.session_settlement(session)
    # what is still owed after the payments marked: the page's one list of transfers, "this phone
    # is me" (a payment moves the session's revision, so the page's ETag with it)
    outstanding = balance.session_outstanding(session, settlement)
    if stakes_form is None and access.can_edit:
        stakes_form = SessionStakesForm.for_session(session)
    return render(request, "table/settle.html", {
        "access": access, "session": session, "settlement": settlement, "outstanding": outstanding,
        "pay": pay, "drawn_after": outstanding.last_id, "stakes_form": stakes_form,
    }, status=status)


@require_GET
def session_settle(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = view_access(token, pk)
    session = access.session(pk)
    # how the players like to be paid, beside each transfer (edit link only: a view link reads none)
    pay = payees.group_pay_handles(access.group, can_edit=access.can_edit)
    stamp = reads.session_stamp(session, access.right, payees.pay_stamp(pay))
    return _conditional(request, stamp, lambda: _settle_page(request, access, session, pay))


@require_POST
def session_stakes(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """What the session is played for, changed from the settle page (the table agrees the stake
    when it settles): the money follows from the points, so nothing else moves."""
    access = edit_access(token, pk)
    session = access.session(pk)
    form = SessionStakesForm(request.POST)
    if form.is_valid():
        try:
            services.session_stakes_change(session=session, changes=form.changes(), by=access.actor())
        except InvalidInput as error:
            form.add_problems(error.problems)
        else:
            messages.success(request, _("The stakes are changed: the money below is counted with them."))
            return redirect("session_settle", token, session.pk)
    pay = payees.group_pay_handles(access.group, can_edit=access.can_edit)
    return _settle_page(request, access, session, pay, stakes_form=form, status=400)


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


@require_GET
def session_redeal(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The redeal calculator opened from a board: the session's system chosen, and the way back."""
    access = view_access(token, pk)
    session = access.session(pk)
    return redeal_page(
        request,
        default_slug=session.preset,
        calculator_url=reverse("session_redeal", args=[access.token, session.pk]),
        board={"url": board_url(access, session)},
        overrides=session.overrides,
    )
