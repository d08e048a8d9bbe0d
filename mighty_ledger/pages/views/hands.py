"""Entering, previewing, showing, editing, deleting, restoring and reverting a hand or an event.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mighty_ledger import reads, services
from mighty_ledger.http.request_keys import (
    ALREADY_SAVED,
    form_key,
    hand_scope,
    once_per_form_key,
)
from mighty_ledger.models import Hand, Session
from mighty_ledger.pages.forms import EventForm, HandForm, set_aside_missing
from mighty_ledger.pages.forms.labels import contract_label, partner_known
from mighty_ledger.pages.views.conditional import conditional as _conditional
from mighty_ledger.pages.views.in_progress import (
    ask_first,
    meanwhile_from,
    saved_page,
)
from mighty_ledger.pages.views.links import board_url, edit_access, session_form_scope, view_access
from mighty_ledger.reads import revisions
from mighty_ledger.reads.hands import hand_saved_by
from scoring.problems import InvalidInput


def _hand_form(session: Session, data=None, **kwargs) -> HandForm:
    return HandForm(data, seats=session.seats, system=reads.system_of(session), **kwargs)


def _new_hand_initial(session: Session, form: HandForm, last: Hand | None, declarer: str | None = None) -> dict:
    """The dealer from the table flow and the declarer tapped on the board. The last hand's call
    is only suggested (``form.suggested``): a value nobody tapped is never saved."""
    state = reads.next_state(session, last)
    initial = {"dealer": state.dealer, "sitting_out": list(state.sitting_out)}
    if declarer in session.seats:
        initial["declarer"] = declarer
    if last is not None and last.kind == Hand.SCORED:
        form.suggested = form.remembered_call(last.entry)
    return initial


def _saved(form, save: Callable[[], object]) -> bool:
    """Run ``save``; its refusals go on the form (the engine's beside their fields). True when saved."""
    try:
        save()
    except InvalidInput as error:
        form.add_problems(error.problems)
    except services.IdempotencyConflict:
        form.add_error(None, ALREADY_SAVED)
    else:
        return True
    return False


def hand_saved_page(request: HttpRequest, key: str, token: str, pk: int, **_kwargs) -> HttpResponse | None:
    """The hand (or deal miss) a form's key saved, shown instead of the form brought back with it."""
    access = edit_access(token, pk)
    session = access.session(pk)
    hand = hand_saved_by(session, key)
    return saved_page(request, access, session, hand=hand, key=key) if hand is not None else None


def _render_hand_form(request, access, session, form, *, hand=None, preview=None, stale=None, latest=None):
    return render(request, "table/hand_form.html", {
        "access": access, "session": session, "form": form, "hand": hand,
        "preview": preview, "stale": stale, "latest": latest,
    })


@require_http_methods(["GET", "POST"])
@once_per_form_key(saved_page=hand_saved_page, scope=session_form_scope(hand_scope))
def hand_new(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = edit_access(token, pk)
    session = access.session(pk)
    if request.method == "GET":
        form = _hand_form(session)
        last = reads.last_hand(session)
        form.initial = _new_hand_initial(session, form, last, request.GET.get("declarer"))
        # the hand this form enters: another phone saving it first is asked about when this one saves
        form.initial |= HandForm.opened_at(session.hand_count)
        # kept for a phone without signal that deletes or corrects the latest hand (pending.js)
        return _render_hand_form(request, access, session, form, latest=reads.latest_hand(session, last))
    form = _hand_form(session, request.POST)
    if form.is_valid():
        # the form's one-time key is the hand's too: the outbox may send the same hand by the API
        try:
            if _saved(form, lambda: services.hand_enter(
                session=session, entry=form.entry(), in_progress=form.cleaned_data.get("in_progress"),
                meant=form.meant(), idempotency_key=form_key(request), by=access.actor(),
            )):
                return redirect(board_url(access, session))
        except services.SavedMeanwhile as error:
            return ask_first(request, "table/hand_form.html", {"access": access, "session": session, "hand": None,
                                                               "preview": None, "stale": None}, form,
                             meanwhile_from(error))
    return _render_hand_form(request, access, session, form)


@require_POST
def hand_preview(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The live preview: every seat's payment, the explanation, and each problem beside its field."""
    access = edit_access(token, pk)
    session = access.session(pk)
    # an edit's preview names its hand: it scores what saving keeps (form.entry_over), and the form
    # it draws without JavaScript still saves over that hand
    hand = access.hand(session, request.GET["number"]) if "number" in request.GET else None
    form = _hand_form(session, request.POST)
    scored = {}

    def score(entry: dict) -> dict:
        scored["entry"] = form.entry_over(hand.entry) if hand else entry
        return services.hand_preview(session=session, entry=scored["entry"])

    # scored without saving; problems go beside their fields
    preview = form.engine_answer(score)
    if request.htmx:
        # while the hand is tapped in, what is still empty is listed, not flagged; a Save that found
        # fields empty (static/js/drafts.js) asks with "saving", and each is said beside its field
        missing = [] if "saving" in request.POST else set_aside_missing(form)
        # the entry scored goes with it: a Save of these very taps sends it as it is (static/js/drafts.js)
        return render(request, "partials/hand_preview.html", {
            "form": form, "preview": preview, "missing": missing, "oob": True,
            "entry": scored.get("entry") if preview is not None else None})
    return _render_hand_form(request, access, session, form, hand=hand, preview=preview)


@require_http_methods(["GET", "POST"])
@once_per_form_key(saved_page=hand_saved_page, scope=session_form_scope(hand_scope))
def event_new(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = edit_access(token, pk)
    session = access.session(pk)
    system = reads.system_of(session)
    latest = None
    context = {"access": access, "session": session}
    if request.method == "POST":
        form = EventForm(request.POST, seats=session.seats, system=system)
        try:
            if form.is_valid() and _saved(form, lambda: services.hand_record(
                session=session, entry=form.entry(), kind=form.cleaned_data["kind"],
                idempotency_key=form_key(request), meant=form.meant(), by=access.actor(),
            )):
                return redirect(board_url(access, session))
        except services.SavedMeanwhile as error:
            # the form as tapped, remembering the session as it was opened: only "also save mine" adds one
            data = request.POST.copy()
            data.pop("confirm", None)
            again = EventForm(data, seats=session.seats, system=system)
            return render(request, "table/event_form.html",
                          {**context, "form": again, "meanwhile": meanwhile_from(error)}, status=409)
    else:
        last = reads.last_hand(session)
        kind = request.GET.get("kind") if request.GET.get("kind") in ("deal_miss", "all_pass") else "deal_miss"
        form = EventForm(initial={"kind": kind, "dealer": reads.next_state(session, last).dealer,
                                  **EventForm.opened_at(session.hand_count)},
                         seats=session.seats, system=system)
        latest = reads.latest_hand(session, last)  # for a phone without signal (pending.js)
    return render(request, "table/event_form.html", {**context, "form": form, "latest": latest})


@require_GET
def hand_detail(request: HttpRequest, token: str, pk: int, number: int) -> HttpResponse:
    access = view_access(token, pk)
    session = access.session(pk)

    def page() -> HttpResponse:
        view = reads.hand_view(access.hand(session, number), session)
        entry = view.hand.entry
        # HAND_JSON: a bid given alone is the contract; one that differs is the auction's, before
        # the trump changed after the kitty
        bid = entry.get("bid") if isinstance(entry.get("bid"), dict) else None
        played = entry.get("contract") or bid
        return render(request, "table/hand_detail.html", {
            "access": access, "session": session, "hand": view.hand,
            "explanation": view.explanation, "transfers": view.transfers,
            "contract": contract_label({"contract": played}), "bid": contract_label({"contract": bid}) if bid != played else "",
            "partner_known": partner_known(entry),
        })

    return _conditional(request, reads.session_stamp(session, access.right), page)


@require_http_methods(["GET", "POST"])
def hand_edit(request: HttpRequest, token: str, pk: int, number: int) -> HttpResponse:
    access = edit_access(token, pk)
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
            entry = form.entry_over(hand.entry)
            services.hand_amend(hand=hand, entry=entry, version=form.cleaned_data["version"] or 0,
                                by=access.actor())
        except InvalidInput as error:
            form.add_problems(error.problems)
        except services.StaleVersion as error:
            # someone else saved this hand first: never overwrite silently
            if scored:
                return _edit_conflict(request, access, session, form, error.hand)
            stale = error.hand
            data = request.POST.copy()
            data["version"] = stale.version
            form = EventForm(data, seats=session.seats, system=system)
            form.is_valid()
            return render(request, "table/event_form.html", {"access": access, "session": session, "form": form,
                                                             "hand": hand, "stale": stale}, status=409)
        else:
            messages.success(request, _("Hand %(number)s was changed.") % {"number": hand.number})
            return redirect(board_url(access, session))
    if scored:
        return _render_hand_form(request, access, session, form, hand=hand, stale=stale)
    return render(request, "table/event_form.html",
                  {"access": access, "session": session, "form": form, "hand": hand, "stale": stale})


# what the page posted that is not the hand itself: the keep-mine form sends the rest again as it came
_NOT_THE_HAND = {"csrfmiddlewaretoken", "version", "confirm"}


def _edit_conflict(request: HttpRequest, access, session: Session, form: HandForm, theirs: Hand) -> HttpResponse:
    """Another phone changed the hand while this edit was open: both versions side by side, each
    with the engine's payments (the stored result for theirs, a preview for mine), and the choice.
    Keeping mine posts the same fields again at the version now there, so it is a deliberate edit
    of theirs, kept in the history like any other."""
    entry = form.entry()  # before the engine's problems, if any, take their fields out of the form
    mine = form.engine_answer(lambda entry: services.hand_preview(session=session, entry=entry))
    kept = [(name, value) for name in request.POST if name not in _NOT_THE_HAND
            for value in request.POST.getlist(name)]
    theirs_payments = theirs.payments or {}
    mine_payments = (mine or {}).get("payments") or {}
    rows = [(seat, mine_payments.get(seat), theirs_payments.get(seat)) for seat in session.seats]
    return render(request, "table/edit_conflict.html", {
        "access": access, "session": session, "hand": theirs, "theirs": theirs, "form": form,
        "mine": {"kind": Hand.SCORED, "entry": entry}, "preview": mine,
        "rows": rows, "kept": kept,
    }, status=409)


@require_POST
def hand_delete(request: HttpRequest, token: str, pk: int, number: int) -> HttpResponse:
    access = edit_access(token, pk)
    session = access.session(pk)
    hand = services.hand_delete(hand=access.hand(session, number), by=access.actor())
    # the message carries an Undo (base.html): the hand is back with one tap
    messages.success(request, _("Hand %(number)s was deleted.") % {"number": hand.number},
                     extra_tags=f"undo-hand-{hand.number}")
    return redirect(board_url(access, session))


@require_POST
def hand_revert(request: HttpRequest, token: str, pk: int, number: int, revision: int) -> HttpResponse:
    """Undo an edit from the history: the hand as it was before that change, saved as a new edit."""
    access = edit_access(token, pk)
    session = access.session(pk)
    hand = access.hand(session, number)
    change = revisions.amended(hand, revision)
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
    access = edit_access(token, pk)
    session = access.session(pk)
    services.hand_restore(hand=access.hand(session, number), by=access.actor())
    if request.POST.get("next") == "board":  # the Undo beside "Hand 3 was deleted."
        return redirect(board_url(access, session))
    return redirect("hand_detail", token, session.pk, number)
