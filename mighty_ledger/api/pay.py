"""Paying in one tap over the API: a player's handles, and the buttons beside a transfer owed.

``PATCH /api/v1/players/{id}`` keeps how a player likes to be paid (services.pay); the
settlement's ``outstanding`` transfers carry the payee's ``pay`` links (reads/pay_links.py),
through the edit link only: a view link gets an empty list, as its pages show none.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from mighty_ledger.api.base import WRITE_ERRORS, LinkView, TextField, refuse_nul
from mighty_ledger.api.serializers import MoneyTransferSerializer
from mighty_ledger.reads import groups
from mighty_ledger.reads.pay_links import BANKS, KINDS, PayHandles
from mighty_ledger.reads.payees import handles_of, transfer_links
from mighty_ledger.services.pay import player_pay_set
from scoring.problems import InvalidInput, Problem
from scoring.settle import Transfer

PLAYER_ID = OpenApiParameter("player_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The player's id.")


@extend_schema_serializer(component_name="PayLink")
class PayLinkSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(KINDS))
    url = serializers.CharField(allow_null=True, help_text=(
        "toss: https://toss.me/<Toss ID>/<amount> (the amount in whole won; without it for another "
        "currency); kakaopay: the payee's https://qr.kakaopay.com/<code> link, which carries no amount; "
        "account: null (copy the text)."))
    text = serializers.CharField(help_text=(
        "toss: the Toss ID; kakaopay: the link; account: bank, account number and amount, as a "
        "banking app reads a pasted transfer."))


@extend_schema_serializer(component_name="OutstandingTransfer")
class OutstandingTransferSerializer(MoneyTransferSerializer):
    pay = PayLinkSerializer(many=True, help_text=(
        "The payee's buttons for this transfer (money only), from the handles they keep; "
        "always empty through a view link."))


def outstanding_json(transfers: list[Transfer], pay: dict[str, PayHandles], *, unit: str, currency: str) -> list[dict]:
    return [{"from": transfer.frm, "to": transfer.to, "amount": str(transfer.amount),
             "pay": [link.as_json() for link in transfer_links(pay, transfer, unit=unit, currency=currency)]}
            for transfer in transfers]


@extend_schema_serializer(component_name="PayHandles")
class PayHandlesSerializer(serializers.Serializer):
    toss = TextField(required=False, allow_blank=True, max_length=60,
                     help_text="A Toss ID (letters, English or Korean, and digits) or its toss.me link; \"\" clears it.")
    kakaopay = TextField(required=False, allow_blank=True, max_length=120,
                         help_text="A KakaoPay money link, https://qr.kakaopay.com/<code>; \"\" clears it.")
    bank = TextField(required=False, allow_blank=True, max_length=40,
                     help_text="The bank of the account: one of the codes " + ", ".join(BANKS) + ", or the bank's name in "
                               "English or Korean (국민은행, KB Kookmin Bank, 농협…), kept as its code; \"\" clears it.")
    account = TextField(required=False, allow_blank=True, max_length=40,
                        help_text="The account number: 6 to 20 digits, dashes between groups allowed; \"\" clears it.")


@extend_schema_serializer(component_name="PlayerWithPay")
class PlayerPayOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    pay = PayHandlesSerializer(help_text="How the player likes to be paid (edit link only); \"\" where none is kept.")


class PlayerDetailView(LinkView):
    @extend_schema_serializer(component_name="PlayerPatchInput")
    class InputSerializer(serializers.Serializer):
        pay = PayHandlesSerializer(help_text="Any of the four; a field left out is kept as it is.")

    @extend_schema(operation_id="update_player", tags=["groups"], parameters=[PLAYER_ID], request=InputSerializer,
                   responses={200: PlayerPayOutputSerializer, **WRITE_ERRORS},
                   summary="Keep how a player likes to be paid (edit link only)",
                   description="Each handle is checked: a Toss ID's characters, a KakaoPay link's host "
                   "(qr.kakaopay.com), the bank from the list, the account number's digits and dashes; a bank "
                   "goes with an account number. Nothing is kept when one is refused.")
    def patch(self, request, player_id: int):
        player = groups.player_of(self.access.group, player_id)
        if player is None:
            raise NotFound("No such player in this group.")
        params = self.InputSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        changes = dict(params.validated_data["pay"])
        refuse_nul(changes, "pay")
        try:
            player = player_pay_set(player=player, changes=changes, by=self.access.actor("api"))
        except InvalidInput as error:
            raise InvalidInput([Problem(f"pay.{p.field}", p.code, p.message) for p in error.problems]) from None
        handles = handles_of(player)
        return Response(PlayerPayOutputSerializer({
            "id": player.pk, "name": player.name,
            "pay": {"toss": handles.toss, "kakaopay": handles.kakaopay, "bank": handles.bank, "account": handles.account},
        }).data)
