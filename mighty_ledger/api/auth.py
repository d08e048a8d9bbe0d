"""Capability links over the API: ``Authorization: Bearer <edit or view token>``.

- no Authorization header (or another scheme): 401, with ``WWW-Authenticate: Bearer``;
- a Bearer token that is no group's link: 404, as an unknown link is on the web
  (it says nothing about whether the group ever existed);
- a view token on a write: 403.

The token's group is the only group a request can reach: every lookup goes
through the ``Access`` that ``access_for`` returns (mighty_ledger/http/access.py).
"""

from __future__ import annotations

from dataclasses import replace

from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import SAFE_METHODS, BasePermission

from mighty_ledger.http.access import Access, access_for

# what the pages' outbox sends with a change made on a phone without signal (static/js/outbox.js)
OUTBOX_HEADER = "X-Mighty-Ledger-Outbox"


class BearerLinkAuthentication(BaseAuthentication):
    keyword = b"bearer"

    def authenticate(self, request) -> tuple[AnonymousUser, Access] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                "Send the link's token as 'Authorization: Bearer <token>'.", code="bad_authorization"
            )
        try:
            token = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.NotFound("Unknown link.", code="unknown_link") from None
        try:
            # a session's URL brings its session along with the link: one query, not two
            access = access_for(token, session_id=request.parser_context["kwargs"].get("session_id"))
        except Http404:
            raise exceptions.NotFound("Unknown link.", code="unknown_link") from None
        if request.headers.get(OUTBOX_HEADER) == "1":
            # who made a change is a label in the history, not a right: the header grants nothing
            access = replace(access, from_the_pages=True)
        return AnonymousUser(), access

    def authenticate_header(self, request) -> str:
        # makes DRF answer 401 (not 403) when no token was sent
        return 'Bearer realm="api"'


class HasLink(BasePermission):
    """Any link may read; only an edit link may write."""

    message = "This is a view-only link: it can read the group but not change it."
    code = "view_only_link"

    def has_permission(self, request, view) -> bool:
        access = request.auth
        if not isinstance(access, Access):
            return False  # no token: DRF turns this into 401 Not Authenticated
        return request.method in SAFE_METHODS or access.can_edit


class BearerLinkScheme(OpenApiAuthenticationExtension):
    target_class = BearerLinkAuthentication
    name = "link"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A group's edit token (read and write) or view token (read only). "
            "No token: 401. A token that is no group's link: 404. A view token on a write: 403.",
        }
