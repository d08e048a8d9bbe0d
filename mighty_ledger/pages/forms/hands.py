"""A hand as a player taps it, turned into HAND_JSON and back (a deal miss or an all-pass: events.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext_lazy as _

from mighty_ledger.pages.forms.labels import (
    ALONE,
    CALL_LABELS,
    CALL_ROLES,
    TRUMP_CHOICES,
    add_problems,
    card_label,
    kept_over,
)
from mighty_ledger.pages.forms.meant import MeantHand
from scoring.cards import (
    JOKER,
    RANKS,
    SUIT_SIGNS,
    SUITS,
    card_sort_key,
    mighty,
    rank_of,
    ripper,
    suit_of,
)
from scoring.flow import dealer_sits_out
from scoring.problems import InvalidInput, Problem
from scoring.systems import System

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

# the HAND_JSON fields the hand form asks, writes or takes away; an edit keeps every other one
# (an outcome, a concession, a client's own fields) as the hand had it
HAND_FORM_FIELDS = ("dealer", "declarer", "contract", "bid", "partner_call", "partners", "sitting_out",
                    "discards", "points", "defender_points")


@dataclass(frozen=True)
class CardChoice:
    """One card of a picker: its input and its suit (for the red and black)."""

    widget: object
    suit: str


class HandForm(MeantHand):
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
    # the hand in progress this form completes (opened from its "complete" button)
    in_progress = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(self, *args, seats: list[str], system: System, **kwargs):
        super().__init__(*args, **kwargs)
        self.system = system
        # what the last hand called ({"call_pick": "mighty"}): marked on the picker, never pre-set
        self.suggested: dict = {}
        seat_choices = [(seat, seat) for seat in seats]
        for name in ("dealer", "declarer", "call_seat", "sitting_out"):
            self.fields[name].choices = seat_choices
        top = system.total_points if system.bids_above_max else system.max_bid
        for name in ("contract_points", "bid_points"):
            self.fields[name].widget.attrs.update({"min": system.min_bid, "max": top, "inputmode": "numeric"})
        self.fields["points"].widget.attrs.update({"max": system.total_points, "inputmode": "numeric"})
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
        ranks = {rank_of(card) for card in cards if card != JOKER}
        self.fields["call_rank"].choices = [(rank, rank) for rank in RANKS if rank in ranks]
        alone = [(ALONE, _("declarer alone"))]
        if system.called_cards > 1:
            self.fields["call_cards"].label = _("Called cards (two)")
            self.fields["partners"] = forms.MultipleChoiceField(
                label=_("Partners"), choices=seat_choices + alone, widget=forms.CheckboxSelectMultiple,
                required=False, help_text=_("Tap “declarer alone” when the declarer held the called cards or they were buried."),
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
    def dealer_sits_out(self) -> bool:
        """The seat that deals sits the hand out: the ticked seat follows the dealer on the page."""
        return dealer_sits_out(self.system)

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
        if cleaned.get("call_type") in ("card", "first_trick"):
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
        """A card was called (or the first trick) but no partner tapped: ask, rather than save a
        solo nobody chose. "Declarer alone" is a tap of its own, never what an empty row means."""
        if "partners" in self.errors:
            return
        partners = cleaned.get("partners")
        partners = list(partners) if isinstance(partners, list) else ([partners] if partners else [])
        declarer = cleaned.get("declarer") or _("the declarer")
        if ALONE in partners and len(partners) > 1:
            self.add_error("partners", forms.ValidationError(
                _("Tap either “declarer alone” or the partners, not both."), code="invalid"))
        elif not partners and cleaned.get("call_type") == "first_trick":
            self.add_error("partners", forms.ValidationError(
                _("Who won the first trick? Tap the partner, or “declarer alone” if %(declarer)s won it.")
                % {"declarer": declarer}, code="required"))
        elif not partners:
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

    def entry_over(self, stored: dict) -> dict:
        """The entry an edit saves over ``stored``: what the form asks, as tapped, and every other
        field of the hand as it was (the form never shows them, so it must not drop them)."""
        owned = {*HAND_FORM_FIELDS, *(("joker_holder",) if "joker_holder" in self.fields else ())}
        return kept_over(stored, self.entry(), owned)

    @staticmethod
    def initial_from(entry: dict, version: int | None = None) -> dict:
        """Form values for an entry already saved (editing a hand)."""
        call = entry.get("partner_call", {})
        bid = entry.get("bid")
        # HAND_JSON: a hand may give its bid alone, which is then the contract played
        contract = entry.get("contract") or bid or {}
        if bid == contract:
            bid = None
        # "declarer alone" only when the entry said so: a contract still being played names nobody yet
        partners = (entry["partners"] or [ALONE]) if isinstance(entry.get("partners"), list) else []
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
        trump = (entry.get("contract") or entry.get("bid") or {}).get("trump")
        for role, _label in self.fields["call_pick"].choices:
            if role in CALL_ROLES and self.role_card(role, trump) == cards[0]:
                return {"call_pick": role}
        return self.picked(cards)

    def engine_answer(self, ask: Callable[[dict], dict]) -> dict | None:
        """What the engine says of this form's hand (a preview, an outlook), or None when the form
        is not filled in yet or the engine refuses the hand: its problems then go beside their fields."""
        if not self.is_valid():
            return None
        try:
            return ask(self.entry())
        except InvalidInput as error:
            self.add_problems(error.problems)
            return None

    def add_problems(self, problems: list[Problem]) -> None:
        table = HAND_PROBLEM_FIELDS
        if self.calls_one_card:
            table = [(path, "call_pick" if name == "call_cards" else name) for path, name in table]
        add_problems(self, problems, table)
