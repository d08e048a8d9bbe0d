"""The group's seasons over the API: ``GET`` lists them, ``POST`` names a new one;
``PATCH /seasons/{id}`` renames one or moves its start, ``DELETE`` stops naming it.

``{"name", "starts"}`` with an ISO date; a season ends the day before the next
one starts (``ends``, null for the last). An Idempotency-Key makes a retried
post safe, as for every create (api/idempotency.py); a change or a deletion is
safe to repeat by itself (the same change again changes nothing; a season
already deleted is 404).
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response

from mighty_ledger.api.base import (
    IDEMPOTENCY_KEY,
    READ_ERRORS,
    WRITE_ERRORS,
    DayField,
    LinkView,
    TextField,
    refuse_nul,
)
from mighty_ledger.api.idempotency import Made, create_once, once_responses
from mighty_ledger.models import Season
from mighty_ledger.reads import seasons
from mighty_ledger.services.seasons import season_change, season_create, season_delete

SEASON_ID = OpenApiParameter("season_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The season's id.")


@extend_schema_serializer(component_name="Season")
class SeasonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts = serializers.DateField()
    ends = serializers.DateField(allow_null=True, help_text="Its last day: the day before the next season "
                                 "starts; null while no later season is named.")
    current = serializers.BooleanField(help_text="The last season that has started: the pages' default view.")


def season_json(span: seasons.SeasonSpan, current: seasons.SeasonSpan | None) -> dict:
    return {"id": span.pk, "name": span.name, "starts": span.starts.isoformat(),
            "ends": span.ends.isoformat() if span.ends else None, "current": span == current}


def seasons_json(spans: list[seasons.SeasonSpan]) -> list[dict]:
    current = seasons.current_season(spans)
    return [season_json(span, current) for span in spans]


class SeasonsView(LinkView):
    @extend_schema_serializer(component_name="SeasonCreateInput")
    class InputSerializer(serializers.Serializer):
        name = TextField(max_length=80)
        starts = DayField(help_text="The first day, YYYY-MM-DD; it ends the season before.")

    @extend_schema(operation_id="list_seasons", tags=["seasons"], responses={200: SeasonSerializer(many=True),
                   **READ_ERRORS}, summary="The group's seasons, earliest first")
    def get(self, request):
        return Response(seasons_json(seasons.group_seasons(self.access.group)))

    @extend_schema(operation_id="create_season", tags=["seasons"], request=InputSerializer,
                   parameters=[IDEMPOTENCY_KEY], responses=once_responses(SeasonSerializer),
                   summary="Name a season from a start date (two seasons cannot start the same day)")
    def post(self, request):
        def make(key: str | None) -> Made:
            body = self.InputSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            refuse_nul(body.validated_data["name"], "name")
            return Made(self._create(body.validated_data))

        # once per Idempotency-Key, the first answer's bytes kept (api/idempotency.py)
        return create_once(request, scope=f"api:group:{self.access.group.pk}:seasons", make=make)

    def _create(self, values: dict) -> dict:
        season = season_create(group=self.access.group, name=values["name"], starts=values["starts"],
                               by=self.access.actor("api"))
        spans = seasons.group_seasons(self.access.group)
        current = seasons.current_season(spans)
        return season_json(next(span for span in spans if span.pk == season.pk), current)


class SeasonView(LinkView):
    @extend_schema_serializer(component_name="SeasonChangeInput")
    class InputSerializer(serializers.Serializer):
        name = TextField(max_length=80, required=False)
        starts = DayField(required=False, help_text="The first day, YYYY-MM-DD; it moves the end "
                                       "of the season before.")

    def _season(self, season_id: int) -> Season:
        season = seasons.group_season(self.access.group, season_id)
        if season is None:
            raise Http404("No such season in this group.")
        return season

    @extend_schema(operation_id="change_season", tags=["seasons"], parameters=[SEASON_ID], request=InputSerializer,
                   responses={200: SeasonSerializer, **WRITE_ERRORS},
                   summary="Rename a season or start it on another day (what is not given stays)")
    def patch(self, request, season_id: int):
        body = self.InputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if "name" in body.validated_data:
            refuse_nul(body.validated_data["name"], "name")
        season = season_change(season=self._season(season_id), name=body.validated_data.get("name"),
                               starts=body.validated_data.get("starts"), by=self.access.actor("api"))
        spans = seasons.group_seasons(self.access.group)
        return Response(season_json(next(span for span in spans if span.pk == season.pk),
                                    seasons.current_season(spans)))

    @extend_schema(operation_id="delete_season", tags=["seasons"], parameters=[SEASON_ID], request=None,
                   responses={204: None, **WRITE_ERRORS},
                   summary="Stop naming a season: its days count with the season before it; no score changes")
    def delete(self, request, season_id: int):
        season_delete(season=self._season(season_id), by=self.access.actor("api"))
        return Response(status=204)
