"""A group's whole history as one JSON document, and back.

The document holds every row as stored: hands keep their entry and the result
the engine computed when they were saved, so an import never re-scores
anything and a rules fix cannot change the history it restores. Deleted
sessions and hands come along (they can still be restored), and so do each
session's payments (undone ones too) and hands in progress, and the revisions. Database ids are only references inside the document; an import
gives the rows new ones.
"""

from __future__ import annotations

import csv
import datetime
from collections.abc import Iterable
from decimal import Decimal
from typing import IO

from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone

from mighty_ledger.models import (
    Contract,
    Group,
    Hand,
    Payment,
    Player,
    Revision,
    Season,
    Session,
    new_token,
)
from mighty_ledger.reads.actors import actor_label
from scoring.hand import entry_as_kept

FORMAT = "mighty-ledger/group"
VERSION = 1


class ImportRefused(Exception):
    """The document cannot be imported as asked (wrong format, tokens already in use)."""


def _own_fields(model: type[models.Model], *skip: str) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if f.name not in ("id", *skip)]


GROUP_FIELDS = _own_fields(Group, "edit_token", "view_token")
PLAYER_FIELDS = _own_fields(Player, "group")
SESSION_FIELDS = _own_fields(Session, "group")
HAND_FIELDS = _own_fields(Hand, "session")
REVISION_FIELDS = _own_fields(Revision, "group", "session", "hand")
SEASON_FIELDS = _own_fields(Season, "group")
PAYMENT_FIELDS = _own_fields(Payment, "group", "session")
CONTRACT_FIELDS = _own_fields(Contract, "session", "hand")


def _dump(value):
    # full precision: DjangoJSONEncoder would cut datetimes to milliseconds
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _row(obj: models.Model, fields: list[models.Field]) -> dict:
    return {f.name: _dump(getattr(obj, f.attname)) for f in fields}


def _load(model: type[models.Model], fields: list[models.Field], row: dict, **extra) -> models.Model:
    values = {f.attname: f.to_python(row[f.name]) for f in fields if f.name in row}
    return model(**values, **extra)


def _by_session(sessions: list[Session], rows: Iterable[models.Model]) -> dict[int, list]:
    grouped: dict[int, list] = {session.id: [] for session in sessions}
    for row in rows:
        grouped[row.session_id].append(row)
    return grouped


def group_export(group: Group, *, include_tokens: bool) -> dict:
    """Everything the group has, deleted rows and revisions included.

    ``include_tokens`` only for someone who already holds the edit link: the
    edit token in a file is the right to change the ledger.
    """
    sessions = list(Session.objects.filter(group=group).order_by("id"))
    hands_by_session = _by_session(sessions, Hand.objects.filter(session__group=group).order_by("session_id", "number"))
    payments_by_session = _by_session(sessions, Payment.objects.filter(session__group=group).order_by("id"))
    contracts_by_session = _by_session(sessions, Contract.objects.filter(session__group=group).order_by("id"))
    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _dump(timezone.now()),
        "group": _row(group, GROUP_FIELDS),
        "players": [_row(p, PLAYER_FIELDS) for p in group.players.order_by("id")],
        "seasons": [_row(s, SEASON_FIELDS) for s in group.seasons.order_by("id")],
        "sessions": [
            {
                "id": session.id,
                **_row(session, SESSION_FIELDS),
                "hands": [{"id": h.id, **_row(h, HAND_FIELDS)} for h in hands_by_session[session.id]],
                "payments": [_row(p, PAYMENT_FIELDS) for p in payments_by_session[session.id]],
                # a completed hand in progress names the hand it became
                "contracts": [{"hand": c.hand_id, **_row(c, CONTRACT_FIELDS)} for c in contracts_by_session[session.id]],
            }
            for session in sessions
        ],
        "revisions": [
            {"session": r.session_id, "hand": r.hand_id, **_row(r, REVISION_FIELDS)}
            for r in Revision.objects.filter(group=group).order_by("id")
        ],
    }
    if include_tokens:
        document["group"] |= {"edit_token": group.edit_token, "view_token": group.view_token}
    return document


