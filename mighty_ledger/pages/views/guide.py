"""The players' guide as a page of the app, in the reader's language where it is translated."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from mighty_ledger.pages.guide import GUIDE_FILES, guide_for, picture_path


@require_GET
def guide(request: HttpRequest) -> HttpResponse:
    """The guide in the page's language, or in the one ``?in=`` asks for (the Korean guide's link to
    the parts still only in English)."""
    asked = request.GET.get("in", "")
    guide = guide_for(asked if asked in GUIDE_FILES else get_language())
    return render(request, "guide.html", {
        "guide": guide,
        # the guide not yet translated into the page's language says so, and is marked as English
        "untranslated": not get_language().startswith(guide.language),
    })


@require_GET
def guide_picture(request: HttpRequest, name: str) -> FileResponse:
    path = picture_path(name)
    if path is None:
        raise Http404("No such picture in the guide.")
    return FileResponse(open(path, "rb"), content_type="image/png")  # FileResponse closes it
