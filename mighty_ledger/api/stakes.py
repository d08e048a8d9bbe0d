"""What a session is played for, changed over the API at any time: PATCH /api/v1/sessions/{id}.

A thin face over services/stakes.py, as the settle page's form is: the service checks every value,
so both refuse the same ones in the same words. Mixed into ledger.py's session view, which owns the
path.
"""

from __future__ import annotations

from decimal import Decimal

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from mighty_ledger import services
from mighty_ledger.api.base import SESSION_ID, WRITE_ERRORS, TextField, web_url
from mighty_ledger.api.serializers import SessionOutputSerializer, session_json
from scoring.problems import InvalidInput, Problem


class SessionStakesInput(serializers.Serializer):
    """What a session is played for, any of the five, as the schema describes them: the service
    (services/stakes.py) checks them, so the settle page's form and the API refuse the same values
    in the same words."""

    stake_per_point = serializers.DecimalField(
        max_digits=12, decimal_places=2, min_value=0, required=False, allow_null=True,
        help_text="Money per point; null: not played for money.")
    currency = TextField(max_length=8, required=False, allow_blank=True, allow_null=True,
                         help_text="An ISO code or its sign: KRW, ₩, 원, EUR…")
    rounding_unit = serializers.DecimalField(
        max_digits=12, decimal_places=2, min_value=Decimal("0.01"), required=False, allow_null=True,
        help_text="Each transfer rounded to this; null: the currency's smallest unit.")
    chips_start = serializers.IntegerField(min_value=0, max_value=1_000_000_000, required=False, allow_null=True,
                                           help_text="Chips each player starts with; null: not played for chips.")
    chips_per_point = serializers.IntegerField(min_value=1, max_value=1_000_000, required=False, allow_null=True)


class SessionStakesView:
    """PATCH on a session: what it is played for."""

    @extend_schema(
        operation_id="change_session_stakes", tags=["sessions"], parameters=[SESSION_ID],
        request=SessionStakesInput, responses={200: SessionOutputSerializer, **WRITE_ERRORS},
        summary="Change what the session is played for (stake, currency, rounding, chips), at any time",
        description="Any subset of the five fields; the others stay. The points do not move: money and chips "
        "are counted from them, so the settlement follows at once. Payments already marked keep their amount. "
        "Each change is kept in the session's revisions (subject session, action amended, before and after "
        "its stakes). A view link gets 403.",
    )
    def patch(self, request, session_id: int):
        session = self.access.session(session_id)
        if not isinstance(request.data, dict):
            raise InvalidInput([Problem("body", "not_an_object", "Send a JSON object with any of "
                                        + ", ".join(services.STAKE_FIELDS) + ".")])
        # the body as sent: the service checks each value (and names a field it does not know), so
        # the settle page and the API refuse the same values with the same codes; the serializer
        # above is the schema's description of them
        session = services.session_stakes_change(session=session, changes=dict(request.data),
                                                 by=self.access.actor("api"))
        return Response(session_json(session, web_url=web_url(self, session)))
