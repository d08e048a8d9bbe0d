"""A group brought back from its JSON document (reads/exports.py writes it): every stored row as
it was, under new ids, in one transaction.
"""

from __future__ import annotations

from django.db import models, transaction
from django.db.models import Q

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
    new_token,
)
from mighty_ledger.reads.actors import actor_label
from mighty_ledger.reads.exports import (
    CONTRACT_FIELDS,
    FORMAT,
    GROUP_FIELDS,
    HAND_FIELDS,
    NIGHT_FIELDS,
    NIGHT_ROUND_FIELDS,
    PAYMENT_FIELDS,
    PLAYER_FIELDS,
    REVISION_FIELDS,
    SEASON_FIELDS,
    SESSION_FIELDS,
    VERSION,
)
from scoring.hand import entry_as_kept


class ImportRefused(Exception):
    """The document cannot be imported as asked (wrong format, tokens already in use)."""


def _load(model: type[models.Model], fields: list[models.Field], row: dict, **extra) -> models.Model:
    values = {f.attname: f.to_python(row[f.name]) for f in fields if f.name in row}
    return model(**values, **extra)


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

    # documents exported before club nights came along have none (and their tables no round)
    round_ids = {}
    for row in document.get("nights", []):
        night = _load(Night, NIGHT_FIELDS, row, group=group)
        night.save()
        rounds = NightRound.objects.bulk_create(_load(NightRound, NIGHT_ROUND_FIELDS, r, night=night) for r in row["rounds"])
        round_ids |= {r["id"]: made.id for r, made in zip(row["rounds"], rounds, strict=True)}
        Payment.objects.bulk_create(_load(Payment, PAYMENT_FIELDS, p, group=group, night=night) for p in row["payments"])

    session_ids, hand_ids = {}, {}
    for row in document["sessions"]:
        # a table whose round did not come along (an older document) is a session of its own
        night_round = round_ids.get(row.get("night_round"))
        session = _load(Session, SESSION_FIELDS, {**row, "night_table": row.get("night_table") if night_round else None},
                        group=group, night_round_id=night_round)
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
