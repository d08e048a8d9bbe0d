"""Joining the table by QR code: the board's link drawn as a code another phone scans.

The code is drawn here, as SVG (``segno``), never in the browser. The view
link's code is shown at once; the edit link's, which lets whoever scans it
change everything, only to an edit link and only after a second, deliberate
tap past a warning (``?show=edit``), so it is never on the page by accident.
The page carries links: like every page, it is never stored (no-store).
"""

from __future__ import annotations

import segno
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from mighty_ledger.http.access import access_for


def qr_svg(link: str, *, title: str) -> str:
    """The link as an SVG QR code: black on white with its quiet zone, whatever the page's colours
    (a code drawn light on dark is not read by every scanner); sized by the stylesheet."""
    code = segno.make(link, error="m")
    # segno escapes the title it writes; the path data is its own
    return code.svg_inline(scale=1, dark="#000", light="#fff", border=4, omitsize=True, svgclass="qr-code",
                           lineclass=None, title=title)


def board_link(request: HttpRequest, token: str, session_id: int) -> str:
    return request.build_absolute_uri(reverse("session_board", args=[token, session_id]))


@require_GET
def session_invite(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    access = access_for(token, session_id=pk)
    session = access.session(pk)
    group = access.group
    view_link = board_link(request, group.view_token, session.pk)
    show_edit = access.can_edit and request.GET.get("show") == "edit"
    edit_link = board_link(request, group.edit_token, session.pk) if show_edit else ""
    response = render(request, "table/invite.html", {
        "access": access, "session": session, "view_link": view_link, "edit_link": edit_link,
        "view_code": mark_safe(qr_svg(view_link, title=view_link)),  # segno's own SVG
        "edit_code": mark_safe(qr_svg(edit_link, title=edit_link)) if show_edit else "",
    })
    patch_cache_control(response, no_store=True)
    return response
