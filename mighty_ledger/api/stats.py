"""The group's statistics and the payments marked at the table, over the API.

``GET /api/v1/stats`` answers the statistics page's figures for the link's
group (``players``, ``pairs`` and ``series`` are a public contract: more
fields may be added, none renamed); ``made`` and ``won`` are counts. Payments
are recorded with ``POST /api/v1/sessions/{id}/payments``, listed by ``GET``
on the same URL and undone with ``DELETE …/payments/{payment_id}`` (the row
and its revision stay).
"""

from __future__ import annotations

import dataclasses

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response

from mighty_ledger import services
from mighty_ledger.api.base import (
    IDEMPOTENCY_KEY,
    READ_ERRORS,
    SESSION_ID,
    WRITE_ERRORS,
    JsonBooleanField,
    LinkView,
)
from mighty_ledger.api.idempotency import Made, create_once, once_responses
from mighty_ledger.http import request_keys
from mighty_ledger.models import Payment, Session
from mighty_ledger.reads import balance, kept_counts, stats
from mighty_ledger.reads import filters as reads_filters
from scoring.problems import InvalidInput, Problem


def _invalid(field: str, code: str, message: str) -> InvalidInput:
    return InvalidInput([Problem(field, code, message)])


# --- statistics ---------------------------------------------------------------------------------


class DeclarerSerializer(serializers.Serializer):
    hands = serializers.IntegerField()
    made = serializers.IntegerField(help_text="Contracts made, a count.")
    average_contract = serializers.FloatField(allow_null=True)
    no_trump = serializers.IntegerField(help_text="Hands declared in no trump.")
    no_friend = serializers.IntegerField(help_text="Hands declared with no friend announced.")
    no_friend_made = serializers.IntegerField()
    runs = serializers.IntegerField(help_text="Hands whose result doubled for a run.")


class PartnerSerializer(serializers.Serializer):
    hands = serializers.IntegerField()
    made = serializers.IntegerField(help_text="Contracts made, a count.")


class DefenderSerializer(serializers.Serializer):
    hands = serializers.IntegerField()
    won = serializers.IntegerField(help_text="Contracts set, a count.")
    back_runs = serializers.IntegerField()


@extend_schema_serializer(component_name="PlayerStats")
class PlayerStatsSerializer(serializers.Serializer):
    name = serializers.CharField()
    hands = serializers.IntegerField(help_text="Scored hands played; declarer + partner + defender hands.")
    sat_out = serializers.IntegerField()
    declarer = DeclarerSerializer()
    partner = PartnerSerializer()
    defender = DefenderSerializer()
    points = serializers.IntegerField(help_text="Every payment, pot shares and deal-miss fines included: "
                                      "the sum of the sessions' totals.")
    runs = serializers.IntegerField(help_text="As declarer.")
    back_runs = serializers.IntegerField(help_text="As defender.")
    biggest_win = serializers.IntegerField(help_text="The most won in one hand (0 if never up).")
    biggest_loss = serializers.IntegerField(help_text="The most lost in one hand, negative (0 if never down).")
    money = serializers.DictField(child=serializers.CharField(), help_text="Per currency, exact decimal strings.")


@extend_schema_serializer(component_name="PairStats")
class PairSerializer(serializers.Serializer):
    players = serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2)
    hands = serializers.IntegerField(help_text="Hands on the declarer's team together.")
    made = serializers.IntegerField(help_text="Of those, contracts made (a count).")


@extend_schema_serializer(component_name="ContractStats")
class ContractSerializer(serializers.Serializer):
    points = serializers.IntegerField()
    trump = serializers.CharField()
    bid = serializers.IntegerField()
    made = serializers.IntegerField()


@extend_schema_serializer(component_name="SeriesPoint")
class SeriesSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    hand = serializers.IntegerField(help_text="The hand's number in its session.")
    totals = serializers.DictField(child=serializers.IntegerField(), help_text="Running totals after this hand.")


