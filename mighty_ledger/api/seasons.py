"""The group's seasons over the API: ``GET`` lists them, ``POST`` names a new one.

``{"name", "starts"}`` with an ISO date; a season ends the day before the next
one starts (``ends``, null for the last). An Idempotency-Key makes a retried
post safe, as for every create (api/idempotency.py).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response

from mighty_ledger.api.base import IDEMPOTENCY_KEY, READ_ERRORS, LinkView, TextField, refuse_nul
from mighty_ledger.api.idempotency import Made, create_once, once_responses
from mighty_ledger.reads import seasons
from mighty_ledger.services.seasons import season_create


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
        starts = serializers.DateField(help_text="The first day, YYYY-MM-DD; it ends the season before.")

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
