"""The group's history as a download: the same document `manage.py export_group` writes."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from mighty_ledger.http.access import access_for
from mighty_ledger.reads.exports import group_export


@require_GET
def group_export_json(request: HttpRequest, token: str) -> HttpResponse:
    access = access_for(token)
    # the edit token goes into the file only for whoever already holds it; a
    # view link's file imports under new links
    document = group_export(access.group, include_tokens=access.can_edit)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=1), content_type="application/json; charset=utf-8"
    )
    # a Korean name goes into filename* (RFC 6266), which content_disposition_header writes
    name = slugify(access.group.name, allow_unicode=True) or "group"
    response["Content-Disposition"] = content_disposition_header(True, f"mighty-ledger-{name}.json")
    # the document may hold the edit link: never keep it in a shared cache
    response["Cache-Control"] = "private, no-store"
    return response
