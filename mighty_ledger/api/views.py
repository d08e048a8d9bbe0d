"""The REST API: one APIView per operation, each with its own input and output serializers.

Views parse the request, call ``scoring`` or one service function, and render.
Calculators need no link; everything else is reached through the Bearer
token's ``Access`` (auth.py), so one group's token never reaches another's data.
"""

from __future__ import annotations

import logging
from decimal import Decimal
from functools import lru_cache

from django.http import Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.interface import (
    auction_request,
    check_request,
    next_request,
    redeal_request,
    score_request,
)
from scoring.presets import all_presets, get_preset
from scoring.problems import InvalidInput, Problem
from scoring.settle import chip_counts, fewest_transfers, settle_money
from scoring.systems import system_as_options

from .. import services
from ..access import Access
from ..models import Hand, Player, Revision, Session
from .auth import BearerLinkAuthentication, HasLink
from .exceptions import api_exception_handler
from .serializers import (
    AuctionRequestSerializer,
    AuctionResultSerializer,
    CheckResultSerializer,
    ErrorsSerializer,
    HandEntrySerializer,
    HandOutputSerializer,
    HandRequestSerializer,
    MoneyTransferSerializer,
    NextHandRequestSerializer,
    NextHandSerializer,
    RedealRequestSerializer,
    RedealResultSerializer,
    RevisionOutputSerializer,
    ScoreResultSerializer,
    SessionOutputSerializer,
    StaleVersionSerializer,
    TransferSerializer,
    hand_json,
    revision_json,
    session_json,
)

logger = logging.getLogger(__name__)

# the schema's error responses, all in the HAND_JSON error shape
ERROR = OpenApiResponse(ErrorsSerializer, description="The error shape: {\"errors\": [{\"field\", \"code\", \"message\"}]}.")
BAD_REQUEST = OpenApiResponse(ErrorsSerializer, description="Malformed JSON, or a request the rules refuse.")
UNAUTHENTICATED = OpenApiResponse(ErrorsSerializer, description="No 'Authorization: Bearer <token>' header.")
FORBIDDEN = OpenApiResponse(ErrorsSerializer, description="A view token tried to write.")
NOT_FOUND = OpenApiResponse(ErrorsSerializer, description="Unknown token, or nothing with this id in the token's group.")
READ_ERRORS = {400: BAD_REQUEST, 401: UNAUTHENTICATED, 404: NOT_FOUND, 405: ERROR, 406: ERROR}
WRITE_ERRORS = {400: BAD_REQUEST, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND, 405: ERROR, 406: ERROR, 415: ERROR}
# the calculators and group creation are rate limited per address in production (mighty_ledger/ratelimit.py)
RATE_LIMITED = OpenApiResponse(ErrorsSerializer, description="Too many requests from this address; see Retry-After.")
PUBLIC_ERRORS = {400: BAD_REQUEST, 405: ERROR, 406: ERROR, 415: ERROR, 429: RATE_LIMITED}

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="Sent again with the same body, the first answer comes back and nothing new is "
    "recorded; with a different body the answer is 422. At most 200 characters.",
)


class ApiView(APIView):
    """JSON in, JSON out, every error in the HAND_JSON error shape."""

    parser_classes = [JSONParser]
    renderer_classes = [JSONRenderer]

    def get_exception_handler(self):
        return api_exception_handler


class PublicView(ApiView):
    authentication_classes: list = []
    permission_classes = [AllowAny]


class LinkView(ApiView):
    authentication_classes = [BearerLinkAuthentication]
    permission_classes = [HasLink]

    @property
    def access(self) -> Access:
        return self.request.auth


