"""How a player likes to be paid: their Toss ID, KakaoPay money link, bank and account number.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from mighty_ledger.models import Player, Revision
from mighty_ledger.reads.pay_links import KINDS, checked_handles
from mighty_ledger.reads.payees import handles_of
from mighty_ledger.services.changes import SYSTEM, Actor, revise
from scoring.problems import InvalidInput, Problem

FIELDS = {"toss": "pay_toss", "kakaopay": "pay_kakaopay", "bank": "pay_bank", "account": "pay_account"}


@transaction.atomic
def player_pay_set(*, player: Player, changes: dict[str, str], by: Actor = SYSTEM) -> Player:
    """Keep the handles in ``changes`` (any of toss, kakaopay, bank, account; "" clears one),
    each checked and written the one way it is kept (reads/pay_links.py); nothing is kept when
    one is refused. The revision names what changed, never the handles: the history is read
    through the view link too."""
    handles, problems = checked_handles(current=handles_of(player), changes=changes)
    if problems:
        raise InvalidInput([Problem(p.field, p.code, _translated(p.message)) for p in problems])
    before = handles_of(player)
    changed = [field for field, column in FIELDS.items() if getattr(player, column) != getattr(handles, field)]
    if not changed:
        return player
    for field in changed:
        setattr(player, FIELDS[field], getattr(handles, field))
    player.save(update_fields=[FIELDS[field] for field in changed])
    revise(group=player.group, subject="player", action=Revision.AMENDED, by=by,
           before={"name": player.name, "pay": [kind for kind in KINDS if _kept(before, kind)]},
           after={"name": player.name, "pay": [kind for kind in KINDS if _kept(handles, kind)]})
    return player


def _translated(message) -> str:
    # a message with values in it (the list of bank codes) is translated before they are filled in
    translated = getattr(message, "translated", None)
    return translated(gettext) if translated is not None else gettext(message)


def _kept(handles, kind: str) -> bool:
    return bool(handles.account if kind == "account" else getattr(handles, kind))
