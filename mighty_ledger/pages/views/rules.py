"""The public rules pages: every preset in words, two presets compared, and the redeal calculator.

The words come from ``scoring.describe`` and the verdicts from ``scoring``'s
HAND_JSON boundary; these views only pick the preset, translate and render.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext

from mighty_ledger.pages.preset_names import preset_name
from scoring.cards import JOKER, SUITS, card_text, suit_of
from scoring.describe import compare, describe, option_label
from scoring.interface import redeal_request
from scoring.presets import all_presets, get_preset
from scoring.problems import InvalidInput
from scoring.redeal import COUNTING_CRITERIA, amount, criterion_words, deal_miss_summary
from scoring.systems import Preset, System


def _preset_or_404(slug: str | None) -> Preset:
    try:
        return get_preset(slug)
    except InvalidInput:
        raise Http404(gettext("There is no scoring system with that name.")) from None


def _presets() -> list[dict]:
    return [{"slug": p.slug, "name": preset_name(p), "players": p.system().players} for p in all_presets()]


def _words(words) -> str:
    return words.translated(gettext)


def percent_said(chance: Fraction) -> str:
    """A probability as a percentage to two significant figures, as a person reads it out:
    4.3, 0.42, 25 (never 4.285 nor 0.04285714285714286)."""
    percent = chance * 100
    if percent <= 0:
        return "0"
    magnitude = math.floor(math.log10(percent))
    # rounded exactly (a float rounds 0.995 down); 9.96 rounds up to 10, said as 10, not 10.0
    if round(percent, 1 - magnitude) >= 10 ** (magnitude + 1):
        magnitude += 1
    digits = max(0, 1 - magnitude)
    return f"{float(round(percent, digits)):.{digits}f}"


def _chance(chance: Fraction) -> dict:
    """A probability as players say it, "1 in 23 (4.3%)", and exactly, for whoever points at it."""
    return {
        "percent": percent_said(chance),
        "one_in": f"{round(1 / chance):,}" if chance else None,
        "exact": f"{chance.numerator}/{chance.denominator}",
    }


def _odds(system: System) -> dict:
    summary = deal_miss_summary(system)
    return {
        "any": _chance(summary.chance),
        "criteria": [{"rule": _words(c.rule), "chance": _chance(c.chance)} for c in summary.criteria],
    }


# --- the systems list and one system in words ---------------------------------------------


def systems_list(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/systems_list.html", {"presets": _presets()})


def system_sections(system) -> list[dict]:
    """A system in words, in the reader's language: titled sections of sentences."""
    return [
        {"title": _words(section.title), "lines": [_words(line) for line in section.lines]}
        for section in describe(system)
    ]


def system_differences(left, right) -> list[dict]:
    """Every option where two systems differ, in the reader's language."""
    return [
        {
            "path": d.path,
            "label": _words(option_label(d.path)),
            "left": _words(d.left_words),
            "right": _words(d.right_words),
        }
        for d in compare(left, right)
    ]


def deal_miss_odds(system) -> dict | None:
    return _odds(system) if system.deal_miss.criteria else None


def system_detail(request: HttpRequest, slug: str) -> HttpResponse:
    preset = _preset_or_404(slug)
    system = preset.system()
    context = {
        "preset": preset,
        "name": preset_name(preset),
        "sections": system_sections(system),
        "odds": deal_miss_odds(system),
        # the preset's own notes are written in English by the catalog's authors
        "notes_in_english": not get_language().startswith("en"),
    }
    return render(request, "rules/system_detail.html", context)


# --- two systems side by side --------------------------------------------------------------


def systems_compare(request: HttpRequest) -> HttpResponse:
    left = _preset_or_404(request.GET.get("a") or "pagat-standard")
    right = _preset_or_404(request.GET.get("b") or "hard-score")
    differences = system_differences(left.system(), right.system())
    context = {
        "presets": _presets(),
        "left": {"slug": left.slug, "name": preset_name(left)},
        "right": {"slug": right.slug, "name": preset_name(right)},
        "differences": differences,
    }
    if request.htmx:
        return render(request, "partials/system_comparison.html", context)
    return render(request, "rules/compare.html", context)


