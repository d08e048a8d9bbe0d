"""What a session is played for, changed from the settle page: the stake, currency, rounding and
chips, as the start page asks them. The service (services/stakes.py) checks the values, so this
page and the API refuse the same ones in the same words."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from mighty_ledger.pages.forms.labels import engine_words
from mighty_ledger.pages.forms.sessions import amount_as_typed
from scoring.problems import Problem
from scoring.settle import Stakes

# named as the engine names them, as the service takes them (services/stakes.py)
STAKE_FIELDS = tuple(field.name for field in dataclasses.fields(Stakes))


class SessionStakesForm(forms.Form):
    # an empty box stops playing for it: a blank stake is points alone
    stake_per_point = forms.DecimalField(label=_("Stake per point"), required=False, min_value=0, decimal_places=2,
                                         widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "any"}))
    currency = forms.CharField(label=_("Currency"), max_length=8, required=False,
                               help_text=_("KRW, ₩, EUR…"))
    rounding_unit = forms.DecimalField(label=_("Round to"), required=False, min_value=Decimal("0.01"),
                                       decimal_places=2,
                                       widget=forms.NumberInput(attrs={"inputmode": "decimal", "step": "any"}))
    chips_start = forms.IntegerField(label=_("Starting chips"), required=False, min_value=0,
                                     widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    chips_per_point = forms.IntegerField(label=_("Chips per point"), required=False, min_value=1,
                                         widget=forms.NumberInput(attrs={"inputmode": "numeric"}))

    @classmethod
    def for_session(cls, session) -> SessionStakesForm:
        amounts = {"stake_per_point", "rounding_unit"}
        return cls(initial={field: amount_as_typed(getattr(session, field)) if field in amounts
                            else getattr(session, field) for field in STAKE_FIELDS})

    def changes(self) -> dict:
        """Every field, as the service takes them: a blank one is cleared."""
        return {field: self.cleaned_data.get(field) for field in STAKE_FIELDS} | {
            "currency": self.cleaned_data.get("currency") or ""}

    def add_problems(self, problems: list[Problem]) -> None:
        for problem in problems:
            self.add_error(problem.field if problem.field in self.fields else None, engine_words(problem.message))

