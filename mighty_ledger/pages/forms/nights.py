"""A club night's forms: starting it (the players present, the system and its rule changes, the
stakes, how a round ends and how the standings count), a player come or gone, two players swapped.

The night's system, rule controls and stakes are a session's (``SessionStartForm``), less the
seats: the draw seats the players, round by round (services/nights.py).
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from mighty_ledger.models import Night
from mighty_ledger.pages.forms.groups import PLAYER_NAME_MAX
from mighty_ledger.pages.forms.labels import MAX_SEATS, engine_words
from mighty_ledger.pages.forms.sessions import SessionStartForm
from mighty_ledger.services.nights import DEALS_PER_SEAT, MOST_HANDS, MOST_MINUTES, SEED_LIMIT
from scoring.presets import get_preset
from scoring.problems import InvalidInput, Problem

HANDS, MINUTES = "hands", "minutes"
# the service's fields for what this form shows under another name
NIGHT_PROBLEM_FIELDS = {"name": "new_player", "players": "players"}


def default_hands(preset: str) -> int:
    """Two deals per seat at the system's table size, as the night takes a round without one (10 at
    a table of five): where the deal goes round, every seat deals equally often."""
    try:
        return DEALS_PER_SEAT * get_preset(preset).system().players
    except (InvalidInput, KeyError, ValueError):
        return DEALS_PER_SEAT * 5


class NightStartForm(SessionStartForm):
    """The session's form without its seats, with the players present and the night's own choices."""

    players = forms.MultipleChoiceField(label=_("Players present"), required=False,
                                        widget=forms.CheckboxSelectMultiple)
    new_player = forms.CharField(label=_("Add a player"), max_length=PLAYER_NAME_MAX, required=False,
                                 help_text=_("Someone new to the group joins it when the night starts."))
    round_ends = forms.ChoiceField(label=_("A round ends"), widget=forms.RadioSelect, initial=HANDS, choices=[
        (HANDS, _("after a number of hands")), (MINUTES, _("after a time"))])
    hands_per_round = forms.IntegerField(
        label=_("Hands at each table"), required=False, min_value=1, max_value=MOST_HANDS,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    minutes_per_round = forms.IntegerField(
        label=_("Minutes a round"), required=False, min_value=1, max_value=MOST_MINUTES, initial=45,
        help_text=_("When the time is up, each table finishes the hand it is playing."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    standings = forms.ChoiceField(label=_("Standings"), widget=forms.RadioSelect, choices=Night.STANDINGS,
                                  initial=Night.POINTS)
    mixing = forms.ChoiceField(label=_("Tables after the first round"), widget=forms.RadioSelect,
                               choices=Night.MIXINGS, initial=Night.MIX)
    seed = forms.IntegerField(
        label=_("Seed of the draw"), required=False, min_value=0, max_value=SEED_LIMIT - 1,
        help_text=_("Leave it empty and one is drawn. It is shown on the night's page: with the same "
                    "players it gives the same draw, so anyone can check it."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}))

    def __init__(self, *args, players: list[str], **kwargs):
        super().__init__(*args, players=players, **kwargs)
        for seat in range(1, MAX_SEATS + 1):
            del self.fields[f"seat_{seat}"]
        del self.fields["first_dealer"]
        # a night seats several tables, each usually of five: the menu is ordered for one of them
        self.table_size = 5
        # a player added on the page stays among the choices, checked, until the night starts
        added = self.data.getlist("players") if self.is_bound else self.initial.get("players", [])
        names = list(dict.fromkeys([*players, *(name.strip() for name in added if name.strip())]))
        self.fields["players"].choices = [(name, name) for name in names]
        preset = (self.data if self.is_bound else self.initial).get("preset") or "pagat-standard"
        self.fields["hands_per_round"].help_text = _(
            "%(hands)s is two deals for each seat at a table of %(seats)s: every seat deals equally often. "
            "A table of another size plays as many hands for each player.") % {
            "hands": default_hands(preset), "seats": default_hands(preset) // DEALS_PER_SEAT}

    def with_new_player(self) -> list[str]:
        """The players ticked, and the one typed under them (a tap on Add, or on Start with a name typed)."""
        ticked = list(self.cleaned_data.get("players") or [])
        typed = (self.cleaned_data.get("new_player") or "").strip()
        return ticked if not typed or typed in ticked else [*ticked, typed]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("round_ends") == MINUTES and not cleaned.get("minutes_per_round"):
            self.add_error("minutes_per_round", _("Say how many minutes a round lasts."))
        return cleaned

    def service_kwargs(self) -> dict:
        c = self.cleaned_data
        timed = c["round_ends"] == MINUTES
        return {
            "players": self.with_new_player(), "preset": c["preset"], "overrides": c["overrides"],
            "hands_per_round": None if timed else c["hands_per_round"],
            "minutes_per_round": c["minutes_per_round"] if timed else None,
            "standings": c["standings"], "mixing": c["mixing"], "seed": c["seed"],
            "title": c["title"], "played_on": c["played_on"], "stakes": self.stakes(),
        }

    def add_problems(self, problems: list[Problem]) -> None:
        rest = []
        for problem in problems:
            if problem.field.startswith("players"):
                self.add_error("players", engine_words(problem.message))
            elif problem.field in self.fields and not problem.field.startswith(("preset", "overrides")):
                self.add_error(problem.field, engine_words(problem.message))
            else:
                rest.append(problem)
        super().add_problems(rest)


class NightPlayerForm(forms.Form):
    name = forms.CharField(label=_("Add a player"), max_length=PLAYER_NAME_MAX)

    def add_problems(self, problems: list[Problem]) -> None:
        for problem in problems:
            self.add_error("name", engine_words(problem.message))


class NightSwapForm(forms.Form):
    """Two players of the latest round, who take each other's seat (or sitting out) before it starts."""

    first = forms.ChoiceField(label=_("Swap"))
    second = forms.ChoiceField(label=_("with"))

    def __init__(self, *args, players: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *((name, name) for name in players)]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def add_problems(self, problems: list[Problem]) -> None:
        for problem in problems:
            field = "second" if problem.field == "players[1]" else "first"
            self.add_error(field if problem.field.startswith("players[") else None, engine_words(problem.message))
