"""A club night's pages: starting it from the group page, the night's own page (the players
present, the draw, the round's tables and their progress, the standings) with the organizer's
forms (a round drawn, a player come or gone, two players swapped), one settlement for the night,
and where each player sits in the latest round (the phones at its tables, the group page).

Every view reaches the night through the link's group (reads.nights.group_night), parses the
request, calls one service of services/nights.py or the reads of reads/nights.py, and renders.
The night's big screen is in night_screen.py.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mighty_ledger import services
from mighty_ledger.http.access import Access
from mighty_ledger.http.cache import COPY_OF_A_REVISION_SECONDS
from mighty_ledger.http.request_keys import (
    ALREADY_MARKED,
    form_key,
    night_payment_scope,
    once_per_form_key,
)
from mighty_ledger.models import Night
from mighty_ledger.pages.forms.groups import PLAYER_NAME_MAX
from mighty_ledger.pages.forms.nights import (
    NightPlayerForm,
    NightStartForm,
    NightSwapForm,
    default_hands,
)
from mighty_ledger.pages.preset_choice import likeliest_preset
from mighty_ledger.pages.views.conditional import conditional
from mighty_ledger.pages.views.links import edit_access, view_access
from mighty_ledger.pages.views.rules import preset_name
from mighty_ledger.reads import balance, groups, nights, payees
from mighty_ledger.services import nights as night_services
from scoring.presets import get_preset
from scoring.problems import InvalidInput
from scoring.settle import POT

# what the start form keeps when it is drawn again for another system (its rule controls are that system's)
KEPT_FOR_ANOTHER_SYSTEM = ("played_on", "title", "preset", "round_ends", "minutes_per_round", "standings",
                           "mixing", "seed", "stake_per_point", "currency", "rounding_unit", "chips_start",
                           "chips_per_point")


def night_url(access: Access, night: Night) -> str:
    return reverse("night_page", args=[access.token, night.pk])


# --- starting a night -----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@once_per_form_key
def night_new(request: HttpRequest, token: str) -> HttpResponse:
    """The night's form. Besides Start, two buttons draw it again without making anything: Add
    (the name typed becomes a player ticked among the others) and another system's rules."""
    access = edit_access(token)
    players = groups.player_names(access.group)
    status = 200
    if request.method == "GET":
        # tables of five, in the system the phone's language plays most (pages/preset_choice.py)
        likeliest = likeliest_preset(language=get_language(), players=5)
        form = NightStartForm(players=players, initial={
            "played_on": timezone.localdate(), "preset": likeliest,
            "hands_per_round": default_hands(likeliest)})
    elif "show_rules" in request.POST:
        kept = {name: request.POST[name] for name in KEPT_FOR_ANOTHER_SYSTEM if request.POST.get(name)}
        form = NightStartForm(players=players, initial={
            **kept, "players": request.POST.getlist("players"),
            "hands_per_round": default_hands(kept.get("preset", "pagat-standard"))})
    elif "add_player" in request.POST:
        shown = request.POST.copy()
        typed = " ".join(shown.get("new_player", "").split())
        if typed and len(typed) <= PLAYER_NAME_MAX:
            shown.setlist("players", list(dict.fromkeys([*shown.getlist("players"), typed])))
            shown["new_player"] = ""
        form = NightStartForm(shown, players=players)
    else:
        form = NightStartForm(request.POST, players=players)
        if form.is_valid():
            if not form.with_new_player():
                form.add_error("players", _("Tick the players present, or add them."))
            else:
                try:
                    night = night_services.night_create(group=access.group, by=access.actor(),
                                                        **form.service_kwargs())
                except InvalidInput as error:
                    form.add_problems(error.problems)
                else:
                    return redirect(night_url(access, night))
        status = 400 if form.errors else 200
    return render(request, "table/night_new.html", {"access": access, "form": form}, status=status)


# --- the night's page -----------------------------------------------------------------------


def _round_length(night: Night) -> str:
    if night.hands_per_round is not None:
        return _("%(hands)s hands at each table") % {"hands": night.hands_per_round}
    return _("%(minutes)s minutes a round") % {"minutes": night.minutes_per_round}


def _night_context(access: Access, night: Night) -> dict:
    """What the night's page shows: its rounds with each table's progress, the standings with
    the ratings beside them, and who is present."""
    overview = nights.night_overview(night)
    latest = overview.rounds[-1] if overview.rounds else None
    current = overview.current
    standings = nights.night_standings(night, overview.rounds)
    return {
        "access": access, "night": night, "overview": overview, "latest": latest, "current": current,
        "earlier": list(zip(overview.rounds[:-1], overview.progress[:-1], strict=True)),
        "standings": standings, "ratings": nights.night_ratings(night),
        "played": any(row.hands for row in standings.rows),
        "system_name": preset_name(get_preset(night.preset)), "round_length": _round_length(night),
        "can_draw": current is None or current.finished, "next_round": len(overview.rounds) + 1,
        # the seats can be swapped while a table of the latest round has not begun
        "can_swap": current is not None and any(not t.hands and not t.playing and not t.table.deleted
                                                for t in current.tables),
        "screen_url": reverse("night_screen", args=[access.group.view_token, night.pk]),
    }


