"""The table app's pages: groups, sessions, hand entry, scoreboard, settlement.

Every view reaches its objects through the link's access (``_view`` or
``_edit``), parses the request, calls one read (mighty_ledger.reads) or one
service, and renders. htmx requests get the partial; everything also works as
plain pages. Pages that phones reload all evening answer a conditional request
whose session has not changed with 304 Not Modified.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.presets import get_preset
from scoring.problems import InvalidInput

from .. import reads, services
from ..access import Access, access_for
from ..forms import EventForm, GroupCreateForm, HandForm, PlayerAddForm, SessionStartForm
from ..models import Hand, Revision, Session
from ..request_keys import ALREADY_SAVED, form_key, once_per_form_key
from .conditional import conditional as _conditional
from .in_progress import ask_first, playing_now, record_hand, saved_meanwhile
from .rules import deal_miss_odds, preset_name, system_differences, system_sections
from .stats import group_page_extras

# --- guards ------------------------------------------------------------------------------


def _view(token: str, session_id: int | None = None) -> Access:
    return access_for(token, session_id=session_id)


def _edit(token: str, session_id: int | None = None) -> Access:
    access = access_for(token, session_id=session_id)
    access.require_edit()
    return access


def _board_url(access: Access, session: Session) -> str:
    return reverse("session_board", args=[access.token, session.pk])


# --- groups ---------------------------------------------------------------------------------


@require_POST
@once_per_form_key
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
    overview = reads.group_overview(group)
    return _conditional(request, f"{group.name}|{access.right}|{overview.stamp}", lambda: render(request, "table/group.html", {
        "access": access, "group": group, "players": overview.players,
        "sessions": overview.sessions, "deleted_sessions": overview.deleted_sessions,
        "history": overview.season,
        "created": request.GET.get("created") == "1",
        "player_form": PlayerAddForm(),
        "edit_url": request.build_absolute_uri(reverse("group_page", args=[group.edit_token])),
        "view_url": request.build_absolute_uri(reverse("group_page", args=[group.view_token])),
        **group_page_extras(access, overview.sessions),
    }))


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
@once_per_form_key
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
@once_per_form_key
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
    access = _view(token, pk)
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
    access = _edit(token, pk)
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
    access = _view(token, pk)
    session = access.session(pk)
    return _conditional(request, reads.session_stamp(session, access.right), lambda: render(
        request, "table/settle.html",
        {"access": access, "session": session, "settlement": reads.session_settlement(session)},
    ))


@require_GET
def session_history(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = _view(token, pk)
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
    access = _view(token, pk)
    session = access.session(pk)
    system = reads.system_of(session)
    preset = get_preset(session.preset)
    return render(request, "table/session_rules.html", {
        "access": access, "session": session, "preset_name": preset_name(preset),
        "differences": system_differences(preset.system(), system),
        "sections": system_sections(system), "odds": deal_miss_odds(system),
    })


# --- hands ---------------------------------------------------------------------------------------


def _hand_form(session: Session, data=None, **kwargs) -> HandForm:
    return HandForm(data, seats=session.seats, system=reads.system_of(session), **kwargs)


def _new_hand_initial(session: Session, form: HandForm, declarer: str | None = None) -> dict:
    """The dealer from the table flow, the declarer tapped on the board, and the last hand's call."""
    last = reads.last_hand(session)
    state = reads.next_state(session, last)
    initial = {"dealer": state.dealer, "sitting_out": list(state.sitting_out)}
    if declarer in session.seats:
        initial["declarer"] = declarer
    if last is not None and last.kind == Hand.SCORED:
        initial |= form.remembered_call(last.entry)
    return initial


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
@once_per_form_key
def hand_new(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = _edit(token, pk)
    session = access.session(pk)
    if request.method == "GET":
        form = _hand_form(session)
        form.initial = _new_hand_initial(session, form, request.GET.get("declarer"))
        form.initial["seen_hand_count"] = session.hand_count  # another phone saving first is asked about
        return _render_hand_form(request, access, session, form)
    form = _hand_form(session, request.POST)
    if form.is_valid():
        meanwhile = saved_meanwhile(session, form)
        if meanwhile is not None:
            return ask_first(request, "table/hand_form.html", {"access": access, "session": session, "hand": None,
                                                               "preview": None, "stale": None}, form, meanwhile)
        try:
            # the form's one-time key is the hand's too: the outbox may send the same hand by the API
            record_hand(session=session, form=form, idempotency_key=form_key(request), by=access.actor())
        except InvalidInput as error:
            form.add_problems(error.problems)
        except services.IdempotencyConflict:
            form.add_error(None, ALREADY_SAVED)
        else:
            return redirect(_board_url(access, session))
    return _render_hand_form(request, access, session, form)


@require_POST
def hand_preview(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The live preview: every seat's payment, the explanation, and each problem beside its field."""
    access = _edit(token, pk)
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
@once_per_form_key
def event_new(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = _edit(token, pk)
    session = access.session(pk)
    system = reads.system_of(session)
    if request.method == "POST":
        form = EventForm(request.POST, seats=session.seats, system=system)
        if form.is_valid():
            try:
                services.hand_record(
                    session=session, entry=form.entry(), kind=form.cleaned_data["kind"],
                    idempotency_key=form_key(request), by=access.actor(),
                )
            except InvalidInput as error:
                form.add_problems(error.problems)
            except services.IdempotencyConflict:
                form.add_error(None, ALREADY_SAVED)
            else:
                return redirect(_board_url(access, session))
    else:
        state = reads.next_state(session)
        kind = request.GET.get("kind") if request.GET.get("kind") in ("deal_miss", "all_pass") else "deal_miss"
        form = EventForm(initial={"kind": kind, "dealer": state.dealer}, seats=session.seats, system=system)
    return render(request, "table/event_form.html", {"access": access, "session": session, "form": form})


@require_GET
def hand_detail(request: HttpRequest, token: str, pk: int, number: int) -> HttpResponse:
    access = _view(token, pk)
    session = access.session(pk)

    def page() -> HttpResponse:
        view = reads.hand_view(access.hand(session, number))
        return render(request, "table/hand_detail.html", {
            "access": access, "session": session, "hand": view.hand,
            "explanation": view.explanation, "transfers": view.transfers,
        })

    return _conditional(request, reads.session_stamp(session, access.right), page)


@require_http_methods(["GET", "POST"])
def hand_edit(request: HttpRequest, token: str, pk: int, number: int) -> HttpResponse:
    access = _edit(token, pk)
    session = access.session(pk)
    hand = access.hand(session, number)
    system = reads.system_of(session)
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
    access = _edit(token, pk)
    session = access.session(pk)
    hand = services.hand_delete(hand=access.hand(session, number), by=access.actor())
    # the message carries an Undo (base.html): the hand is back with one tap
    messages.success(request, _("Hand %(number)s was deleted.") % {"number": hand.number},
                     extra_tags=f"undo-hand-{hand.number}")
    return redirect(_board_url(access, session))


@require_POST
def hand_revert(request: HttpRequest, token: str, pk: int, number: int, revision: int) -> HttpResponse:
    """Undo an edit from the history: the hand as it was before that change, saved as a new edit."""
    access = _edit(token, pk)
    session = access.session(pk)
    hand = access.hand(session, number)
    # the revision is looked up through the hand the link reaches, so no URL reaches another group's
    change = Revision.objects.filter(pk=revision, hand=hand, action=Revision.AMENDED).first()
    if change is None or not (change.before or {}).get("entry"):
        return HttpResponse(status=404)
    try:
        services.hand_amend(hand=hand, entry=change.before["entry"], version=hand.version, by=access.actor())
    except (InvalidInput, services.StaleVersion):
        messages.error(request, _("Hand %(number)s could not be put back: it changed meanwhile, or the rules "
                                  "now refuse it.") % {"number": hand.number})
    else:
        messages.success(request, _("Hand %(number)s is back as it was before that change.")
                         % {"number": hand.number})
    return redirect("session_history", token, session.pk)


@require_POST
def hand_restore(request: HttpRequest, token: str, pk: int, number: int) -> HttpResponse:
    access = _edit(token, pk)
    session = access.session(pk)
    services.hand_restore(hand=access.hand(session, number), by=access.actor())
    if request.POST.get("next") == "board":  # the Undo beside "Hand 3 was deleted."
        return redirect(_board_url(access, session))
    return redirect("hand_detail", token, session.pk, number)