def _no_nul(value: object, field: str = "") -> None:
    """NUL characters cannot be stored in PostgreSQL text or jsonb: refuse them as input."""
    if isinstance(value, str):
        if "\x00" in value:
            raise InvalidInput([Problem(field, "bad_character", "Text cannot contain the NUL character.")])
    elif isinstance(value, dict):
        for key, item in value.items():
            _no_nul(key, field)
            _no_nul(item, f"{field}.{key}" if field else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _no_nul(item, f"{field}[{index}]")


def _calculate(calculator, body: object) -> dict:
    """Run a stateless engine call; an unexpected engine exception is logged and refused as 400.

    InvalidInput is the engine's answer for bad input. Anything else is a bug in
    the engine: it is logged with the input so it can be fixed there, and the
    client gets an error entry instead of a 500.
    """
    try:
        return calculator(body)
    except InvalidInput:
        raise
    except Exception:
        logger.exception("engine failed on %s for input %r", calculator.__name__, body)
        raise InvalidInput([Problem("", "engine_error", "This request could not be worked out; it has been logged.")]) from None


# --- the stateless calculators -------------------------------------------------------


class ScoreView(PublicView):
    @extend_schema(
        operation_id="score_hand", tags=["calculators"], request=HandRequestSerializer,
        responses={200: ScoreResultSerializer, **PUBLIC_ERRORS},
        summary="Score a hand (HAND_JSON hand → result)",
    )
    def post(self, request):
        return Response(_calculate(score_request, request.data))


class CheckView(PublicView):
    @extend_schema(
        operation_id="check_hand", tags=["calculators"], request=HandRequestSerializer,
        responses={200: CheckResultSerializer, **PUBLIC_ERRORS},
        summary="Check a hand against every legality rule (200 whether legal or not)",
        description="An illegal or malformed hand is 200 with legal false; only a body that is not JSON is 400.",
    )
    def post(self, request):
        return Response(_calculate(check_request, request.data))


class AuctionCheckView(PublicView):
    @extend_schema(
        operation_id="check_auction", tags=["calculators"], request=AuctionRequestSerializer,
        responses={200: AuctionResultSerializer, **PUBLIC_ERRORS},
        summary="Walk an auction and find the first illegal call, the winner and the winning bid",
    )
    def post(self, request):
        return Response(_calculate(auction_request, request.data))


class RedealView(PublicView):
    @extend_schema(
        operation_id="check_redeal", tags=["calculators"], request=RedealRequestSerializer,
        responses={200: RedealResultSerializer, **PUBLIC_ERRORS},
        summary="Does a hand qualify for a deal miss (redeal), and how likely is one",
    )
    def post(self, request):
        return Response(_calculate(redeal_request, request.data))


class NextHandView(PublicView):
    @extend_schema(
        operation_id="next_hand", tags=["calculators"], request=NextHandRequestSerializer,
        responses={200: NextHandSerializer, **PUBLIC_ERRORS},
        summary="Who deals, who bids first and who sits out on the coming hand",
    )
    def post(self, request):
        return Response(_calculate(next_request, request.data))


# --- systems ---------------------------------------------------------------------------


class RuleSectionSerializer(serializers.Serializer):
    title = serializers.CharField(allow_blank=True)
    lines = serializers.ListField(child=serializers.CharField())


class DealMissCriterionSerializer(serializers.Serializer):
    id = serializers.CharField()
    rule = serializers.CharField(help_text="What the criterion asks, in words.")
    probability = serializers.FloatField(allow_null=True, help_text="Chance that a random deal meets it.")
    probability_exact = serializers.CharField(allow_null=True)


class DealMissSerializer(serializers.Serializer):
    criteria = DealMissCriterionSerializer(many=True)
    threshold = serializers.CharField()
    fine = serializers.IntegerField()
    probability = serializers.FloatField(allow_null=True, help_text="Chance that a random deal qualifies under any criterion.")
    probability_exact = serializers.CharField(allow_null=True)


class SystemOutputSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    source = serializers.CharField(allow_blank=True)
    options = serializers.DictField(help_text="Every option, in the HAND_JSON Options shape.")
    rules_in_words = RuleSectionSerializer(many=True, help_text="The system described in words, section by section.")
    deal_miss = DealMissSerializer()


def _fraction_json(chance) -> tuple[float | None, str | None]:
    if chance is None:
        return None, None
    return float(chance), f"{chance.numerator}/{chance.denominator}"


def _rules_in_words(system) -> list[dict]:
    try:
        from scoring.describe import describe
    except ImportError:
        return []
    sections = []
    for section in describe(system):
        if isinstance(section, str):
            sections.append({"title": "", "lines": [str(section)]})
        else:
            sections.append({"title": str(getattr(section, "title", "")),
                             "lines": [str(line) for line in getattr(section, "lines", ())]})
    return sections


def _deal_miss(system) -> dict:
    try:
        from scoring import redeal
    except ImportError:
        redeal = None
    words = getattr(redeal, "CRITERION_RULES", {})
    try:
        per_criterion = redeal.criterion_probabilities(system)
        overall = redeal.deal_miss_probability(system)
    except AttributeError:
        per_criterion, overall = {}, None
    criteria = []
    for criterion in system.deal_miss.criteria:
        probability, exact = _fraction_json(per_criterion.get(criterion))
        criteria.append({"id": criterion, "rule": words.get(criterion, criterion),
                         "probability": probability, "probability_exact": exact})
    probability, exact = _fraction_json(overall)
    return {"criteria": criteria, "threshold": system.deal_miss.threshold, "fine": system.deal_miss.fine,
            "probability": probability, "probability_exact": exact}


@lru_cache(maxsize=64)
def system_json(slug: str) -> dict:
    """A preset as the API shows it; cached, since the exact odds take a moment to count."""
    preset = get_preset(slug)
    system = preset.system()
    return SystemOutputSerializer({
        "slug": preset.slug, "name": preset.name, "description": preset.description,
        "source": preset.source, "options": system_as_options(system),
        "rules_in_words": _rules_in_words(system), "deal_miss": _deal_miss(system),
    }).data


class SystemListView(PublicView):
    @extend_schema(
        operation_id="list_systems", tags=["calculators"],
        responses={200: SystemOutputSerializer(many=True), **READ_ERRORS},
        summary="Every preset scoring system, with its options, its rules in words and its deal-miss criteria",
    )
    def get(self, request):
        return Response([system_json(preset.slug) for preset in all_presets()])


class SystemDetailView(PublicView):
    @extend_schema(
        operation_id="get_system", tags=["calculators"],
        responses={200: SystemOutputSerializer, **READ_ERRORS},
        summary="One preset scoring system",
    )
    def get(self, request, slug: str):
        try:
            return Response(system_json(slug))
        except InvalidInput as error:
            return Response(error.as_json(), status=status.HTTP_404_NOT_FOUND)


class UnknownEndpointView(PublicView):
    """Any other path under api/v1/: a 404 in the error shape."""

    schema = None  # not an operation of the API

    def _not_found(self, request, *args, **kwargs):
        return Response(
            {"errors": [{"field": "", "code": "not_found", "message": f"There is no endpoint at {request.path}."}]},
            status=status.HTTP_404_NOT_FOUND,
        )

    get = post = put = patch = delete = _not_found


# --- groups and players ------------------------------------------------------------------


class Pages(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


def paginated(item_serializer: type[serializers.Serializer], name: str) -> serializers.Serializer:
    """The schema of a page: count, next, previous and the page's results."""
    return inline_serializer(name, {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": item_serializer(many=True),
    })


PAGE_PARAMETERS = [
    OpenApiParameter("page", OpenApiTypes.INT, description="Page number, from 1."),
    OpenApiParameter("page_size", OpenApiTypes.INT, description="Items per page, at most 200 (default 50)."),
]


def _page(view: APIView, queryset, to_json) -> Response:
    paginator = Pages()
    items = paginator.paginate_queryset(queryset, view.request, view=view)
    return paginator.get_paginated_response([to_json(item) for item in items])


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
    @extend_schema_serializer(component_name="GroupCreateInput")
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=80)
        players = serializers.ListField(child=serializers.CharField(max_length=40), required=False, max_length=50,
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
        operation_id="create_group", tags=["groups"], request=InputSerializer,
        responses={201: OutputSerializer, **PUBLIC_ERRORS}, auth=[],
        summary="Create a group; the answer holds its edit and view tokens (shown only here)",
    )
    def post(self, request):
        params = self.InputSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        group = services.group_create(name=params.validated_data["name"],
                                      player_names=params.validated_data.get("players", []), by=_api_actor())
        return Response(self.OutputSerializer({
            "id": group.id, "name": group.name, "edit_token": group.edit_token, "view_token": group.view_token,
            "players": group.players.all(), "links": _links(request),
        }).data, status=status.HTTP_201_CREATED)


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
            "players": group.players.all(), "links": _links(request),
        }).data)


