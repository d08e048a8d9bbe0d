"""What every API operation shares: the three kinds of view, the error responses, paging.

Calculators (calculators.py) need no link; the ledger (ledger.py, hands.py) is
reached through the Bearer token's ``Access`` (auth.py), so one group's token
never reaches another's data. Every error is in the HAND_JSON error shape
(exceptions.py).
"""

from __future__ import annotations

import codecs
import json
import re
from decimal import Decimal

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve, reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import ParseError
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import JSONParser, get_encoding
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.utils import json as drf_json
from rest_framework.views import APIView

from mighty_ledger.api.auth import BearerLinkAuthentication, HasLink
from mighty_ledger.api.exceptions import api_exception_handler, shortened_errors
from mighty_ledger.api.serializers import ErrorsSerializer
from mighty_ledger.http.access import Access
from mighty_ledger.reads.filters import no_such_day
from scoring.problems import InvalidInput, Problem

# the schema's error responses, all in the HAND_JSON error shape
ERROR = OpenApiResponse(ErrorsSerializer, description="The error shape: {\"errors\": [{\"field\", \"code\", \"message\"}]}.")
BAD_REQUEST = OpenApiResponse(ErrorsSerializer, description="Malformed JSON, or a request the rules refuse.")
UNAUTHENTICATED = OpenApiResponse(ErrorsSerializer, description="No 'Authorization: Bearer <token>' header.")
FORBIDDEN = OpenApiResponse(ErrorsSerializer, description="A view token tried to write.")
NOT_FOUND = OpenApiResponse(ErrorsSerializer, description="Unknown token, or nothing with this id in the token's group.")
# any address past 4096 bytes (mighty_ledger/http/middleware.py), a query string included
URI_TOO_LONG = OpenApiResponse(ErrorsSerializer, description="The address is longer than 4096 bytes (uri_too_long).")
READ_ERRORS = {400: BAD_REQUEST, 401: UNAUTHENTICATED, 404: NOT_FOUND, 405: ERROR, 406: ERROR, 414: URI_TOO_LONG}
WRITE_ERRORS = {400: BAD_REQUEST, 401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND, 405: ERROR, 406: ERROR,
                414: URI_TOO_LONG, 415: ERROR}
# the calculators and group creation are rate limited per address in production (mighty_ledger/http/ratelimit.py)
RATE_LIMITED = OpenApiResponse(ErrorsSerializer, description="Too many requests from this address; see Retry-After.")
PUBLIC_ERRORS = {400: BAD_REQUEST, 405: ERROR, 406: ERROR, 414: URI_TOO_LONG, 415: ERROR, 429: RATE_LIMITED}

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="Sent again with the same body within 24 hours, the first answer comes back as it was "
    "and nothing new is recorded; with a different body the answer is 422; while the first request is "
    "still being processed, 409 (request_in_progress). At most 200 characters.",
)


class _NumberTooLong(ValueError):
    pass


def _whole_number(digits: str) -> int:
    # Python refuses to read an integer of more than 4300 digits (a guard against slow parsing),
    # and says so in words meant for programmers (sys.set_int_max_str_digits)
    try:
        return int(digits)
    except ValueError:
        raise _NumberTooLong(digits) from None


def _load_json(text, *, strict: bool = False) -> object:
    # strict: NaN and Infinity are not JSON (DRF's STRICT_JSON)
    return json.loads(text, parse_int=_whole_number, parse_constant=drf_json.strict_constant if strict else None)


