"""Starting a session: the seats tapped clockwise, the system, its rule controls, the stakes.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from decimal import Decimal
from urllib.parse import urlencode

from django import forms
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

from mighty_ledger.pages.forms.labels import MAX_SEATS, engine_words, problem_field
from mighty_ledger.pages.preset_choice import likeliest_preset, second_choice, system_groups
from mighty_ledger.pages.preset_names import preset_name
from scoring.describe import OPTION_LABELS, choice_words, option_label
from scoring.presets import all_presets, get_preset, preset_slugs
from scoring.problems import InvalidInput, Problem
from scoring.settle import Stakes
from scoring.systems import System, merge

SESSION_PROBLEM_FIELDS = [
    ("first_dealer", "first_dealer"),
    ("system", "preset"),
    ("options", "overrides"),
    ("seats", "seat_1"),
]


# the system's options a table changes from the start page, as controls: the preset chooses the
# players and the deck, so those stay with it
FIXED_BY_PRESET = {"players", "active_players", "deck"}
OPTION_GROUPS = {
    "doubles": _("Doubles"),
    "back_run": _("Back run"),
    "trump_change": _("Changing trump"),
    "auction": _("Bidding"),
    "partner_instruction": _("“Partner, take this trick”"),
    "deal_miss": _("Deal miss"),
}
OPTION_PREFIX = "option__"


def option_name(path: str) -> str:
    return OPTION_PREFIX + path.replace(".", "__")


def _option_hint(path: str):
    """The type and bounds the engine declares for an option (scoring.systems' dataclasses)."""
    owner = System
    *parents, last = path.split(".")
    for part in parents:
        owner = typing.get_type_hints(owner)[part]
    spec = next(f for f in dataclasses.fields(owner) if f.name == last)
    return typing.get_type_hints(owner)[last], spec.metadata


def _choices(path: str, choices, system: System | None) -> list[tuple[str, str]]:
    # each choice in the engine's words, in the reader's language: never the option's raw value
    return [(choice, engine_words(choice_words(path, choice, system))) for choice in choices]


def option_field(path: str, value, system: System | None = None) -> forms.Field | None:
    """A control for one option: a switch, a bounded number, a choice or a set of choices
    (worded with ``system``'s own numbers when given)."""
    hint, bounds = _option_hint(path)
    label = engine_words(option_label(path))
    if isinstance(value, bool):
        return forms.BooleanField(label=label, required=False)
    if isinstance(value, int):
        return forms.IntegerField(
            label=label, required=False, min_value=bounds.get("min"), max_value=bounds.get("max"),
            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        )
    if isinstance(value, tuple):
        choices = typing.get_args(typing.get_args(hint)[0])
        return forms.MultipleChoiceField(
            label=label, required=False, widget=forms.CheckboxSelectMultiple,
            choices=_choices(path, choices, system),
        )
    choices = typing.get_args(hint)
    if choices:
        return forms.ChoiceField(label=label, required=False, choices=_choices(path, choices, system))
    return None


def _option_value(system: System, path: str):
    value = system
    for part in path.split("."):
        value = getattr(value, part)
    return value


class SessionStartForm(forms.Form):
    played_on = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    title = forms.CharField(label=_("Title"), max_length=80, required=False)
    # radios in groups, the likeliest first (partials/system_choice.html, pages/preset_choice.py)
    preset = forms.ChoiceField(label=_("Scoring system"), widget=forms.RadioSelect)
    overrides = forms.CharField(
        label=_("Changes to the system (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": '{"back_run": {"n": 10}}'}),
        help_text=_("Optional: any option of the system, as in the rules page."),
    )
    no_trump_double = forms.ChoiceField(
        label=_("No trump doubles"),
        required=False,
        choices=[("", _("as the system says")), ("both", _("always")), ("never", _("never"))],
    )
    first_dealer = forms.ChoiceField(label=_("First dealer"), required=False)
    stake_per_point = forms.DecimalField(label=_("Stake per point"), required=False, min_value=0, decimal_places=2)
    currency = forms.CharField(label=_("Currency"), max_length=8, required=False)
    # a cent, as a decimal: the float 0.01 is a hair above it and refused 0.01 itself
    rounding_unit = forms.DecimalField(label=_("Round to"), required=False, min_value=Decimal("0.01"), decimal_places=2)
    chips_start = forms.IntegerField(label=_("Starting chips"), required=False, min_value=0)
    chips_per_point = forms.IntegerField(label=_("Chips per point"), required=False, min_value=1)

    def __init__(self, *args, players: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        # the table the menu is ordered for: the group's players, when they make one table
        self.table_size = len(players) if 2 <= len(players) <= MAX_SEATS else 5
        # named as the board names it, in the reader's language
        self.fields["preset"].choices = [(p.slug, preset_name(p)) for p in all_presets()]
        seat_choices = [("", "—")] + [(name, name) for name in players]
        for i in range(1, MAX_SEATS + 1):
            self.fields[f"seat_{i}"] = forms.ChoiceField(
                label=_("Seat %(number)s") % {"number": i}, choices=seat_choices, required=False
            )
        self.fields["first_dealer"].choices = [("", _("the first seat"))] + seat_choices[1:]
        self._add_option_fields()

    def _add_option_fields(self) -> None:
        """The rules as controls, holding the values of the system shown (its preset and changes)."""
        source = self.data if self.is_bound else self.initial
        self.options_for = source.get("options_for") or source.get("preset") or "pagat-standard"
        try:
            overrides = {} if self.is_bound else json.loads(self.initial.get("overrides") or "{}")
            system = get_preset(self.options_for).system(overrides)
        except (InvalidInput, ValueError, KeyError):
            self.options_for = "pagat-standard"
            system = get_preset(self.options_for).system()
        self.option_paths = []
        for path in OPTION_LABELS:
            if path in FIXED_BY_PRESET:
                continue
            try:
                value = _option_value(system, path)
                field = option_field(path, value, system)
            except (AttributeError, StopIteration, KeyError, IndexError):
                continue  # words for an option this engine does not have (yet)
            if field is None:
                continue
            field.initial = list(value) if isinstance(value, tuple) else value
            self.fields[option_name(path)] = field
            self.option_paths.append(path)
        self.fields["options_for"] = forms.CharField(widget=forms.HiddenInput, required=False,
                                                     initial=self.options_for)

    @property
    def option_errors(self) -> bool:
        return any(option_name(path) in self.errors for path in self.option_paths)

    def option_groups(self):
        """The controls in fieldsets: the general rules first, then each part of the system."""
        groups: dict[str, list] = {}
        for path in self.option_paths:
            head = path.split(".")[0] if "." in path else ""
            groups.setdefault(head, []).append(self[option_name(path)])
        return [(OPTION_GROUPS.get(head, _("Scoring and play")), fields) for head, fields in groups.items()]

    def _changed_options(self, cleaned: dict) -> dict:
        """The controls that differ from the chosen preset, as nested overrides."""
        if not self.data.get("options_for") or cleaned.get("preset") != self.options_for:
            # no controls were shown, or they showed another system's values: the preset's own apply
            return {}
        defaults = get_preset(self.options_for).system()
        changed: dict = {}
        for path in self.option_paths:
            value = cleaned.get(option_name(path))
            default = _option_value(defaults, path)
            if value in (None, "") or value == (list(default) if isinstance(default, tuple) else default):
                continue
            *parents, last = path.split(".")
            node = changed
            for part in parents:
                node = node.setdefault(part, {})
            node[last] = value
        return changed

    def seat_fields(self):
        return [self[f"seat_{i}"] for i in range(1, MAX_SEATS + 1)]

    @staticmethod
    def likeliest_preset(players: list[str]) -> str:
        """The system a table of these players most likely plays, in the reader's language."""
        size = len(players) if 2 <= len(players) <= MAX_SEATS else 5
        return likeliest_preset(language=get_language(), players=size)

    @cached_property
    def system_groups(self):
        return system_groups(language=get_language(), players=self.table_size, chosen=self["preset"].value())

    @property
    def compare_url(self) -> str:
        """The rules page that puts the system chosen beside the next likeliest."""
        chosen = self["preset"].value() if self["preset"].value() in preset_slugs() else self.options_for
        query = urlencode({"a": chosen, "b": second_choice(self.system_groups, chosen)})
        return f"{reverse('systems_compare')}?{query}"

    @property
    def players_needed(self) -> int:
        """How many seats the system shown takes (the page counts the taps against it)."""
        return get_preset(self.options_for).system().players

    @property
    def seats_filled(self) -> bool:
        """Whether the page comes with seats already taken (as last time): the help then says how to
        seat the table anew, since a tap on a seated player takes them out."""
        if self.is_bound:
            return False  # drawn again after Start: the seats are the ones this phone tapped
        return any(self.initial.get(f"seat_{i}") for i in range(1, MAX_SEATS + 1))

    @staticmethod
    def initial_from_query(query) -> dict:
        """The page re-drawn for another system: its own rules, what was already filled in kept."""
        kept = ["preset", "played_on", "title", "first_dealer", *(f"seat_{i}" for i in range(1, MAX_SEATS + 1))]
        return {"overrides": ""} | {name: query[name] for name in kept if name in query}

    @staticmethod
    def initial_like(last) -> dict:
        """A new session as the group's last one was set up: its seating, system, rule changes and stakes."""
        initial = {
            "preset": last.preset,
            "overrides": json.dumps(last.overrides, ensure_ascii=False) if last.overrides else "",
            "stake_per_point": amount_as_typed(last.stake_per_point), "currency": last.currency,
            "rounding_unit": amount_as_typed(last.rounding_unit), "chips_start": last.chips_start,
            "chips_per_point": last.chips_per_point,
        }
        return initial | {f"seat_{i + 1}": name for i, name in enumerate(last.seats)}

    def clean_overrides(self) -> dict:
        text = self.cleaned_data["overrides"].strip()
        if not text:
            return {}
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(_("This is not valid JSON: %(error)s") % {"error": error}) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(_("Write the changes as a JSON object, such as {\"min_bid\": 14}."))
        return value

    def clean(self):
        cleaned = super().clean()
        cleaned["seats"] = [cleaned.get(f"seat_{i}") for i in range(1, MAX_SEATS + 1)]
        cleaned["seats"] = [seat for seat in cleaned["seats"] if seat]
        changed = self._changed_options(cleaned)
        if changed:
            cleaned["overrides"] = merge(dict(cleaned.get("overrides") or {}), changed)
        if cleaned.get("no_trump_double"):
            overrides = dict(cleaned.get("overrides") or {})
            overrides["doubles"] = {**overrides.get("doubles", {}), "no_trump": cleaned["no_trump_double"]}
            cleaned["overrides"] = overrides
        if cleaned.get("stake_per_point") is not None and cleaned.get("chips_start") is not None:
            raise forms.ValidationError(_("Play either for money or for chips, not both."))
        if cleaned.get("stake_per_point") is not None and not cleaned.get("rounding_unit"):
            cleaned["rounding_unit"] = 1
        if cleaned.get("chips_start") is not None and not cleaned.get("chips_per_point"):
            cleaned["chips_per_point"] = 1
        return cleaned

    def service_kwargs(self) -> dict:
        c = self.cleaned_data
        return {
            "seats": c["seats"], "preset": c["preset"], "overrides": c["overrides"],
            "first_dealer": c["first_dealer"] or None, "played_on": c["played_on"], "title": c["title"],
            "stakes": self.stakes(),
        }

    def stakes(self) -> Stakes:
        """What the evening is played for (a club night's too): a rounding with a stake, chips per
        point with chips, else neither."""
        c = self.cleaned_data
        money, chips = c["stake_per_point"] is not None, c["chips_start"] is not None
        return Stakes(stake_per_point=c["stake_per_point"], currency=c["currency"],
                      rounding_unit=c["rounding_unit"] if money else None, chips_start=c["chips_start"],
                      chips_per_point=c["chips_per_point"] if chips else None)

    def add_problems(self, problems: list[Problem]) -> None:
        for problem in problems:
            if problem.field.startswith("seats["):
                index = int(problem.field[len("seats["):].split("]")[0])
                self.add_error(f"seat_{index + 1}", engine_words(problem.message))
            elif problem.field.startswith("options.") and option_name(problem.field[8:]) in self.fields:
                self.add_error(option_name(problem.field[8:]), engine_words(problem.message))
            else:
                name = problem_field(problem.field, SESSION_PROBLEM_FIELDS)
                message = engine_words(problem.message)
                if problem.code == "wrong_player_count":
                    seated = len(self.cleaned_data.get("seats", []))
                    message = f"{message} {self._seats_to_change(seated)} {self._systems_for(seated)}".strip()
                self.add_error(name, message)

    def _seats_to_change(self, seated: int) -> str:
        """What to do about it, counted: "Tap 2 more players." (or take some out)."""
        try:
            needed = get_preset(self.cleaned_data.get("preset", "")).system().players
        except (InvalidInput, KeyError):
            return ""
        if seated < needed:
            return ngettext("Tap %(count)s more player.", "Tap %(count)s more players.",
                            needed - seated) % {"count": needed - seated}
        return ngettext("Take %(count)s player out.", "Take %(count)s players out.",
                        seated - needed) % {"count": seated - needed}

    @staticmethod
    def _systems_for(seated: int) -> str:
        """The systems for as many players as are seated, to choose one instead (6 seated: pagat's
        knockout and rotation, Chicago, 대전 6마…)."""
        names = [preset_name(preset) for preset in all_presets() if preset.system().players == seated]
        if not names:
            return ""
        return _("Systems for %(count)s players: %(names)s.") % {"count": seated, "names": ", ".join(names)}


def amount_as_typed(amount):
    """A stored amount as a player types it: 100 for ₩100 (stored 100.00), 0.5 for 0.50."""
    if amount is None:
        return None
    # no rounding: a whole amount is written without its ".00", any other as it stands
    return int(amount) if amount % 1 == 0 else amount.normalize()
