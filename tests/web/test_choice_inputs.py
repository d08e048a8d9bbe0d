"""Each choice of a form is drawn by ``choice_input`` exactly as Django's widget templates draw it,
on a fresh form and on one sent back with its taps."""

from __future__ import annotations

import pytest
from django.forms.widgets import CheckboxSelectMultiple, RadioSelect
from django.http import QueryDict

from mighty_ledger.pages.forms import HandForm
from mighty_ledger.pages.forms.nights import NightStartForm
from mighty_ledger.pages.templatetags.choices import choice_input
from scoring.presets import resolve_system

SEATS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
SENT_BACK = ("dealer=Ed&sitting_out=Flo&declarer=Ann&contract_points=15&contract_trump=D&call_type=card"
             "&call_pick=AS&call_cards=AS&partners=Cy&points=16&discards=2C&discards=3C&discards=JK")


def _choices(form):
    for bound in form:
        if isinstance(bound.field.widget, RadioSelect | CheckboxSelectMultiple):
            yield from bound


def _hand_forms():
    system = resolve_system("pagat-standard")
    fresh = HandForm(seats=SEATS, system=system, initial={"dealer": "Ed", "sitting_out": ["Flo"]})
    sent_back = HandForm(QueryDict(SENT_BACK), seats=SEATS, system=system)
    sent_back.is_valid()
    return [fresh, sent_back]


def _night_forms():
    players = ["Ann", "Bo", "Cy", "Di", "Ed"]
    return [NightStartForm(players=players, initial={"players": ["Ann", "Bo"]}),
            NightStartForm(QueryDict("players=Ann&players=Bo&players=Zed&preset=pagat-standard"), players=players)]


@pytest.mark.parametrize("forms", [_hand_forms, _night_forms], ids=["hand form", "night form"])
@pytest.mark.parametrize("state", [0, 1], ids=["fresh", "sent back"])
def test_every_choice_is_drawn_as_djangos_widget_draws_it(forms, state):
    choices = list(_choices(forms()[state]))
    assert len(choices) > 10
    assert any(option.data["selected"] for option in choices), "some choice is ticked"
    for option in choices:
        assert choice_input(option) == option.tag()
