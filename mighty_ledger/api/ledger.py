"""A group's ledger over the API: the group, its players, sessions, settlement and history.

Every operation reaches its objects through the Bearer token's ``Access``
(auth.py); a view parses, calls one service or one read (mighty_ledger.reads),
and serialises. The hands of a session are in hands.py.
"""

from __future__ import annotations

import hashlib

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.response import Response

from mighty_ledger import reads, services
from mighty_ledger.api.base import (
    IDEMPOTENCY_KEY,
    PAGE_PARAMETERS,
    PUBLIC_ERRORS,
    READ_ERRORS,
    SESSION_ID,
    WRITE_ERRORS,
    DayField,
    LinkView,
    PublicView,
    TextField,
    flag,
    page_response,
    paginated,
    played_for_inputs,
    refuse_nul,
    version_asked,
    web_url,
)
from mighty_ledger.api.exceptions import errors_body, problem
from mighty_ledger.api.idempotency import Made, create_once, once_responses
from mighty_ledger.api.pay import OutstandingTransferSerializer, outstanding_json
from mighty_ledger.api.serializers import (
    MoneyTransferSerializer,
    ProblemSerializer,
    RevisionOutputSerializer,
    SessionOutputSerializer,
    TransferSerializer,
    revision_json,
    session_json,
    stakes_taken,
)
from mighty_ledger.api.stakes import SessionStakesView
from mighty_ledger.api.stats import PaymentSerializer, payment_json
from mighty_ledger.http.ratelimit import client_address
from mighty_ledger.reads import balance, groups, payees, revisions
from scoring.problems import InvalidInput, Problem
from scoring.settle import Transfer

# --- groups and players ------------------------------------------------------------------


def _links(request) -> dict:
    def url(name: str) -> str:
        return request.build_absolute_uri(reverse(f"api:{name}"))

    return {"group": url("group"), "players": url("players"), "sessions": url("sessions"),
            "revisions": url("revisions")}


class LinksSerializer(serializers.Serializer):
    group = serializers.URLField()
    players = serializers.URLField()
    sessions = serializers.URLField()
    revisions = serializers.URLField()


class PlayerOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


def _api_actor() -> services.Actor:
    return services.Actor("api")


class GroupCreateView(PublicView):
    # a new group needs no link: a form on another site must not make groups from a visitor's browser
    reads_unlabelled_json = False

    @extend_schema_serializer(component_name="GroupCreateInput")
    class InputSerializer(serializers.Serializer):
        name = TextField(max_length=80)
        players = serializers.ListField(child=TextField(max_length=40), required=False, max_length=50,
                                        help_text="Names of the players to add at once.")

    @extend_schema_serializer(component_name="GroupCreateOutput")
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        edit_token = serializers.CharField(help_text="Reads and writes: keep it among the players.")
        view_token = serializers.CharField(help_text="Reads only: safe to share with onlookers.")
        players = PlayerOutputSerializer(many=True)
        links = LinksSerializer()

    @extend_schema(
        operation_id="create_group", tags=["groups"], request=InputSerializer, parameters=[IDEMPOTENCY_KEY],
        responses=once_responses(OutputSerializer, errors=PUBLIC_ERRORS), auth=[],
        summary="Create a group; the answer holds its edit and view tokens (shown only here)",
        description="An Idempotency-Key is kept per client address: its repeat from the same address "
        "answers with the group's tokens, never one from elsewhere.",
    )
    def post(self, request):
        def make(key: str | None) -> Made:
            params = self.InputSerializer(data=request.data)
            params.is_valid(raise_exception=True)
            group = services.group_create(name=params.validated_data["name"],
                                          player_names=params.validated_data.get("players", []), by=_api_actor())
            return Made(self.OutputSerializer({
                "id": group.id, "name": group.name, "edit_token": group.edit_token, "view_token": group.view_token,
                "players": groups.players_of(group), "links": _links(request),
            }).data)

        # no link yet to scope the key by: the client's address does, so another client sending the
        # same key and body (a naive "1") is never answered with this group's tokens
        address = hashlib.sha256(client_address("groups", request).encode()).hexdigest()[:32]
        return create_once(request, scope=f"api:groups:{address}", make=make)


