"""The table app's pages: groups, sessions, hand entry, scoreboard, settlement.

Every view reaches its objects through the link's access (``_view`` or
``_edit``), parses the request, calls one service or `scoring` read, and
renders. htmx requests get the partial; everything also works as plain pages.
"""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.presets import get_preset
from scoring.problems import InvalidInput

from .. import services
from ..access import Access, BoardStamp, access_for, access_to_session, board_stamp
from ..forms import EventForm, GroupCreateForm, HandForm, PlayerAddForm, SessionStartForm
from ..models import Hand, Revision, Session
from ..table import hand_explanation, hand_transfers, next_state, settle, system_of
from .rules import deal_miss_odds, preset_name, system_differences, system_sections

BOARD_ROWS = 50  # a phone gets the latest hands; earlier ones load on demand
BOARD_CACHE_SECONDS = 24 * 3600  # keyed by revision, so this only bounds memory
# stands for the CSRF token in a cached page; each response puts in its visitor's own
CSRF_SLOT = "csrf-token-slot-7c1e9a4f"


# --- guards ------------------------------------------------------------------------------


def _view(token: str) -> Access:
    return access_for(token)


def _edit(token: str) -> Access:
    access = access_for(token)
    access.require_edit()
    return access


def _board_url(access: Access, session: Session) -> str:
    return reverse("session_board", args=[access.token, session.pk])


# --- groups ---------------------------------------------------------------------------------


@require_POST
def group_create(request: HttpRequest) -> HttpResponse:
    form = GroupCreateForm(request.POST)
    if form.is_valid():
        try:
            group = services.group_create(
                name=form.cleaned_data["name"], player_names=form.cleaned_data["player_names"]
            )
        except InvalidInput as error:
            for problem in error.problems:
                form.add_error("name" if problem.field == "name" else "player_names", problem.message)
        else:
            return redirect(reverse("group_page", args=[group.edit_token]) + "?created=1")
    return render(request, "home.html", {"form": form})


@require_GET
def group_page(request: HttpRequest, token: str) -> HttpResponse:
    access = _view(token)
    group = access.group
    players = list(group.players.all())
    sessions = list(Session.objects.filter(group=group).newest_first())
    live = [s for s in sessions if s.deleted_at is None]
    # per-player totals across every live session: stored totals, never re-summed from hands
    history = {player.name: 0 for player in players}
    for session in live:
        for name, points in session.totals.items():
            history[name] = history.get(name, 0) + points
    return render(request, "table/group.html", {
        "access": access, "group": group, "players": players,
        "sessions": live, "deleted_sessions": [s for s in sessions if s.deleted_at is not None],
        "history": sorted(history.items(), key=lambda item: -item[1]),
        "created": request.GET.get("created") == "1",
        "player_form": PlayerAddForm(),
        "edit_url": request.build_absolute_uri(reverse("group_page", args=[group.edit_token])),
        "view_url": request.build_absolute_uri(reverse("group_page", args=[group.view_token])),
    })


@require_POST
def group_rotate(request: HttpRequest, token: str, which: str) -> HttpResponse:
    access = _edit(token)
    try:
        group = services.group_rotate_link(group=access.group, which=which, by=access.actor())
    except InvalidInput:
        return HttpResponse(status=400)
    messages.success(request, _("The old link no longer works. Share the new one."))
    return redirect("group_page", group.edit_token)


@require_POST
def player_add(request: HttpRequest, token: str) -> HttpResponse:
    access = _edit(token)
    form = PlayerAddForm(request.POST)
    if form.is_valid():
        try:
            services.player_add(group=access.group, name=form.cleaned_data["name"], by=access.actor())
        except InvalidInput as error:
            for problem in error.problems:
                messages.error(request, problem.message)
    else:
        messages.error(request, _("A player needs a name of at most 40 characters."))
    return redirect("group_page", token)


# --- sessions -----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def session_new(request: HttpRequest, token: str) -> HttpResponse:
    access = _edit(token)
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
                return redirect(_board_url(access, session))
    else:
        from django.utils import timezone

        initial = {"played_on": timezone.localdate(), "preset": "pagat-standard"}
        initial |= {f"seat_{i + 1}": name for i, name in enumerate(players[:5])}
        form = SessionStartForm(initial=initial, players=players)
    return render(request, "table/session_new.html", {"access": access, "form": form})


def _board_rows(session: Session, before: int | None = None) -> tuple[list[Hand], bool]:
    """The latest BOARD_ROWS hands (before a hand number), oldest first, and whether earlier ones exist."""
    hands = session.hands.live().latest_first()
    if before is not None:
        hands = hands.filter(number__lt=before)
    # one more than shown, to know whether earlier hands exist without counting them
    rows = list(hands[: BOARD_ROWS + 1])
    return rows[:BOARD_ROWS][::-1], len(rows) > BOARD_ROWS


