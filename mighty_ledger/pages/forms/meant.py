"""Which hand a new-hand form means: what every form that records a hand carries, so that the
server can tell "another phone saved this hand first" from "this is the next hand"."""

from __future__ import annotations

from django import forms

from mighty_ledger.models.changes import Meant


class MeantHand(forms.Form):
    """The hidden fields of a form that records a new hand, and what they mean to the server."""

    # how many hands the session had when the form was opened; no script moves it
    seen_hand_count = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    # the hand this form enters: set when it is opened, moved only by the player's own choice
    # ("I'm entering the next hand"), and checked by the server under the session's lock
    number = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    # the player saw what another phone saved and said to save theirs as another hand too
    confirm = forms.BooleanField(widget=forms.HiddenInput, required=False)

    @staticmethod
    def opened_at(hand_count: int) -> dict:
        """The initial values of a form opened now, when the session has ``hand_count`` hands."""
        return {"seen_hand_count": hand_count, "number": hand_count + 1}

    def meant(self) -> Meant | None:
        """The hand this Save means, checked by the server as it lands; none once the player has
        said to save theirs as another hand too."""
        if self.cleaned_data.get("confirm"):
            return None
        seen, number = self.cleaned_data.get("seen_hand_count"), self.cleaned_data.get("number")
        # a form from before the number was kept meant the hand after those it saw
        if number is None and seen is not None:
            number = seen + 1
        return Meant(number=number, seen=seen)
