"""A club night's results over the API: ``GET /api/v1/nights/{id}/standings`` →
``{"players": [{"name", "points", "hands", "rank"}]}`` ranked, and ``GET …/settlement`` →
``{"totals": {name: number}, "outstanding": [{"from", "to", "amount"}]}`` over every table, net
of the payments marked at its tables and of the night's own (a public contract: docs/api.md,
"Club nights"). Read from reads/nights.py, which says how the standings count and how the
night settles.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response

from mighty_ledger.api.base import READ_ERRORS, LinkView
from mighty_ledger.api.nights import NIGHT_ID
from mighty_ledger.api.pay import OutstandingTransferSerializer, outstanding_json
from mighty_ledger.api.stats import PaymentSerializer, payment_json
from mighty_ledger.reads import nights, payees
from mighty_ledger.services.nights import STANDINGS_OPTIONS


@extend_schema_field(OpenApiTypes.NUMBER)
class NumberField(serializers.Field):
    """A figure as a JSON number: whole when it is whole (points, won), else its decimal value."""

    def to_representation(self, value):
        return number(value)


def number(value: int | Decimal | Fraction) -> int | float:
    if value == int(value):
        return int(value)
    return float(value)


@extend_schema_serializer(component_name="NightStanding")
class StandingSerializer(serializers.Serializer):
    name = serializers.CharField()
    points = serializers.IntegerField(help_text="The player's total over every table of the night.")
    hands = serializers.IntegerField(help_text="Scored hands the player played in.")
    rank = serializers.IntegerField(help_text="From 1; players level on score and its tie-break share a rank.")
    score = NumberField(help_text="What the night ranks by: points, points per hand or placement points.")
    per_hand = NumberField(help_text="Points over hands played (0 before a hand).")
    present = serializers.BooleanField(help_text="Among the players present now.")
    rating = serializers.FloatField(allow_null=True, help_text="The skill rating over every hand of the group (GET /api/v1/ratings' ordinal); null before a rated hand.")


class NightStandingsView(LinkView):
    @extend_schema_serializer(component_name="NightStandings")
    class OutputSerializer(serializers.Serializer):
        standings = serializers.ChoiceField(choices=list(STANDINGS_OPTIONS))
        players = StandingSerializer(many=True, help_text=(
            "Ranked by score; a tie broken by points per hand (per_hand and placement: by points), then shared, "
            "listed by name."))

    @extend_schema(operation_id="night_standings", tags=["nights"], parameters=[NIGHT_ID],
                   responses={200: OutputSerializer, **READ_ERRORS}, summary="The night's standings, ranked")
    def get(self, request, night_id: int):
        night = nights.group_night(self.access.group, night_id)
        standings = nights.night_standings(night)
        rated = nights.night_ratings(night)
        return Response(self.OutputSerializer({"standings": standings.option, "players": [
            {"name": row.name, "points": row.points, "hands": row.hands, "rank": row.rank, "score": row.score,
             "per_hand": row.per_hand, "present": row.present,
             "rating": rated[row.name].ordinal if row.name in rated else None}
            for row in standings.rows]}).data)


@extend_schema_serializer(component_name="NightTableSettlement")
class TableSettlementSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    session = serializers.IntegerField(help_text="Its whole settlement: GET /api/v1/sessions/{session}/settlement.")
    seats = serializers.ListField(child=serializers.CharField())
    totals = serializers.DictField(child=serializers.IntegerField(), help_text="Points per seat.")
    amounts = serializers.DictField(child=NumberField(), help_text="Per seat, in settle_in's unit: money at the stake, chips won or lost, or points.")
    outstanding = OutstandingTransferSerializer(many=True, help_text="What is still owed at this table alone, net of its payments.")


class NightSettlementView(LinkView):
    @extend_schema_serializer(component_name="NightSettlement")
    class OutputSerializer(serializers.Serializer):
        settle_in = serializers.ChoiceField(choices=["money", "chips", "points"])
        currency = serializers.CharField(allow_blank=True)
        totals = serializers.DictField(child=NumberField(), help_text=(
            "Each player's result over every table, in settle_in's unit, before payments."))
        pot = NumberField(help_text="Deal-miss fines still in the tables' pots; settled as the party 'pot'.")
        outstanding = OutstandingTransferSerializer(many=True, help_text=(
            "The fewest transfers among all the players that settle the night, net of the payments marked on its "
            "tables and of the night's own (POST /api/v1/nights/{id}/payments); amounts as exact decimal strings."))
        payments = PaymentSerializer(many=True, help_text=(
            "The payments counted, not undone, oldest first: the night's own (\"night\" set) and those marked on "
            "its tables (\"session\" set)."))
        tables = TableSettlementSerializer(many=True, help_text="Each table's own settlement, round by round.")

    @extend_schema(operation_id="night_settlement", tags=["nights"], parameters=[NIGHT_ID],
                   responses={200: OutputSerializer, **READ_ERRORS},
                   summary="One settlement for the night: totals over every table, and what is still owed among all")
    def get(self, request, night_id: int):
        night = nights.group_night(self.access.group, night_id)
        settled = nights.night_settlement(night)
        pay = payees.group_pay_handles(self.access.group, can_edit=self.access.can_edit)

        def owed(transfers) -> list[dict]:
            return outstanding_json(transfers, pay, unit=settled.unit, currency=night.currency)

        return Response(self.OutputSerializer({
            "settle_in": settled.unit, "currency": night.currency, "totals": settled.totals, "pot": settled.pot,
            "outstanding": owed(settled.outstanding),
            "payments": [payment_json(payment) for payment in settled.payments],
            "tables": [{"round": t.round, "table": t.table.number, "session": t.table.session.pk,
                        "seats": list(t.table.seats), "totals": t.points,
                        "amounts": t.amounts, "outstanding": owed(t.outstanding.transfers)}
                       for t in settled.tables],
        }).data)

