"""The hand in progress over the API: open a contract when the auction ends, read it, complete it, throw it in.

The same rules as hands: the body's problems in the error shape, an
``Idempotency-Key`` makes a retried post safe, and completing or throwing in
names the ``version`` read, a stale one answered 409 with the contract as it is.
A session plays one hand at a time: opening a second is 409 with the one in play.
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from mighty_ledger import services
from mighty_ledger.api.base import (
    IDEMPOTENCY_KEY,
    PAGE_PARAMETERS,
    READ_ERRORS,
    SESSION_ID,
    LinkView,
    page_response,
    paginated,
    refuse_nul,
)
from mighty_ledger.api.exceptions import errors_body, problem
from mighty_ledger.api.hands import NUMBER_HELP, SEEN_HELP, meant_number
from mighty_ledger.api.idempotency import Made, create_once, once_responses
from mighty_ledger.api.serializers import (
    HandContractSerializer,
    HandResultSerializer,
    ProblemSerializer,
)
from mighty_ledger.http import request_keys
from mighty_ledger.models import Contract
from mighty_ledger.reads import in_progress
from scoring.problems import InvalidInput, Problem

CONTRACT_ID = OpenApiParameter("contract_id", OpenApiTypes.INT, OpenApiParameter.PATH)


# --- shapes ----------------------------------------------------------------------------------


class OutlookRowSerializer(serializers.Serializer):
    # "from" is a Python keyword: the fields are added by name below
    made = serializers.BooleanField(allow_null=True)
    declarer = serializers.IntegerField(help_text="What the declarer wins (+) or pays (−).")
    partner = serializers.IntegerField(allow_null=True, help_text="What a partner wins or pays; null when the declarer plays alone.")
    defender = serializers.IntegerField(help_text="What each defender wins or pays.")

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = serializers.IntegerField(help_text="The fewest points of the declarer's team this row covers.")
        fields["to"] = serializers.IntegerField(help_text="The most points this row covers.")
        return fields


class OutlookSerializer(serializers.Serializer):
    partner = serializers.CharField(allow_null=True, help_text="The partner, when the call already says who it is.")
    alone = serializers.BooleanField(help_text="The declarer plays alone (no friend).")
    total = serializers.IntegerField(help_text="The points in the deck.")
    rows = OutlookRowSerializer(many=True, help_text="Point counts that pay the same, as one row each.")


class ContractOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=[Contract.OPEN, Contract.COMPLETED, Contract.ABANDONED])
    entry = serializers.DictField(help_text="The HAND_JSON fields known when the auction ended: dealer, sitting_out, declarer, bid, contract, partner_call.")
    outlook = OutlookSerializer(help_text="What each side wins or loses at each count of points, as the engine scores it.")
    version = serializers.IntegerField(help_text="Send it back to complete or throw in the hand.")
    hand = serializers.IntegerField(allow_null=True, help_text="The number of the hand it became, once completed.")
    created_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)


def contract_json(contract: Contract) -> dict:
    return ContractOutputSerializer({
        "id": contract.pk, "status": contract.status, "entry": contract.entry, "outlook": contract.outlook,
        "version": contract.version, "hand": contract.hand.number if contract.hand_id else None,
        "created_at": contract.created_at, "closed_at": contract.closed_at,
    }).data


class ContractConflictSerializer(serializers.Serializer):
    errors = ProblemSerializer(many=True)
    contract = ContractOutputSerializer(help_text="The hand in progress as it is now.")


def _conflict(field: str, code: str, message: str, contract: Contract) -> Response:
    return Response({**errors_body(problem(field, code, message)), "contract": contract_json(contract)},
                    status=status.HTTP_409_CONFLICT)


def _in_progress(contract: Contract) -> Response:
    return _conflict("", "contract_in_progress",
                     "Another hand is already being played in this session; complete it or throw it in first, "
                     "or send its id as 'replacing' to throw it in and open this one.", contract)


def _stale(contract: Contract) -> Response:
    if contract.status != Contract.OPEN:
        return _conflict("version", "contract_closed",
                         f"This hand was already {contract.get_status_display()}; here it is as it stands.", contract)
    return _conflict("version", "stale_version",
                     f"This hand in progress is now at version {contract.version}; here it is as it stands.", contract)


def _version(body: object) -> int:
    version = body.get("version") if isinstance(body, dict) else None
    if isinstance(version, bool) or not isinstance(version, int):
        raise InvalidInput([Problem("version", "missing" if version is None else "bad_type",
                                    "Send the hand in progress's version (a whole number) as read.")])
    return version


def _body(request) -> dict:
    if not isinstance(request.data, dict):
        raise InvalidInput([Problem("", "bad_type", "The body must be a JSON object.")])
    refuse_nul(request.data)
    return request.data


def _contract(view: LinkView, session_id: int, contract_id: int) -> Contract:
    contract = in_progress.contract_of(view.access.session(session_id), contract_id)
    if contract is None:
        raise Http404("No such hand in progress in this session.")
    return contract


CONFLICT = OpenApiResponse(ContractConflictSerializer, description="Completed, thrown in or changed since it was read: the body holds it as it is now.")


# --- the views ------------------------------------------------------------------------------------


class ContractListView(LinkView):
    @extend_schema(
        operation_id="list_contracts", tags=["hands in progress"],
        parameters=[SESSION_ID, *PAGE_PARAMETERS,
                    OpenApiParameter("status", OpenApiTypes.STR, enum=[Contract.OPEN, Contract.COMPLETED, Contract.ABANDONED],
                                     description="Only those with this status: 'open' finds the hand being played now.")],
        responses={200: paginated(ContractOutputSerializer, "ContractPage"), **READ_ERRORS},
        summary="A session's hands in progress, newest first (at most one is open)",
    )
    def get(self, request, session_id: int):
        session = self.access.session(session_id)
        wanted = request.query_params.get("status")
        if wanted is not None and wanted not in (Contract.OPEN, Contract.COMPLETED, Contract.ABANDONED):
            raise InvalidInput([Problem("status", "bad_status", "status is open, completed or abandoned.")])
        return page_response(self, in_progress.session_contracts(session, status=wanted), contract_json)


class ContractOpenView(LinkView):
    @extend_schema_serializer(component_name="ContractOpenInput")
    class InputSerializer(HandContractSerializer):
        replacing = serializers.IntegerField(required=False, help_text="The id of the open hand in progress to throw in for this one.")
        number = serializers.IntegerField(required=False, min_value=1, help_text=NUMBER_HELP)

    @extend_schema(
        operation_id="open_contract", tags=["hands in progress"], parameters=[SESSION_ID, IDEMPOTENCY_KEY],
        request=InputSerializer,
        responses=once_responses(ContractOutputSerializer, conflict=OpenApiResponse(
            ContractConflictSerializer, description="Another hand is in progress: the body holds it; or the "
            "request with this Idempotency-Key is still being processed (request_in_progress, Retry-After).")),
        summary="Record the hand in progress when the auction ends: declarer, contract, partner call",
        description="Every phone shows it until it is completed (it then becomes the session's next hand) or "
        "thrown in. The engine checks the contract under the session's system.",
    )
    def post(self, request, session_id: int):
        body = _body(request)
        replacing = body.get("replacing")
        if replacing is not None and (isinstance(replacing, bool) or not isinstance(replacing, int)):
            raise InvalidInput([Problem("replacing", "bad_type", "replacing is the id of the open hand in progress.")])
        entry = {key: body[key] for key in services.CONTRACT_FIELDS if key in body}
        meant = meant_number(body)
        session = self.access.session(session_id)

        def make(key: str | None) -> Made:
            contract, created = services.contract_open(
                session=session, entry=entry, replacing=replacing, idempotency_key=key, meant=meant,
                by=self.access.actor("api"),
            )
            return Made(contract_json(contract), replayed=not created)

        try:
            return create_once(request, scope=request_keys.contract_scope(session.pk), make=make)
        except services.ContractInProgress as error:
            return _in_progress(error.contract)


class ContractsView(ContractListView, ContractOpenView):
    """GET lists, POST opens a hand in progress."""


class ContractDetailView(LinkView):
    @extend_schema(operation_id="get_contract", tags=["hands in progress"], parameters=[SESSION_ID, CONTRACT_ID],
                   responses={200: ContractOutputSerializer, **READ_ERRORS}, summary="One hand in progress")
    def get(self, request, session_id: int, contract_id: int):
        return Response(contract_json(_contract(self, session_id, contract_id)))


class ContractCompleteView(LinkView):
    @extend_schema_serializer(component_name="ContractCompleteInput")
    class InputSerializer(HandResultSerializer):
        version = serializers.IntegerField(help_text="The version read; a stale one is refused with 409.")
        number = serializers.IntegerField(required=False, min_value=1, help_text=NUMBER_HELP)
        seen_hand_count = serializers.IntegerField(required=False, min_value=0, help_text=SEEN_HELP)

    @extend_schema(
        operation_id="complete_contract", tags=["hands in progress"],
        parameters=[SESSION_ID, CONTRACT_ID, IDEMPOTENCY_KEY], request=InputSerializer,
        responses=once_responses(ContractOutputSerializer, created=status.HTTP_200_OK, conflict=CONFLICT),
        summary="The last trick is played: record the hand with its partners and points",
        description="The contract plus this body is recorded as the session's next hand, scored like any "
        "other; the answer's 'hand' is its number. Any HAND_JSON field sent here replaces the contract's.",
    )
    def post(self, request, session_id: int, contract_id: int):
        body = _body(request)
        version = _version(body)
        contract = _contract(self, session_id, contract_id)
        result = {key: value for key, value in body.items() if key not in ("version", "number", "seen_hand_count")}
        meant = meant_number(body)

        def make(key: str | None) -> Made:
            completed, replayed = services.contract_complete(
                contract=contract, result=result, version=version, idempotency_key=key, meant=meant,
                by=self.access.actor("api"),
            )
            return Made(contract_json(completed), status=status.HTTP_200_OK, replayed=replayed)

        try:
            return create_once(request, scope=request_keys.completion_scope(contract.pk), make=make)
        except services.StaleContract as error:
            return _stale(error.contract)


class ContractAbandonView(LinkView):
    @extend_schema_serializer(component_name="ContractAbandonInput")
    class InputSerializer(serializers.Serializer):
        version = serializers.IntegerField(help_text="The version read; a stale one is refused with 409.")

    @extend_schema(
        operation_id="abandon_contract", tags=["hands in progress"],
        parameters=[SESSION_ID, CONTRACT_ID, IDEMPOTENCY_KEY], request=InputSerializer,
        responses=once_responses(ContractOutputSerializer, created=status.HTTP_200_OK, conflict=CONFLICT),
        summary="Throw the hand in progress in: nothing is scored",
    )
    def post(self, request, session_id: int, contract_id: int):
        version = _version(_body(request))
        contract = _contract(self, session_id, contract_id)

        def make(key: str | None) -> Made:
            abandoned, replayed = services.contract_abandon(
                contract=contract, version=version, idempotency_key=key, by=self.access.actor("api"),
            )
            return Made(contract_json(abandoned), status=status.HTTP_200_OK, replayed=replayed)

        try:
            return create_once(request, scope=request_keys.abandon_scope(contract.pk), make=make)
        except services.StaleContract as error:
            return _stale(error.contract)
