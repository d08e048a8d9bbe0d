"""The page a person sees when the server fails (500), in their language."""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render

logger = logging.getLogger(__name__)


def server_error(request: HttpRequest) -> HttpResponse:
    """templates/500.html drawn with the request, unlike Django's own handler, which renders it
    without one: base.html needs it (the language switcher, the CSRF token, the app status). If
    the page itself cannot be drawn, the plainest answer that needs nothing."""
    try:
        return render(request, "500.html", status=500)
    except Exception:
        logger.exception("The 500 page could not be drawn")
        return HttpResponseServerError("<!doctype html><title>Server error</title><h1>Server error (500)</h1>",
                                       content_type="text/html")
