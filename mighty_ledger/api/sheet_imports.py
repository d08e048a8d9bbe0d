"""A spreadsheet of past hands brought in over the API.

``POST /imports`` (multipart: ``file``, ``preset``, ``commit``, optional ``players``,
``import_duplicates`` and ``date``) answers a preview (200) or, with ``commit=true``, writes it
(201); a commit with problems is 400 with the same ``problems`` (and the error shape beside them),
and the same file committed again (or ten times at once) answers the first import's
``import_id`` (200) and adds nothing. A file over a limit is refused before it is read: 413 for
its size, 400 for its rows, cells, columns or unpacked size. ``Idempotency-Key`` works as on every
create. ``DELETE /imports/{import_id}`` undoes one whole.
"""

from __future__ import annotations

import hashlib
import json

from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from mighty_ledger.api.base import (
    IDEMPOTENCY_KEY,
    WRITE_ERRORS,
    DayField,
    JsonBooleanField,
    LinkView,
)
from mighty_ledger.api.exceptions import errors_body, problem
from mighty_ledger.api.idempotency import Made, create_once, once_responses
from mighty_ledger.api.serializers import ErrorsSerializer
from mighty_ledger.models import SheetImport
from mighty_ledger.reads.sheet_imports import group_sheet_import, sheet_import_sessions
from mighty_ledger.services.sheet_imports import (
    SHEET_PROBLEMS,
    SheetPlan,
    SheetRefused,
    sheet_import,
    sheet_import_undo,
    sheet_preview,
)
from mighty_ledger.services.spreadsheets import (
    MAX_BYTES,
    TOO_LARGE,
    Refusal,
    sheet_file_hash,
    too_large,
)
from scoring.presets import preset_slugs
from scoring.problems import InvalidInput, Problem
from scoring.words import translated

IMPORT_ID = OpenApiParameter("import_id", OpenApiTypes.STR, OpenApiParameter.PATH,
                             description="The import_id a committed import answered.")
# a second commit of one Idempotency-Key waits for the first's answer: an import takes seconds
IMPORT_WAIT_SECONDS = 20


@extend_schema_serializer(component_name="SheetImport")
class SheetImportSerializer(serializers.Serializer):
    sessions = serializers.ListField(child=serializers.DictField(), help_text=(
        "The sessions found, oldest first: {\"date\": \"YYYY-MM-DD\", \"title\", \"hands\": int, \"totals\": "
        "{name: number} as the engine scored them, \"sheet_totals\": {name: number} or null where the sheet "
        "gives its own, \"duplicate_of\": the id of the group's session of the same evening (same date, "
        "players and totals), which a commit leaves out unless import_duplicates, or null}."))
    players = serializers.ListField(child=serializers.DictField(), help_text=(
        "Each name of the sheet: {\"name\": as written, \"match\": the group's player or null (a new player), "
        "\"near\": [the group's players it may be]}."))
    problems = serializers.ListField(child=serializers.DictField(), help_text=(
        "Every row that cannot be read: {\"line\": int (as the spreadsheet numbers its rows), \"message\": str}."))
    import_id = serializers.CharField(allow_null=True, help_text="Set once written (or written before).")
    shape = serializers.CharField(allow_null=True, help_text="hands_csv, hand_sheet or score_sheet; null when "
                                  "the answer describes an import made before (the same file again).")


def plan_json(plan: SheetPlan, import_id: str | None) -> dict:
    return {
        "shape": plan.shape,
        "sessions": [{"date": session.played_on.isoformat(), "title": session.title, "hands": len(session.hands),
                      "totals": session.totals, "sheet_totals": session.written_totals,
                      "duplicate_of": session.duplicate_of}
                     for session in plan.sessions],
        "players": [{"name": match.name, "match": match.match, "near": list(match.near)} for match in plan.players],
        "problems": [{"line": problem.line, "message": problem.message} for problem in plan.problems],
        "import_id": import_id,
    }


def made_json(made: SheetImport) -> dict:
    """An import made before, as it stands: the sessions it wrote."""
    sessions = sheet_import_sessions(made)
    seated = dict.fromkeys(seat for session in sessions for seat in session.seats)
    return {
        "shape": None,
        "sessions": [{"date": session.played_on.isoformat(), "title": session.title, "hands": session.hand_count,
                      "totals": session.totals, "sheet_totals": None, "duplicate_of": None}
                     for session in sessions],
        "players": [{"name": name, "match": name, "near": []} for name in seated],
        "problems": [],
        "import_id": made.key,
    }


def _refused(refusal: Refusal) -> Response:
    """A file over a limit, in the error shape: 413 for its size, 400 for the rest."""
    return Response(errors_body(problem("file", refusal.code, translated(refusal.message, gettext))),
                    status=413 if refusal.code == TOO_LARGE else 400)


