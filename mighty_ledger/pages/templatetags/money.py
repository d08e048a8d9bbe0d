"""Money as the players read it: 10,500원 in Korean, ₩10,500 or $105.00 in English.

One formatting function for every page and for the text the players share, so
the settlement, the group's balance and the chat message always agree.
"""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from mighty_ledger.reads.balance import in_seat_order
from scoring.numbers import MINUS, signed
from scoring.settle import CURRENCY_SYMBOLS, currency_code, minor_unit

register = template.Library()


# the symbol written before the amount, the engine's first for each code (₩ for KRW, not 원);
# a currency without one is written after the amount, as its code
SYMBOLS = {code: symbol for symbol, code in reversed(CURRENCY_SYMBOLS.items())}
# Korean writes these as a word after the number: 10,500원, 1,000엔
KOREAN_WORDS = {"KRW": "원", "JPY": "엔"}


def money_parts(amount: Decimal | int, currency: str, language: str | None = None) -> tuple[str, str, str]:
    """What comes before the digits (the sign, a symbol), the digits, and what comes after."""
    code = currency_code(currency)
    places = 0 if minor_unit(currency) == 1 else 2
    # never rounded for display: a stake of ₩0.5 a point is ₩0.5, not ₩0 (rounding is scoring's)
    exponent = abs(Decimal(amount)).normalize().as_tuple().exponent
    if isinstance(exponent, int) and -exponent > places:
        places = -exponent
    digits = f"{abs(Decimal(amount)):,.{places}f}"
    sign = MINUS if amount < 0 else ""
    korean = (language or get_language() or "").startswith("ko")
    if korean and code in KOREAN_WORDS:
        return sign, digits, KOREAN_WORDS[code]
    if code in SYMBOLS:
        return sign + SYMBOLS[code], digits, ""
    return sign, digits, f" {code}".rstrip()


def format_money(amount: Decimal | int, currency: str, language: str | None = None) -> str:
    """An amount with its currency for the reader's language, grouped by thousands, one minus sign."""
    return "".join(money_parts(amount, currency, language))


@register.filter
def money(amount, currency: str = "") -> str:
    """``{{ amount|money:session.currency }}``; empty for no amount."""
    if amount is None or amount == "":
        return ""
    return format_money(Decimal(amount), currency)


@register.filter
def money_in_column(amount, currency: str = "") -> str:
    """``money`` for a narrow column (the board's totals, up to eight seats): the sign and the
    digits only, the currency said once for the row (``currency_mark``), so that no amount
    wraps or is cut inside its digits."""
    if amount is None or amount == "":
        return ""
    amount = Decimal(amount)
    sign = MINUS if amount < 0 else ""
    _before, digits, _after = money_parts(amount, currency)
    if minor_unit(currency) == 1 and abs(amount) >= 10_000:
        # in thousands (16K), or in Korean in ten-thousands (1.6만): exact, and shorter at the stakes
        # tables play (multiples of 100 or 1,000)
        korean = (get_language() or "").startswith("ko")
        unit, word = (10_000, "만") if korean else (1_000, "K")
        short = f"{abs(amount) / unit:,f}"
        if "." in short:  # 1.50 is 1.5 and 2.00 is 2; 20 stays 20
            short = short.rstrip("0").rstrip(".")
        short += word
        if len(short) < len(digits):
            digits = short
    return sign + digits


@register.filter
def currency_mark(currency: str) -> str:
    """The currency as the reader writes it beside an amount: ₩ (원 in Korean), €, or its code."""
    before, _digits, after = money_parts(0, currency)
    return (before + after).strip()


@register.simple_tag
def amount_text(amount, unit: str, currency: str) -> str:
    """A transfer's amount in what the table settles in: money, chips or points."""
    if unit == "money":
        return format_money(Decimal(amount), currency)
    if isinstance(amount, Decimal) and amount == amount.to_integral_value():
        amount = int(amount)
    if unit == "chips":
        return ngettext("%(count)s chip", "%(count)s chips", amount) % {"count": amount}
    return ngettext("%(count)s point", "%(count)s points", amount) % {"count": amount}


@register.simple_tag
def share_text(session, settlement, outstanding=None) -> str:
    """The night in a few lines for the group's chat: the evening, then who pays whom, or, given
    what is still owed (reads.balance.session_outstanding), who still pays whom after the payments."""
    transfers, unit = in_seat_order(settlement.settling_transfers, session.seats), settlement.unit
    paid = outstanding is not None and bool(outstanding.payments)
    if outstanding is not None:
        transfers = outstanding.transfers
    title = f"{session.played_on:%Y-%m-%d}" + (f" · {session.shown_title}" if session.shown_title else "")
    lines = [_("Mighty, %(evening)s") % {"evening": title}]
    totals = getattr(settlement, "totals", None) or session.totals
    # most points first, ties in seat order (PostgreSQL's jsonb keeps no key order)
    ranked = sorted(((seat, totals.get(seat, 0)) for seat in session.seats), key=lambda item: -item[1])
    lines.append(", ".join(f"{seat} {signed(points)}" for seat, points in ranked))
    if paid and transfers:
        lines.append(_("Still to pay, after the payments marked:"))
    for transfer in transfers:
        lines.append(_("%(payer)s pays %(payee)s %(amount)s") % {
            "payer": _party(transfer.frm), "payee": _party(transfer.to),
            "amount": amount_text(transfer.amount, unit, session.currency),
        })
    if not transfers:
        lines.append(_("Everything owed is paid.") if paid else _("Nobody owes anything."))
    return "\n".join(lines)


def _party(name: str) -> str:
    # the deal-miss pot settles as a party of its own
    return _("the pot") if name == "pot" else name


@register.filter
def line_count(text: str) -> int:
    """``rows="{{ text|line_count }}"``: a box tall enough to show the whole shared text."""
    return len(str(text).splitlines()) or 1
