"""The hand in progress on the pages: the contract when the auction ends, the board's
"playing now" banner, completing it through the ordinary hand form, throwing it in.

A form remembers how many hands the session had when it was opened; saving after
another phone saved one (or opened a hand in progress) asks first, with both
choices as buttons, and saves only when the player says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mighty_ledger import reads, services
from mighty_ledger.http.access import Access, access_for
from mighty_ledger.http.request_keys import (
    ALREADY_SAVED,
    contract_scope,
    form_key,
    once_per_form_key,
    shown_form_key,
)
from mighty_ledger.models import Contract, Hand, Session
from mighty_ledger.pages.forms import ContractForm, HandForm, set_aside_missing
from mighty_ledger.pages.views.links import session_form_scope
from mighty_ledger.reads import hands, in_progress
from scoring.problems import InvalidInput


@dataclass(frozen=True)
class Meanwhile:
    """What another phone saved after this form was opened: a hand, or a hand in progress."""

    hand: Hand | None = None
    contract: Contract | None = None
    opening: bool = False  # the form opens a hand in progress rather than saving a hand
    next_number: int = 0  # the number a hand saved anyway would take


# --- guards ---------------------------------------------------------------------------------------


def _edit(token: str, pk: int) -> tuple[Access, Session]:
    access = access_for(token, session_id=pk)
    access.require_edit()
    return access, access.session(pk)


def _contract(session: Session, contract_id: int) -> Contract:
    contract = in_progress.contract_of(session, contract_id)
    if contract is None:
        raise Http404("No such hand in progress in this session.")
    return contract


def _board(access: Access, session: Session) -> HttpResponse:
    return redirect("session_board", access.token, session.pk)


# --- "another phone saved first" ------------------------------------------------------------------------


def meanwhile_from(error: services.SavedMeanwhile, *, opening: bool = False) -> Meanwhile:
    return Meanwhile(hand=error.hand, opening=opening, next_number=error.next_number)


def ask_first(request: HttpRequest, template: str, context: dict, form: HandForm, meanwhile: Meanwhile) -> HttpResponse:
    """The form again, as the player filled it, with what was saved meanwhile and the two choices.
    It still remembers the session as it was when opened, so the plain Save asks again: only the
    deliberate "also save mine" adds a second hand."""
    data = form.data.copy()
    data.pop("confirm", None)
    session = context["session"]
    again = type(form)(data, seats=session.seats, system=form.system)
    # what the player's hand would pay stays on screen beside the question, not "see the marked fields"
    if isinstance(again, ContractForm):
        context = {**context, "outlook": again.engine_answer(
            lambda entry: services.contract_outlook(session=session, entry=entry))}
    else:
        context = {**context, "preview": again.engine_answer(
            lambda entry: services.hand_preview(session=session, entry=entry))}
    return render(request, template, {**context, "form": again, "meanwhile": meanwhile}, status=409)


# --- the pages --------------------------------------------------------------------------------------------


def _contract_form(session: Session, data=None, **kwargs) -> ContractForm:
    return ContractForm(data, seats=session.seats, system=reads.system_of(session), **kwargs)


def _render_contract_form(request, access, session, form, *, status: int = 200, **context) -> HttpResponse:
    return render(request, "table/contract_form.html",
                  {"access": access, "session": session, "form": form, **context}, status=status)


def saved_page(request: HttpRequest, access: Access, session: Session, *, hand: Hand | None,
               contract: Contract | None = None, key: str = "") -> HttpResponse:
    """What a form brought back after it saved shows instead of itself: the hand (or contract) it made."""
    return render(request, "table/form_saved.html",
                  {"access": access, "session": session, "hand": hand, "contract": contract, "key": key})


def contract_saved_page(request: HttpRequest, key: str, token: str, pk: int) -> HttpResponse | None:
    """The contract a form's key recorded (and the hand that completed it), instead of the form again."""
    access, session = _edit(token, pk)
    contract = in_progress.contract_saved_by(session, key)
    if contract is None:
        return None
    return saved_page(request, access, session, hand=contract.hand, contract=contract, key=key)


