"""Bringing a spreadsheet of past hands in: the file and the scoring system, then the choices the
preview offers (which of the group's players a name of the sheet is)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mighty_ledger.pages.preset_names import preset_name
from scoring.presets import all_presets

NEW_PLAYER = ""


class SheetUploadForm(forms.Form):
    file = forms.FileField(label=_("Spreadsheet (CSV or Excel .xlsx)"), required=False)
    preset = forms.ChoiceField(label=_("Scoring system of these hands"))
    # the file's hash once sent: its bytes wait on the server while the preview is read
    sheet = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [(p.slug, preset_name(p)) for p in all_presets()]
        self.fields["preset"].initial = "korean-standard"

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("file") and not cleaned.get("sheet"):
            self.add_error("file", _("Choose the spreadsheet to bring in."))
        return cleaned


def player_choices(post) -> dict[str, str | None]:
    """The preview's choices: for each name of the sheet (``name-<i>``), the group's player chosen
    (``match-<i>``), or a new player."""
    choices = {}
    index = 0
    while f"name-{index}" in post:
        chosen = post.get(f"match-{index}", NEW_PLAYER)
        choices[post[f"name-{index}"]] = chosen or None
        index += 1
    return choices