# --- the redeal calculator -----------------------------------------------------------------


@dataclass(frozen=True)
class CardBox:
    """One checkbox of the card grid: a card, or one copy of it in a double deck."""

    code: str
    label: str
    red: bool
    checked: bool
    id: str


def card_label(code: str) -> str:
    """♠A, ♥10, or the Joker in the reader's language (scoring.cards writes every card)."""
    return _words(card_text(code)) if code == JOKER else card_text(code)


def _card_grid(system: System, hand: list[str]) -> list[list[CardBox]]:
    """The deck by suit, the Jokers last; a double deck shows each card twice."""
    rows: dict[str, list[CardBox]] = {suit: [] for suit in (*SUITS, JOKER)}
    for code, copies in system.deck_cards.cards:
        row = JOKER if code == JOKER else suit_of(code)
        for copy in range(copies):
            rows[row].append(
                CardBox(
                    code,
                    card_label(code),
                    row in ("H", "D"),
                    copy < hand.count(code),
                    f"card-{code}-{copy}",
                )
            )
    return [row for row in rows.values() if row]


def _criterion(verdict: dict, system: System) -> dict:
    counting = verdict["id"] in COUNTING_CRITERIA
    return {
        "rule": _words(criterion_words(verdict["id"], system)),
        "qualifies": verdict["qualifies"],
        "counting": counting,
        "value": amount(Fraction(verdict["value"])),
        "cards": [
            {"label": card_label(code), "red": code != JOKER and suit_of(code) in ("H", "D")}
            for code in verdict["cards"]
        ],
        # an engine sentence: the template's |words filter shows it in the reader's language
        "reason": verdict["reason"],
    }


def redeal_verdict(system: System, slug: str, hand: list[str], overrides: dict | None = None) -> dict:
    """What the calculator shows: the verdict once the hand has its full size, and the odds."""
    dealt = system.deck_cards.dealt
    result = {"dealt": dealt, "chosen": len(hand), "verdict": None, "problems": []}
    if len(hand) != dealt:
        return result
    try:
        response = redeal_request({"system": slug, "options": overrides or {}, "hand": hand})
    except InvalidInput as error:
        result["problems"] = [problem.message for problem in error.problems]
        return result
    result["verdict"] = {
        "qualifies": response["qualifies"],
        "criteria": [_criterion(verdict, system) for verdict in response["criteria"]],
    }
    return result


def redeal_page(request: HttpRequest, *, default_slug: str, calculator_url: str, board: dict | None = None,
                overrides: dict | None = None) -> HttpResponse:
    """The calculator for the system asked for (``default_slug`` when none is), at
    ``calculator_url``; ``board`` (its "url") is the board it was opened from, to go back to, and
    ``overrides`` what that session changed of ``default_slug`` (its deal-miss rules among them)."""
    preset = _preset_or_404(request.GET.get("system") or default_slug)
    overrides = (overrides or {}) if preset.slug == default_slug else {}
    try:
        system = preset.system(overrides)
    except InvalidInput:  # a session's changes the preset no longer takes: the preset as it is
        overrides = {}
        system = preset.system()
    hand = [code for code in request.GET.getlist("card") if system.deck_cards.holds(code)]
    context = {
        "presets": _presets(),
        "preset": preset,
        "name": preset_name(preset),
        "grid": _card_grid(system, hand),
        "result": redeal_verdict(system, preset.slug, hand, overrides),
        "odds": _odds(system) if system.deal_miss.criteria else None,
        "calculator_url": calculator_url,
        "board": board,
        "changed": bool(overrides),  # the session's own rules, not the preset's alone
    }
    if request.htmx and request.htmx.target == "redeal-verdict":
        return render(request, "partials/redeal_verdict.html", context)
    if request.htmx:
        return render(request, "partials/redeal_calculator.html", context)
    return render(request, "rules/redeal.html", context)


def redeal(request: HttpRequest) -> HttpResponse:
    return redeal_page(request, default_slug="pagat-standard", calculator_url=reverse("redeal"))
