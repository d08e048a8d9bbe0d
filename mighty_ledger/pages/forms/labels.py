"""How the forms write cards, trumps and calls, and how the engine's problems reach their fields.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from mighty_ledger.pages.korean import with_particles
from scoring.cards import (
    SUIT_SIGNS,
    card_text,
    trump_text,
)
from scoring.problems import Problem

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


def contract_label(entry: dict) -> str:
    """The contract a hand entry names, as the table says it: 15♦, 16 NT."""
    points = (entry or {}).get("contract", {})
    if not points:
        return ""
    trump = points.get("trump", "")
    # a suit sign sits against the number (15♦); the word for no trump needs a space (16 NT)
    gap = " " if trump == "NT" else ""
    return f"{points.get('points')}{gap}{trump_label(trump)}"


def partner_known(entry: dict) -> bool:
    """Whether the hand says who the partner was, or that the declarer played alone: a void or
    conceded hand may name no partner at all, which is not 'alone'."""
    return isinstance(entry.get("partners"), list) or (entry.get("partner_call") or {}).get("type") == "none"


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


def kept_over(stored: dict, entry: dict, owned) -> dict:
    """What an edit saves over ``stored``: ``entry`` (the form's fields, as tapped) and every field
    of ``stored`` the form does not own, as it was (the form never shows them, so it must not
    drop them: an outcome, a concession, a fine, a client's own fields)."""
    return {**{key: value for key, value in stored.items() if key not in owned}, **entry}


def add_problems(form: forms.Form, problems: list[Problem], table: list[tuple[str, str]]) -> None:
    """Put each engine problem beside its field; the rest go above the form.

    Form errors keep only plain strings, so each problem is translated as it is added."""
    for problem in problems:
        name = problem_field(problem.field, table)
        form.add_error(name if name in form.fields else None, engine_words(problem.message))


def set_aside_missing(form: forms.Form) -> list[str]:
    """While a form is half filled (a live preview), the labels of the fields still empty, taken
    out of its errors: the player is told what is missing instead of seeing every blank flagged."""
    missing = []
    for name, errors in list(form.errors.as_data().items()):
        if name in form.fields and all(error.code == "required" for error in errors):
            missing.append(str(form.fields[name].label))
            del form.errors[name]
    return missing