@transaction.atomic
def group_import(*, document: dict, new_tokens: bool = False) -> Group:
    """Recreate a group from ``group_export``'s document, every stored value unchanged (but for
    entries exported before they were kept as now: ``_kept_now``).

    The group keeps its links unless ``new_tokens``; a link already in use here
    is refused, since two groups cannot answer to one link.
    """
    if document.get("format") != FORMAT or document.get("version") != VERSION:
        raise ImportRefused(f"Not a {FORMAT} version {VERSION} document.")
    tokens = {k: document["group"].get(k) for k in ("edit_token", "view_token")}
    if new_tokens or not all(tokens.values()):
        tokens = {"edit_token": new_token(), "view_token": new_token()}
    elif Group.objects.filter(Q(edit_token__in=tokens.values()) | Q(view_token__in=tokens.values())).exists():
        raise ImportRefused("A group with these links already exists here; import with new tokens instead.")
    group = _load(Group, GROUP_FIELDS, document["group"], **tokens)
    group.save()
    Player.objects.bulk_create(_load(Player, PLAYER_FIELDS, row, group=group) for row in document["players"])
    # documents exported before seasons existed have none
    Season.objects.bulk_create(_load(Season, SEASON_FIELDS, row, group=group) for row in document.get("seasons", []))

    session_ids, hand_ids = {}, {}
    for row in document["sessions"]:
        session = _load(Session, SESSION_FIELDS, row, group=group)
        session.save()
        session_ids[row["id"]] = session.id
        hands = Hand.objects.bulk_create(
            [_load(Hand, HAND_FIELDS, _kept_now(hand_row), session=session) for hand_row in row["hands"]],
            batch_size=500,
        )
        # updated_at is auto_now, which bulk_create overwrote; put the stored times back
        for hand, hand_row in zip(hands, row["hands"], strict=True):
            hand_ids[hand_row["id"]] = hand.id
            hand.updated_at = Hand._meta.get_field("updated_at").to_python(hand_row["updated_at"])
        Hand.objects.bulk_update(hands, ["updated_at"], batch_size=500)
        # documents exported before payments and hands in progress came along have neither
        Payment.objects.bulk_create(
            _load(Payment, PAYMENT_FIELDS, payment_row, group=group, session=session)
            for payment_row in row.get("payments", [])
        )
        Contract.objects.bulk_create(
            _load(Contract, CONTRACT_FIELDS, _kept_now(contract_row), session=session,
                  hand_id=hand_ids.get(contract_row["hand"]))
            for contract_row in row.get("contracts", [])
        )

    Revision.objects.bulk_create(
        (
            # a document exported before revisions lost their token fragments ("edit link …abcd") loses them here
            _load(Revision, REVISION_FIELDS, {**row, "by": actor_label(row.get("by", ""))}, group=group,
                  session_id=session_ids.get(row["session"]), hand_id=hand_ids.get(row["hand"]))
            for row in document["revisions"]
        ),
        batch_size=500,
    )
    return group


def _kept_now(row: dict) -> dict:
    """A hand's or contract's row with its entry as entries are kept now: a document exported
    before nulls were dropped and a bid given alone kept as the contract (migration 0012) would
    otherwise bring back what made the statistics and the player pages answer 500. Its result,
    payments and totals are stored as they were: they were scored from the same reading."""
    entry = row.get("entry")
    return {**row, "entry": entry_as_kept(entry)} if isinstance(entry, dict) else row


def _contract(entry: dict) -> str:
    contract = entry.get("contract") or {}
    if not contract:
        return ""
    return f"{contract.get('points', '')} {contract.get('trump') or ''}".strip()


def _made(result: dict | None) -> str:
    if not result or result.get("made") is None:
        return ""
    return "yes" if result["made"] else "no"


# OWASP's rule against formula injection: a spreadsheet runs a cell that begins with
# one of these as a formula (or, after a tab or carriage return, may), so such a text
# cell is written after a single quote, which the spreadsheet shows as plain text
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """A CSV cell that a spreadsheet shows as written and never runs; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SpreadsheetWriter:
    """The one CSV writer of every face (the board's hands.csv, ``export_group --csv``): every
    cell, headers included, goes through ``spreadsheet_safe``."""

    def __init__(self, out: IO[str]):
        self.writer = csv.writer(out)

    def writerow(self, row: Iterable[object]) -> None:
        self.writer.writerow([spreadsheet_safe(value) for value in row])


def hands_csv(group: Group, out: IO[str]) -> int:
    """The live hands of the live sessions, one row each, for a spreadsheet; returns the row count.

    Text cells are made safe to open (``spreadsheet_safe``); the JSON export keeps every value as stored.
    """
    names = list(group.players.order_by("name").values_list("name", flat=True))
    writer = SpreadsheetWriter(out)
    writer.writerow([
        "session", "date", "number", "kind", "contract", "declarer", "partners", "points", "made",
        *(f"{name} payment" for name in names), *(f"{name} total" for name in names),
    ])
    rows = 0
    hands: Iterable[Hand] = (
        Hand.objects.live()
        .filter(session__group=group, session__deleted_at__isnull=True)
        .select_related("session")
        .order_by("session__played_on", "session_id", "number")
    )
    for hand in hands:
        entry = hand.entry
        writer.writerow([
            hand.session_id, hand.session.played_on.isoformat(), hand.number, hand.kind,
            _contract(entry), entry.get("declarer", ""), " ".join(entry.get("partners", [])),
            entry.get("points", ""), _made(hand.result),
            *(hand.payments.get(name, "") for name in names),
            *(hand.running_totals.get(name, "") for name in names),
        ])
        rows += 1
    return rows
