"""Bringing the group's history in: a spreadsheet sent, previewed with its choices, imported; and
an import undone. Thin: the reading, scoring and writing are services/sheet_imports.py's."""

from __future__ import annotations

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from mighty_ledger.pages.forms.sheet_imports import SheetUploadForm, player_choices
from mighty_ledger.pages.views.links import edit_access
from mighty_ledger.reads.sheet_imports import group_sheet_import, group_sheet_imports
from mighty_ledger.services.sheet_imports import (
    ALREADY_IN_GROUP,
    SheetRefused,
    sheet_import,
    sheet_import_undo,
    sheet_preview,
)
from scoring.words import translated

# a file waits this long between its preview and "Import"
KEPT_SECONDS = 3600
# the preview lists the hands of its evenings up to about this many; the later evenings show their
# totals (10,000 hands listed made a page of 1 MB, drawn in 3 s)
HANDS_LISTED = 1000


def _kept(group_pk: int, file_hash: str) -> str:
    return f"sheet-import:{group_pk}:{file_hash}"


@require_http_methods(["GET", "POST"])
def sheet_import_page(request: HttpRequest, token: str) -> HttpResponse:
    access = edit_access(token)
    group = access.group
    context = {"access": access, "group": group, "imports": group_sheet_imports(group)}
    if request.method == "GET":
        return render(request, "table/sheet_import.html", {**context, "form": SheetUploadForm()})
    form = SheetUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        too_large = any(error.code == "too_large" for error in form.errors.as_data().get("file", ()))
        return render(request, "table/sheet_import.html", {**context, "form": form}, status=413 if too_large else 400)
    upload = form.cleaned_data.get("file")
    if upload:
        content, file_name = upload.read(), upload.name or ""
    else:
        kept = cache.get(_kept(group.pk, form.cleaned_data["sheet"]))
        content, file_name = kept if kept else (None, "")
        if content is None:
            form.add_error("file", _("The file sent for the preview is no longer here: choose it again."))
            return render(request, "table/sheet_import.html", {**context, "form": form}, status=400)
    preset, choices = form.cleaned_data["preset"], player_choices(request.POST)
    played_on, import_duplicates = form.cleaned_data["played_on"], form.cleaned_data["import_duplicates"]
    refusal = None
    if request.POST.get("action") == "import" and not upload:
        try:
            made, created, _plan = sheet_import(group=group, content=content, preset=preset, choices=choices,
                                                file_name=file_name, by=access.actor(), played_on=played_on,
                                                import_duplicates=import_duplicates)
        except SheetRefused as refused:
            plan, refusal = refused.plan, refused
        else:
            if created:
                messages.success(request, _("Imported: %(hands)s hands.") % {"hands": made.hand_count})
            else:
                messages.info(request, _("This file was imported before: nothing was added."))
            return redirect("group_page", token)
    else:
        plan = sheet_preview(group=group, content=content, preset=preset, choices=choices, played_on=played_on)
    if plan.refusal is not None and plan.refusal.over_a_limit:
        form.add_error("file", translated(plan.refusal.message, gettext))
        return render(request, "table/sheet_import.html", {**context, "form": form}, status=400)
    cache.set(_kept(group.pk, plan.file_hash), (content, file_name), KEPT_SECONDS)
    form = SheetUploadForm(initial={"preset": preset, "sheet": plan.file_hash, "played_on": played_on,
                                    "import_duplicates": import_duplicates})
    refused = refusal.message if refusal is not None and refusal.code == ALREADY_IN_GROUP else None
    return render(request, "table/sheet_import.html", {
        **context, "form": form, "plan": plan, "preset": preset, "file_name": file_name, "refused": refused,
        "duplicates": sum(session.duplicate_of is not None for session in plan.sessions),
        "sessions": _with_hands_listed(plan.sessions),
    }, status=400 if refused else 200)


def _with_hands_listed(sessions) -> list[tuple[object, bool]]:
    """Each planned evening, and whether the preview lists its hands: the first evenings', up to
    HANDS_LISTED hands in all."""
    listed, shown = 0, []
    for session in sessions:
        shown.append((session, listed < HANDS_LISTED))
        listed += len(session.hands)
    return shown


@require_POST
def sheet_import_undo_page(request: HttpRequest, token: str, import_id: str) -> HttpResponse:
    access = edit_access(token)
    made = group_sheet_import(access.group, import_id)
    if made is None:
        raise Http404
    sheet_import_undo(sheet_import=made, by=access.actor())
    messages.success(request, _("The import was undone: its sessions were deleted."))
    return redirect("sheet_import", token)