class SheetImportsView(LinkView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema_serializer(component_name="SheetImportInput")
    class InputSerializer(serializers.Serializer):
        file = serializers.FileField(help_text="CSV (UTF-8, with or without BOM, or CP949/EUC-KR) or XLSX; at most "
                                     "5 MB, 10,000 rows with something in them, 300,000 cells, 200 columns, and for "
                                     "a workbook 20 MB once unpacked.")
        preset = serializers.ChoiceField(choices=preset_slugs(), help_text="The scoring system of the sessions it makes.")
        commit = JsonBooleanField(required=False, default=False, help_text="false (the default): a preview; "
                                  "true: write it.")
        players = serializers.CharField(required=False, help_text=(
            "A JSON object: a name of the sheet → the group's player it is, or null for a new player "
            "(the choices the preview offers under near)."))
        import_duplicates = JsonBooleanField(required=False, default=False, help_text=(
            "true: import the evenings the group already has (duplicate_of) too; by default they are left out."))
        date = DayField(required=False, help_text="YYYY-MM-DD: the evening of a file without a date column "
                        "(a board's hands.csv from before it carried its date).")

        def to_internal_value(self, data):
            # a multipart form sends text: "true" and "false" are its booleans. Read into a plain dict:
            # a QueryDict's copy() deep-copies the file, which an upload over 2.5 MB (on disk) cannot be
            values = {name: data.get(name) for name in data}
            for name in ("commit", "import_duplicates"):
                if isinstance(values.get(name), str):
                    values[name] = {"true": True, "false": False}.get(values[name].strip().lower(), values[name])
            return super().to_internal_value(values)

    @extend_schema(
        operation_id="import_sheet", tags=["imports"], request={"multipart/form-data": InputSerializer},
        parameters=[IDEMPOTENCY_KEY],
        responses={**once_responses(SheetImportSerializer),
                   200: OpenApiResponse(SheetImportSerializer, description="A preview; or this file already "
                                        "imported (its import_id; nothing added); or the first answer again "
                                        "(the same Idempotency-Key and body, header Idempotent-Replayed)."),
                   413: OpenApiResponse(ErrorsSerializer, description="The file is over 5 MB (code too_large).")},
        summary="Bring past hands in from a spreadsheet: a preview, or (commit=true) the import",
    )
    def post(self, request):
        upload = request.data.get("file")
        # the size is known before the file is read: a file over it is never read
        if getattr(upload, "size", 0) > MAX_BYTES:
            return _refused(too_large())
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        values = body.validated_data
        choices = _choices(values.get("players"))
        content = values["file"].read()
        group = self.access.group
        if not values["commit"]:
            plan = sheet_preview(group=group, content=content, preset=values["preset"], choices=choices,
                                 played_on=values.get("date"))
            if plan.refusal is not None and plan.refusal.over_a_limit:
                return _refused(plan.refusal)
            return Response(plan_json(plan, plan.done_before.key if plan.done_before else None))

        def make(key: str | None) -> Made:
            try:
                made, created, plan = sheet_import(
                    group=group, content=content, preset=values["preset"], choices=choices,
                    file_name=values["file"].name or "", by=self.access.actor("api"),
                    import_duplicates=values["import_duplicates"], played_on=values.get("date"))
            except SheetRefused as refused:
                raise _RefusedAnswer(refused) from None
            if not created:
                return Made(made_json(made), status=200)
            return Made(plan_json(plan, made.key))

        said = [sheet_file_hash(content), values["preset"], choices, values["import_duplicates"],
                str(values.get("date") or "")]
        fingerprint = hashlib.sha256(json.dumps(said, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        try:
            return create_once(request, scope=f"api:group:{group.pk}:imports", make=make, fingerprint=fingerprint,
                               wait_seconds=IMPORT_WAIT_SECONDS)
        except _RefusedAnswer as refused:
            return refused.response()


class _RefusedAnswer(Exception):
    """A commit that wrote nothing: its answer, given outside the key's transaction (which it
    leaves free, so that the file corrected and sent again with the same key is imported)."""

    def __init__(self, refused: SheetRefused):
        super().__init__(refused.code)
        self.refused = refused

    def response(self) -> Response:
        plan = self.refused.plan
        if plan.refusal is not None and plan.refusal.over_a_limit:
            return _refused(plan.refusal)
        answer = plan_json(plan, None)
        if self.refused.code == SHEET_PROBLEMS:
            answer["errors"] = [{"field": "file", "code": SHEET_PROBLEMS, "message": f"{p['line']}: {p['message']}"}
                                for p in answer["problems"]]
        else:
            answer["errors"] = [{"field": "file", "code": self.refused.code, "message": self.refused.message}]
        return Response(answer, status=400)


def _choices(text: str | None) -> dict:
    if not text:
        return {}
    try:
        choices = json.loads(text)
    except ValueError:
        choices = None
    if not isinstance(choices, dict) or not all(isinstance(v, str | None) for v in choices.values()):
        raise InvalidInput([Problem("players", "bad_players", "players must be a JSON object: a name of the "
                                    "sheet → the group's player's name, or null for a new player.")])
    return choices


class SheetImportView(LinkView):
    @extend_schema(operation_id="undo_sheet_import", tags=["imports"], parameters=[IMPORT_ID], request=None,
                   responses={204: None, **WRITE_ERRORS},
                   summary="Undo an import whole: its sessions deleted, the players it added removed")
    def delete(self, request, import_id: str):
        made = group_sheet_import(self.access.group, import_id)
        if made is None:
            raise Http404("No such import in this group.")
        sheet_import_undo(sheet_import=made, by=self.access.actor("api"))
        return Response(status=204)