class JsonBodyParser(JSONParser):
    """DRF's JSON parser, saying what a person understands when a number is too long to read."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = get_encoding(parser_context or {})
        try:
            return _load_json(codecs.getreader(encoding)(stream).read(), strict=self.strict)
        except _NumberTooLong:
            raise ParseError(_("A number in the body is too long.")) from None
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from None


# what a client sends a JSON body as when it does not say (curl -d, requests' data=): read as JSON
_UNLABELLED = ("", "application/x-www-form-urlencoded", "text/plain")


class ApiView(APIView):
    """JSON in, JSON out, every error in the HAND_JSON error shape."""

    parser_classes = [JsonBodyParser]
    renderer_classes = [JSONRenderer]
    # a JSON body labelled as a form or as text is read as JSON (below); not where that would let
    # another site's page make something with a plain form post (no link needed, nothing to stop it)
    reads_unlabelled_json = True

    def initialize_request(self, request, *args, **kwargs):
        # A body that is JSON is read as JSON whatever it is labelled, when the label is one a client
        # sends without meaning it: ``curl -d '{…}'`` says a form, a bare ``requests.post(data=…)``
        # says nothing. Anything else (a real form, a file) is still 415 in the error shape.
        labelled = request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
        unlabelled = labelled in _UNLABELLED and self.reads_unlabelled_json
        if request.method in ("POST", "PUT", "PATCH") and unlabelled and _is_json(_body(request)):
            request.META["CONTENT_TYPE"] = "application/json"
        return super().initialize_request(request, *args, **kwargs)

    def get_exception_handler(self):
        return api_exception_handler


def _body(request) -> bytes:
    # too big to read is the parser's to refuse, in the error shape, as for any other body
    try:
        return request.body
    except RequestDataTooBig:
        return b""


def _is_json(body: bytes) -> bool:
    """Whether a body is a JSON object or array (a form's ``a=1&b=2`` is neither)."""
    stripped = body.lstrip()
    if not stripped.startswith((b"{", b"[")):
        return False
    try:
        _load_json(stripped)
    except _NumberTooLong:
        return True  # JSON, for the parser to refuse in words
    except ValueError:  # not JSON, or not UTF-8
        return False
    return True


class PublicView(ApiView):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        # every public POST (the calculators, group creation) works on a JSON body: none at all is
        # a mistake to point out, not an empty hand to answer "illegal" about
        if request.method == "POST" and hasattr(self, "post") and not request.body:
            raise InvalidInput([Problem("", "missing_body", "Send the request as a JSON object in the body.")])


class TextField(serializers.CharField):
    """A CharField that takes only JSON strings: DRF's turns 0 into "0", so a name could be a number."""

    default_error_messages = {"invalid": "Send text here, as a JSON string."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


def played_for_inputs() -> tuple[serializers.Field, ...]:
    """What a new session or club night is played for, as its input takes it: stake_per_point,
    currency, rounding_unit, chips_start and chips_per_point, in that order, each optional (left
    out: points alone). Made here for both creates, so that one rule bounds each stake; the
    currency is text (a JSON string), as every name the API takes is."""
    return (
        serializers.DecimalField(max_digits=12, decimal_places=2, min_value=0, required=False, allow_null=True),
        TextField(max_length=8, required=False, allow_blank=True),
        serializers.DecimalField(max_digits=12, decimal_places=2, min_value=Decimal("0.01"), required=False,
                                 allow_null=True),
        serializers.IntegerField(min_value=0, max_value=1_000_000_000, required=False, allow_null=True),
        serializers.IntegerField(min_value=1, max_value=1_000_000, required=False, allow_null=True),
    )


class JsonBooleanField(serializers.BooleanField):
    """A BooleanField that takes only JSON true and false: DRF's reads "yes", "on" and 1 as true, so
    "overpay": "no" typed by hand could mean either."""

    default_error_messages = {"invalid": "Send true or false here, as a JSON boolean."}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class DayField(serializers.DateField):
    """A DateField that says a day does not exist (2026-02-30), not that its format is wrong."""

    def to_internal_value(self, value):
        refusal = no_such_day(value)
        if refusal is not None:
            raise serializers.ValidationError(refusal, code="invalid")
        return super().to_internal_value(value)


class LinkView(ApiView):
    authentication_classes = [BearerLinkAuthentication]
    permission_classes = [HasLink]

    @property
    def access(self) -> Access:
        return self.request.auth


class UnknownEndpointView(PublicView):
    """Any other path under api/v1/: a 404 in the error shape."""

    schema = None  # not an operation of the API

    def _not_found(self, request, *args, **kwargs):
        return Response(
            shortened_errors({"errors": [{"field": "", "code": "not_found",
                                          "message": f"There is no endpoint at {request.path}."}]}),
            status=status.HTTP_404_NOT_FOUND,
        )

    get = post = put = patch = delete = _not_found


_not_found_view = UnknownEndpointView.as_view()


@csrf_exempt  # as every API view: a link in the Authorization header, never a cookie
def unknown_endpoint(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    """Any other path under api/v1/: the endpoint it names with a slash too many (``/api/v1/score/``,
    as many clients write it), else a 404 in the error shape."""
    if request.path_info.endswith("/"):
        try:
            match = resolve(request.path_info[:-1])
        except Resolver404:
            match = None
        if match is not None and match.func is not unknown_endpoint:
            return match.func(request, *match.args, **match.kwargs)
    return _not_found_view(request, *args, **kwargs)


# --- paging ---------------------------------------------------------------------------------


class Pages(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request):
        # DRF quietly falls back to 50 for page_size=abc; a client that asked for something else is told
        # and 201 is as much a mistake as 0: a client that asked for more than a page holds would
        # otherwise take the first 200 for everything
        message = f"page_size must be one whole number from 1 to {self.max_page_size}."
        asked = _one_whole_number(request, self.page_size_query_param, "bad_page_size", message)
        if asked is not None and asked > self.max_page_size:
            raise InvalidInput([Problem(self.page_size_query_param, "bad_page_size", message)])
        return self.page_size if asked is None else asked

    def get_page_number(self, request, paginator):
        # DRF reads an empty or repeated page as the first; a client that asked for something else is
        # told (a number past the last page is DRF's 404 "Invalid page")
        _one_whole_number(request, self.page_query_param, "bad_page", "page must be one whole number from 1.")
        return super().get_page_number(request, paginator)


def _one_whole_number(request, name: str, code: str, message: str) -> int | None:
    """The query parameter ``name`` as one whole number from 1, None when not given; anything else is
    400 (ASCII digits only: "²" is a digit to str.isdigit, and not to int())."""
    asked = request.query_params.getlist(name)
    if not asked:
        return None
    if len(asked) > 1 or not (asked[0].isascii() and asked[0].isdigit()) or len(asked[0]) > 9 or int(asked[0]) < 1:
        raise InvalidInput([Problem(name, code, message)])
    return int(asked[0])


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


def page_response(view: APIView, queryset, to_json) -> Response:
    paginator = Pages()
    items = paginator.paginate_queryset(queryset, view.request, view=view)
    return paginator.get_paginated_response([to_json(item) for item in items])


# --- what a request names ------------------------------------------------------------------

SESSION_ID = OpenApiParameter("session_id", OpenApiTypes.INT, OpenApiParameter.PATH)
HAND_NUMBER = OpenApiParameter("number", OpenApiTypes.INT, OpenApiParameter.PATH,
                               description="The hand's number in its session, from 1.")


FLAG_VALUES = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}


def flag(request, name: str) -> bool:
    """A yes/no query parameter; anything else (``deleted=maybe``) is a 400, not a silent no."""
    given = request.query_params.getlist(name)
    if not given:
        return False
    if len(given) > 1 or given[0].lower() not in FLAG_VALUES:
        raise InvalidInput([Problem(name, "bad_flag", f"{name} must be true or false.")])
    return FLAG_VALUES[given[0].lower()]


def idempotency_key_of(request) -> str | None:
    key = request.headers.get("Idempotency-Key", "").strip()
    if len(key) > 200:
        raise InvalidInput([Problem("Idempotency-Key", "too_long", "An Idempotency-Key can be at most 200 characters.")])
    return key or None


def refuse_nul(value: object, field: str = "") -> None:
    """NUL characters cannot be stored in PostgreSQL text or jsonb: refuse them as input."""
    if isinstance(value, str):
        if "\x00" in value:
            raise InvalidInput([Problem(field, "bad_character", "Text cannot contain the NUL character.")])
    elif isinstance(value, dict):
        for key, item in value.items():
            refuse_nul(key, field)
            refuse_nul(item, f"{field}.{key}" if field else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            refuse_nul(item, f"{field}[{index}]")


IF_MATCH_VALUE = re.compile(r'^(W/)?(?:"(\d{1,9})"|(\d{1,9}))$')
# RFC 9110 13.1.1: If-Match compares entity tags strongly, so a weak one (W/"3") matches no version:
# the write is refused as for a stale one, with the thing as it is now
NO_VERSION = -1


def version_asked(request, *, what: str = "hand's version") -> int | None:
    """The version a delete or restore is conditional on: If-Match ("3" or 3) or the body's "version";
    NO_VERSION for a weak tag."""
    header = request.headers.get("If-Match", "").strip()
    body = request.data if isinstance(request.data, dict) else {}
    version = body.get("version")
    if header and header != "*":
        match = IF_MATCH_VALUE.match(header)
        if match is None:
            raise InvalidInput([Problem("If-Match", "bad_version",
                                        f'If-Match must be the {what} as read, such as "3".')])
        version = NO_VERSION if match[1] else int(match[2] or match[3])
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise InvalidInput([Problem("version", "bad_type", "The version must be a whole number, as read.")])
    return version


def web_url(view, session) -> str:
    """The session's scoreboard for a browser, through the same link the client used."""
    return view.request.build_absolute_uri(reverse("session_board", args=[view.access.token, session.pk]))