class PlayerListView(LinkView):
    @extend_schema(operation_id="list_players", tags=["groups"],
                   responses={200: PlayerOutputSerializer(many=True), **READ_ERRORS}, summary="The group's players")
    def get(self, request):
        players = Player.objects.filter(group=self.access.group)
        return Response(PlayerOutputSerializer(players, many=True).data)


class PlayerCreateView(LinkView):
    @extend_schema_serializer(component_name="PlayerCreateInput")
    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=40)

    @extend_schema(operation_id="add_player", tags=["groups"], request=InputSerializer,
                   responses={201: PlayerOutputSerializer, **WRITE_ERRORS}, summary="Add a player to the group")
    def post(self, request):
        params = self.InputSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        player = services.player_add(group=self.access.group, name=params.validated_data["name"],
                                     by=self.access.actor("api"))
        return Response(PlayerOutputSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayersView(PlayerListView, PlayerCreateView):
    """GET lists, POST adds: two operations on one URL."""


# --- sessions ------------------------------------------------------------------------------

SESSION_ID = OpenApiParameter("session_id", OpenApiTypes.INT, OpenApiParameter.PATH)
HAND_NUMBER = OpenApiParameter("number", OpenApiTypes.INT, OpenApiParameter.PATH,
                               description="The hand's number in its session, from 1.")


def _flag(request, name: str) -> bool:
    return request.query_params.get(name, "").lower() in ("1", "true", "yes")


class SessionListView(LinkView):
    @extend_schema(
        operation_id="list_sessions", tags=["sessions"],
        parameters=[*PAGE_PARAMETERS, OpenApiParameter("deleted", OpenApiTypes.BOOL, description="List the deleted sessions instead (to restore one).")],
        responses={200: paginated(SessionOutputSerializer, "SessionPage"), **READ_ERRORS},
        summary="The group's sessions, newest first",
    )
    def get(self, request):
        sessions = Session.objects.filter(group=self.access.group)
        sessions = sessions.deleted() if _flag(request, "deleted") else sessions.live()
        return _page(self, sessions.newest_first(), session_json)


class SessionCreateView(LinkView):
    @extend_schema_serializer(component_name="SessionCreateInput")
    class InputSerializer(serializers.Serializer):
        seats = serializers.ListField(child=serializers.CharField(max_length=40), max_length=8,
                                      help_text="Players of the group, clockwise.")
        preset = serializers.CharField(max_length=40, required=False, help_text="A preset slug (GET /api/v1/systems).")
        system = serializers.CharField(max_length=40, required=False, help_text="Another name for preset, as in HAND_JSON.")
        overrides = serializers.DictField(required=False, help_text="Options that differ from the preset's (the Options shape).")
        first_dealer = serializers.CharField(max_length=40, required=False, help_text="Defaults to the first seat.")
        played_on = serializers.DateField(required=False)
        title = serializers.CharField(max_length=80, required=False, allow_blank=True)
        stake_per_point = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=0, required=False, allow_null=True)
        currency = serializers.CharField(max_length=8, required=False, allow_blank=True)
        rounding_unit = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=Decimal("0.01"), required=False, allow_null=True)
        chips_start = serializers.IntegerField(min_value=0, max_value=1_000_000_000, required=False, allow_null=True)
        chips_per_point = serializers.IntegerField(min_value=1, max_value=1_000_000, required=False, allow_null=True)

    @extend_schema(operation_id="start_session", tags=["sessions"], request=InputSerializer,
                   responses={201: SessionOutputSerializer, **WRITE_ERRORS},
                   summary="Seat the players and freeze the scoring system for the evening")
    def post(self, request):
        params = self.InputSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        values = dict(params.validated_data)
        preset = values.pop("preset", None) or values.pop("system", None) or "pagat-standard"
        values.pop("system", None)
        _no_nul(values.get("overrides"), "overrides")
        session = services.session_start(group=self.access.group, preset=preset, by=self.access.actor("api"), **values)
        return Response(session_json(session), status=status.HTTP_201_CREATED)


