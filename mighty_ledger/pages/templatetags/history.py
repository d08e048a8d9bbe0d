"""A session's changes as the table reads them: what changed, in the reader's language, and by which link.

Revisions store what happened as data (subject, action, the state before and
after, the kind of link); the history page says it in a sentence: "Hand 3
edited", "Ann paid Bo 10,500원", "Hand in progress thrown in".
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from mighty_ledger.models import Revision
from mighty_ledger.pages.templatetags.ledger import contract
from mighty_ledger.pages.templatetags.money import amount_text, format_money
from mighty_ledger.reads.actors import API_LABEL, actor_label

register = template.Library()


def _hand_number(revision: Revision):
    if revision.hand_id is not None:
        return revision.hand.number
    return (revision.after or revision.before or {}).get("number", "?")


def _hand_title(revision: Revision) -> str:
    titles = {
        Revision.CREATED: _("Hand %(number)s recorded"),
        Revision.AMENDED: _("Hand %(number)s edited"),
        Revision.DELETED: _("Hand %(number)s deleted"),
        Revision.RESTORED: _("Hand %(number)s restored"),
    }
    return titles.get(revision.action, _("Hand %(number)s changed")) % {"number": _hand_number(revision)}


def _session_title(revision: Revision) -> str:
    if revision.action == Revision.AMENDED and "stakes" in (revision.after or {}):
        return _("Stakes changed")
    return {
        Revision.CREATED: _("Session started"),
        Revision.DELETED: _("Session deleted"),
        Revision.RESTORED: _("Session restored"),
    }.get(revision.action, _("Session changed"))


def _contract_title(revision: Revision) -> str:
    after = revision.after or {}
    if revision.action == Revision.CREATED:
        return _("Hand in progress: contract announced")
    if revision.action == Revision.DELETED:
        return _("Hand in progress thrown in")
    if after.get("status") == "completed" and after.get("hand"):
        return _("Hand in progress finished as hand %(number)s") % {"number": after["hand"]}
    return _("Hand in progress changed")


def _payment_title(revision: Revision, currency: str) -> str:
    payment = revision.after or revision.before or {}
    try:
        amount = Decimal(payment.get("amount", ""))
    except InvalidOperation:
        amount = payment.get("amount", "")
    parts = {"payer": payment.get("payer", "?"), "payee": payment.get("payee", "?"),
             "amount": amount_text(amount, payment.get("unit", "points"), payment.get("currency") or currency)}
    if revision.action == Revision.DELETED:
        return _("Payment undone: %(payer)s to %(payee)s, %(amount)s") % parts
    return _("%(payer)s paid %(payee)s %(amount)s") % parts


def _season_title(revision: Revision) -> str:
    before, after = revision.before or {}, revision.after or {}
    if revision.action == Revision.CREATED:
        return _("Season “%(name)s” named, from %(date)s") % {"name": after.get("name", "?"),
                                                              "date": after.get("starts", "?")}
    if revision.action == Revision.DELETED:
        return _("Season “%(name)s” deleted") % {"name": before.get("name", "?")}
    if before.get("name") != after.get("name"):
        if before.get("starts") != after.get("starts") and after.get("starts"):
            # one change did both: neither half is left unsaid
            return _("Season “%(old)s” renamed “%(new)s”, now from %(date)s") % {
                "old": before.get("name", "?"), "new": after.get("name", "?"), "date": after["starts"]}
        return _("Season “%(old)s” renamed “%(new)s”") % {"old": before.get("name", "?"), "new": after.get("name", "?")}
    return _("Season “%(name)s” now starts on %(date)s") % {"name": after.get("name", "?"),
                                                            "date": after.get("starts", "?")}


@register.simple_tag
def change_title(revision: Revision, currency: str = "") -> str:
    """What a revision changed, as one short sentence."""
    if revision.subject == "hand":
        return _hand_title(revision)
    if revision.subject == "session":
        return _session_title(revision)
    if revision.subject == "contract":
        return _contract_title(revision)
    if revision.subject == "payment":
        return _payment_title(revision, currency)
    if revision.subject == "season":
        return _season_title(revision)
    return str(revision.get_action_display())


@register.filter
def contract_summary(snapshot: dict | None) -> str:
    """A hand in progress as a revision shows it: the declarer and the contract."""
    entry = (snapshot or {}).get("entry") or {}
    return f"{entry.get('declarer', '')} {contract(entry)}".strip() or "—"


@register.filter
def actor(stored: str) -> str:
    """Which kind of link made a change, in the reader's language."""
    label = actor_label(stored)
    return {
        "edit link": pgettext("who made a change", "edit link"),
        "view link": pgettext("who made a change", "view link"),
        API_LABEL: pgettext("who made a change", "API"),
        "system": pgettext("who made a change", "the app"),
    }.get(label, label)


@register.filter
def stakes_words(stakes: dict | None) -> str:
    """What a session was played for, as a revision keeps it (services/stakes.py): "₩100 a point",
    "100 chips each, 2 a point", or "points only"."""
    stakes = stakes or {}
    parts = []
    if stakes.get("stake_per_point") is not None:
        stake = format_money(Decimal(stakes["stake_per_point"]), stakes.get("currency") or "")
        parts.append(_("%(stake)s a point") % {"stake": stake})
    if stakes.get("chips_start") is not None:
        parts.append(_("%(chips)s chips each, %(per_point)s a point") % {
            "chips": stakes["chips_start"], "per_point": stakes.get("chips_per_point") or 1})
    return ", ".join(parts) or _("points only")
