"""ETags of the answers phones ask for again: the board's live fragments, and the check of the
ETag a phone sends back.

The live fragments (``GET /g/<token>/s/<id>/live/``, mighty_ledger/pages/views/sessions.py
``session_live``) are the same bytes for every phone on the link, so their ETag is made from
what they depend on (``live_fragments_key``) and nothing of the visitor: the board names it, a
hand's step carries it (mighty_ledger/pages/views/board_steps.py), and a phone that holds it gets
304. The conditional pages check theirs the same way (mighty_ledger/pages/views/conditional.py).
"""

from __future__ import annotations

import hashlib

from django.http import HttpRequest

from mighty_ledger.models import Session


def live_fragments_key(session: Session, right: str, token: str, language: str, before: int | None) -> str:
    """What the board's live fragments depend on, and nothing of the visitor: their ETag is made of it.

    The link's token is in the fragments' links, so it is in the key too, as a hash (the key is
    not a place for a capability): every phone holding the same link holds the same ETag.
    """
    link = hashlib.sha256(token.encode()).hexdigest()[:24]
    return ":".join(("board-fragments", session.stamp(right), link, language, str(before or "")))


def etag_of(key: str) -> str:
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def held(request: HttpRequest, etag: str) -> bool:
    """Whether the client already holds the answer with this ETag (it sent it in If-None-Match)."""
    return etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]
