"""The group's skill ratings over the API: ``GET /api/v1/ratings``.

A public contract: ``{"model": "plackett_luce", "players": [{"name", "mu",
"sigma", "ordinal", "hands", "provisional"}]}``, players by ``ordinal``
descending, the package's floats unrounded. Filters as the statistics take
them (``session``, ``since``, ``system``) and ``season`` (a season's id,
``current`` or ``all``); without ``season`` every hand of the group is rated. A filter
rates only the hands it selects, from the starting rating. Read from the state
kept by mighty_ledger/reads/ratings.py, as the pages are.
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response

from mighty_ledger.api.base import READ_ERRORS, LinkView
from mighty_ledger.api.stats import SELECTION_PARAMETERS
from mighty_ledger.reads import ratings
from mighty_ledger.reads.filters import api_filters


@extend_schema_serializer(component_name="PlayerRating")
class PlayerRatingSerializer(serializers.Serializer):
    name = serializers.CharField()
    mu = serializers.FloatField(help_text="The skill the hands show (openskill's mu), unrounded.")
    sigma = serializers.FloatField(help_text="How unsure that still is (openskill's sigma), unrounded.")
    ordinal = serializers.FloatField(help_text="The rating shown: mu - 3 sigma (openskill's ordinal).")
    hands = serializers.IntegerField(help_text="Hands this player was rated on.")
    provisional = serializers.BooleanField(help_text=f"Fewer than {ratings.PROVISIONAL_BELOW} rated hands.")


def ratings_json(rated: ratings.Ratings) -> dict:
    return {
        "model": ratings.MODEL_NAME,
        "players": [
            {"name": p.name, "mu": p.mu, "sigma": p.sigma, "ordinal": p.ordinal, "hands": p.hands,
             "provisional": p.provisional}
            for p in rated.players
        ],
    }


SEASON_PARAMETER = OpenApiParameter(
    "season", OpenApiTypes.STR,
    description="Only this season's sessions: a season's id (GET /api/v1/seasons), 'current', or 'all' "
    "(the default: every hand).",
)


class RatingsView(LinkView):
    @extend_schema_serializer(component_name="RatingsOutput")
    class OutputSerializer(serializers.Serializer):
        model = serializers.ChoiceField(choices=[ratings.MODEL_NAME],
                                        help_text="openskill's Plackett-Luce model, its default parameters.")
        players = PlayerRatingSerializer(many=True, help_text="Highest ordinal first.")

    @extend_schema(
        operation_id="group_ratings", tags=["statistics"],
        parameters=[*SELECTION_PARAMETERS, SEASON_PARAMETER],
        responses={200: OutputSerializer, **READ_ERRORS},
        summary="Every player's skill rating over the selected hands (Weng-Lin, Plackett-Luce), highest first",
    )
    def get(self, request):
        filters = api_filters(request.query_params, taken_by="ratings", group=self.access.group)
        sessions = filters.sessions(self.access.group)
        if filters.session_id is not None and not sessions:
            raise Http404("No such session in this group.")
        return Response(ratings_json(ratings.ratings_for(self.access.group, filters, sessions)))
