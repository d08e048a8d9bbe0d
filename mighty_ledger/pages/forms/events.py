"""A deal that was not played (a deal miss, or everyone passed) as a player taps it, turned into
HAND_JSON's event and back."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mighty_ledger.pages.forms.labels import add_problems, kept_over
from mighty_ledger.pages.forms.meant import MeantHand
from scoring.problems import Problem
from scoring.systems import System

EVENT_PROBLEM_FIELDS = [("dealer", "dealer"), ("shown_by", "shown_by"), ("fine", "fine")]


class EventForm(MeantHand):
    """A deal that was not played: a deal miss (redeal) or everyone passed."""

    kind = forms.ChoiceField(
        label=_("What happened"),
        choices=[("deal_miss", _("deal miss")), ("all_pass", _("all passed"))],
        widget=forms.RadioSelect,
    )
    dealer = forms.ChoiceField(label=_("Dealer"), widget=forms.RadioSelect)
    shown_by = forms.ChoiceField(label=_("Who showed the hand"), widget=forms.RadioSelect, required=False)
    fine = forms.IntegerField(label=_("Fine"), min_value=0, required=False)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, seats: list[str], system: System, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("dealer", "shown_by"):
            self.fields[name].choices = [(seat, seat) for seat in seats]
        self.fields["fine"].initial = system.deal_miss.fine
        if not system.deal_miss.fine:
            # rules without a fine ask for none
            del self.fields["fine"]

    def entry(self) -> dict:
        c = self.cleaned_data
        entry = {"dealer": c["dealer"]}
        if c["kind"] == "deal_miss":
            entry["shown_by"] = c.get("shown_by") or None
            if c.get("fine") is not None:
                entry["fine"] = c["fine"]
        return entry

    def entry_over(self, stored: dict) -> dict:
        """The record an edit saves over ``stored``: what the form asks, and what else it said as it
        was (the hand that was shown; a fine the API gave where the rules ask for none)."""
        owned = {"dealer", "shown_by", *(("fine",) if "fine" in self.fields else ())}
        return kept_over(stored, self.entry(), owned)

    def add_problems(self, problems: list[Problem]) -> None:
        add_problems(self, problems, EVENT_PROBLEM_FIELDS)
