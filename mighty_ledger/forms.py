"""Forms of the table app: they turn what a player tapped into HAND_JSON and back.

Forms only check shape (a number is a number, a seat is a seat). Whether a
hand is legal is the engine's call: its Problems are put beside the fields
they concern with ``add_problems``.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.cards import (
    JOKER,
    RANKS,
    SUIT_SIGNS,
    SUITS,
    card_sort_key,
    card_text,
    mighty,
    rank_of,
    ripper,
    suit_of,
    trump_text,
)
from scoring.describe import OPTION_LABELS, option_label
from scoring.flow import dealer_sits_out
from scoring.presets import all_presets, get_preset
from scoring.problems import InvalidInput, Problem
from scoring.systems import System, merge

from .korean import with_particles

TRUMP_CHOICES = [*SUIT_SIGNS.items(), ("NT", _("NT"))]
CALL_LABELS = {
    "card": _("a card"),
    "first_trick": _("first trick"),
    "none": _("no friend"),
    "player": _("a player"),
}
# the cards tables call most, one tap each; what they are depends on the trump (scoring.cards)
CALL_ROLES = {
    "mighty": _("Mighty"),
    "joker": _("Joker"),
    "ripper": _("Ripper"),
    "trump_A": _("Trump A"),
    "trump_K": _("Trump K"),
}
ALONE = "alone"
MAX_SEATS = 8


def card_label(card: str) -> str:
    """♠A, ♥10, or the Joker in the reader's language: scoring.cards writes every card."""
    return engine_words(card_text(card))


def trump_label(trump: str) -> str:
    return str(_("NT")) if trump == "NT" else trump_text(trump)


def problem_field(path: str, table: list[tuple[str, str]]) -> str | None:
    """The form field for an engine field path such as ``partner_call.cards[0]``."""
    for prefix, name in table:
        if path == prefix or path.startswith((f"{prefix}.", f"{prefix}[")):
            return name
    return None


def engine_words(value):
    """An engine sentence (``scoring.words.Words``) in the reader's language; anything else as it is."""
    translated = getattr(value, "translated", None)
    # Korean messages carry both forms of a particle ("{seat}은(는)"): the name in front picks one
    return with_particles(translated(gettext)) if translated is not None else value


def add_problems(form: forms.Form, problems: list[Problem], table: list[tuple[str, str]]) -> None:
    """Put each engine problem beside its field; the rest go above the form.

    Form errors keep only plain strings, so each problem is translated as it is added."""
    for problem in problems:
        name = problem_field(problem.field, table)
        form.add_error(name if name in form.fields else None, engine_words(problem.message))


# --- groups and players ----------------------------------------------------------

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


# --- sessions --------------------------------------------------------------------------

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


def _option_words(value: str) -> str:
    return value.replace("_", " ")


def option_field(path: str, value) -> forms.Field | None:
    """A control for one option: a switch, a bounded number, a choice or a set of choices."""
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
            choices=[(choice, _option_words(choice)) for choice in choices],
        )
    choices = typing.get_args(hint)
    if choices:
        return forms.ChoiceField(label=label, required=False,
                                 choices=[(choice, _option_words(choice)) for choice in choices])
    return None


def _option_value(system: System, path: str):
    value = system
    for part in path.split("."):
        value = getattr(value, part)
    return value


class SessionStartForm(forms.Form):
    played_on = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    title = forms.CharField(label=_("Title"), max_length=80, required=False)
    preset = forms.ChoiceField(label=_("Scoring system"))
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
    rounding_unit = forms.DecimalField(label=_("Round to"), required=False, min_value=0.01, decimal_places=2)
    chips_start = forms.IntegerField(label=_("Starting chips"), required=False, min_value=0)
    chips_per_point = forms.IntegerField(label=_("Chips per point"), required=False, min_value=1)

    def __init__(self, *args, players: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        self.fields["preset"].choices = [(p.slug, p.name) for p in all_presets()]
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
                field = option_field(path, value)
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
            "stake_per_point": last.stake_per_point, "currency": last.currency,
            "rounding_unit": last.rounding_unit, "chips_start": last.chips_start,
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
            "stake_per_point": c["stake_per_point"], "currency": c["currency"],
            "rounding_unit": c["rounding_unit"] if c["stake_per_point"] is not None else None,
            "chips_start": c["chips_start"],
            "chips_per_point": c["chips_per_point"] if c["chips_start"] is not None else None,
        }

    def add_problems(self, problems: list[Problem]) -> None:
        for problem in problems:
            if problem.field.startswith("seats["):
                index = int(problem.field[len("seats["):].split("]")[0])
                self.add_error(f"seat_{index + 1}", engine_words(problem.message))
            elif problem.field.startswith("options.") and option_name(problem.field[8:]) in self.fields:
                self.add_error(option_name(problem.field[8:]), engine_words(problem.message))
            else:
                name = problem_field(problem.field, SESSION_PROBLEM_FIELDS)
                self.add_error(name, engine_words(problem.message))


