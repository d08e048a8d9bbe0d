"""Naming a group and adding a player.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

PLAYER_NAME_MAX = 40  # as services.player_add allows


class GroupCreateForm(forms.Form):
    name = forms.CharField(label=_("Group name"), max_length=80)
    player_names = forms.CharField(
        label=_("Players"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("One name a line."),
        required=False,
    )

    def clean_player_names(self) -> list[str]:
        names = [line.strip() for line in self.cleaned_data["player_names"].splitlines()]
        names = [name for name in names if name]
        for name in names:
            if len(name) > PLAYER_NAME_MAX:
                # said under the players, naming the one too long, not under the group's name
                raise forms.ValidationError(
                    _("“%(name)s” is too long: a player's name can be at most %(max)s characters.")
                    % {"name": name, "max": PLAYER_NAME_MAX}
                )
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("Each player can be listed only once."))
        return names


class PlayerAddForm(forms.Form):
    name = forms.CharField(label=_("New player"), max_length=PLAYER_NAME_MAX)
