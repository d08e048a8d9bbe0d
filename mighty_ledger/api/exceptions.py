"""Every API error answers in HAND_JSON's error shape: ``{"errors": [{"field", "code", "message"}]}``.

The engine's InvalidInput already has that shape; DRF's own errors (bad JSON,
401, 403, 404, 405, 415, throttling, serializer validation) are flattened into
it here, so a client parses one shape whatever went wrong.
"""

from __future__ import annotations

import re

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from mighty_ledger.http.ratelimit import too_many_message
from mighty_ledger.http.request_keys import RequestInProgress
from mighty_ledger.services import IdempotencyConflict, SavedMeanwhile, StaleVersion
from scoring.problems import InvalidInput, Problem


def problem(field: str, code: str, message: str) -> dict:
    return Problem(field, code, message).as_json()


def errors_body(*problems: dict) -> dict:
    return {"errors": list(problems)}


def _join(field: str, key: object) -> str:
    if key == "non_field_errors" or key == "detail":
        return field
    if isinstance(key, int):
        return f"{field}[{key}]"
    return f"{field}.{key}" if field else str(key)


def flatten(detail: object, field: str = "", default_code: str = "invalid") -> list[dict]:
    """DRF's nested error detail (dicts, lists, ErrorDetail strings) as a flat list of problems."""
    if isinstance(detail, dict):
        return [entry for key, value in detail.items() for entry in flatten(value, _join(field, key), default_code)]
    if isinstance(detail, list):
        entries = []
        for index, item in enumerate(detail):
            # a list of messages belongs to the field itself; a list of objects is indexed
            inner = _join(field, index) if isinstance(item, dict | list) else field
            entries += flatten(item, inner, default_code)
        return entries
    return [problem(field, getattr(detail, "code", None) or default_code, str(detail))]


# a message quotes what the request sent ("'points' must be a whole number, not …"): a value of
# thousands of characters is cut, so the answer stays a sentence (field paths are shorter than this)
_LONG_ECHO = re.compile(r"\S{51,}")
ECHO_KEPT = 40


def shortened(message: str) -> str:
    """``message`` with every run of more than 50 characters without a space cut to 40 and "…"."""
    return _LONG_ECHO.sub(lambda run: run.group()[:ECHO_KEPT] + "…", message)


def shortened_errors(body: dict) -> dict:
    """An answer whose "errors" (the error shape, or /check's list) quote long values cut short."""
    errors = body.get("errors")
    if not isinstance(errors, list):
        return body
    return {**body, "errors": [{**error, "message": shortened(str(error["message"]))}
                               if isinstance(error, dict) and "message" in error else error
                               for error in errors]}


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    response = _error_response(exc, context)
    if response is not None and isinstance(response.data, dict):
        response.data = shortened_errors(response.data)
    return response


def _error_response(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, InvalidInput):
        return Response(exc.as_json(), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, StaleVersion):
        from mighty_ledger.api.serializers import hand_json

        hand = exc.hand
        body = errors_body(problem(
            "version", "stale_version",
            f"Hand {hand.number} was changed by someone else (it is now at version {hand.version}); "
            "here it is as it stands: check it and send your change again with this version.",
        ))
        return Response({**body, "hand": hand_json(hand)}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, SavedMeanwhile):
        from mighty_ledger.api.serializers import hand_json

        hand = exc.hand
        # in the asker's language: a phone's outbox shows it to the player beside Fix and Discard
        body = errors_body(problem(
            "number", "hand_saved_meanwhile",
            _("Hand {number} was already saved from another phone. If it is the hand you meant, keep "
              "that one; send yours only if it is another hand (it would be hand {next}).").format(
                number=hand.number if hand else exc.next_number - 1, next=exc.next_number),
        ))
        return Response({**body, "hand": hand_json(hand) if hand else None, "next_number": exc.next_number},
                        status=status.HTTP_409_CONFLICT)
    if isinstance(exc, IdempotencyConflict):
        return Response(errors_body(problem(
            "Idempotency-Key", "idempotency_key_reused",
            "This Idempotency-Key was already used with a different body; use a new key for a new request.",
        )), status=status.HTTP_422_UNPROCESSABLE_ENTITY)

    if isinstance(exc, RequestInProgress):
        response = Response(errors_body(problem(
            "Idempotency-Key", "request_in_progress",
            "The request with this Idempotency-Key is still being processed; send it again in a moment "
            "to get its answer.",
        )), status=status.HTTP_409_CONFLICT)
        response["Retry-After"] = "1"
        return response

    if isinstance(exc, exceptions.Throttled):
        # DRF's own wording names no unit a player reads; ours, as the pages say it
        seconds = max(1, int(exc.wait or 1))
        response = Response(errors_body(problem("", "rate_limited", too_many_message(seconds))),
                            status=status.HTTP_429_TOO_MANY_REQUESTS)
        response["Retry-After"] = str(seconds)
        return response
    if isinstance(exc, exceptions.UnsupportedMediaType):
        # DRF's says only what was refused: say what to send
        exc = exceptions.UnsupportedMediaType(
            "", f"{exc.detail} Send the body as a JSON object, with Content-Type: application/json.")
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or None)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    if not isinstance(exc, exceptions.APIException):
        return None  # a bug: let Django answer 500 and log it
    # DRF's handler sets WWW-Authenticate and Retry-After and rolls back the transaction
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    response.data = errors_body(*flatten(exc.detail, default_code=exc.default_code))
    return response