def _night_page(request: HttpRequest, access: Access, night: Night, *, status: int = 200, **shown) -> HttpResponse:
    context = _night_context(access, night)
    latest = context["latest"]
    players = list(latest.drawn(night.seed).players) if latest else []
    context.setdefault("swap_form", NightSwapForm(players=sorted(players)))
    context.setdefault("player_form", NightPlayerForm())
    context.update(shown)
    return render(request, "table/night.html", context, status=status)


@require_GET
def night_page(request: HttpRequest, token: str, night_id: int) -> HttpResponse:
    """The organizer's page (the view link's shows the same, without the forms). A phone that holds
    this state of the night gets 304: the live page asks again on each change of the group."""
    access = view_access(token)
    night, stamp = nights.night_stamped(access.group, night_id)
    return conditional(request, f"{stamp}|{access.right}", lambda: _night_page(request, access, night))


@require_POST
@once_per_form_key
def night_draw(request: HttpRequest, token: str, night_id: int) -> HttpResponse:
    """Draw the next round. Refused while a table of the round has not finished (409), or when too
    few are present to fill a table (400): the page says why beside the button."""
    access = edit_access(token)
    night = nights.group_night(access.group, night_id)
    try:
        drawn = night_services.night_round_draw(night=night, by=access.actor())
    except night_services.RoundInProgress as refused:
        return _night_page(request, access, night, status=409, draw_problem=refused.message)
    except InvalidInput as error:
        return _night_page(request, access, night, status=400,
                           draw_problem=" ".join(problem.message for problem in error.problems))
    messages.success(request, _("Round %(round)s is drawn: everyone can see where they sit.") % {"round": drawn.number})
    return redirect(night_url(access, night))


@require_POST
def night_swap(request: HttpRequest, token: str, night_id: int) -> HttpResponse:
    """Two players of the latest round take each other's seats, before their tables begin."""
    access = edit_access(token)
    night = nights.group_night(access.group, night_id)
    rounds = nights.night_rounds(night)
    players = sorted(rounds[-1].drawn(night.seed).players) if rounds else []
    form = NightSwapForm(request.POST, players=players)
    if form.is_valid():
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        try:
            night_services.night_swap_players(night=night, first=first, second=second, by=access.actor())
        except night_services.RoundStarted as refused:
            form.add_error(None, refused.message)
        except InvalidInput as error:
            form.add_problems(error.problems)
        else:
            messages.success(request, _("%(first)s and %(second)s have swapped seats.") % {
                "first": first, "second": second})
            return redirect(night_url(access, night))
    return _night_page(request, access, night, status=409 if form.non_field_errors() else 400, swap_form=form)


@require_POST
@once_per_form_key
def night_player_add(request: HttpRequest, token: str, night_id: int) -> HttpResponse:
    access = edit_access(token)
    night = nights.group_night(access.group, night_id)
    form = NightPlayerForm(request.POST)
    if form.is_valid():
        try:
            night_services.night_player_add(night=night, name=form.cleaned_data["name"], by=access.actor())
        except InvalidInput as error:
            form.add_problems(error.problems)
        else:
            messages.success(request, _("%(name)s plays from the next round on.") % {"name": form.cleaned_data["name"]})
            return redirect(night_url(access, night))
    return _night_page(request, access, night, status=400, player_form=form)


@require_POST
def night_player_remove(request: HttpRequest, token: str, night_id: int) -> HttpResponse:
    access = edit_access(token)
    night = nights.group_night(access.group, night_id)
    name = request.POST.get("name", "")
    try:
        night_services.night_player_remove(night=night, name=name, by=access.actor())
    except InvalidInput as error:
        for problem in error.problems:
            messages.error(request, problem.message)
    else:
        messages.success(request, _("%(name)s is no longer drawn; their tables so far and their standing stay.")
                         % {"name": name})
    return redirect(night_url(access, night))


# --- one settlement for the night -------------------------------------------------------------