class SessionsView(SessionListView, SessionCreateView):
    """GET lists, POST starts a session."""


class SessionDetailView(LinkView):
    @extend_schema(operation_id="get_session", tags=["sessions"], parameters=[SESSION_ID],
                   responses={200: SessionOutputSerializer, **READ_ERRORS}, summary="One session with its totals")
    def get(self, request, session_id: int):
        return Response(session_json(self.access.session(session_id)))

    @extend_schema(operation_id="delete_session", tags=["sessions"], parameters=[SESSION_ID],
                   responses={200: SessionOutputSerializer, **WRITE_ERRORS},
                   summary="Delete a session (it can be restored; nothing is ever lost)")
    def delete(self, request, session_id: int):
        session = services.session_delete(session=self.access.session(session_id), by=self.access.actor("api"))
        return Response(session_json(session))


class SessionRestoreView(LinkView):
    @extend_schema(operation_id="restore_session", tags=["sessions"], parameters=[SESSION_ID], request=None,
                   responses={200: SessionOutputSerializer, **WRITE_ERRORS}, summary="Restore a deleted session")
    def post(self, request, session_id: int):
        session = self.access.session(session_id, include_deleted=True)
        session = services.session_restore(session=session, by=self.access.actor("api"))
        return Response(session_json(session))


