"""How the payees of a settlement like to be paid, read in one query, for the edit link only.

The links themselves are pure (reads/pay_links.py); this reads the handles the players keep and
says which of them a page or answer may show. A view link shows none of them: an account number
is for the group's own (docs/table.md, "Paying in one tap").
"""

from __future__ import annotations

import hashlib
from decimal import Decimal

from mighty_ledger.models import Group, Player
from mighty_ledger.reads.pay_links import PayHandles, PayLink, pay_links
from scoring.settle import Transfer, currency_code


def handles_of(player: Player) -> PayHandles:
    return PayHandles(toss=player.pay_toss, kakaopay=player.pay_kakaopay, bank=player.pay_bank,
                      account=player.pay_account)


def group_pay_handles(group: Group, *, can_edit: bool) -> dict[str, PayHandles]:
    """The handles of each player of the group who keeps one, by name: one query, read before
    the page so its ETag can name them (pay_stamp); none at all through a view link."""
    if not can_edit:
        return {}
    players = Player.objects.filter(group=group).exclude(
        pay_toss="", pay_kakaopay="", pay_account="").only("name", "pay_toss", "pay_kakaopay", "pay_bank", "pay_account")
    return {player.name: handles for player in players if (handles := handles_of(player))}


def pay_stamp(handles: dict[str, PayHandles]) -> str:
    """What a page's ETag adds for the handles it shows: a handle changed draws the page again."""
    return hashlib.sha256(repr(sorted(handles.items())).encode()).hexdigest()[:16] if handles else ""


def transfer_links(handles: dict[str, PayHandles], transfer: Transfer, *, unit: str, currency: str) -> list[PayLink]:
    """The payee's buttons for one transfer still owed; none but for money between players."""
    payee = handles.get(transfer.to)
    if payee is None or unit != "money":
        return []
    return pay_links(payee, amount=Decimal(transfer.amount), currency=currency_code(currency))
