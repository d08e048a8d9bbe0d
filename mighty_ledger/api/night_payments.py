"""A club night's own payments over the API: ``POST /api/v1/nights/{id}/payments``
``{"from", "to", "amount"}`` marks one transfer of the night's settlement as paid (201, once per
``Idempotency-Key``), ``DELETE …/payments/{payment_id}`` takes it back. They answer as a
session's payments do (api/stats.py): more than the payer still owes the payee across the night,
or the wrong way round, is 400 ``overpayment`` or ``wrong_way`` unless the body says
``"overpay": true``. Views parse, call services/night_payments.py, and serialise.
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response

from mighty_ledger.api.base import IDEMPOTENCY_KEY, WRITE_ERRORS, JsonBooleanField, LinkView
from mighty_ledger.api.idempotency import Made, create_once, once_responses
from mighty_ledger.api.nights import NIGHT_ID
from mighty_ledger.api.stats import PaymentSerializer, as_requested, payment_json
from mighty_ledger.http.request_keys import night_payment_scope
from mighty_ledger.reads import nights
from mighty_ledger.reads.night_payments import night_payment_of
from mighty_ledger.services.night_payments import night_payment_record, night_payment_undo
from mighty_ledger.services.payments import PaymentBeyondOwed
from scoring.problems import InvalidInput, Problem

PAYMENT_ID = OpenApiParameter("payment_id", OpenApiTypes.INT, OpenApiParameter.PATH,
                              description="The id of one of the night's own payments.")


def _figure(amount) -> str:
    # 1300, not 1300.00: the figure the settlement shows
    return format(amount.normalize(), "f")


def _beyond_owed(beyond: PaymentBeyondOwed) -> InvalidInput:
    if not beyond.owed:
        problem = Problem("amount", "wrong_way", f"{beyond.payer} owes {beyond.payee} nothing over the night: the "
                          "payment goes the wrong way round. Send \"overpay\": true to record it anyway.")
    else:
        problem = Problem("amount", "overpayment", f"{beyond.payer} still owes {beyond.payee} {_figure(beyond.owed)} "
                          f"over the night, less than {_figure(beyond.amount)}. Send \"overpay\": true to record it anyway.")
    return InvalidInput([problem])


class NightPaymentsView(LinkView):
    @extend_schema_serializer(component_name="NightPaymentInput")
    class InputSerializer(serializers.Serializer):
        to = serializers.CharField(max_length=40)
        amount = serializers.DecimalField(max_digits=12, decimal_places=2, help_text=(
            "What was paid, in the night's settle_in unit: whole chips or points, or a multiple of the "
            "night's rounding unit for money."))
        overpay = JsonBooleanField(required=False, default=False, help_text=(
            "Record it even though it is more than the payer still owes the payee over the night, or goes the "
            "wrong way round (refused with 400 overpayment or wrong_way otherwise)."))

        def get_fields(self):
            # "from" is a Python keyword: the field is added under its public name
            return {"from": serializers.CharField(max_length=40), **super().get_fields()}

    @extend_schema(operation_id="record_night_payment", tags=["nights"], parameters=[NIGHT_ID, IDEMPOTENCY_KEY],
                   request=InputSerializer, responses=once_responses(PaymentSerializer),
                   summary="Mark a transfer of the night's settlement as paid, for every table at once",
                   description="Checked against what is still owed over the whole night, net of the payments "
                   "marked at its tables and of the night's own: more than the payer still owes the payee, or "
                   "the wrong way round, is refused with 400 overpayment or wrong_way unless the body says "
                   "\"overpay\": true; a fraction of what the night counts in is 400 not_whole. The night's "
                   "settlement lists it among its payments, with \"night\" set.")
    def post(self, request, night_id: int):
        night = nights.group_night(self.access.group, night_id)

        def make(key: str | None) -> Made:
            body = self.InputSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            try:
                payment, created = night_payment_record(
                    night=night, payer=body.validated_data["from"], payee=body.validated_data["to"],
                    amount=body.validated_data["amount"], overpay=body.validated_data["overpay"],
                    idempotency_key=key, by=self.access.actor("api"),
                )
            except PaymentBeyondOwed as beyond:
                raise _beyond_owed(beyond) from None
            except InvalidInput as error:
                raise InvalidInput([as_requested(problem) for problem in error.problems]) from None
            return Made(payment_json(payment), replayed=not created)

        # a retried "paid" must not count twice
        return create_once(request, scope=night_payment_scope(night.pk), make=make)


class NightPaymentUndoView(LinkView):
    @extend_schema(operation_id="undo_night_payment", tags=["nights"], parameters=[NIGHT_ID, PAYMENT_ID],
                   request=None, responses={200: PaymentSerializer, **WRITE_ERRORS},
                   summary="Undo a payment of the night marked by mistake (kept in the history)",
                   description="Only the night's own payments: one marked at a table is undone at "
                   "DELETE /api/v1/sessions/{session}/payments/{payment_id}. Already undone: 400 already_undone.")
    def delete(self, request, night_id: int, payment_id: int):
        night = nights.group_night(self.access.group, night_id)
        payment = night_payment_of(night, payment_id)
        if payment is None:
            raise Http404("No such payment in this night.")
        return Response(payment_json(night_payment_undo(payment=payment, by=self.access.actor("api"))))
