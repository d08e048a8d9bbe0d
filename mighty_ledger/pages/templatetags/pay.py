"""The payee's buttons beside a transfer still owed (reads/payees.py, reads/pay_links.py)."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext

from mighty_ledger.reads.pay_links import BANKS, PayLink, plain_amount
from mighty_ledger.reads.payees import transfer_links

register = template.Library()


@register.simple_tag
def pay_links_for(pay, transfer, unit: str, currency: str) -> list[PayLink]:
    """The buttons for ``transfer`` from the payees' handles the view read (none through a view link)."""
    return transfer_links(pay or {}, transfer, unit=unit, currency=currency)


@register.filter
def bank_name(code: str) -> str:
    """A bank of the list in the reader's language."""
    return gettext(BANKS[code][0]) if code in BANKS else code


@register.filter
def amount_to_copy(amount) -> str:
    """An amount as a banking app takes it: 400 for ₩400 (never 400.00), 12.5 for 12.50."""
    return plain_amount(amount)