def stats_json(record: stats.Stats) -> dict:
    return {
        "players": [
            {
                "name": p.name, "hands": p.hands, "sat_out": p.sat_out,
                "declarer": {
                    "hands": p.declarer.hands, "made": p.declarer.made,
                    "average_contract": p.declarer.average_contract, "no_trump": p.declarer.no_trump,
                    "no_friend": p.declarer.no_friend, "no_friend_made": p.declarer.no_friend_made,
                    "runs": p.declarer.runs,
                },
                "partner": {"hands": p.partner.hands, "made": p.partner.made},
                "defender": {"hands": p.defender.hands, "won": p.defender.won, "back_runs": p.defender.back_runs},
                "points": p.points, "runs": p.runs, "back_runs": p.back_runs,
                "biggest_win": p.biggest_win, "biggest_loss": p.biggest_loss,
                "money": {currency: str(amount) for currency, amount in p.money.items()},
            }
            for p in record.players
        ],
        "pairs": [{"players": list(pair.players), "hands": pair.hands, "made": pair.made} for pair in record.pairs],
        "contracts": [{"points": c.points, "trump": c.trump, "bid": c.bid, "made": c.made} for c in record.contracts],
        "series": [{"session": s.session, "hand": s.hand, "totals": s.totals} for s in record.series],
        "systems": list(record.systems),
        "hands": record.hands,
        "from_score_sheet": record.from_score_sheet,
    }


# the filters the statistics and the ratings both take (reads/filters.py reads them)
SELECTION_PARAMETERS = [
    OpenApiParameter("session", OpenApiTypes.INT, description="Only this session."),
    OpenApiParameter("since", OpenApiTypes.DATE, description="Only sessions played on or after this date."),
    OpenApiParameter("system", OpenApiTypes.STR, description="Only sessions scored with this preset slug."),
]


class StatsView(LinkView):
    @extend_schema_serializer(component_name="StatsOutput")
    class OutputSerializer(serializers.Serializer):
        players = PlayerStatsSerializer(many=True)
        pairs = PairSerializer(many=True)
        contracts = ContractSerializer(many=True)
        series = SeriesSerializer(many=True)
        systems = serializers.ListField(child=serializers.CharField(),
                                        help_text="The scoring systems whose points are added up; "
                                        "more than one means points of different systems are summed.")
        hands = serializers.IntegerField(help_text="Scored hands counted.")
        from_score_sheet = serializers.IntegerField(help_text="Hands imported from a paper score sheet: in "
                                                    "the points, but with no declarer or contract to count.")

    @extend_schema(
        operation_id="group_stats", tags=["statistics"],
        parameters=SELECTION_PARAMETERS,
        responses={200: OutputSerializer, **READ_ERRORS},
        summary="Per-player statistics, partnerships, contracts and running totals of the link's group",
    )
    def get(self, request):
        filters = reads_filters.api_filters(request.query_params, taken_by="statistics")
        sessions = filters.sessions(self.access.group)
        if filters.session_id is not None and not sessions:
            raise Http404("No such session in this group.")
        return Response(stats_json(kept_counts.stats_for(sessions, series=True)))


# --- payments ------------------------------------------------------------------------------------


@extend_schema_serializer(component_name="Payment")
class PaymentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    to = serializers.CharField()
    amount = serializers.CharField(help_text="Exact decimal amount, as a string.")
    unit = serializers.ChoiceField(choices=[Payment.MONEY, Payment.CHIPS, Payment.POINTS])
    currency = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    undone = serializers.BooleanField()
    session = serializers.IntegerField(allow_null=True, help_text="The session it was marked against; null for a night's.")
    night = serializers.IntegerField(allow_null=True, help_text=(
        "The club night it was marked against, as one transfer for the whole night; null for a session's."))

    def get_fields(self):
        # "from" is a Python keyword: the field is added under its public name
        return {"from": serializers.CharField(), **super().get_fields()}


def payment_json(payment: Payment) -> dict:
    return {
        "id": payment.pk, "from": payment.payer, "to": payment.payee, "amount": str(payment.amount),
        "unit": payment.unit, "currency": payment.currency,
        "created_at": payment.created_at.isoformat(), "undone": payment.undone_at is not None,
        "session": payment.session_id, "night": payment.night_id,
    }


def session_payments_json(session: Session) -> list[dict]:
    """The payments still counted for a session, for its settlement (one query)."""
    return [payment_json(payment) for payment in balance.session_payments(session)]