# --- hands ---------------------------------------------------------------------------------


def _entry_from(body: object, *, drop: tuple[str, ...] = ()) -> dict:
    """The hand entered: the body itself (HAND_JSON fields at the top) or its "entry" object."""
    if not isinstance(body, dict):
        raise InvalidInput([Problem("", "bad_type", "A hand must be a JSON object.")])
    if isinstance(body.get("entry"), dict):
        entry = dict(body["entry"])
    else:
        entry = {key: value for key, value in body.items() if key not in drop}
    _no_nul(entry)
    return entry


def _idempotency_key(request) -> str | None:
    key = request.headers.get("Idempotency-Key", "").strip()
    if len(key) > 200:
        raise InvalidInput([Problem("Idempotency-Key", "too_long", "An Idempotency-Key can be at most 200 characters.")])
    return key or None


def _record(view: LinkView, session_id: int, kind: str, entry: dict) -> Response:
    try:
        hand, created = services.hand_record(
            session=view.access.session(session_id), entry=entry, kind=kind,
            idempotency_key=_idempotency_key(view.request), by=view.access.actor("api"),
        )
    except Session.DoesNotExist:  # deleted while the hand was being scored
        raise Http404("No such session in this group.") from None
    headers = {} if created else {"Idempotent-Replayed": "true"}
    return Response(hand_json(hand), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK, headers=headers)


RECORD_RESPONSES = {
    201: HandOutputSerializer,
    200: OpenApiResponse(HandOutputSerializer, description="The same Idempotency-Key and body again: the first hand, nothing new recorded."),
    **WRITE_ERRORS,
    422: OpenApiResponse(ErrorsSerializer, description="The Idempotency-Key was used before with a different body."),
}


class HandListView(LinkView):
    @extend_schema(
        operation_id="list_hands", tags=["hands"],
        parameters=[SESSION_ID, *PAGE_PARAMETERS,
                    OpenApiParameter("include_deleted", OpenApiTypes.BOOL, description="Also list deleted hands.")],
        responses={200: paginated(HandOutputSerializer, "HandPage"), **READ_ERRORS},
        summary="A session's hands and events, in order",
    )
    def get(self, request, session_id: int):
        hands = self.access.session(session_id).hands.all()
        if not _flag(request, "include_deleted"):
            hands = hands.live()
        return _page(self, hands.in_order(), hand_json)