def settle_page(request: HttpRequest, access: Access, night: Night, *, status: int = 200, **shown) -> HttpResponse:
    """The night's settlement: each player's result over every table, what is still owed across
    the night with "Mark as paid" (edit link), the payments counted, each table's own result."""
    # how the players like to be paid, beside each transfer (edit link only, as on a table's settlement)
    pay = payees.group_pay_handles(access.group, can_edit=access.can_edit)
    settled = nights.night_settlement(night)
    return render(request, "table/night_settle.html", {
        "access": access, "night": night, "settled": settled, "pay": pay, "pot": POT,
        # a payment marked at a table says which round and table
        "tables_by_session": {table.table.session.pk: table for table in settled.tables},
        "players": sorted(settled.totals.items(), key=lambda item: (-item[1], item[0])), **shown,
    }, status=status)


@require_GET
def night_settle(request: HttpRequest, token: str, night_id: int) -> HttpResponse:
    access = view_access(token)
    night, stamp = nights.night_stamped(access.group, night_id)
    pay = payees.group_pay_handles(access.group, can_edit=access.can_edit)
    return conditional(request, f"{stamp}|{access.right}|{payees.pay_stamp(pay)}",
                       lambda: settle_page(request, access, night))


# --- where each player sits ------------------------------------------------------------------


def places_context(access: Access, night: Night) -> dict:
    """Where everyone sits in the latest round, sorted by name: the board's card and the group page's."""
    rounds = nights.night_rounds(night)
    places = nights.night_places(rounds)
    return {"access": access, "night": night, "round": rounds[-1].number if rounds else None,
            "places": sorted(places.items())}


def tonights_places(access: Access, nights: list[Night]) -> dict | None:
    """Where everyone sits in the latest round of the group's latest night, while it is being played
    (today, or since yesterday evening): the group page shows this phone's seat first. Two queries."""
    if not nights or nights[0].played_on < timezone.localdate() - timedelta(days=1):
        return None
    return places_context(access, nights[0])


@require_GET
def night_places(request: HttpRequest, token: str, night_id: int) -> HttpResponse:
    """Where everyone sits in the latest round, each line a player's, for a phone at a table that
    shows its own (static/js/night_place.js: the name is chosen on the phone and never sent). Asked
    again at each change of the group; drawn once per draw or swap for every phone on the link."""
    access = view_access(token)
    stamp = nights.night_stamp(access.group, night_id)
    key = f"night-places|{stamp.seating}|{access.right}|{access.token}|{get_language()}"
    body = cache.get(key)
    if body is None:
        night = nights.group_night(access.group, night_id)
        body = render_to_string("partials/night_places.html", places_context(access, night))
        cache.set(key, body, COPY_OF_A_REVISION_SECONDS)
    response = HttpResponse(body)
    # a capability link's answer: never on disk or in a shared cache
    patch_cache_control(response, no_store=True)
    return response


# --- paying up for the whole night --------------------------------------------------------------
# "Mark as paid" beside each transfer still owed across the night, asked about first when it is
# more than is owed, and undone: a Payment of the night through the same service as a table's,
# whose one-time key is the form's (a second tap, or the same payment sent by the API, marks it once).


def _payments_scope(request: HttpRequest, token: str, night_id: int, **_kwargs) -> str:
    """The night's payments' keys, found through the link first (as a table's: links.session_form_scope)."""
    return night_payment_scope(nights.group_night(edit_access(token).group, night_id).pk)


@require_POST
@once_per_form_key(scope=_payments_scope)
def night_payment_mark(request: HttpRequest, token: str, night_id: int) -> HttpResponse:
    access = edit_access(token)
    night = nights.group_night(access.group, night_id)
    try:
        amount = Decimal(request.POST.get("amount", ""))
    except InvalidOperation:
        amount = Decimal(0)
    try:
        services.payment_record(night=night, payer=request.POST.get("payer", ""), payee=request.POST.get("payee", ""),
                             amount=amount, overpay=request.POST.get("overpay") == "1",
                             idempotency_key=form_key(request), by=access.actor())
    except services.IdempotencyConflict:
        messages.error(request, ALREADY_MARKED)
    except services.PaymentBeyondOwed as beyond:
        # asked on the page, with what is owed; confirming posts the same payment again with overpay=1
        return settle_page(request, access, night, status=409, beyond=beyond)
    except InvalidInput as error:
        for problem in error.problems:
            messages.error(request, problem.message)
    else:
        messages.success(request, _("Marked as paid for the whole night."))
    return redirect("night_settle", access.token, night.pk)


@require_POST
def night_payment_undo_view(request: HttpRequest, token: str, night_id: int, payment_id: int) -> HttpResponse:
    access = edit_access(token)
    night = nights.group_night(access.group, night_id)
    payment = balance.payment_of(night, payment_id)
    if payment is None:
        raise Http404("No such payment in this night.")
    try:
        services.payment_undo(payment=payment, by=access.actor())
    except InvalidInput as error:
        for problem in error.problems:
            messages.error(request, problem.message)
    return redirect("night_settle", access.token, night.pk)