def _board_body(request: HttpRequest, access: Access, session: Session, before: int | None) -> str:
    """Everything on the scoreboard below the header: the hands, totals and who deals next."""
    rows, earlier = _board_rows(session, before)
    last = rows[-1] if rows and before is None else session.hands.live().latest_first().first()
    return mark_safe(render_to_string("partials/board_body.html", {
        "access": access, "session": session, "rows": rows, "earlier": earlier,
        "earlier_before": rows[0].number if rows else None, "last": last,
        "next": next_state(session, last),
        "settlement": settle(session) if session.stake_per_point is not None else None,
        "system_name": preset_name(get_preset(session.preset)),
    }, request))


def _board_key(request: HttpRequest, token: str, stamp: BoardStamp) -> str:
    # the revision changes with every write to the session's hands, so a cached page is never stale;
    # hashed so that no link's token is written into the cache in clear
    parts = (stamp.session_id, stamp.created_at, stamp.revision, token, get_language(), request.get_full_path())
    return "board:" + hashlib.sha256(repr(parts).encode()).hexdigest()


@require_GET
def session_board(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The scoreboard, the page phones reload all evening.

    The link and session are checked on every request (a rotated link or a deleted
    session stops at once), but the page itself is rendered once per revision of
    the hands, language and link, and served from the cache with this visitor's
    own CSRF token put in. A page with a message waiting is rendered fresh.
    """
    raw = request.GET.get("before", "")
    before = int(raw) if raw.isdigit() else None
    if request.htmx and before is not None:
        access, session = access_to_session(token, pk)
        rows, earlier = _board_rows(session, before)
        return render(request, "partials/scoreboard_rows.html", {
            "access": access, "session": session, "rows": rows, "earlier": earlier,
            "earlier_before": rows[0].number if rows else None,
        })
    key = _board_key(request, token, board_stamp(token, pk))
    cacheable = not len(messages.get_messages(request))
    page = cache.get(key) if cacheable else None
    if page is None:
        access, session = access_to_session(token, pk)
        page = render_to_string("table/board.html", {
            "access": access, "session": session, "csrf_token": CSRF_SLOT,
            "board_body": _board_body(request, access, session, before),
        }, request)
        if cacheable:
            cache.set(key, page, BOARD_CACHE_SECONDS)
    return HttpResponse(page.replace(CSRF_SLOT, get_token(request)))


@require_POST
def session_delete(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = _edit(token)
    services.session_delete(session=access.session(pk), by=access.actor())
    messages.success(request, _("The session was deleted. You can restore it from the group page."))
    return redirect("group_page", token)


@require_POST
def session_restore(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = _edit(token)
    session = services.session_restore(session=access.session(pk, include_deleted=True), by=access.actor())
    return redirect(_board_url(access, session))


@require_GET
def session_settle(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = _view(token)
    session = access.session(pk)
    per_hand = [
        (number, kind, hand_transfers(payments))
        for number, kind, payments in session.hands.live().in_order().values_list("number", "kind", "payments")
    ]
    return render(request, "table/settle.html", {
        "access": access, "session": session, "settlement": settle(session), "per_hand": per_hand,
    })


@require_GET
def session_history(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = _view(token)
    session = access.session(pk)
    revisions = Revision.objects.filter(session=session).select_related("hand")
    deleted = session.hands.deleted().in_order()
    return render(request, "table/history.html", {
        "access": access, "session": session, "revisions": revisions, "deleted": deleted,
    })


@require_GET
def session_rules(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The session's own system in words, and where the table changed its preset."""
    access, session = access_to_session(token, pk)
    system = system_of(session)
    preset = get_preset(session.preset)
    return render(request, "table/session_rules.html", {
        "access": access, "session": session, "preset_name": preset_name(preset),
        "differences": system_differences(preset.system(), system),
        "sections": system_sections(system), "odds": deal_miss_odds(system),
    })


# --- hands ---------------------------------------------------------------------------------------


def _hand_form(session: Session, data=None, **kwargs) -> HandForm:
    return HandForm(data, seats=session.seats, system=system_of(session), **kwargs)


def _new_hand_initial(session: Session) -> dict:
    state = next_state(session, session.hands.live().latest_first().first())
    return {"dealer": state.dealer, "sitting_out": list(state.sitting_out)}


def _preview(form: HandForm, session: Session) -> dict | None:
    """Score the form's hand without saving; problems go beside their fields."""
    if not form.is_valid():
        return None
    try:
        return services.hand_preview(session=session, entry=form.entry())
    except InvalidInput as error:
        form.add_problems(error.problems)
        return None


def _render_hand_form(request, access, session, form, *, hand=None, preview=None, stale=None):
    return render(request, "table/hand_form.html", {
        "access": access, "session": session, "form": form, "hand": hand,
        "preview": preview, "stale": stale,
    })


@require_http_methods(["GET", "POST"])
def hand_new(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = _edit(token)
    session = access.session(pk)
    if request.method == "GET":
        form = _hand_form(session, initial=_new_hand_initial(session))
        return _render_hand_form(request, access, session, form)
    form = _hand_form(session, request.POST)
    if form.is_valid():
        try:
            services.hand_record(session=session, entry=form.entry(), by=access.actor())
        except InvalidInput as error:
            form.add_problems(error.problems)
        else:
            return redirect(_board_url(access, session))
    return _render_hand_form(request, access, session, form)


@require_POST
def hand_preview(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The live preview: every seat's payment, the explanation, and each problem beside its field."""
    access = _edit(token)
    session = access.session(pk)
    form = _hand_form(session, request.POST)
    preview = _preview(form, session)
    if request.htmx:
        # while the hand is half entered, say what is still missing instead of flagging empty fields
        missing = []
        for name, errors in list(form.errors.as_data().items()):
            if name in form.fields and all(error.code == "required" for error in errors):
                missing.append(str(form.fields[name].label))
                del form.errors[name]
        return render(request, "partials/hand_preview.html",
                      {"form": form, "preview": preview, "missing": missing, "oob": True})
    return _render_hand_form(request, access, session, form, preview=preview)


@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = _edit(token)
    session = access.session(pk)
    system = system_of(session)
    if request.method == "POST":
        form = EventForm(request.POST, seats=session.seats, system=system)
        if form.is_valid():
            try:
                services.hand_record(
                    session=session, entry=form.entry(), kind=form.cleaned_data["kind"], by=access.actor()
                )
            except InvalidInput as error:
                form.add_problems(error.problems)
            else:
                return redirect(_board_url(access, session))
    else:
        state = next_state(session, session.hands.live().latest_first().first(), system)
        kind = request.GET.get("kind") if request.GET.get("kind") in ("deal_miss", "all_pass") else "deal_miss"
        form = EventForm(initial={"kind": kind, "dealer": state.dealer}, seats=session.seats, system=system)
    return render(request, "table/event_form.html", {"access": access, "session": session, "form": form})


@require_GET
def hand_detail(request: HttpRequest, token: str, pk: int, number: int) -> HttpResponse:
    access = _view(token)
    session = access.session(pk)
    hand = access.hand(session, number)
    return render(request, "table/hand_detail.html", {
        "access": access, "session": session, "hand": hand,
        "explanation": hand_explanation(session, hand),
        "transfers": hand_transfers(hand.payments) if hand.deleted_at is None else [],
    })


@require_http_methods(["GET", "POST"])
def hand_edit(request: HttpRequest, token: str, pk: int, number: int) -> HttpResponse:
    access = _edit(token)
    session = access.session(pk)
    hand = access.hand(session, number)
    system = system_of(session)
    scored = hand.kind == Hand.SCORED
    if request.method == "GET":
        if scored:
            form = _hand_form(session, initial=HandForm.initial_from(hand.entry, hand.version))
            return _render_hand_form(request, access, session, form, hand=hand)
        initial = {**hand.entry, "kind": hand.kind, "version": hand.version}
        form = EventForm(initial=initial, seats=session.seats, system=system)
        return render(request, "table/event_form.html",
                      {"access": access, "session": session, "form": form, "hand": hand})
    if scored:
        form = _hand_form(session, request.POST)
    else:
        form = EventForm(request.POST, seats=session.seats, system=system)
    stale = None
    if form.is_valid():
        try:
            services.hand_amend(hand=hand, entry=form.entry(), version=form.cleaned_data["version"] or 0,
                                by=access.actor())
        except InvalidInput as error:
            form.add_problems(error.problems)
        except services.StaleVersion as error:
            # someone else saved this hand first: show theirs, keep ours, never overwrite silently
            stale = error.hand
            data = request.POST.copy()
            data["version"] = stale.version
            form = _hand_form(session, data) if scored else EventForm(data, seats=session.seats, system=system)
            form.is_valid()
        else:
            messages.success(request, _("Hand %(number)s was changed.") % {"number": hand.number})
            return redirect(_board_url(access, session))
    if scored:
        return _render_hand_form(request, access, session, form, hand=hand, stale=stale)
    return render(request, "table/event_form.html",
                  {"access": access, "session": session, "form": form, "hand": hand, "stale": stale})


@require_POST
def hand_delete(request: HttpRequest, token: str, pk: int, number: int) -> HttpResponse:
    access = _edit(token)
    session = access.session(pk)
    hand = services.hand_delete(hand=access.hand(session, number), by=access.actor())
    messages.success(request, _("Hand %(number)s was deleted; it can be restored from its page.")
                     % {"number": hand.number})
    return redirect(_board_url(access, session))


@require_POST
def hand_restore(request: HttpRequest, token: str, pk: int, number: int) -> HttpResponse:
    access = _edit(token)
    session = access.session(pk)
    services.hand_restore(hand=access.hand(session, number), by=access.actor())
    return redirect("hand_detail", token, session.pk, number)