class HandCreateView(LinkView):
    @extend_schema(
        operation_id="record_hand", tags=["hands"], parameters=[SESSION_ID, IDEMPOTENCY_KEY],
        request=HandEntrySerializer, responses=RECORD_RESPONSES,
        summary="Record a scored hand as the session's next number",
        description="The body is a HAND_JSON hand; the session's seats and frozen system always apply, so "
        "system, options and seats may be left out. The server numbers the hand.",
    )
    def post(self, request, session_id: int):
        entry = _entry_from(request.data, drop=("kind",))
        kind = request.data.get("kind", Hand.SCORED) if isinstance(request.data, dict) else Hand.SCORED
        return _record(self, session_id, kind, entry)


class HandsView(HandListView, HandCreateView):
    """GET lists, POST records a hand."""


class EventCreateView(LinkView):
    @extend_schema_serializer(component_name="EventCreateInput")
    class InputSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=[Hand.DEAL_MISS, Hand.ALL_PASS])
        dealer = serializers.CharField(max_length=40)
        shown_by = serializers.CharField(max_length=40, required=False, help_text="Deal miss: who showed the hand.")
        fine = serializers.IntegerField(min_value=0, max_value=1000, required=False, help_text="Deal miss: the fine the dealer pays into the pot; the system's when left out.")
        cards = serializers.ListField(child=serializers.CharField(max_length=8), required=False, max_length=20,
                                      help_text="Deal miss: the hand shown; when given, it must qualify.")

    @extend_schema(
        operation_id="record_event", tags=["hands"], parameters=[SESSION_ID, IDEMPOTENCY_KEY],
        request=InputSerializer, responses=RECORD_RESPONSES,
        summary="Record a deal miss (redeal) or an all-pass throw-in as the session's next number",
    )
    def post(self, request, session_id: int):
        params = self.InputSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        entry = dict(params.validated_data)
        kind = entry.pop("kind")
        return _record(self, session_id, kind, entry)


class HandDetailView(LinkView):
    @extend_schema_serializer(component_name="HandAmendInput")
    class InputSerializer(HandEntrySerializer):
        version = serializers.IntegerField(help_text="The version read; a stale one is refused with 409.")

    @extend_schema(operation_id="get_hand", tags=["hands"], parameters=[SESSION_ID, HAND_NUMBER],
                   responses={200: HandOutputSerializer, **READ_ERRORS}, summary="One hand")
    def get(self, request, session_id: int, number: int):
        return Response(hand_json(self.access.hand(self.access.session(session_id), number)))

    @extend_schema(
        operation_id="amend_hand", tags=["hands"], parameters=[SESSION_ID, HAND_NUMBER], request=InputSerializer,
        responses={200: HandOutputSerializer, **WRITE_ERRORS,
                   409: OpenApiResponse(StaleVersionSerializer, description="The version is stale: someone changed the hand first; the body holds it as it is now.")},
        summary="Replace a hand's entry; send the version you read",
        description="The body is the hand (HAND_JSON fields, or them inside \"entry\") plus \"version\". "
        "A deal miss or all-pass takes its dealer, shown_by and fine the same way.",
    )
    def put(self, request, session_id: int, number: int):
        body = request.data
        version = body.get("version") if isinstance(body, dict) else None
        if isinstance(version, bool) or not isinstance(version, int):
            raise InvalidInput([Problem("version", "missing" if version is None else "bad_type",
                                        "Send the hand's version (a whole number) as read, so no one's change is lost.")])
        entry = _entry_from(body, drop=("version", "kind"))
        hand = self.access.hand(self.access.session(session_id), number)
        return Response(hand_json(services.hand_amend(hand=hand, entry=entry, version=version, by=self.access.actor("api"))))

    @extend_schema(operation_id="delete_hand", tags=["hands"], parameters=[SESSION_ID, HAND_NUMBER],
                   responses={200: HandOutputSerializer, **WRITE_ERRORS},
                   summary="Delete a hand (its number stays taken; it can be restored)")
    def delete(self, request, session_id: int, number: int):
        hand = self.access.hand(self.access.session(session_id), number)
        return Response(hand_json(services.hand_delete(hand=hand, by=self.access.actor("api"))))