class GroupDetailView(LinkView):
    @extend_schema_serializer(component_name="GroupDetailOutput")
    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        name = serializers.CharField()
        right = serializers.ChoiceField(choices=["edit", "view"], help_text="What the token sent may do.")
        created_at = serializers.DateTimeField()
        players = PlayerOutputSerializer(many=True)
        links = LinksSerializer()

    @extend_schema(operation_id="get_group", tags=["groups"], responses={200: OutputSerializer, **READ_ERRORS},
                   summary="The group of the Bearer token")
    def get(self, request):
        group = self.access.group
        return Response(self.OutputSerializer({
            "id": group.id, "name": group.name, "right": self.access.right, "created_at": group.created_at,
            "players": groups.players_of(group), "links": _links(request),
        }).data)


class PlayerListView(LinkView):
    @extend_schema(operation_id="list_players", tags=["groups"],
                   responses={200: PlayerOutputSerializer(many=True), **READ_ERRORS}, summary="The group's players")
    def get(self, request):
        return Response(PlayerOutputSerializer(groups.players_of(self.access.group), many=True).data)


class PlayerCreateView(LinkView):
    @extend_schema_serializer(component_name="PlayerCreateInput")
    class InputSerializer(serializers.Serializer):
        name = TextField(max_length=40)

    @extend_schema(operation_id="add_player", tags=["groups"], request=InputSerializer, parameters=[IDEMPOTENCY_KEY],
                   responses=once_responses(PlayerOutputSerializer), summary="Add a player to the group")
    def post(self, request):
        group = self.access.group

        def make(key: str | None) -> Made:
            params = self.InputSerializer(data=request.data)
            params.is_valid(raise_exception=True)
            player = services.player_add(group=group, name=params.validated_data["name"], by=self.access.actor("api"))
            return Made(PlayerOutputSerializer(player).data)

        return create_once(request, scope=f"api:group:{group.pk}:players", make=make)


class PlayersView(PlayerListView, PlayerCreateView):
    """GET lists, POST adds: two operations on one URL."""


# --- sessions ------------------------------------------------------------------------------

SESSION_IF_MATCH = OpenApiParameter(
    "If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="The session's revision as read (\"7\"): deleted only if nothing changed since.",
)
STALE_SESSION = OpenApiResponse(
    inline_serializer("StaleSession", {"errors": ProblemSerializer(many=True), "session": SessionOutputSerializer()}),
    description="The revision is stale: someone changed the session first; the body holds it as it is now.",
)


class SessionListView(LinkView):
    @extend_schema(
        operation_id="list_sessions", tags=["sessions"],
        parameters=[*PAGE_PARAMETERS, OpenApiParameter("deleted", OpenApiTypes.BOOL, description="List the deleted sessions instead (to restore one).")],
        responses={200: paginated(SessionOutputSerializer, "SessionPage"), **READ_ERRORS},
        summary="The group's sessions, newest first",
    )
    def get(self, request):
        sessions = groups.group_sessions(self.access.group, deleted=flag(request, "deleted"))
        return page_response(self, sessions,
                             lambda session: session_json(session, coming=False, web_url=web_url(self, session)))