@require_http_methods(["GET", "POST"])
@once_per_form_key(saved_page=contract_saved_page, scope=session_form_scope(contract_scope))
def contract_new(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The auction is over: record the declarer, the contract and the partner call for every phone."""
    access, session = _edit(token, pk)
    if request.method == "GET":
        last = reads.last_hand(session)
        state = reads.next_state(session, last)
        form = _contract_form(session, initial={
            "dealer": state.dealer, "sitting_out": list(state.sitting_out), **ContractForm.opened_at(session.hand_count),
        })
        playing = reads.playing_now(session)
        # the latest hand, for a phone without signal that deletes or corrects it (pending.js)
        return _render_contract_form(request, access, session, form, playing=playing,
                                     latest=reads.latest_hand(session, last))
    form = _contract_form(session, request.POST)
    if form.is_valid():
        context = {"access": access, "session": session}
        try:
            services.contract_open(session=session, entry=form.entry(), replacing=form.cleaned_data["replacing"],
                                   idempotency_key=form_key(request), meant=form.meant(), by=access.actor())
        except services.SavedMeanwhile as error:
            return ask_first(request, "table/contract_form.html", context, form, meanwhile_from(error, opening=True))
        except InvalidInput as error:
            form.add_problems(error.problems)
        except services.IdempotencyConflict:
            form.add_error(None, ALREADY_SAVED)
        except services.ContractInProgress as error:
            return ask_first(request, "table/contract_form.html", context, form,
                             Meanwhile(contract=error.contract, opening=True))
        else:
            return _board(access, session)
    return _render_contract_form(request, access, session, form)


@require_POST
def contract_preview(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """What each side would win or lose at each count, as the contract is tapped in."""
    access, session = _edit(token, pk)
    form = _contract_form(session, request.POST)
    outlook = form.engine_answer(lambda entry: services.contract_outlook(session=session, entry=entry))
    if request.htmx:
        # a Save that found fields empty asks with "saving": each is said beside its field (drafts.js)
        missing = [] if "saving" in request.POST else set_aside_missing(form)
        return render(request, "partials/in_progress_outlook.html",
                      {"form": form, "outlook": outlook, "missing": missing, "preview": True, "oob": True})
    return _render_contract_form(request, access, session, form, outlook=outlook)


@require_GET
def contract_complete(request: HttpRequest, token: str, pk: int, contract_id: int) -> HttpResponse:
    """After the last trick: the ordinary hand form, filled in from the contract; saving completes it."""
    access, session = _edit(token, pk)
    contract = _contract(session, contract_id)
    key = shown_form_key(request)
    saved = hands.hand_saved_by(session, key)
    if saved is not None:
        # this form's key saved a hand (as a new one, if the contract was thrown in meanwhile)
        return saved_page(request, access, session, hand=saved, key=key)
    if contract.status == Contract.COMPLETED and contract.hand is not None:
        # Back or a reload after saving it: say which hand it became, never a fresh form to save again
        return saved_page(request, access, session, hand=contract.hand, contract=contract)
    if contract.status != Contract.OPEN:
        messages.info(request, _("This hand was already completed or thrown in."))
        return _board(access, session)
    initial = {**HandForm.initial_from(contract.entry), "in_progress": contract.pk,
               **HandForm.opened_at(session.hand_count)}
    form = HandForm(initial=initial, seats=session.seats, system=reads.system_of(session))
    return render(request, "table/hand_form.html", {"access": access, "session": session, "form": form,
                                                     "hand": None, "preview": None, "stale": None})


@require_POST
def contract_abandon(request: HttpRequest, token: str, pk: int, contract_id: int) -> HttpResponse:
    """Throw the hand in progress in: nothing is scored."""
    access, session = _edit(token, pk)
    contract = _contract(session, contract_id)
    raw = request.POST.get("version", "")
    version = int(raw) if raw.isdigit() and len(raw) < 10 else None
    try:
        services.contract_abandon(contract=contract, version=version, by=access.actor())
    except services.StaleContract as error:
        if error.contract.status == Contract.COMPLETED:
            messages.info(request, _("This hand was already completed from another phone."))
        elif error.contract.status == Contract.ABANDONED:
            messages.info(request, _("This hand was already thrown in from another phone."))
    else:
        messages.success(request, _("The hand was thrown in; nothing was scored."))
    return _board(access, session)


def contract_url(access: Access, session: Session, name: str, contract: Contract) -> str:
    return reverse(name, args=[access.token, session.pk, contract.pk])
