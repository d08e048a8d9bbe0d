"""Small filters for the table pages: cards, trumps, signed numbers, a hand in one line."""

from __future__ import annotations

import json
from collections import Counter
from html import escape

from django import template
from django.utils.formats import localize
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from mighty_ledger.pages.forms import CALL_LABELS, card_label, engine_words, trump_label
from mighty_ledger.pages.forms.labels import contract_label, partner_known
from mighty_ledger.pages.korean import particle, with_particles
from mighty_ledger.pages.templatetags.money import money as money_filter
from mighty_ledger.pages.templatetags.money import money_in_column
from scoring.numbers import signed as signed_number
from scoring.settle import POT

register = template.Library()


@register.filter
def get(mapping, key):
    return (mapping or {}).get(key)


@register.filter
def words(value):
    """``{{ problem|words }}``: an engine sentence (problem, explanation line, warning,
    deal-miss reason) in the reader's language; any other value as it is."""
    return engine_words(value)


@register.filter
def josa(name: str, pair: str) -> str:
    """``{{ seat|josa:"이/가" }}``: the name with the Korean particle its last sound takes."""
    with_final, without_final = pair.split("/")
    return f"{name}{particle(name, f'{with_final}({without_final})')}"


@register.filter
def particles(text) -> str:
    """A message with its two-form Korean particles ("은(는)") resolved by the word in front."""
    return with_particles(text)


@register.filter
def party(name: str) -> str:
    """A seat in a settlement, or the deal-miss pot (scoring.settle.POT) in the reader's language."""
    return _("pot") if name == POT else name


@register.filter
def hand_transfers(transfers) -> str:
    """A hand's transfers in one line ("Bo pays Ann 2; Cy pays Ann 2"), for the settle page's hand by
    hand: a blocktranslate tag for each transfer of 500 hands was three quarters of that page's first
    view after a hand (make bench, pages: settle)."""
    if not transfers:
        return format_html('<span class="muted">{}</span>', _("nothing"))
    pays = _("%(frm)s pays %(to)s %(amount)s")
    return mark_safe("; ".join(escape(pays % {"frm": party(transfer.frm), "to": party(transfer.to),
                                              "amount": _number(transfer.amount)}) for transfer in transfers))


def _number(amount) -> str:
    # points are whole numbers, written alike in every language; money is localized
    return str(amount) if type(amount) is int else localize(amount)


@register.filter
def card(code: str) -> str:
    return card_label(code)


@register.filter
def points(value) -> str:
    """A total as the board prints it, with the real minus sign (−59), as money and payments are."""
    if value is None:
        return ""
    return str(value).replace("-", "−")


@register.filter
def signed(value) -> str:
    return "" if value is None else signed_number(value)


@register.simple_tag
def seat_cells(hand, seats) -> str:
    """A board row's cells, one per seat: the running total and, when the hand moved it, the payment.

    Drawn here rather than by a loop in the template: fifty rows of five seats are most of the
    nodes the board renders after each hand, and every phone at the table asks for it then. Plain
    strings rather than ``format_html``: a new hand's row is drawn on every step of the board, and
    formatting each cell through it cost as much as the rest of the row."""
    payments, totals = hand.payments or {}, hand.running_totals or {}
    cells = []
    for seat in seats:
        paid = payments.get(seat)
        paid = f'<span class="paid">{escape(signed(paid))}</span>' if paid else ""
        cells.append(f'<td class="num"><span class="total">{escape(points(totals.get(seat)))}</span>{paid}</td>')
    return mark_safe("".join(cells))  # every value escaped above


@register.simple_tag
def total_cells(session, settlement) -> str:
    """The totals row's cells, one per seat: the points, and the money or chips when the evening
    is played for them (``settlement``: reads.SessionSettlement). Drawn here, as a row's cells are:
    every hand draws the totals again, for the board and for its step."""
    totals, money, chips, currency = session.totals or {}, settlement.money, settlement.chips, session.currency
    cells = []
    for seat in session.seats:
        name = escape(seat)
        cell = f'<td class="num" data-seat="{name}"><strong data-points-of="{name}">{escape(points(totals.get(seat)))}</strong>'
        if money:
            amount = money.get(seat)
            cell += (f'<span class="money" data-money-of="{name}" data-amount="{escape(money_filter(amount, currency))}">'
                     f'{escape(money_in_column(amount, currency))}</span>')
        if chips:
            cell += f'<span class="chips">{escape(points(chips.get(seat)))}</span>'
        cells.append(cell + "</td>")
    return mark_safe("".join(cells))  # every value escaped above


