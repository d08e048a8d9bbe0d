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
WITH and keeps the ORM path. The columns are those of migrations 0001–0008;
tests/web/test_appending.py checks on PostgreSQL that both paths store the
same rows, so a new column on a hand or a revision fails there until it is
written here too.
"""

from __future__ import annotations

import json

from django.db import connection, transaction

from mighty_ledger.models import Hand, Revision, Session

# the three writes of a new hand, one statement; %(name)s parameters only
APPEND_HAND = """
WITH moved AS (
    UPDATE mighty_ledger_session
       SET hand_count = %(hand_count)s, totals = %(totals)s::jsonb, pot = %(pot)s, revision = %(revision)s
     WHERE id = %(session)s AND revision = %(read_at)s AND deleted_at IS NULL
 RETURNING id
), hand AS (
    INSERT INTO mighty_ledger_hand
           (session_id, number, kind, entry, result, explanation, sides, payments, running_totals,
            pot_after, version, idempotency_key, request_fingerprint, created_at, updated_at, deleted_at)
    SELECT id, %(number)s, %(kind)s, %(entry)s::jsonb, %(result)s::jsonb, %(explanation)s::jsonb,
           %(sides)s::jsonb, %(payments)s::jsonb, %(running_totals)s::jsonb, %(pot_after)s, %(version)s,
           %(idempotency_key)s, %(request_fingerprint)s, %(created_at)s, %(created_at)s, NULL
      FROM moved
 RETURNING id
)
INSERT INTO mighty_ledger_revision
       (group_id, session_id, hand_id, subject, action, before, after, by, created_at)
SELECT %(group)s, %(session)s, hand.id, %(subject)s, %(action)s, %(before)s::jsonb, %(after)s::jsonb,
       %(by)s, %(revised_at)s
  FROM hand
RETURNING hand_id
"""


def _json(value) -> str | None:
    # SQL NULL for None, as the ORM stores a nullable JSON field left empty
    return None if value is None else json.dumps(value)


def append_hand(session: Session, read_at: int, hand: Hand, revision: Revision) -> bool:
    """Write ``session``'s new hand_count, totals, pot and revision, ``hand`` and ``revision`` (the
    hand's "created"), only if the session is live and still at revision ``read_at``.

    True when written (``hand`` then has its primary key); False when the session moved on or
    was deleted meanwhile, and nothing was written.
    """
    if connection.vendor != "postgresql":
        return _append_with_the_orm(session, read_at, hand, revision)
    hand.updated_at = hand.created_at
    with connection.cursor() as cursor:
        cursor.execute(APPEND_HAND, {
            "session": session.pk, "read_at": read_at, "hand_count": session.hand_count,
            "totals": _json(session.totals), "pot": session.pot, "revision": session.revision,
            "number": hand.number, "kind": hand.kind, "entry": _json(hand.entry), "result": _json(hand.result),
            "explanation": _json(hand.explanation), "sides": _json(hand.sides), "payments": _json(hand.payments),
            "running_totals": _json(hand.running_totals), "pot_after": hand.pot_after, "version": hand.version,
            "idempotency_key": hand.idempotency_key, "request_fingerprint": hand.request_fingerprint,
            "created_at": hand.created_at, "group": revision.group_id, "subject": revision.subject,
            "action": revision.action, "before": _json(revision.before), "after": _json(revision.after),
            "by": revision.by, "revised_at": revision.created_at,
        })
        written = cursor.fetchone()
    if written is None:
        return False
    hand.pk = revision.hand_id = written[0]
    return True


def _append_with_the_orm(session: Session, read_at: int, hand: Hand, revision: Revision) -> bool:
    with transaction.atomic():
        moved = Session.objects.live().filter(pk=session.pk, revision=read_at).update(
            hand_count=session.hand_count, totals=session.totals, pot=session.pot, revision=session.revision,
        )
        if not moved:
            return False
        hand.save(force_insert=True)
        revision.hand = hand
        revision.save(force_insert=True)
    return True
