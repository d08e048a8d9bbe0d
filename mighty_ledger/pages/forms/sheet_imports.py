"""Bringing a spreadsheet of past hands in: the file and the scoring system, then the choices the
preview offers (which of the group's players a name of the sheet is)."""

from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from mighty_ledger.pages.preset_names import preset_name
from mighty_ledger.services.spreadsheets import MAX_BYTES, MAX_ROWS, too_large
from scoring.presets import all_presets
from scoring.words import translated

NEW_PLAYER = ""


class SheetUploadForm(forms.Form):
    file = forms.FileField(label=_("Spreadsheet (CSV or Excel .xlsx)"), required=False, help_text=format_lazy(
        _("At most {megabytes} MB and {rows} rows: a longer history comes in a file per year."),
        megabytes=MAX_BYTES // 2**20, rows=f"{MAX_ROWS:,}"))
    preset = forms.ChoiceField(label=_("Scoring system of these hands"))
    # the file's hash once sent: its bytes wait on the server while the preview is read
    sheet = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    # the evening of a file that does not say (a board's download from before it carried its date)
    played_on = forms.DateField(label=_("Date of the evening"), required=False,
                                widget=forms.DateInput(attrs={"type": "date"}))
    import_duplicates = forms.BooleanField(label=_("Import the evenings already in the group too"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [(p.slug, preset_name(p)) for p in all_presets()]
        self.fields["preset"].initial = "korean-standard"

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        # refused on its size alone, before a byte of it is read
        if upload is not None and upload.size > MAX_BYTES:
            raise forms.ValidationError(translated(too_large().message, gettext), code="too_large")
        return upload

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("file") and not cleaned.get("sheet") and "file" not in self.errors:
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