class HandRestoreView(LinkView):
    @extend_schema(operation_id="restore_hand", tags=["hands"], parameters=[SESSION_ID, HAND_NUMBER], request=None,
                   responses={200: HandOutputSerializer, **WRITE_ERRORS}, summary="Restore a deleted hand")
    def post(self, request, session_id: int, number: int):
        hand = self.access.hand(self.access.session(session_id), number)
        return Response(hand_json(services.hand_restore(hand=hand, by=self.access.actor("api"))))


# --- settlement and history ----------------------------------------------------------------

POT = "pot"


def _with_pot(balances: dict) -> dict:
    """Balances plus the deal-miss pot as one more party, so they sum to zero and can be settled."""
    pot = -sum(balances.values())
    return {**balances, POT: pot} if pot else dict(balances)


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
        transfers = TransferSerializer(many=True, help_text="The fewest transfers, in points, that settle the session.")
        currency = serializers.CharField(allow_blank=True)
        money = serializers.DictField(child=serializers.CharField(), allow_null=True, help_text="Money per seat at the stake, rounded to the unit; null without a stake.")
        money_transfers = MoneyTransferSerializer(many=True, allow_null=True)
        chips = serializers.DictField(child=serializers.IntegerField(), allow_null=True, help_text="Chips in front of each seat; null without chips.")
        hands = serializers.ListField(child=serializers.DictField(), help_text="Each live hand's payments and the transfers that settle it alone.")

    @extend_schema(operation_id="settle_session", tags=["sessions"], parameters=[SESSION_ID],
                   responses={200: OutputSerializer, **READ_ERRORS},
                   summary="Totals, money or chips, the fewest transfers, and each hand's transfers")
    def get(self, request, session_id: int):
        session = self.access.session(session_id)
        balances = _with_pot(session.totals)
        money = money_transfers = chips = None
        if session.stake_per_point:
            unit = session.rounding_unit or Decimal("0.01")
            money = settle_money(balances, session.stake_per_point, unit)
            money_transfers = [t.as_json() for t in fewest_transfers(money)]
            money = {seat: str(amount) for seat, amount in money.items()}
        if session.chips_start is not None and session.chips_per_point:
            chips = chip_counts(session.totals, session.chips_start, session.chips_per_point)
        hands = [
            {"number": hand.number, "kind": hand.kind, "payments": hand.payments,
             "transfers": [t.as_json() for t in fewest_transfers(_with_pot(hand.payments))]}
            for hand in session.hands.live().in_order()
        ]
        return Response(self.OutputSerializer({
            "totals": session.totals, "pot": session.pot,
            "transfers": [t.as_json() for t in fewest_transfers(balances)],
            "currency": session.currency, "money": money, "money_transfers": money_transfers,
            "chips": chips, "hands": hands,
        }).data)


class RevisionListView(LinkView):
    @extend_schema(
        operation_id="list_revisions", tags=["history"],
        parameters=[*PAGE_PARAMETERS, OpenApiParameter("session", OpenApiTypes.INT, description="Only this session's changes.")],
        responses={200: paginated(RevisionOutputSerializer, "RevisionPage"), **READ_ERRORS},
        summary="Every change made to the group, newest first, with the state before and after",
    )
    def get(self, request):
        revisions = Revision.objects.filter(group=self.access.group).select_related("hand")
        if "session" in request.query_params:
            try:
                session_id = int(request.query_params["session"])
            except ValueError:
                raise InvalidInput([Problem("session", "bad_type", "session must be a session's id.")]) from None
            revisions = revisions.filter(session=self.access.session(session_id, include_deleted=True))
        return _page(self, revisions, revision_json)
