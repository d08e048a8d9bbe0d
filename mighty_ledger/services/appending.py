"""How a new hand is written: the session moves on from the revision it was scored against, the
hand and its revision are inserted, all or nothing.

Through the ORM this is an UPDATE with the compare-and-swap in its WHERE, two
INSERTs and the transaction around them: five round trips to the database. It
is the statement the API's throughput depends on (a hand POST against a bare
view, target ≥ 0.25; `make bench`), and with the ORM it measured 0.18. So on
PostgreSQL, and only there, the same three writes are one hand-written,
parametrised statement (data-modifying WITH clauses: the inserts read from the
update, so nothing is inserted when the session has moved on), atomic on its
own and prepared by the server after a few runs. SQLite cannot write inside
WITH and keeps the ORM path. A hand sent with a one-time key adds a fourth
write, its key's row (http/request_keys.py), to the same statement. The columns
are those of migrations 0001–0018; tests/web/test_appending.py checks on
PostgreSQL that both paths store the same rows, so a new column on a hand, a
revision or a key fails there until it is written here too.
"""

from __future__ import annotations

import json

from django.db import connection, transaction

from mighty_ledger.http.request_keys import hand_scope, key_made
from mighty_ledger.models import Hand, Revision, Session

# the three writes of a new hand, one statement; %(name)s parameters only
_APPEND = """
WITH moved AS (
    UPDATE mighty_ledger_session
       SET hand_count = %(hand_count)s, totals = %(totals)s::jsonb, pot = %(pot)s, revision = %(revision)s
     WHERE id = %(session)s AND revision = %(read_at)s AND deleted_at IS NULL
 RETURNING id
), hand AS (
    INSERT INTO mighty_ledger_hand
           (session_id, number, kind, entry, result, explanation, sides, payments, running_totals,
            pot_after, version, created_at, updated_at, deleted_at)
    SELECT id, %(number)s, %(kind)s, %(entry)s::jsonb, %(result)s::jsonb, %(explanation)s::jsonb,
           %(sides)s::jsonb, %(payments)s::jsonb, %(running_totals)s::jsonb, %(pot_after)s, %(version)s,
           %(created_at)s, %(created_at)s, NULL
      FROM moved
 RETURNING id
){keyed}
INSERT INTO mighty_ledger_revision
       (group_id, session_id, hand_id, subject, action, before, after, by, created_at)
SELECT %(group)s, %(session)s, hand.id, %(subject)s, %(action)s, %(before)s::jsonb, %(after)s::jsonb,
       %(by)s, %(revised_at)s
  FROM hand
RETURNING hand_id
"""
# a hand sent with a one-time key: the key's row in the store says it made this hand, in the same
# statement (request_keys.key_made; a row with nothing made yet takes it)
_KEY_MADE = """, keyed AS (
    INSERT INTO mighty_ledger_requestkey
           (scope, key, hand_id, made_fingerprint, fingerprint, location)
    SELECT %(scope)s, %(key)s, hand.id, %(made_fingerprint)s, '', ''
      FROM hand
        ON CONFLICT (scope, key) DO UPDATE
       SET hand_id = EXCLUDED.hand_id, made_fingerprint = EXCLUDED.made_fingerprint
     WHERE mighty_ledger_requestkey.hand_id IS NULL AND mighty_ledger_requestkey.contract_id IS NULL
       AND mighty_ledger_requestkey.payment_id IS NULL
)"""
APPEND_HAND, APPEND_KEYED_HAND = _APPEND.replace("{keyed}", ""), _APPEND.replace("{keyed}", _KEY_MADE)


def _json(value) -> str | None:
    # SQL NULL for None, as the ORM stores a nullable JSON field left empty
    return None if value is None else json.dumps(value)


def append_hand(session: Session, read_at: int, hand: Hand, revision: Revision, *,
                key: str | None = None, fingerprint: str = "") -> bool:
    """Write ``session``'s new hand_count, totals, pot and revision, ``hand`` and ``revision`` (the
    hand's "created"), and with a one-time ``key`` its row in the store of keys (``fingerprint``:
    the request's), only if the session is live and still at revision ``read_at``.

    True when written (``hand`` then has its primary key); False when the session moved on or
    was deleted meanwhile, and nothing was written.
    """
    if connection.vendor != "postgresql":
        return _append_with_the_orm(session, read_at, hand, revision, key=key, fingerprint=fingerprint)
    hand.updated_at = hand.created_at
    keyed = {"scope": hand_scope(session.pk), "key": key, "made_fingerprint": fingerprint} if key else {}
    with connection.cursor() as cursor:
        cursor.execute(APPEND_KEYED_HAND if key else APPEND_HAND, {
            "session": session.pk, "read_at": read_at, "hand_count": session.hand_count,
            "totals": _json(session.totals), "pot": session.pot, "revision": session.revision,
            "number": hand.number, "kind": hand.kind, "entry": _json(hand.entry), "result": _json(hand.result),
            "explanation": _json(hand.explanation), "sides": _json(hand.sides), "payments": _json(hand.payments),
            "running_totals": _json(hand.running_totals), "pot_after": hand.pot_after, "version": hand.version,
            "created_at": hand.created_at, "group": revision.group_id, "subject": revision.subject,
            "action": revision.action, "before": _json(revision.before), "after": _json(revision.after),
            "by": revision.by, "revised_at": revision.created_at, **keyed,
        })
        written = cursor.fetchone()
    if written is None:
        return False
    hand.pk = revision.hand_id = written[0]
    return True


def _append_with_the_orm(session: Session, read_at: int, hand: Hand, revision: Revision, *,
                         key: str | None = None, fingerprint: str = "") -> bool:
    with transaction.atomic():
        moved = Session.objects.live().filter(pk=session.pk, revision=read_at).update(
            hand_count=session.hand_count, totals=session.totals, pot=session.pot, revision=session.revision,
        )
        if not moved:
            return False
        hand.save(force_insert=True)
        revision.hand = hand
        revision.save(force_insert=True)
        key_made(scope=hand_scope(session.pk), key=key, fingerprint=fingerprint, hand=hand)
    return True