class SessionCreateView(LinkView):
    @extend_schema_serializer(component_name="SessionCreateInput")
    class InputSerializer(serializers.Serializer):
        seats = serializers.ListField(child=serializers.CharField(max_length=40), max_length=8,
                                      help_text="Players of the group, clockwise.")
        preset = serializers.CharField(max_length=40, required=False, help_text="A preset slug (GET /api/v1/systems).")
        system = serializers.CharField(max_length=40, required=False, help_text="Another name for preset, as in HAND_JSON.")
        overrides = serializers.DictField(required=False, help_text="Options that differ from the preset's (the Options shape).")
        first_dealer = serializers.CharField(max_length=40, required=False, help_text="Defaults to the first seat.")
        played_on = DayField(required=False)
        title = serializers.CharField(max_length=80, required=False, allow_blank=True)
        stake_per_point, currency, rounding_unit, chips_start, chips_per_point = played_for_inputs()

    @extend_schema(operation_id="start_session", tags=["sessions"], request=InputSerializer,
                   parameters=[IDEMPOTENCY_KEY], responses=once_responses(SessionOutputSerializer),
                   summary="Seat the players and freeze the scoring system for the evening")
    def post(self, request):
        group = self.access.group

        def make(key: str | None) -> Made:
            params = self.InputSerializer(data=request.data)
            params.is_valid(raise_exception=True)
            values = dict(params.validated_data)
            preset, system = values.pop("preset", None), values.pop("system", None)
            if preset and system and preset != system:
                # "system" is HAND_JSON's name for a preset: two names must not say two systems
                raise InvalidInput([Problem("system", "conflicting_system", _(
                    "'preset' and 'system' name the same thing, and here they differ ({preset}, {system}): "
                    "send one of them.").format(preset=preset, system=system))])
            preset = preset or system or "pagat-standard"
            refuse_nul(values.get("overrides"), "overrides")
            stakes = stakes_taken(values)
            session = services.session_start(group=group, preset=preset, stakes=stakes,
                                             by=self.access.actor("api"), **values)
            return Made(session_json(session, web_url=web_url(self, session)))

        return create_once(request, scope=f"api:group:{group.pk}:sessions", make=make)


class SessionsView(SessionListView, SessionCreateView):
    """GET lists, POST starts a session."""


class SessionDetailView(SessionStakesView, LinkView):
    """GET reads, PATCH changes what it is played for (stakes.py), DELETE deletes."""

    @extend_schema(operation_id="get_session", tags=["sessions"], parameters=[SESSION_ID],
                   responses={200: SessionOutputSerializer, **READ_ERRORS}, summary="One session with its totals")
    def get(self, request, session_id: int):
        session = self.access.session(session_id)
        return Response(session_json(session, web_url=web_url(self, session)))

    @extend_schema(operation_id="delete_session", tags=["sessions"], parameters=[SESSION_ID, SESSION_IF_MATCH],
                   responses={200: SessionOutputSerializer, **WRITE_ERRORS, 409: STALE_SESSION},
                   summary="Delete a session (it can be restored; nothing is ever lost)",
                   description="With If-Match (the session's revision as read, \"7\"), a session changed since "
                   "(a hand recorded, edited…) is refused with 409 stale_version, as hands are.")
    def delete(self, request, session_id: int):
        revision = version_asked(request, what="session's revision")
        try:
            session = services.session_delete(session=self.access.session(session_id), revision=revision,
                                              by=self.access.actor("api"))
        except services.StaleSession as error:
            current = error.session
            return Response({**errors_body(problem(
                "If-Match", "stale_version",
                f"The session was changed by someone else (it is now at revision {current.revision}); "
                "here it is as it stands: check it and delete it again with this revision.",
            )), "session": session_json(current, web_url=web_url(self, current))}, status=status.HTTP_409_CONFLICT)
        return Response(session_json(session, web_url=web_url(self, session)))


class SessionRestoreView(LinkView):
    @extend_schema(operation_id="restore_session", tags=["sessions"], parameters=[SESSION_ID], request=None,
                   responses={200: SessionOutputSerializer, **WRITE_ERRORS}, summary="Restore a deleted session")
    def post(self, request, session_id: int):
        session = self.access.session(session_id, include_deleted=True)
        session = services.session_restore(session=session, by=self.access.actor("api"))
        return Response(session_json(session, web_url=web_url(self, session)))


# --- settlement and history ----------------------------------------------------------------


def _transfers_json(transfers: list[Transfer] | None) -> list[dict] | None:
    return None if transfers is None else [transfer.as_json() for transfer in transfers]