@register.filter
def as_json(value) -> str:
    """A value for a data- attribute that JavaScript reads with JSON.parse (the template escapes it)."""
    return json.dumps(value, ensure_ascii=False)


@register.filter
def payment_summary(payments: dict) -> str:
    """A hand's payments in one line for the save bar: "Ann +10 · Cy +5 · others −5".

    The amount most seats share (the defenders', as a rule) is said once, as "others"."""
    if not payments:
        return ""
    common, count = Counter(payments.values()).most_common(1)[0]
    shared = count > 1 and count < len(payments)
    named = sorted(
        ((seat, amount) for seat, amount in payments.items() if not (shared and amount == common)),
        key=lambda item: -abs(item[1]),
    )
    parts = [f"{seat} {signed(amount)}" for seat, amount in named]
    if shared:
        parts.append(_("others %(amount)s") % {"amount": signed(common)})
    return " · ".join(parts)


@register.filter
def short_name(name: str, seats=None) -> str:
    """A seat's name in a narrow column: four characters, or as many more as tell it apart from
    the other seats ("Jiyo" and "Jiyou" for Jiyoon and Jiyoung); the full name goes in a title."""
    if len(name) <= 4:
        return name
    others = [seat for seat in (seats or []) if seat != name]
    for length in range(4, len(name)):
        prefix = name[:length]
        if not any(other.startswith(prefix) for other in others):
            return prefix
    return name


@register.filter
def contract(entry: dict) -> str:
    return contract_label(entry)


@register.filter
def contract_marked(entry: dict) -> str:
    """The contract with its suit sign in the suit's colour: 15<span class="suit-D">♦</span>."""
    trump = (entry or {}).get("contract", {}).get("trump", "")
    text = contract(entry)
    sign = trump_label(trump)
    if trump == "NT" or not text.endswith(sign):
        return text
    return format_html('{}<span class="suit-sign suit-{}">{}</span>', text[: -len(sign)], trump, sign)


@register.filter
def partner_call(entry: dict) -> str:
    call = (entry or {}).get("partner_call", {})
    kind = call.get("type")
    if kind == "card":
        return " ".join(card_label(code) for code in call.get("cards", []))
    if kind == "player":
        return str(call.get("seat") or "")
    return str(CALL_LABELS.get(kind, ""))


@register.filter
def summary(snapshot: dict | None) -> str:
    """A hand as a revision shows it: kind, declarer and contract, partner, points."""
    if not snapshot:
        return "—"
    entry = snapshot.get("entry") or {}
    kind = snapshot.get("kind", "scored")
    if kind == "deal_miss":
        text = _("deal miss by %(seat)s") % {"seat": entry.get("shown_by")}
    elif kind == "all_pass":
        text = _("all passed")
    elif kind == "score_sheet":
        text = _("from the score sheet")
    else:
        text = f"{entry.get('declarer')} {contract(entry)} · {_partners_said(entry)} · {_taken_said(entry)}"
    if snapshot.get("deleted"):
        text += " · " + _("deleted")
    return text


def _partners_said(entry: dict) -> str:
    if not partner_known(entry):
        return "—"
    return ", ".join(entry.get("partners") or []) or _("alone")


def _taken_said(entry: dict) -> str:
    if entry.get("outcome") == "void":
        return _("void")
    if entry.get("defender_points") is not None:
        return _("defenders %(points)s") % {"points": entry["defender_points"]}
    if entry.get("points") is not None:
        return _("took %(points)s") % {"points": entry["points"]}
    if entry.get("outcome") == "conceded":
        return _("conceded by the defenders") if entry.get("conceded_by") == "defenders" else _(
            "conceded by the declarer’s team")
    return "—"


@register.filter
def hand_summary(hand) -> str:
    return summary({"kind": hand.kind, "entry": hand.entry, "deleted": hand.deleted_at is not None})
