"""A player's "How to pay" page: the handles the settle page turns into one-tap payments.

Edit link only, like everything it shows: a view link never reads an account number.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from mighty_ledger.pages.forms.pay import PayForm
from mighty_ledger.pages.views.links import edit_access
from mighty_ledger.reads import groups
from mighty_ledger.services.pay import player_pay_set
from scoring.problems import InvalidInput


@require_http_methods(["GET", "POST"])
def player_pay(request: HttpRequest, token: str, player_id: int) -> HttpResponse:
    access = edit_access(token)
    player = groups.player_of(access.group, player_id)
    if player is None:
        raise Http404("No such player in this group.")
    if request.method == "POST":
        form = PayForm(request.POST)
        if form.is_valid():
            try:
                player_pay_set(player=player, changes=form.changes(), by=access.actor())
            except InvalidInput as error:
                for problem in error.problems:
                    form.add_error(problem.field if problem.field in form.fields else None, problem.message)
            else:
                messages.success(request, _("Saved: the settle page shows these to whoever pays %(name)s.")
                                 % {"name": player.name})
                return redirect("player_pay", token, player.pk)
        status = 400
    else:
        form, status = PayForm.for_player(player), 200
    return render(request, "table/player_pay.html",
                  {"access": access, "group": access.group, "player": player, "form": form}, status=status)
