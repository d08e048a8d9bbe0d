"""A group's pages: creating it, its page with sessions and totals, its links, its players.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from mighty_ledger import reads, services
from mighty_ledger.http.request_keys import once_per_form_key
from mighty_ledger.pages.forms import GroupCreateForm, PlayerAddForm
from mighty_ledger.pages.views.conditional import conditional as _conditional
from mighty_ledger.pages.views.links import edit_access, view_access
from mighty_ledger.pages.views.nights import tonights_places
from mighty_ledger.pages.views.stats import group_page_extras
from mighty_ledger.reads import nights as night_reads
from scoring.problems import InvalidInput


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
    access = view_access(token)
    group = access.group
    overview = reads.group_overview(group)
    # the group's club nights, and who sits where in tonight's latest round (a round drawn or a swap
    # moves a night's revision)
    nights = list(night_reads.group_nights(group))
    stamp = f"{group.name}|{access.right}|{overview.stamp}|" + ",".join(f"{n.pk}.{n.revision}" for n in nights)
    return _conditional(request, stamp, lambda: render(request, "table/group.html", {
        "access": access, "group": group, "players": overview.players, "nights": nights,
        "tonight": tonights_places(access, nights),
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
    access = edit_access(token)
    try:
        group = services.group_rotate_link(group=access.group, which=which, by=access.actor())
    except InvalidInput:
        return HttpResponse(status=400)
    messages.success(request, _("The old link no longer works. Share the new one."))
    return redirect("group_page", group.edit_token)


@require_POST
@once_per_form_key
def player_add(request: HttpRequest, token: str) -> HttpResponse:
    access = edit_access(token)
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
