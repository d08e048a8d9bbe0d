"""Every create of the API made safe to repeat, one way: ``Idempotency-Key``.

A create (a group, a player, a session, a season, a hand or an event, the hand
in progress and its completion, a payment) is answered through :func:`create_once`.
With a key, the thing is made and the answer's exact bytes are kept with the key
in one transaction, in the one store of keys (http/request_keys.py, which the
pages' forms and the services use too): a connection lost at any moment leaves
both or neither, and a repeat with the same body gets those bytes back, ``200``
with ``Idempotent-Replayed: true``, for 24 hours, whatever happened to the thing
since; a repeat arriving while the first is being made is ``409
request_in_progress``. The bytes are kept as one JSON string, which jsonb stores
as it is; a stored object would come back with its keys in jsonb's order, not the
first answer's. After the 24 hours, or when a page's form made the thing, the
service finds what the key made and the answer is the thing as it is now.

The scope a key is unique in is what the link reaches (the group's players, a
session's hands…), looked up through the link before the key is held: one
group's key never answers with another group's data. A hand, a hand in progress,
its completion or throwing-in and a payment are keyed in the scope of what they
make (``request_keys.hand_scope``…), shared with the pages' forms.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse
from rest_framework import status
from rest_framework.renderers import JSONRenderer

from mighty_ledger import services
from mighty_ledger.api.base import WRITE_ERRORS, idempotency_key_of
from mighty_ledger.api.serializers import ErrorsSerializer
from mighty_ledger.http import request_keys

REPLAYED = {"Idempotent-Replayed": "true"}


@dataclass(frozen=True)
class Made:
    """What a create answers: its body and status; ``replayed`` when the service found it made
    before under the same key (the key of a hand, a hand in progress or a payment stays as long as it)."""

    body: object
    status: int = status.HTTP_201_CREATED
    replayed: bool = False


def body_fingerprint(request) -> str:
    """What the request said, in a form that a repeat with the same JSON (keys in any order) matches."""
    canonical = json.dumps(request.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _json(content: bytes, status_code: int, headers: dict | None = None) -> HttpResponse:
    response = HttpResponse(content, status=status_code, content_type="application/json")
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _stored_bytes(body) -> bytes:
    # answers kept before the bytes were: an object, rendered again
    return body.encode() if isinstance(body, str) else JSONRenderer().render(body)


def create_once(request, *, scope: str, make: Callable[[str | None], Made], fingerprint: str | None = None,
                wait_seconds: float = 0) -> HttpResponse:
    """Answer a create: ``make(key)`` makes the thing, once per ``Idempotency-Key`` in ``scope``.

    ``fingerprint`` says what makes two bodies the same request (default: the
    JSON body itself); the same key with another body is 422. ``wait_seconds``: a
    repeat that arrives while the first is being made waits this long for its
    answer before it is told 409 (a create that takes seconds, such as an import).
    """
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            return _create_once(request, scope=scope, make=make, fingerprint=fingerprint)
        except request_keys.RequestInProgress:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.1)


def _create_once(request, *, scope: str, make: Callable[[str | None], Made], fingerprint: str | None) -> HttpResponse:
    key = idempotency_key_of(request)
    if key is None:
        made = make(None)
        return _json(JSONRenderer().render(made.body), made.status, REPLAYED if made.replayed else None)
    if fingerprint is None:
        fingerprint = body_fingerprint(request)

    def write() -> tuple[tuple[Made, bytes], request_keys.KeptAnswer]:
        made = make(key)
        content = JSONRenderer().render(made.body)
        return (made, content), request_keys.KeptAnswer(status=made.status, body=content.decode())

    first, written = request_keys.write_once(scope=scope, key=key, fingerprint=fingerprint, face=request_keys.API,
                                             write=write)
    if first is not None:
        if first.fingerprint != fingerprint:
            raise services.IdempotencyConflict(key)
        return _json(_stored_bytes(first.body), status.HTTP_200_OK, REPLAYED)
    made, content = written
    return _json(content, status.HTTP_200_OK if made.replayed else made.status, REPLAYED if made.replayed else None)


def once_responses(output, *, created: int = status.HTTP_201_CREATED, errors: dict = WRITE_ERRORS,
                   conflict: OpenApiResponse | None = None) -> dict:
    """The schema's answers of a create that takes ``Idempotency-Key``."""
    responses = {
        created: output,
        **errors,
        409: conflict or OpenApiResponse(ErrorsSerializer, description="The request with this Idempotency-Key is "
                                         "still being processed (code request_in_progress); see Retry-After."),
        422: OpenApiResponse(ErrorsSerializer, description="The Idempotency-Key was used before with a different body."),
    }
    if created != status.HTTP_200_OK:
        responses[status.HTTP_200_OK] = OpenApiResponse(
            output, description="The same Idempotency-Key and body again, within 24 hours: the first answer, "
            "byte for byte, and nothing new made (header Idempotent-Replayed).")
    return responses