# --- hands -----------------------------------------------------------------------------

HAND_PROBLEM_FIELDS = [
    ("dealer", "dealer"),
    ("declarer", "declarer"),
    ("contract.points", "contract_points"),
    ("contract.trump", "contract_trump"),
    ("contract", "contract_points"),
    ("bid.points", "bid_points"),
    ("bid.trump", "bid_trump"),
    ("bid", "bid_points"),
    ("partner_call.cards", "call_cards"),
    ("partner_call.seat", "call_seat"),
    ("partner_call", "call_type"),
    ("partners", "partners"),
    ("sitting_out", "sitting_out"),
    ("discards", "discards"),
    ("defender_points", "points"),
    ("points", "points"),
]


@dataclass(frozen=True)
class CardChoice:
    """One card of a picker: its input and its suit (for the red and black)."""

    widget: object
    suit: str


class HandForm(forms.Form):
    """One scored hand, on one screen; its fields follow the session's system."""

    dealer = forms.ChoiceField(label=_("Dealer"), widget=forms.RadioSelect)
    declarer = forms.ChoiceField(label=_("Declarer"), widget=forms.RadioSelect)
    contract_points = forms.IntegerField(label=_("Contract"))
    contract_trump = forms.ChoiceField(label=_("Trump"), choices=TRUMP_CHOICES, widget=forms.RadioSelect)
    bid_differs = forms.BooleanField(label=_("The bid was different"), required=False)
    bid_points = forms.IntegerField(label=_("Bid"), required=False)
    bid_trump = forms.ChoiceField(label=_("Bid trump"), choices=TRUMP_CHOICES, widget=forms.RadioSelect, required=False)
    call_type = forms.ChoiceField(label=_("Partner call"), widget=forms.RadioSelect, initial="card")
    # one called card: a common call in one tap, or its suit then its rank
    call_pick = forms.ChoiceField(label=_("Called card"), widget=forms.RadioSelect, required=False)
    call_rank = forms.ChoiceField(label=_("Rank"), widget=forms.RadioSelect, required=False)
    # two called cards (double deck), or a post that names the cards themselves
    call_cards = forms.MultipleChoiceField(label=_("Called card"), widget=forms.CheckboxSelectMultiple, required=False)
    call_seat = forms.ChoiceField(label=_("Called player"), widget=forms.RadioSelect, required=False)
    sitting_out = forms.MultipleChoiceField(label=_("Sitting out"), widget=forms.CheckboxSelectMultiple, required=False)
    discards = forms.MultipleChoiceField(label=_("Discards"), widget=forms.CheckboxSelectMultiple, required=False)
    points_side = forms.ChoiceField(
        label=_("Points counted for"),
        choices=[("declarer", _("declarer's team")), ("defenders", _("defenders"))],
        widget=forms.RadioSelect,
        initial="declarer",
    )
    points = forms.IntegerField(label=_("Points"), min_value=0)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)
    # how many hands the session had when the form was opened: saving after another phone
    # saved one asks first, unless the player already said to save theirs too ("confirm")
    seen_hand_count = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    confirm = forms.BooleanField(widget=forms.HiddenInput, required=False)
    # the hand in progress this form completes (opened from its "complete" button)
    in_progress = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(self, *args, seats: list[str], system: System, **kwargs):
        super().__init__(*args, **kwargs)
        self.system = system
        seat_choices = [(seat, seat) for seat in seats]
        for name in ("dealer", "declarer", "call_seat", "sitting_out"):
            self.fields[name].choices = seat_choices
        top = system.total_points if system.bids_above_max else system.max_bid
        for name in ("contract_points", "bid_points"):
            self.fields[name].widget.attrs.update({"min": system.min_bid, "max": top, "inputmode": "numeric"})
        self.fields["points"].widget.attrs.update({"max": system.total_points, "inputmode": "numeric"})
        self.fields["contract_points"].initial = system.min_bid
        self.contract_values = list(range(system.min_bid, top + 1))
        self.fields["call_type"].choices = [(call, CALL_LABELS[call]) for call in system.partner_calls]
        cards = sorted(system.deck_cards.copies, key=card_sort_key)
        card_choices = [(card, card_label(card)) for card in cards]
        self.fields["call_cards"].choices = card_choices
        self.fields["discards"].choices = card_choices
        roles = [role for role in CALL_ROLES if role not in system.forbidden_calls]
        if not system.deck_cards.holds(JOKER):
            roles.remove("joker")
        self.fields["call_pick"].choices = [(role, CALL_ROLES[role]) for role in roles] + list(SUIT_SIGNS.items())
        self.fields["call_pick"].initial = roles[0] if roles else None
        ranks = {rank_of(card) for card in cards if card != JOKER}
        self.fields["call_rank"].choices = [(rank, rank) for rank in RANKS if rank in ranks]
        alone = [(ALONE, _("declarer alone"))]
        if system.called_cards > 1:
            self.fields["call_cards"].label = _("Called cards (two)")
            self.fields["partners"] = forms.MultipleChoiceField(
                label=_("Partners"), choices=seat_choices + alone, widget=forms.CheckboxSelectMultiple,
                required=False, help_text=_("Leave empty when the declarer played alone."),
            )
        else:
            self.fields["partners"] = forms.ChoiceField(
                label=_("Partner"), choices=seat_choices + alone, widget=forms.RadioSelect, required=False,
            )
        if not self.has_sitting_out:
            del self.fields["sitting_out"]
        if system.next_dealer == "joker_holder":
            # pagat 3 players: "The holder of the joker in each hand deals the next"
            self.fields["joker_holder"] = forms.ChoiceField(
                label=_("Held the Joker"), choices=[("", _("nobody (it was buried)"))] + seat_choices,
                widget=forms.RadioSelect, required=False,
                help_text=_("Whoever held the Joker deals the next hand."),
            )
        if "player" not in system.partner_calls:
            del self.fields["call_seat"]
        self.discard_count = system.deck_cards.discards

    @property
    def has_sitting_out(self) -> bool:
        return self.system.active_players < self.system.players

    @property
    def calls_one_card(self) -> bool:
        return self.system.called_cards == 1

    def shown_fields(self):
        """The fields the page draws: one called card is picked by role or suit and rank, two from cards."""
        hidden = {"call_cards"} if self.calls_one_card else {"call_pick", "call_rank"}
        return [field for field in self.visible_fields() if field.name not in hidden]

    def call_role_cards(self) -> dict[str, dict[str, str]]:
        """Each common call as a card under each trump, for the picker's labels: mighty → {"S": "♦A", …}."""
        return {
            role: {trump: card_label(card) for trump in (*SUITS, "NT") if (card := self.role_card(role, trump))}
            for role, _label in self.fields["call_pick"].choices if role in CALL_ROLES and role != "joker"
        }

    def role_card(self, role: str, trump: str | None) -> str | None:
        """The card a common call names under ``trump``; None for a trump card at no trump."""
        system = self.system
        if role == "mighty":
            return mighty(trump, spade_trump_keeps_mighty=system.spade_trump_keeps_mighty)
        if role == "joker":
            return JOKER
        if role == "ripper":
            return ripper(trump, system.deck_cards)
        if role in ("trump_A", "trump_K") and trump in SUITS:
            return role[-1] + trump
        return None

    def card_rows(self, name: str) -> list[tuple[str, str, list[CardChoice]]]:
        """A picker's cards grouped by suit (code, sign, cards), the Joker on its own row."""
        rows: dict[str, list[CardChoice]] = {}
        for widget in self[name]:
            code = widget.data["value"]
            suit = suit_of(code) or "joker"
            rows.setdefault(suit, []).append(CardChoice(widget, suit))
        order = ["joker", *SUITS]
        return [(suit, SUIT_SIGNS.get(suit, ""), rows[suit]) for suit in order if suit in rows]

    def call_card_rows(self):
        return self.card_rows("call_cards")

    def discard_rows(self):
        return self.card_rows("discards")

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("bid_differs") and (cleaned.get("bid_points") is None or not cleaned.get("bid_trump")):
            self.add_error("bid_points", _("Give the bid's points and trump, or untick “the bid was different”."))
        if cleaned.get("call_type") == "card":
            cleaned["called"] = self._called_cards(cleaned)
            self._ask_for_the_partner(cleaned)
        return cleaned

    def _called_cards(self, cleaned: dict) -> list[str]:
        """The called cards: the picker's common call or suit and rank, else the cards posted by name."""
        pick = cleaned.get("call_pick")
        if not (self.calls_one_card and pick):
            return list(cleaned.get("call_cards") or [])
        if pick in SUITS:
            rank = cleaned.get("call_rank")
            if not rank:
                self.add_error("call_rank", forms.ValidationError(_("Pick the called card's rank."), code="required"))
                return []
            return [rank + pick]
        card = self.role_card(pick, cleaned.get("contract_trump"))
        if card is None:
            self.add_error("call_pick", _("No trump has no trump ace or king: pick the suit, then the rank."))
            return []
        return [card]

    def _ask_for_the_partner(self, cleaned: dict) -> None:
        """A card was called but no partner tapped: ask, rather than save a secret solo by mistake."""
        if not self.calls_one_card or cleaned.get("partners") or "partners" in self.errors:
            return
        declarer = cleaned.get("declarer") or _("the declarer")
        self.add_error("partners", forms.ValidationError(
            _("Secret solo? (the called card was in %(declarer)s's hand or the kitty) "
              "Tap “declarer alone” if so, or tap the partner.") % {"declarer": declarer},
            code="required",
        ))

    def entry(self) -> dict:
        """The HAND_JSON request (without system, options and seats, which the session supplies)."""
        c = self.cleaned_data
        call: dict = {"type": c["call_type"]}
        if c["call_type"] == "card":
            call["cards"] = c["called"]
        elif c["call_type"] == "player":
            call["seat"] = c.get("call_seat") or None
        partners = c["partners"]
        partners = list(partners) if isinstance(partners, list) else ([partners] if partners else [])
        partners = [seat for seat in partners if seat != ALONE]
        entry = {
            "dealer": c["dealer"],
            "declarer": c["declarer"],
            "contract": {"points": c["contract_points"], "trump": c["contract_trump"]},
            "partner_call": call,
            "partners": partners,
        }
        if c.get("bid_differs"):
            entry["bid"] = {"points": c["bid_points"], "trump": c["bid_trump"]}
        if c.get("sitting_out"):
            entry["sitting_out"] = list(c["sitting_out"])
        elif dealer_sits_out(self.system):
            # the dealer sits this hand out (pagat 6 players, 003 변형 6마): fill it in
            entry["sitting_out"] = [c["dealer"]]
        if c["discards"]:
            entry["discards"] = list(c["discards"])
        if "joker_holder" in self.fields:
            entry["joker_holder"] = c.get("joker_holder") or None
        points_key = "defender_points" if c["points_side"] == "defenders" else "points"
        entry[points_key] = c["points"]
        return entry

    @staticmethod
    def initial_from(entry: dict, version: int | None = None) -> dict:
        """Form values for an entry already saved (editing a hand)."""
        call = entry.get("partner_call", {})
        contract = entry.get("contract", {})
        bid = entry.get("bid")
        partners = entry.get("partners", []) or [ALONE]
        cards = call.get("cards", [])
        initial = {
            "dealer": entry.get("dealer"),
            "declarer": entry.get("declarer"),
            "contract_points": contract.get("points"),
            "contract_trump": contract.get("trump"),
            "bid_differs": bid is not None,
            "bid_points": (bid or {}).get("points"),
            "bid_trump": (bid or {}).get("trump"),
            "call_type": call.get("type", "card"),
            "call_cards": cards,
            **HandForm.picked(cards),
            "call_seat": call.get("seat"),
            "partners": partners,
            "sitting_out": entry.get("sitting_out", []),
            "joker_holder": entry.get("joker_holder") or "",
            "discards": entry.get("discards", []),
            "version": version,
        }
        if "defender_points" in entry:
            initial |= {"points_side": "defenders", "points": entry["defender_points"]}
        else:
            initial |= {"points_side": "declarer", "points": entry.get("points")}
        return initial

    @staticmethod
    def picked(cards: list[str]) -> dict:
        """The picker's taps for one called card: the Joker, or its suit and rank."""
        if len(cards) != 1:
            return {}
        if cards[0] == JOKER:
            return {"call_pick": "joker"}
        return {"call_pick": suit_of(cards[0]), "call_rank": rank_of(cards[0])}

    def remembered_call(self, entry: dict) -> dict:
        """The picker as the last hand called, by role (Mighty stays Mighty when the trump changes)."""
        call = entry.get("partner_call", {})
        cards = call.get("cards", [])
        if call.get("type") != "card" or len(cards) != 1:
            return {}
        trump = entry.get("contract", {}).get("trump")
        for role, _label in self.fields["call_pick"].choices:
            if role in CALL_ROLES and self.role_card(role, trump) == cards[0]:
                return {"call_pick": role}
        return self.picked(cards)

    def add_problems(self, problems: list[Problem]) -> None:
        table = HAND_PROBLEM_FIELDS
        if self.calls_one_card:
            table = [(path, "call_pick" if name == "call_cards" else name) for path, name in table]
        add_problems(self, problems, table)


EVENT_PROBLEM_FIELDS = [("dealer", "dealer"), ("shown_by", "shown_by"), ("fine", "fine")]


class EventForm(forms.Form):
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

    def add_problems(self, problems: list[Problem]) -> None:
        add_problems(self, problems, EVENT_PROBLEM_FIELDS)
