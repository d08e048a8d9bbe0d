"""The forms as a phone shows them: only the fields the rules ask for, each problem under its own field."""

from __future__ import annotations

from django.urls import reverse

from mighty_ledger.forms import EventForm
from mighty_ledger.models import Group
from scoring.presets import resolve_system

SEATS = ["Ann", "Bo", "Cy", "Di", "Ed"]


def test_a_too_long_player_name_is_flagged_under_the_players_not_the_group_name(client, db):
    long_name = "B" * 41

    response = client.post(reverse("group_create"), {"name": "Thursday", "player_names": f"Ann\n{long_name}"})

    errors = response.context["form"].errors
    assert "name" not in errors
    assert errors["player_names"] == [
        f"“{long_name}” is too long: a player's name can be at most 40 characters."
    ]
    assert not Group.objects.exists()


def test_the_deal_miss_form_asks_for_a_fine_only_when_the_rules_have_one():
    without_fine = EventForm(seats=SEATS, system=resolve_system("pagat-standard"))
    with_fine = EventForm(seats=SEATS, system=resolve_system("pagat-standard", {"deal_miss": {"fine": 5}}))

    assert "fine" not in without_fine.fields
    assert with_fine.fields["fine"].initial == 5
