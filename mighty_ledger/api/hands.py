"""A session's hands and events over the API: record, read, amend, delete, restore.

The server numbers every hand; an Idempotency-Key makes a retried post safe,
and an edit must name the version it read (409 with the current hand when it
is stale).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.response import Response

from mighty_ledger import services
from mighty_ledger.api.base import (
    HAND_NUMBER,
    IDEMPOTENCY_KEY,
    PAGE_PARAMETERS,
    READ_ERRORS,
    SESSION_ID,
    WRITE_ERRORS,
    LinkView,
    flag,
    page_response,
    paginated,
    refuse_nul,
    version_asked,
)
from mighty_ledger.api.idempotency import Made, create_once, once_responses
from mighty_ledger.api.serializers import (
    HandEntrySerializer,
    HandOutputSerializer,
    ProblemSerializer,
    StaleVersionSerializer,
    hand_json,
)
from mighty_ledger.http import request_keys
from mighty_ledger.models import Hand, Session
from mighty_ledger.reads.hands import session_hands
from mighty_ledger.services.groups import name_normalised
from scoring.problems import InvalidInput, Problem


def _entry_from(body: object, session: Session, *, drop: tuple[str, ...] = ()) -> dict:
    """The hand entered: the body itself (HAND_JSON fields at the top) or its "entry" object."""
    if not isinstance(body, dict):
        raise InvalidInput([Problem("", "bad_type", "A hand must be a JSON object.")])
    if isinstance(body.get("entry"), dict):
        entry = dict(body["entry"])
    else:
        entry = {key: value for key, value in body.items() if key not in drop}
    refuse_nul(entry)
    _refuse_session_fields(session, entry)
    return entry


def _refuse_session_fields(session: Session, entry: dict) -> None:
    """A hand of a session is scored with the session's system and seats: one that names others
    is refused, not scored as if it had not (the same body on /score would be scored with them).
    The session's own may be sent: a client may send every hand whole."""
    problems = []
    if "system" in entry and entry["system"] != session.preset:
        problems.append(Problem("system", "fixed_by_session", _(
            "This session is scored with {system}, fixed when it started: leave 'system' out, "
            "or send {system}.").format(system=session.preset)))
    # the overrides the session started with, or every option as it froze them
    # null is no options (as on /score): the session's own then, whatever they are
    if entry.get("options") is not None and entry["options"] not in (session.overrides, session.system_options):
        problems.append(Problem("options", "fixed_by_session", _(
            "This session's options were fixed when it started: leave 'options' out, or send the "
            "session's overrides as they are.")))
    seats = entry.get("seats")
    if "seats" in entry and not (isinstance(seats, list) and len(seats) == len(session.seats) and all(
            isinstance(name, str) and name_normalised(name) == name_normalised(seat)
            for name, seat in zip(seats, session.seats, strict=True))):
        problems.append(Problem("seats", "fixed_by_session", _(
            "This session seats {seats}, in that order: leave 'seats' out, or send them as they are.").format(
            seats=", ".join(session.seats))))
    if problems:
        raise InvalidInput(problems)


def meant_number(body: object) -> services.Meant | None:
    """The optional "number" beside a new hand: the hand number the client meant, refused with 409
    (hand_saved_meanwhile) when another client saved that hand first. Without it, the next. With
    it, an optional "seen_hand_count" (how many hands the client knew of when the hand was begun)
    also has a hand saved since under another number asked about when it is this very hand."""
    number = body.get("number") if isinstance(body, dict) else None
    if number is None:
        return None
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number < 2**31:
        raise InvalidInput([Problem("number", "bad_type", _(
            "number is the hand number this hand is meant to be (1 or more), or left out for the next."))])
    seen = body.get("seen_hand_count")
    if seen is not None and (isinstance(seen, bool) or not isinstance(seen, int) or not 0 <= seen < number):
        raise InvalidInput([Problem("seen_hand_count", "bad_type", _(
            "seen_hand_count is how many hands the session had when this hand was begun: a whole "
            "number below number, or left out."))])
    return services.Meant(number=number, seen=seen)


