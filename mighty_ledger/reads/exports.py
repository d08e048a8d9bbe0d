"""A group's whole history as one JSON document (services/imports.py reads it back), and its
hands as a spreadsheet.

The document holds every row as stored: hands keep their entry and the result
the engine computed when they were saved, so an import never re-scores
anything and a rules fix cannot change the history it restores. Deleted
sessions and hands come along (they can still be restored), and so do each
session's payments (undone ones too) and hands in progress, and the revisions. Club nights
come along with their rounds and their own payments, deleted ones too; a session that is a
night's table names its round (``night_round``, the round's id in the document) beside its
``night_table``. Database ids are only references inside the document; an import gives the
rows new ones.
"""

from __future__ import annotations

import csv
import datetime
from collections.abc import Iterable
from decimal import Decimal
from typing import IO

from django.db import models
from django.utils import timezone

from mighty_ledger.models import (
    Contract,
    Group,
    Hand,
    Night,
    NightRound,
    Payment,
    Player,
    Revision,
    Season,
    Session,
)

FORMAT = "mighty-ledger/group"
VERSION = 1


def _own_fields(model: type[models.Model], *skip: str) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if f.name not in ("id", *skip)]


GROUP_FIELDS = _own_fields(Group, "edit_token", "view_token")
PLAYER_FIELDS = _own_fields(Player, "group")
# a night's table names its round by the round's id in the document ("night_round")
SESSION_FIELDS = _own_fields(Session, "group", "night_round")
HAND_FIELDS = _own_fields(Hand, "session")
REVISION_FIELDS = _own_fields(Revision, "group", "session", "hand")
SEASON_FIELDS = _own_fields(Season, "group")
PAYMENT_FIELDS = _own_fields(Payment, "group", "session", "night")
NIGHT_FIELDS = _own_fields(Night, "group")
NIGHT_ROUND_FIELDS = _own_fields(NightRound, "night")
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


def _by_session(sessions: list[Session], rows: Iterable[models.Model]) -> dict[int, list]:
    return _by(sessions, rows, "session_id")


def _by(owners: list[models.Model], rows: Iterable[models.Model], link: str) -> dict[int, list]:
    grouped: dict[int, list] = {owner.id: [] for owner in owners}
    for row in rows:
        grouped[getattr(row, link)].append(row)
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
    nights = list(Night.objects.filter(group=group).order_by("id"))
    rounds_by_night = _by(nights, NightRound.objects.filter(night__group=group).order_by("id"), "night_id")
    payments_by_night = _by(nights, Payment.objects.filter(night__group=group).order_by("id"), "night_id")
    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _dump(timezone.now()),
        "group": _row(group, GROUP_FIELDS),
        "players": [_row(p, PLAYER_FIELDS) for p in group.players.order_by("id")],
        "seasons": [_row(s, SEASON_FIELDS) for s in group.seasons.order_by("id")],
        "nights": [
            {
                "id": night.id,
                **_row(night, NIGHT_FIELDS),
                "rounds": [{"id": r.id, **_row(r, NIGHT_ROUND_FIELDS)} for r in rounds_by_night[night.id]],
                "payments": [_row(p, PAYMENT_FIELDS) for p in payments_by_night[night.id]],
            }
            for night in nights
        ],
        "sessions": [
            {
                "id": session.id,
                **_row(session, SESSION_FIELDS),
                "night_round": session.night_round_id,
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


def _contract(entry: dict) -> str:
    contract = entry.get("contract") or {}
    if not contract:
        return ""
    return f"{contract.get('points', '')} {contract.get('trump') or ''}".strip()


def partner_call_text(entry: dict) -> str:
    """How the partner was called, as a sheet writes it and the import reads it back: the card
    (JOKER, AS), "first trick", "none", or the player called; empty for an event."""
    call = entry.get("partner_call") or {}
    kind = call.get("type")
    if kind == "card":
        return " ".join(call.get("cards", []))
    if kind == "player":
        return call.get("seat", "")
    return {"first_trick": "first trick", "none": "none"}.get(kind, "")


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
        "session", "date", "title", "number", "kind", "contract", "declarer", "partners", "points", "made",
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
            hand.session_id, hand.session.played_on.isoformat(), hand.session.title, hand.number, hand.kind,
            _contract(entry), entry.get("declarer", ""), " ".join(entry.get("partners", [])),
            entry.get("points", ""), _made(hand.result),
            *(hand.payments.get(name, "") for name in names),
            *(hand.running_totals.get(name, "") for name in names),
        ])
        rows += 1
    return rows


def session_hand_rows(session: Session) -> Iterable[tuple]:
    """The session's live hands in order, for its own spreadsheet (the board's hands.csv): each
    (number, kind, entry, result, payments, running totals), in one query."""
    return session.hands.live().in_order().values_list("number", "kind", "entry", "result", "payments",
                                                       "running_totals")
