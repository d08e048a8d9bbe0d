"""The contract's form: the hand form's first half, filled in when the auction ends."""

from __future__ import annotations

from django import forms

from mighty_ledger.pages.forms.hands import HandForm
from scoring.hand import CONTRACT_FIELDS, RESULT_FIELDS

# what only the last trick tells, as the hand form asks it (its points with the side they are
# counted for): the contract form leaves these to the hand form
LAST_TRICK_FIELDS = (*RESULT_FIELDS, "points_side")


class ContractForm(HandForm):
    """The hand form without what only the last trick tells: partners, discards and points."""

    replacing = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in LAST_TRICK_FIELDS:
            if name in self.fields:
                self.fields[name].required = False

    def shown_fields(self):
        """The hand form's fields this page draws: none of what the last trick tells."""
        return [field for field in super().shown_fields() if field.name not in LAST_TRICK_FIELDS]

    def _ask_for_the_partner(self, cleaned: dict) -> None:
        pass  # nobody knows the partner until the called card is played

    def entry(self) -> dict:
        return {key: value for key, value in super().entry().items() if key in CONTRACT_FIELDS}
