"""Every write the ledger makes: keyword-only ``<entity>_<action>`` functions, one transaction each.

Views and the API parse input, call one of these, and render; reads go through
mighty_ledger.reads. Locking lives here, so hand numbers stay contiguous and
running totals never race: a new hand is written only if its session is still
at the revision it was scored against (one statement), and otherwise, like
every edit, delete and restore, with the session's row locked (a row lock on
PostgreSQL; on SQLite IMMEDIATE transactions serialise writers). Every write
records a revision and, once committed, tells the phones at the table.

- ``groups``: groups, players and sessions
- ``hands``: hands and events, with the running totals
- ``payments``: transfers of a settlement marked as paid
- ``stakes``: what a session is played for, changed at any time
- ``contracts``: the hand in progress, and a hand entered after its last trick
- ``imports``: a group brought back from its JSON document
- ``sheet_imports``: past hands brought in from a spreadsheet (read by ``spreadsheets``), and undone
- ``changes``: what every write shares (who, the revision, the news, the lock, the refusals)

May import: the models, the read side (``reads``), ``live`` (to tell the table) and
``scoring``. Never a face (``pages``, ``api``).
"""

from mighty_ledger.services.changes import (
    SYSTEM,
    Actor,
    IdempotencyConflict,
    Meant,
    SavedMeanwhile,
    SessionGone,
    StaleVersion,
)
from mighty_ledger.services.contracts import (
    CONTRACT_FIELDS,
    ContractInProgress,
    StaleContract,
    contract_abandon,
    contract_complete,
    contract_open,
    contract_outlook,
    contract_snapshot,
    hand_enter,
)
from mighty_ledger.services.groups import (
    StaleSession,
    group_create,
    group_delete,
    group_restore,
    group_rotate_link,
    player_add,
    session_delete,
    session_restore,
    session_start,
)
from mighty_ledger.services.hands import (
    ScoredHand,
    hand_amend,
    hand_delete,
    hand_fingerprint,
    hand_preview,
    hand_record,
    hand_restore,
    hand_snapshot,
    scored_hand,
)
from mighty_ledger.services.payments import (
    PaymentBeyondOwed,
    payment_record,
    payment_undo,
    payment_unit,
)
from mighty_ledger.services.stakes import STAKE_FIELDS, session_stakes_change

__all__ = [
    "CONTRACT_FIELDS", "SYSTEM", "Actor", "ContractInProgress", "IdempotencyConflict", "Meant", "PaymentBeyondOwed", "SavedMeanwhile", "ScoredHand", "StaleSession",
    "SessionGone", "StaleContract", "StaleVersion", "contract_abandon", "contract_complete", "contract_open",
    "contract_outlook", "contract_snapshot", "group_create", "group_delete", "group_restore",
    "group_rotate_link", "hand_amend", "hand_delete", "hand_enter", "hand_fingerprint", "hand_preview", "hand_record",
    "hand_restore", "hand_snapshot", "payment_record", "payment_undo", "payment_unit",
    "player_add", "scored_hand", "session_delete", "session_restore", "session_stakes_change", "session_start", "STAKE_FIELDS",
]
