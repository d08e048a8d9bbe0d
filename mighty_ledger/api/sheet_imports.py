"""A spreadsheet of past hands brought in over the API.

``POST /imports`` (multipart: ``file``, ``preset``, ``commit``, optional ``players``) answers a
preview (200) or, with ``commit=true``, writes it (201); a commit with problems is 400 with the same
``problems`` (and the error shape beside them), and the same file committed again answers the first
import's ``import_id`` (200) and adds nothing. ``DELETE /imports/{import_id}`` undoes one whole.
"""

from __future__ import annotations

import json

from django.http import Http404
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

from mighty_ledger.api.base import WRITE_ERRORS, JsonBooleanField, LinkView
from mighty_ledger.reads.sheet_imports import group_sheet_import
from mighty_ledger.services.sheet_imports import (
    SheetPlan,
    SheetRefused,
    sheet_import,
    sheet_import_undo,
    sheet_preview,
)
from scoring.presets import preset_slugs
from scoring.problems import InvalidInput, Problem

IMPORT_ID = OpenApiParameter("import_id", OpenApiTypes.STR, OpenApiParameter.PATH,
                             description="The import_id a committed import answered.")


@extend_schema_serializer(component_name="SheetImport")
class SheetImportSerializer(serializers.Serializer):
    sessions = serializers.ListField(child=serializers.DictField(), help_text=(
        "The sessions found, oldest first: {\"date\": \"YYYY-MM-DD\", \"title\", \"hands\": int, \"totals\": "
        "{name: number} as the engine scored them, \"sheet_totals\": {name: number} or null where the sheet "
        "gives its own}."))
    players = serializers.ListField(child=serializers.DictField(), help_text=(
        "Each name of the sheet: {\"name\": as written, \"match\": the group's player or null (a new player), "
        "\"near\": [the group's players it may be]}."))
    problems = serializers.ListField(child=serializers.DictField(), help_text=(
        "Every row that cannot be read: {\"line\": int (the header is line 1), \"message\": str}."))
    import_id = serializers.CharField(allow_null=True, help_text="Set once written (or written before).")
    shape = serializers.CharField(allow_null=True, help_text="hands_csv, hand_sheet or score_sheet.")


def plan_json(plan: SheetPlan, import_id: str | None) -> dict:
    return {
        "shape": plan.shape,
        "sessions": [{"date": session.played_on.isoformat(), "title": session.title, "hands": len(session.hands),
                      "totals": session.totals, "sheet_totals": session.written_totals}
                     for session in plan.sessions],
        "players": [{"name": match.name, "match": match.match, "near": list(match.near)} for match in plan.players],
        "problems": [{"line": problem.line, "message": problem.message} for problem in plan.problems],
        "import_id": import_id,
    }


class SheetImportsView(LinkView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema_serializer(component_name="SheetImportInput")
    class InputSerializer(serializers.Serializer):
        file = serializers.FileField(help_text="CSV (UTF-8, with or without BOM, or CP949/EUC-KR) or XLSX.")
        preset = serializers.ChoiceField(choices=preset_slugs(), help_text="The scoring system of the sessions it makes.")
        commit = JsonBooleanField(required=False, default=False, help_text="false (the default): a preview; "
                                  "true: write it.")
        players = serializers.CharField(required=False, help_text=(
            "A JSON object: a name of the sheet → the group's player it is, or null for a new player "
            "(the choices the preview offers under near)."))

        def to_internal_value(self, data):
            # a multipart form sends text: "true" and "false" are its booleans
            data = data.copy() if hasattr(data, "copy") else dict(data)
            if isinstance(data.get("commit"), str):
                data["commit"] = {"true": True, "false": False}.get(data["commit"].strip().lower(), data["commit"])
            return super().to_internal_value(data)

    @extend_schema(
        operation_id="import_sheet", tags=["imports"], request={"multipart/form-data": InputSerializer},
        responses={200: OpenApiResponse(SheetImportSerializer, description="A preview, or this file already "
                                        "imported (its import_id; nothing added)."),
                   201: OpenApiResponse(SheetImportSerializer, description="Written."),
                   **WRITE_ERRORS},
        summary="Bring past hands in from a spreadsheet: a preview, or (commit=true) the import",
    )
    def post(self, request):
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        values = body.validated_data
        choices = _choices(values.get("players"))
        content = values["file"].read()
        group = self.access.group
        if not values["commit"]:
            plan = sheet_preview(group=group, content=content, preset=values["preset"], choices=choices)
            return Response(plan_json(plan, plan.done_before.key if plan.done_before else None))
        try:
            made, created, plan = sheet_import(group=group, content=content, preset=values["preset"], choices=choices,
                                         file_name=values["file"].name or "", by=self.access.actor("api"))
        except SheetRefused as refused:
            answer = plan_json(refused.plan, None)
            answer["errors"] = [{"field": "file", "code": "sheet_problems", "message": f"{p['line']}: {p['message']}"}
                                for p in answer["problems"]] or [
                {"field": "file", "code": "no_hands", "message": "The file holds no hands to import."}]
            return Response(answer, status=400)
        return Response(plan_json(plan, made.key), status=201 if created else 200)


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