PAYMENT_ID = OpenApiParameter("payment_id", OpenApiTypes.INT, OpenApiParameter.PATH)


class PaymentsView(LinkView):
    class InputSerializer(serializers.Serializer):
        to = serializers.CharField(max_length=40)
        amount = serializers.DecimalField(max_digits=12, decimal_places=2,
                                          help_text="What was paid, in the settlement's unit: whole chips or "
                                          "points, or a multiple of the session's rounding unit for money.")
        overpay = JsonBooleanField(
            required=False, default=False,
            help_text="Record it even though it is more than the payer still owes the payee in this session, "
            "or goes the wrong way round (refused with 400 overpayment or wrong_way otherwise).")

        def get_fields(self):
            return {"from": serializers.CharField(max_length=40), **super().get_fields()}

    @extend_schema(operation_id="list_payments", tags=["payments"], parameters=[SESSION_ID],
                   responses={200: PaymentSerializer(many=True), **READ_ERRORS},
                   summary="The payments marked for this session and not undone")
    def get(self, request, session_id: int):
        return Response(session_payments_json(self.access.session(session_id)))

    @extend_schema(operation_id="record_payment", tags=["payments"], parameters=[SESSION_ID, IDEMPOTENCY_KEY],
                   request=InputSerializer, responses=once_responses(PaymentSerializer),
                   summary="Mark a transfer of the settlement as paid (it never changes the scores)",
                   description="A payment for more than the payer still owes the payee in this session, or the "
                   "wrong way round (to someone who owes, or from someone who is owed), is refused with 400 "
                   "overpayment or wrong_way unless the body says \"overpay\": true.")
    def post(self, request, session_id: int):
        session = self.access.session(session_id)

        def make(key: str | None) -> Made:
            body = self.InputSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            try:
                payment, created = services.payment_record(
                    session=session, payer=body.validated_data["from"], payee=body.validated_data["to"],
                    amount=body.validated_data["amount"], overpay=body.validated_data["overpay"],
                    idempotency_key=key, by=self.access.actor("api"),
                )
            except services.PaymentBeyondOwed as beyond:
                raise beyond_owed(beyond) from None
            except InvalidInput as error:
                raise InvalidInput([as_requested(problem) for problem in error.problems]) from None
            return Made(payment_json(payment), replayed=not created)

        # a retried "paid" must not count twice
        return create_once(request, scope=request_keys.payment_scope(session.pk), make=make)


# the service names the two sides as the ledger stores them; the request calls them from and to
_REQUEST_FIELDS = {"payer": "from", "payee": "to"}


def as_requested(problem: Problem) -> Problem:
    """A payment's problem under the field the request named (``from``, ``to``)."""
    return dataclasses.replace(problem, field=_REQUEST_FIELDS.get(problem.field, problem.field))


def beyond_owed(beyond, where: str = "in this session", figure=str) -> InvalidInput:
    """The 400 for a payment beyond what is owed ``where`` (a session's, or "over the night")."""
    if not beyond.owed:
        return _invalid("amount", "wrong_way", f"{beyond.payer} owes {beyond.payee} nothing {where}: the "
                        "payment goes the wrong way round. Send \"overpay\": true to record it anyway.")
    return _invalid("amount", "overpayment", f"{beyond.payer} still owes {beyond.payee} {figure(beyond.owed)} "
                    f"{where}, less than {figure(beyond.amount)}. Send \"overpay\": true to record it anyway.")


class PaymentUndoView(LinkView):
    @extend_schema(operation_id="undo_payment", tags=["payments"], parameters=[SESSION_ID, PAYMENT_ID],
                   request=None, responses={200: PaymentSerializer, **WRITE_ERRORS},
                   summary="Undo a payment marked by mistake (kept in the history)")
    def delete(self, request, session_id: int, payment_id: int):
        session = self.access.session(session_id)
        payment = balance.payment_of(session, payment_id)
        if payment is None:
            raise Http404("No such payment in this session.")
        if payment.undone_at is not None:
            raise _invalid("payment", "already_undone", "This payment was already undone.")
        return Response(payment_json(services.payment_undo(payment=payment, by=self.access.actor("api"))))