def _record(view: LinkView, session: Session, kind: str, entry: dict, meant: services.Meant | None = None):
    """Record a hand; with an Idempotency-Key, once (api/idempotency.py), and the key stays the
    hand's, so it is never recorded twice even after its kept answer is forgotten."""

    def make(key: str | None) -> Made:
        hand, created = services.hand_record(session=session, entry=entry, kind=kind, idempotency_key=key,
                                             meant=meant, by=view.access.actor("api"))
        return Made(hand_json(hand), replayed=not created)

    # seats and a system equal to the session's do not make a request different
    return create_once(view.request, scope=request_keys.hand_scope(session.pk), make=make,
                       fingerprint=services.hand_fingerprint(session=session, entry=entry, kind=kind))


class SavedMeanwhileSerializer(serializers.Serializer):
    errors = ProblemSerializer(many=True)
    hand = HandOutputSerializer(help_text="The hand another client saved first: the one meant, or the latest.")
    next_number = serializers.IntegerField(help_text="The number a new hand takes now.")


SEEN_HELP = ("With number: how many hands the session had when this hand was begun; a hand saved since "
             "that is this very hand (declarer, contract, partners, payments) is 409 hand_saved_meanwhile too.")


@extend_schema_serializer(component_name="HandRecordInput")
class HandRecordSerializer(HandEntrySerializer):
    number = serializers.IntegerField(required=False, min_value=1, help_text=(
        "The hand number this hand is meant to be; 409 hand_saved_meanwhile when another client saved "
        "that hand first. Left out: the next."))
    seen_hand_count = serializers.IntegerField(required=False, min_value=0, help_text=SEEN_HELP)


NUMBER_HELP = ("The hand number this record is meant to be; 409 hand_saved_meanwhile when another client "
               "saved that hand first. Left out: the next.")
RECORD_RESPONSES = once_responses(HandOutputSerializer, conflict=OpenApiResponse(
    SavedMeanwhileSerializer, description="The hand meant (\"number\") was saved first by another client: "
    "\"hand\" is the hand there, \"next_number\" the number a new hand takes now; or the request with this "
    "Idempotency-Key is still being processed (request_in_progress, Retry-After)."))


IF_MATCH = OpenApiParameter(
    "If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="The hand's version as read (\"3\"): the change is made only if the hand is still at it.",
)
STALE = OpenApiResponse(StaleVersionSerializer, description="The version is stale: someone changed the hand "
                        "first; the body holds it as it is now.")


class HandListView(LinkView):
    @extend_schema(
        operation_id="list_hands", tags=["hands"],
        parameters=[SESSION_ID, *PAGE_PARAMETERS,
                    OpenApiParameter("include_deleted", OpenApiTypes.BOOL, description="Also list deleted hands.")],
        responses={200: paginated(HandOutputSerializer, "HandPage"), **READ_ERRORS},
        summary="A session's hands and events, in order",
    )
    def get(self, request, session_id: int):
        hands = session_hands(self.access.session(session_id), include_deleted=flag(request, "include_deleted"))
        return page_response(self, hands, hand_json)


class HandCreateView(LinkView):
    @extend_schema(
        operation_id="record_hand", tags=["hands"], parameters=[SESSION_ID, IDEMPOTENCY_KEY],
        request=HandRecordSerializer, responses=RECORD_RESPONSES,
        summary="Record a scored hand as the session's next number",
        description="The body is a HAND_JSON hand; the session's seats and frozen system always apply, so "
        "system, options and seats are left out (sent, they must be the session's: another value is 400 "
        "fixed_by_session). The server numbers the hand. An optional top-level \"number\" says which hand "
        "the client meant (the number it showed when the hand was begun): when that is not the session's "
        "next number, another client saved that hand first, and the answer is 409 hand_saved_meanwhile with "
        "\"hand\" (the hand stored there) and \"next_number\"; send it again without \"number\" only if "
        "it is another hand.",
    )
    def post(self, request, session_id: int):
        session = self.access.session(session_id)
        entry = _entry_from(request.data, session, drop=("kind", "number", "seen_hand_count"))
        kind = request.data.get("kind", Hand.SCORED) if isinstance(request.data, dict) else Hand.SCORED
        return _record(self, session, kind, entry, meant_number(request.data))


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
        number = serializers.IntegerField(required=False, min_value=1, help_text=NUMBER_HELP)
        seen_hand_count = serializers.IntegerField(required=False, min_value=0, help_text=SEEN_HELP)

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
        entry.pop("number", None)
        entry.pop("seen_hand_count", None)
        return _record(self, self.access.session(session_id), kind, entry, meant_number(request.data))


