"""The ledger as an installable app: its manifest, its service worker, where it starts, and
what it shows when a page was never kept on the phone.

- ``manifest``: name, icons and colours for the phone's home screen. The colours are
  read from static/css/app.css (pages/app_shell.py), so the splash screen and the title bar
  match the page.
- ``service_worker``: static/js/sw.js, served at the site's root so its scope is the
  whole site, after one line of settings: the static files to keep (their hashed names
  in production) and a version that changes whenever one of them does.
- ``start``: the installed icon opens the group this phone used last (a cookie that
  static/js/app_status.js writes on a group's pages), else the home page.
- ``hand_entry``, ``contract_entry``: a hand (or contract) form's fields as the HAND_JSON
  entry the form would save, for the outbox (static/js/outbox.js) to send to the API when the
  form's own preview did not give it (taps changed just before Save, or made offline).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template import engines
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_safe

from mighty_ledger import reads
from mighty_ledger.http.access import access_for
from mighty_ledger.pages import app_shell
from mighty_ledger.pages.forms import HandForm
from mighty_ledger.pages.views.in_progress import ContractForm

# written by static/js/app_status.js on a group's pages, for /start only
LAST_GROUP_COOKIE = "last_group"
SERVICE_WORKER = "js/sw.js"
# the app's own static files (STATICFILES_DIRS), kept at install, minus what is never loaded by a page
NOT_PRECACHED = {SERVICE_WORKER, "manifest.webmanifest", "icons/app-512.png", "icons/app-maskable-512.png"}


# --- the manifest -------------------------------------------------------------------------------


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    body = {
        "id": "/",
        "name": _("Mighty Ledger"),
        "short_name": _("Mighty"),
        "description": _("Scores and settlement for a table of Mighty."),
        "lang": get_language(),
        "start_url": reverse("app_start"),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": app_shell.background_color(),
        "theme_color": app_shell.theme_color(),
        "icons": [
            {"src": static("icons/app-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("icons/app-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("icons/app-maskable-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
        ],
    }
    response = JsonResponse(body, content_type="application/manifest+json",
                            json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-cache"
    return response


# --- the service worker -------------------------------------------------------------------------


def _own_static_names() -> list[str]:
    """Every file of the app's static/ folder (not the admin's, not the API docs')."""
    names = []
    for root in settings.STATICFILES_DIRS:
        base = Path(root)
        names += [path.relative_to(base).as_posix() for path in sorted(base.rglob("*")) if path.is_file()]
    return [name for name in names if name not in NOT_PRECACHED and not name.startswith(".")]


def _htmx_names() -> list[str]:
    """The scripts {% htmx_script %} puts on every page, whatever django-htmx version ships them."""
    tag = engines["django"].from_string("{% load django_htmx %}{% htmx_script %}").render({})
    return [src.removeprefix(settings.STATIC_URL).removeprefix("/" + settings.STATIC_URL)
            for src in re.findall(r'src="([^"]+)"', tag)]


def precache_names() -> list[str]:
    return _own_static_names() + _htmx_names()


def _static_url(name: str) -> str | None:
    try:
        return staticfiles_storage.url(name)
    except ValueError:  # not collected: a production server leaves it out rather than fail
        return None


def _version(source: str, urls: list[str], names: list[str]) -> str:
    digest = hashlib.sha256(source.encode())
    digest.update("\n".join(urls).encode())
    if not isinstance(staticfiles_storage, ManifestFilesMixin):
        # development and tests: the names carry no hash, so the files' contents make the version
        for name in names:
            path = finders.find(name)
            if path:
                digest.update(Path(path).read_bytes())
    return digest.hexdigest()[:16]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    source = Path(finders.find(SERVICE_WORKER)).read_text(encoding="utf-8")
    names = precache_names()
    urls = [url for url in map(_static_url, names) if url]
    config = {
        "static": urls,
        "staticPrefix": settings.STATIC_URL,
        "pages": [reverse("app_offline"), reverse("systems_list")],
        "offline": reverse("app_offline"),
        "start": reverse("app_start"),
    }
    config["version"] = _version(source, urls, names)
    body = f"self.APP_SHELL = {json.dumps(config)};\n{source}"
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # the browser checks for a new version on every visit; each version announces itself first
    response["Cache-Control"] = "no-cache"
    return response


# --- where the app opens ----------------------------------------------------------------------


@require_GET
def start(request: HttpRequest) -> HttpResponse:
    """The installed icon's page: the group this phone used last, or the home page."""
    token = request.COOKIES.get(LAST_GROUP_COOKIE, "")
    if token:
        try:
            access_for(token)
        except Http404:
            response = redirect("home")  # the link was rotated or the group deleted
            response.delete_cookie(LAST_GROUP_COOKIE, path=reverse("app_start"))
            return response
        return redirect("group_page", token)
    return redirect("home")


@require_safe  # HEAD too: the service worker asks it whether the server answers again
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page this phone never kept, while there is no network."""
    return render(request, "app/offline.html")


# --- the outbox's entry -----------------------------------------------------------------------


def _form_errors(form: HandForm) -> list[dict]:
    errors = []
    for name, problems in form.errors.as_data().items():
        label = str(form.fields[name].label) if name in form.fields else ""
        for problem in problems:
            message = " ".join(problem.messages)
            errors.append({"field": name, "code": problem.code or "invalid",
                           "message": f"{label}: {message}" if label else message})
    return errors


@require_GET
def hand_entry(request: HttpRequest, token: str, pk: int) -> JsonResponse:
    """The HAND_JSON entry a new-hand form's fields make, exactly as the form builds it when saved.

    The outbox keeps the fields a player tapped while offline and asks here, once
    back online, for the entry to post to the API: the form stays the one place that
    turns taps into HAND_JSON, so a hand the form saved whose answer was lost has the
    same entry (and the same Idempotency-Key) when the outbox sends it again.
    Shape errors come back in HAND_JSON's error shape; the rules are the API's to check.
    A correction of a saved hand is the same form, so it asks here too.
    """
    return _entry(request, token, pk, HandForm)


@require_GET
def contract_entry(request: HttpRequest, token: str, pk: int) -> JsonResponse:
    """The contract a contract form's fields make (declarer, contract, partner call), as ``hand_entry``:
    a contract recorded offline is posted to the API as the form would have saved it."""
    return _entry(request, token, pk, ContractForm)


def _entry(request: HttpRequest, token: str, pk: int, form_class: type[HandForm]) -> JsonResponse:
    try:
        access = access_for(token, session_id=pk)
        access.require_edit()
        session = access.session(pk)
        # a correction names its hand: what the form does not ask is kept as the hand has it
        corrected = access.hand(session, request.GET["number"]) if "number" in request.GET else None
    except (Http404, PermissionDenied) as error:
        code = "view_only_link" if isinstance(error, PermissionDenied) else "not_found"
        return JsonResponse({"errors": [{"field": "", "code": code, "message": str(error)}]},
                            status=403 if code == "view_only_link" else 404)
    form = form_class(request.GET, seats=session.seats, system=reads.system_of(session))
    if not form.is_valid():
        return JsonResponse({"errors": _form_errors(form)}, status=400)
    return JsonResponse({"entry": form.entry_over(corrected.entry) if corrected else form.entry()})
