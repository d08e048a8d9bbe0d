"""How a player likes to be paid: the form on their "How to pay" page (edit link only).

The form checks shape only; which Toss IDs, KakaoPay links, banks and account numbers are kept
is reads/pay_links.py's call, through services.pay.player_pay_set, whose problems go beside
their fields.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mighty_ledger.reads.pay_links import BANKS
from mighty_ledger.reads.payees import handles_of


class PayForm(forms.Form):
    toss = forms.CharField(label=_("Toss ID"), max_length=60, required=False,
                           help_text=_("Your Toss ID, or the toss.me link Toss shares."))
    kakaopay = forms.CharField(label=_("KakaoPay money link"), max_length=120, required=False,
                               help_text=_("The qr.kakaopay.com link KakaoPay gives for receiving money."))
    bank = forms.ChoiceField(label=_("Bank"), required=False)
    account = forms.CharField(label=_("Account number"), max_length=40, required=False,
                              help_text=_("Digits, with dashes if you like."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["bank"].choices = [("", _("No bank account")),
                                       *((code, _(english)) for code, (english, _korean) in BANKS.items())]
        for name in ("toss", "kakaopay", "account"):
            self.fields[name].widget.attrs.update({"autocomplete": "off", "spellcheck": "false"})
        self.fields["account"].widget.attrs["inputmode"] = "numeric"
        self.fields["kakaopay"].widget.attrs["inputmode"] = "url"

    @classmethod
    def for_player(cls, player) -> PayForm:
        handles = handles_of(player)
        return cls(initial={"toss": handles.toss, "kakaopay": handles.kakaopay, "bank": handles.bank,
                            "account": handles.account})

    def changes(self) -> dict[str, str]:
        return {name: self.cleaned_data.get(name) or "" for name in ("toss", "kakaopay", "bank", "account")}