class HandDetailView(LinkView):
    @extend_schema_serializer(component_name="HandAmendInput")
    class InputSerializer(HandEntrySerializer):
        version = serializers.IntegerField(required=False, help_text="The version read (or If-Match); a stale one is refused with 409.")

    @extend_schema(operation_id="get_hand", tags=["hands"], parameters=[SESSION_ID, HAND_NUMBER],
                   responses={200: HandOutputSerializer, **READ_ERRORS}, summary="One hand")
    def get(self, request, session_id: int, number: int):
        return Response(hand_json(self.access.hand(self.access.session(session_id), number)))

    @extend_schema(
        operation_id="amend_hand", tags=["hands"], parameters=[SESSION_ID, HAND_NUMBER, IF_MATCH], request=InputSerializer,
        responses={200: HandOutputSerializer, **WRITE_ERRORS,
                   409: OpenApiResponse(StaleVersionSerializer, description="The version is stale: someone changed the hand first; the body holds it as it is now.")},
        summary="Replace a hand's entry; send the version you read",
        description="The body is the hand (HAND_JSON fields, or them inside \"entry\") plus \"version\". "
        "A deal miss or all-pass takes its dealer, shown_by and fine the same way. If-Match (\"3\") may say "
        "the version instead; the 409's \"hand\" is the hand as it is now, to show beside the change refused.",
    )
    def put(self, request, session_id: int, number: int):
        body = request.data
        # If-Match as for a delete or restore (the outbox sends every conditional write that way),
        # or the body's "version"
        version = version_asked(request)
        if version is None:
            raise InvalidInput([Problem("version", "missing",
                                        "Send the hand's version (a whole number) as read, so no one's change is lost.")])
        session = self.access.session(session_id)
        entry = _entry_from(body, session, drop=("version", "kind"))
        hand = self.access.hand(session, number)
        return Response(hand_json(services.hand_amend(hand=hand, entry=entry, version=version, by=self.access.actor("api"))))

    @extend_schema(operation_id="delete_hand", tags=["hands"], parameters=[SESSION_ID, HAND_NUMBER, IF_MATCH],
                   responses={200: HandOutputSerializer, **WRITE_ERRORS, 409: STALE},
                   summary="Delete a hand (its number stays taken; it can be restored)",
                   description="Deleting a deleted hand changes nothing and answers it as it is. With If-Match "
                   "(or a body {\"version\": n}), a hand changed since that version is refused with 409.")
    def delete(self, request, session_id: int, number: int):
        version = version_asked(request)
        hand = self.access.hand(self.access.session(session_id), number)
        return Response(hand_json(services.hand_delete(hand=hand, version=version, by=self.access.actor("api"))))


class HandRestoreView(LinkView):
    @extend_schema_serializer(component_name="HandRestoreInput")
    class InputSerializer(serializers.Serializer):
        version = serializers.IntegerField(required=False, min_value=1,
                                           help_text="The version read; a hand changed since is refused with 409.")

    @extend_schema(operation_id="restore_hand", tags=["hands"], parameters=[SESSION_ID, HAND_NUMBER, IF_MATCH],
                   request=InputSerializer, responses={200: HandOutputSerializer, **WRITE_ERRORS, 409: STALE},
                   summary="Restore a deleted hand",
                   description="Restoring a live hand changes nothing and answers it as it is. With If-Match "
                   "or \"version\", a hand changed since that version is refused with 409.")
    def post(self, request, session_id: int, number: int):
        version = version_asked(request)
        hand = self.access.hand(self.access.session(session_id), number)
        return Response(hand_json(services.hand_restore(hand=hand, version=version, by=self.access.actor("api"))))