class SettlementView(LinkView):
    @extend_schema_serializer(component_name="HandSettlement")
    class HandSettlementSerializer(serializers.Serializer):
        number = serializers.IntegerField()
        kind = serializers.CharField()
        payments = serializers.DictField(child=serializers.IntegerField())
        transfers = TransferSerializer(many=True)

    @extend_schema_serializer(component_name="SettlementOutput")
    class OutputSerializer(serializers.Serializer):
        totals = serializers.DictField(child=serializers.IntegerField(), help_text="Points per seat.")
        pot = serializers.IntegerField(help_text="Deal-miss fines not yet won; settled as the party 'pot'.")
        transfers = TransferSerializer(many=True, help_text="The evening's fewest transfers, in points, before payments: what settles the session when nothing was paid yet.")
        currency = serializers.CharField(allow_blank=True)
        rounding_unit = serializers.CharField(allow_null=True, help_text="What money is rounded to: the session's unit, else the currency's minor unit (0.01, or 1 for won and yen); null without a stake.")
        money = serializers.DictField(child=serializers.CharField(), allow_null=True, help_text="Money per seat at the stake, rounded to the unit; null without a stake.")
        money_transfers = MoneyTransferSerializer(many=True, allow_null=True, help_text="The evening's fewest transfers in money, before payments; null without a stake.")
        chips = serializers.DictField(child=serializers.IntegerField(), allow_null=True, help_text="Chips in front of each seat; null without chips.")
        chip_transfers = TransferSerializer(many=True, allow_null=True, help_text="The evening's fewest transfers in chips, before payments; null without chips.")
        settle_in = serializers.ChoiceField(choices=["money", "chips", "points"], help_text="What the table settles in: money with a stake, else chips, else points.")
        hands = serializers.ListField(child=serializers.DictField(), help_text="Each live hand's payments and the transfers that settle it alone.")
        payments = PaymentSerializer(many=True, help_text="The transfers marked as paid and not undone; they never change the totals.")
        outstanding = OutstandingTransferSerializer(many=True, help_text=(
            "What is still owed: the fewest transfers over each party's balance after the payments "
            "(a payment beyond what was owed leaves its payee owing it back), in settle_in's unit, "
            "amounts as exact decimal strings; the same list the settlement page shows."))

    @extend_schema(operation_id="settle_session", tags=["sessions"], parameters=[SESSION_ID],
                   responses={200: OutputSerializer, **READ_ERRORS},
                   summary="Totals, money or chips, the fewest transfers, each hand's transfers, and what is still owed")
    def get(self, request, session_id: int):
        session = self.access.session(session_id)
        settlement = reads.session_settlement(session)
        outstanding = balance.session_outstanding(session, settlement)
        pay = payees.group_pay_handles(self.access.group, can_edit=self.access.can_edit)
        money = settlement.money
        return Response(self.OutputSerializer({
            "totals": session.totals, "pot": settlement.pot,
            "transfers": _transfers_json(settlement.transfers),
            "currency": session.currency,
            "rounding_unit": str(settlement.stakes.unit) if money is not None else None,
            "money": None if money is None else {seat: str(amount) for seat, amount in money.items()},
            "money_transfers": _transfers_json(settlement.money_transfers),
            "chips": settlement.chips, "chip_transfers": _transfers_json(settlement.chip_transfers),
            "settle_in": settlement.unit,
            "hands": [
                {"number": hand.number, "kind": hand.kind, "payments": hand.payments,
                 "transfers": _transfers_json(hand.transfers)}
                for hand in settlement.hands
            ],
            "payments": [payment_json(payment) for payment in outstanding.payments],
            # each with the payee's buttons, through the edit link only (api/pay.py)
            "outstanding": outstanding_json(outstanding.transfers, pay, unit=settlement.unit, currency=session.currency),
        }).data)


class RevisionListView(LinkView):
    @extend_schema(
        operation_id="list_revisions", tags=["history"],
        parameters=[*PAGE_PARAMETERS, OpenApiParameter("session", OpenApiTypes.INT, description="Only this session's changes.")],
        responses={200: paginated(RevisionOutputSerializer, "RevisionPage"), **READ_ERRORS},
        summary="Every change made to the group, newest first, with the state before and after",
    )
    def get(self, request):
        session = None
        if "session" in request.query_params:
            try:
                session_id = int(request.query_params["session"])
            except ValueError:
                raise InvalidInput([Problem("session", "bad_type", "session must be a session's id.")]) from None
            session = self.access.session(session_id, include_deleted=True)
        return page_response(self, revisions.group_revisions(self.access.group, session=session), revision_json)
